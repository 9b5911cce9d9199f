package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * PlainJavaLoad's loop over the worker's engine, without HBase: a thrift target on a port where
 * nothing listens, so every request is a counted error, paced and backed off so that the test
 * burns no CPU.
 */
class PlainJavaLoadTest {
  private static final Pattern LINE = Pattern.compile("plain-java: threads=(\\d+) seconds=(\\d+) requests=(\\d+)"
      + " throughput_rps=([0-9.]+) mean_us=([0-9.]+) uncorrected_mean_us=([0-9.]+) all=(\\d+) errors=(\\d+)");

  @Test
  void runsTheWorkersThreadsAndCountsTheWindowsRequestsAndErrors() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Properties properties = new Properties();
    properties.setProperty("grinder.threads", "2");
    properties.setProperty("hbaseload.target", "thrift");
    properties.setProperty("hbaseload.thrift.port", String.valueOf(closedPort));
    properties.setProperty("hbaseload.operations", "get:50,put:50");
    properties.setProperty("hbaseload.rate.per.thread", "100");
    properties.setProperty("hbaseload.value.size", "10");
    String line;
    try (WorkerProcess worker = WorkerProcess.start(properties, 0, 0)) {
      line = PlainJavaLoad.run(worker, 0, 1);
    }
    Matcher m = LINE.matcher(line);
    assertTrue(m.matches(), line);
    assertEquals("2", m.group(1));
    assertEquals("1", m.group(2));
    long requests = Long.parseLong(m.group(3));
    // Paced at 100/s, but a refused thread waits before reconnecting (ReconnectBackoff: 0, 50,
    // 100, 200, 400 ms): attempts at 0, 50, 150, 350 and 750 ms, 5 per thread in the 1 s window.
    assertTrue(requests >= 4 && requests <= 12, line);
    assertEquals(requests, Long.parseLong(m.group(8)), "every request failed: " + line);
    assertTrue(Long.parseLong(m.group(7)) >= requests, line);
  }
}
