package io.github.hbasegrindersuite.shim.it;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.ThriftClients;
import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ShimMain as its own process: ready line, SIGTERM drain and metrics file, start-up failures. */
class ShimProcessIT {

  private static Connection direct;
  private static TableName table;

  @BeforeAll
  static void start() throws Exception {
    direct = HBaseSupport.directConnection();
    table = HBaseSupport.createTable(direct, "process");
  }

  @AfterAll
  static void stop() throws Exception {
    HBaseSupport.dropTable(direct, table);
    direct.close();
  }

  private static Process launch(Path dir, String... settings) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-Xmx256m");
    cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.github.hbasegrindersuite.shim.ShimMain");
    cmd.add("shim.hbase.zookeeper.port=" + HBaseSupport.zkPort());
    Collections.addAll(cmd, settings);
    return new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile()).start();
  }

  private static List<String> lines(Path f) throws IOException {
    return Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : new ArrayList<>();
  }

  private static String lastLine(Path f) throws IOException {
    List<String> l = lines(f);
    return l.isEmpty() ? "" : l.get(l.size() - 1);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void sigtermFinishesCallsAndWritesMetrics(@TempDir Path dir) throws Exception {
    Path ready = dir.resolve("ready");
    Path metrics = dir.resolve("shim-metrics.prom");
    Process p = launch(dir, "shim.port=0", "shim.metrics.port=0", "shim.ready.file=" + ready,
        "shim.metrics.file=" + metrics);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(ready) && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertTrue(Files.exists(ready), "ready file; stderr: " + lines(dir.resolve("err.txt")));
      Properties r = new Properties();
      try (java.io.Reader in = Files.newBufferedReader(ready)) {
        r.load(in);
      }
      int port = Integer.parseInt(r.getProperty("port"));
      assertEquals(p.pid(), Long.parseLong(r.getProperty("pid")));
      // the ready file comes first, the ready line a moment later
      String readyLine = "thrift-shim ready: thrift 127.0.0.1:" + port;
      while (!lastLine(dir.resolve("out.txt")).startsWith(readyLine) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(lastLine(dir.resolve("out.txt")).startsWith(readyLine), lines(dir.resolve("out.txt")).toString());

      java.nio.ByteBuffer t = buf(table.getNameAsString());
      try (ThriftClients.Client c = ThriftClients.connect(port)) {
        c.api.put(t, new TPut(buf("p1"), Collections.singletonList(new TColumnValue(buf("f"), buf("q"), buf("v")))));
        for (int i = 0; i < 20; i++) {
          assertEquals(1, c.api.get(t, new TGet(buf("p1"))).getColumnValuesSize());
        }
      }
      // a client keeps calling while SIGTERM arrives: every call ends cleanly, none with an internal error
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      AtomicReference<Throwable> wrong = new AtomicReference<>();
      Thread hammer = new Thread(() -> {
        try (ThriftClients.Client c = ThriftClients.connect(port)) {
          while (!stop.get()) {
            try {
              c.api.get(t, new TGet(buf("p1")));
              ok.incrementAndGet();
            } catch (TIOError e) {
              if (!e.getMessage().startsWith("thrift-shim is shutting down")) {
                wrong.set(e);
              }
              refused.incrementAndGet();
            }
          }
        } catch (TTransportException e) {
          // the connection closed at the end of the drain: expected
        } catch (TApplicationException e) {
          wrong.set(e);
        } catch (Exception e) {
          wrong.set(e);
        }
      }, "hammer");
      hammer.start();
      Thread.sleep(500);
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "exited within 30 s of SIGTERM");
      stop.set(true);
      hammer.join(10_000);
      assertEquals(null, wrong.get());
      assertTrue(ok.get() > 0);
      assertEquals(143, p.exitValue(), "128 + SIGTERM after the shutdown hook ran");
      String text = Files.readString(metrics);
      assertTrue(text.contains("hbasegrinder_shim_call_seconds_count{operation=\"get\"}"), text);
      List<String> csv = Files.readAllLines(ShimMetrics.csvPathFor(metrics));
      long gets = csv.stream().filter(l -> l.startsWith("get,call,")).mapToLong(l -> Long.parseLong(l.split(",")[2])).sum();
      assertTrue(gets >= 20 + ok.get(), csv.toString());
      assertTrue(lines(dir.resolve("err.txt")).stream().anyMatch(l -> l.contains("stopped in")),
          "shutdown logged: " + lines(dir.resolve("err.txt")));
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void takenPortIsAOneLineError(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Process p = launch(dir, "shim.port=" + taken.getLocalPort(), "shim.metrics.port=-1");
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(1, p.exitValue());
      String last = lastLine(dir.resolve("err.txt"));
      assertTrue(last.startsWith("thrift-shim: cannot listen on 127.0.0.1:" + taken.getLocalPort()), last);
    }
  }

  @Test
  void unreachableHBaseIsAOneLineError(@TempDir Path dir) throws Exception {
    int nothing = freePort();
    Process p = launch(dir, "shim.port=0", "shim.metrics.port=-1", "shim.hbase.zookeeper.port=" + nothing,
        "shim.hbase.startup.timeout.ms=3000");
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, p.exitValue());
    String last = lastLine(dir.resolve("err.txt"));
    assertTrue(last.startsWith("thrift-shim: HBase not reachable at ZooKeeper 127.0.0.1:" + nothing), last);
  }

  @Test
  void badSettingIsAOneLineError(@TempDir Path dir) throws Exception {
    Process p = launch(dir, "shim.port=http");
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue());
    assertEquals(Collections.singletonList("thrift-shim: shim.port = 'http': not an integer"), lines(dir.resolve("err.txt")));
  }
}
