package io.github.hbasegrindersuite.shim;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hostile clients against a shim running as a process of its own with a small heap: garbage,
 * requests announcing far more than the heap and sending nothing, a slow drip, numRows = 2^31-1,
 * hundreds of idle connections. During and after each attack a well-behaved client gets correct
 * answers, and the process never runs out of memory (it would exit: -XX:+ExitOnOutOfMemoryError).
 * A subclass chooses the transport and the process: the server over a stub HBase (unit tests) or
 * ShimMain over a real one (integration tests).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HostileInputProcessTestBase {

  public static final int MAX_CONNECTIONS = 64;
  public static final long REQUEST_TIMEOUT_MS = 3000;
  /** How long a connection waits for bytes before it may make room at the connection limit. */
  public static final long EVICT_AFTER_MS = 200;
  private static final String REQUEST_TIMEOUTS = "hbasegrinder_shim_connections_closed_total{reason=\"request_timeout\"}";
  /** 40 clients announcing this much each: 600 MiB, several times the heap. */
  public static final int ANNOUNCED = 15 << 20;
  /** The memory requests being read may hold: twice the (default) 16 MiB frame limit. */
  public static final int REQUEST_MEMORY = 32 << 20;

  private Process shim;
  private Path dir;
  private int port;
  private int metricsPort;

  protected abstract ShimConfig.Transport transport();

  /** The JVM's heap, e.g. "96m". */
  protected abstract String heap();

  /** Main class and arguments of the process; the shim.* settings of the attacks follow them. */
  protected abstract List<String> mainAndArguments();

  /** The table the well-behaved client reads. */
  protected abstract ByteBuffer table();

  /** Rows "row0", "row1", ... in {@link #table()} (at most 10, all that a scan of 10 returns). */
  protected abstract int rowsInTable();

  /** Columns of row "row0" in {@link #table()}. */
  protected abstract int columnsOfRow0();

  @BeforeAll
  public void startShim() throws Exception {
    dir = Files.createTempDirectory("hostile-shim");
    Path readyFile = dir.resolve("ready");
    List<String> cmd = new ArrayList<>(Arrays.asList(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx" + heap(), "-XX:+ExitOnOutOfMemoryError", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path")));
    cmd.addAll(mainAndArguments());
    cmd.addAll(Arrays.asList("shim.port=0", "shim.metrics.port=0", "shim.ready.file=" + readyFile,
        "shim.transport=" + transport().name().toLowerCase(java.util.Locale.ROOT),
        "shim.max.connections=" + MAX_CONNECTIONS,
        "shim.request.read.timeout.ms=" + REQUEST_TIMEOUT_MS,
        "shim.evict.after.ms=" + EVICT_AFTER_MS,
        "shim.idle.timeout.ms=60000",
        "shim.max.request.memory.bytes=" + REQUEST_MEMORY));
    shim = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(readyFile) && shim.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(Files.exists(readyFile), "not ready: " + stderr());
    java.util.Properties ready = new java.util.Properties();
    try (java.io.Reader r = Files.newBufferedReader(readyFile)) {
      ready.load(r);
    }
    port = Integer.parseInt(ready.getProperty("port"));
    metricsPort = Integer.parseInt(ready.getProperty("metrics_port"));
  }

  @AfterAll
  public void stopShim() throws Exception {
    if (shim != null) {
      shim.getOutputStream().close(); // the stub ends with its stdin
      shim.destroy(); // ShimMain ends on SIGTERM
      if (!shim.waitFor(30, TimeUnit.SECONDS)) {
        shim.destroyForcibly();
      }
    }
    if (dir != null) {
      try (java.util.stream.Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
  }

  /** After every attack: the process is alive, never ran out of memory, and serves. */
  @AfterEach
  public void stillHealthy() throws Exception {
    assertTrue(shim.isAlive(), "the shim process died: " + stderr());
    assertFalse(stderr().contains("OutOfMemoryError"), stderr());
    assertServesCorrectly();
  }

  private String stderr() {
    try {
      return Files.readString(dir.resolve("err.txt"));
    } catch (IOException e) {
      return "(no stderr: " + e + ")";
    }
  }

  private ThriftClients.Client client() throws Exception {
    return ThriftClients.connect(port, transport(), ShimConfig.Protocol.BINARY);
  }

  /** A well-behaved client on a new connection: a get and a scan, with the table's contents. */
  private void assertServesCorrectly() throws Exception {
    try (ThriftClients.Client c = client()) {
      assertServesCorrectlyOn(c);
    }
  }

  private void assertServesCorrectlyOn(ThriftClients.Client c) throws Exception {
    TResult r = c.api.get(table(), new TGet(buf("row0")));
    assertEquals(columnsOfRow0(), r.getColumnValuesSize());
    List<TResult> rows = c.api.getScannerResults(table(), new TScan(), 10);
    assertEquals(rowsInTable(), rows.size());
    assertEquals("row0", ThriftClients.str(rows.get(0).bufferForRow()));
  }

  private long metric(String name) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    for (String line : r.body().split("\n")) {
      if (line.startsWith(name + " ")) {
        return (long) Double.parseDouble(line.substring(name.length() + 1).trim()); // the client writes counters as doubles
      }
    }
    throw new AssertionError("no " + name + " in /metrics");
  }

  @Test
  public void garbageClosesItsConnection() throws Exception {
    for (byte[] junk : Arrays.asList("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        new byte[] {(byte) 0x80, 0x01, 0x00, 0x01, 0x7f, 0x7f, 0x7f, 0x7f}, new byte[] {(byte) 0xff, 1, 2, 3, 4, 5, 6, 7},
        new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff})) {
      ThriftClients.Exchange x = ThriftClients.raw(port, junk);
      assertTrue(x.closedByServer, "garbage closes the connection");
      assertServesCorrectly();
    }
  }

  /** Requests announcing 600 MiB in all and sending none of it: nothing is allocated for them. */
  @Test
  public void announcedSizesHoldNoMemory() throws Exception {
    byte[] bigRow = HostileClients.putAnnouncingRow(ANNOUNCED);
    byte[] bigList = HostileClients.putMultipleAnnouncingList(ANNOUNCED);
    if (transport() == ShimConfig.Transport.FRAMED) {
      bigRow = HostileClients.framed(ANNOUNCED + 64, bigRow);
      bigList = HostileClients.framed(ANNOUNCED + 64, bigList);
    }
    try (ThriftClients.Client during = client();
        HostileClients.Stalled rows = HostileClients.stall(port, 20, bigRow);
        HostileClients.Stalled lists = HostileClients.stall(port, 20, bigList)) {
      // every attacker's announcement has arrived and is being read: 40 connections reading a request
      String reading = "hbasegrinder_shim_connections{phase=\"reading\"}";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (metric(reading) < 40 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(40, metric(reading), "the 40 announcements are requests being read");
      assertServesCorrectlyOn(during);
      assertServesCorrectly();
      assertEquals(0, metric("hbasegrinder_shim_request_memory_bytes"),
          "announced bytes are not charged: only what arrived (16 KiB each, within the free 64 KiB)");
      assertEquals(0, rows.closedByServer() + lists.closedByServer(), "still waiting for their bytes");
    }
  }

  @Test
  public void slowDripIsCutOffAtTheRequestDeadline() throws Exception {
    byte[] request = HostileClients.getRequest(table());
    if (transport() == ShimConfig.Transport.FRAMED) {
      request = HostileClients.framed(request);
    }
    long timeoutsBefore = metric(REQUEST_TIMEOUTS);
    try (ThriftClients.Client during = client();
        HostileClients.SlowDrip drip = new HostileClients.SlowDrip(port, request, 250)) {
      Thread.sleep(1000);
      assertServesCorrectlyOn(during); // the drip holds its own thread only
      long closedAfter = drip.awaitClosed(REQUEST_TIMEOUT_MS + 5000);
      assertTrue(closedAfter >= REQUEST_TIMEOUT_MS - 300 && closedAfter < REQUEST_TIMEOUT_MS + 3000,
          "closed " + closedAfter + " ms after the first byte; the deadline is " + REQUEST_TIMEOUT_MS);
      assertTrue(drip.sent() < request.length, "cut off before the request was complete: " + drip.sent());
      assertServesCorrectlyOn(during);
    }
    assertEquals(timeoutsBefore + 1, metric(REQUEST_TIMEOUTS));
  }

  @Test
  public void numRowsIsCappedBeforeAnythingIsSizedByIt() throws Exception {
    try (ThriftClients.Client c = client()) {
      TIOError e = assertThrows(TIOError.class, () -> c.api.getScannerResults(table(), new TScan(), Integer.MAX_VALUE));
      assertEquals("invalid request: numRows=2147483647 exceeds shim.max.scan.rows=10000: ask for at most that many"
          + " rows per call", e.getMessage());
      assertFalse(e.isCanRetry());
      int id = c.api.openScanner(table(), new TScan());
      e = assertThrows(TIOError.class, () -> c.api.getScannerRows(id, Integer.MAX_VALUE));
      assertTrue(e.getMessage().contains("exceeds shim.max.scan.rows=10000"), e.getMessage());
      assertEquals(rowsInTable(), c.api.getScannerRows(id, 10_000).size(), "the cap itself is allowed");
      c.api.closeScanner(id);
      assertServesCorrectlyOn(c); // the same connection goes on
    }
  }

  /**
   * Hundreds of connections opened and left unused: at most shim.max.connections held at once, a
   * client between requests keeps its connection, a new client is served while they hold every
   * slot (one of them makes room), and each is closed by the request deadline or to make room.
   */
  @Test
  public void idleConnectionsHoldTheirSlotsOnlyBriefly() throws Exception {
    try (ThriftClients.Client during = client()) {
      assertServesCorrectlyOn(during);
      long evictedBefore = metric("hbasegrinder_shim_connections_closed_total{reason=\"evicted_stalled\"}");
      try (HostileClients.Stalled idle = HostileClients.stall(port, 300, new byte[0])) {
        assertServesCorrectlyOn(during); // idle between requests: not closed to make room for them
        assertTrue(metric("hbasegrinder_shim_open_connections") <= MAX_CONNECTIONS, "bounded by shim.max.connections");
        assertServesCorrectly(); // a new client while every slot is held
        assertTrue(metric("hbasegrinder_shim_connections_closed_total{reason=\"evicted_stalled\"}") > evictedBefore,
            "connections that sent nothing made room");
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REQUEST_TIMEOUT_MS + 10_000);
        while (metric("hbasegrinder_shim_open_connections") > 1 && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertEquals(1, metric("hbasegrinder_shim_open_connections"),
            "connections without a request are closed after shim.request.read.timeout.ms");
        assertEquals(300, idle.closedByServer());
        assertServesCorrectly(); // a new client gets in while the attacker still holds its sockets
        assertServesCorrectlyOn(during);
      }
    }
  }
}
