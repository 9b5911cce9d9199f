package io.github.hbasegrindersuite.worker.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.Settings;
import java.net.ServerSocket;
import java.util.Map;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {

  @Test
  void waitsDoubleFromFiftyMillisecondsUpToOneSecondAndStopAfterASuccess() {
    final ReconnectBackoff b = new ReconnectBackoff(10_000);
    assertEquals(0, b.delayMs());
    final long[] expected = {50, 100, 200, 400, 800, 1000, 1000};
    for (long e : expected) {
      b.failed();
      assertEquals(e, b.delayMs());
    }
    for (int i = 0; i < 100; i++) {
      b.failed();
    }
    assertEquals(1000, b.delayMs(), "no overflow after many failures");
    b.succeeded();
    assertEquals(0, b.delayMs());
  }

  @Test
  void neverLongerThanTheCallsOwnTimeout() {
    final ReconnectBackoff b = new ReconnectBackoff(120);
    b.failed();
    b.failed();
    b.failed();
    assertEquals(120, b.delayMs());
  }

  /** A closed port: without the pause a thread tried thousands of times a second; with it, a handful. */
  @Test
  void aRefusingServerIsTriedAFewTimesASecondNotThousands() throws Exception {
    final int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    final Settings settings = Settings.load(Map.of("hbaseload.target", "thrift", "hbaseload.thrift.host", "127.0.0.1",
        "hbaseload.thrift.port", Integer.toString(port), "hbaseload.timeout.ms", "2000"));
    final ThriftTarget.Connector connector = new ThriftTarget.Connector(settings);
    int attempts = 0;
    final long start = System.nanoTime();
    while (System.nanoTime() - start < 1_500_000_000L && attempts < 100_000) {
      assertThrows(TTransportException.class, connector::service);
      attempts++;
    }
    // 0 + 50 + 100 + 200 + 400 + 800 ms: the sixth attempt starts at 750 ms, the seventh at 1550 ms.
    assertTrue(attempts >= 2 && attempts <= 6, attempts + " attempts in 1.5 s");
  }
}
