package io.github.hbasegrindersuite.shim;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The limits a hostile or careless client meets, against a stub HBase on real sockets: rows per
 * scanner call, the deadline for a request to arrive, the memory requests being read may hold,
 * and the number of distinct table names. Each is answered as documented, counted, and leaves
 * the shim serving.
 */
class ShimLimitsTest {

  private static final int MIB = 1 << 20;

  private final StubHBase hbase = new StubHBase();
  private ShimServer server;
  private ShimMetrics metrics;

  /** The server kind every test runs on unless it names one ({@code ShimServer*EventLoopTest}: eventloop). */
  String server() {
    return "threadpool";
  }

  private void start(String... settings) throws Exception {
    Map<String, String> s = new HashMap<>();
    s.put("shim.port", "0");
    s.put("shim.server", server());
    s.put("shim.metrics.port", "-1");
    for (int i = 0; i < settings.length; i += 2) {
      s.put(settings[i], settings[i + 1]);
    }
    ShimConfig config = ShimConfig.of(s);
    metrics = new ShimMetrics();
    Gate gate = new Gate(config.intValue(ShimConfig.Key.MAX_INFLIGHT));
    server = ShimServer.start(config, new ShimHandler(hbase.connection(), config, metrics, gate), gate, metrics);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private ThriftClients.Client client() throws Exception {
    return ThriftClients.connect(server.port(), server.config().transport(), server.config().protocol());
  }

  private static void assertServingOn(ThriftClients.Client c) throws Exception {
    assertTrue(c.api.get(buf("t"), new TGet(buf("row"))).getColumnValues().isEmpty());
    assertEquals(StubHBase.SCAN_ROWS, c.api.getScannerResults(buf("t"), new TScan(), 10).size());
  }

  private void assertServing() throws Exception {
    try (ThriftClients.Client c = client()) {
      assertServingOn(c);
    }
  }

  private static TPut putOf(int valueBytes) {
    return new TPut(buf("r"), Collections.singletonList(new TColumnValue(buf("f"), buf("q"), ByteBuffer.wrap(new byte[valueBytes]))));
  }

  // ------------------------------------------------------------------ rows per scanner call

  @Test
  void rowsPerScannerCallAreCappedBeforeAnythingIsSizedByThem() throws Exception {
    start("shim.max.scan.rows", "2");
    try (ThriftClients.Client c = client()) {
      TIOError e = assertThrows(TIOError.class, () -> c.api.getScannerResults(buf("t"), new TScan(), Integer.MAX_VALUE));
      assertEquals("invalid request: numRows=2147483647 exceeds shim.max.scan.rows=2: ask for at most that many rows"
          + " per call", e.getMessage());
      assertFalse(e.isCanRetry());
      assertEquals(2, c.api.getScannerResults(buf("t"), new TScan(), 2).size(), "the cap itself is allowed");
      int id = c.api.openScanner(buf("t"), new TScan());
      e = assertThrows(TIOError.class, () -> c.api.getScannerRows(id, 3));
      assertTrue(e.getMessage().contains("numRows=3 exceeds shim.max.scan.rows=2"), e.getMessage());
      e = assertThrows(TIOError.class, () -> c.api.getScannerRows(id, -1));
      assertEquals("invalid request: numRows must not be negative: -1", e.getMessage());
      assertEquals(2, c.api.getScannerRows(id, 2).size());
      assertEquals(1, c.api.getScannerRows(id, 2).size(), "the scanner went on where it was");
      c.api.closeScanner(id);
    }
    assertEquals(1, metrics.errors(Op.GET_SCANNER_RESULTS, ErrorKind.INVALID_REQUEST));
    assertEquals(2, metrics.errors(Op.GET_SCANNER_ROWS, ErrorKind.INVALID_REQUEST));
  }

  // ------------------------------------------------------------------ request deadline

  @ParameterizedTest
  @ValueSource(strings = {"buffered", "framed"})
  void aSlowDripIsClosedAtTheRequestDeadline(String transport) throws Exception {
    start("shim.transport", transport, "shim.request.read.timeout.ms", "600", "shim.idle.timeout.ms", "60000");
    byte[] request = HostileClients.getRequest(buf("t"));
    if (transport.equals("framed")) {
      request = HostileClients.framed(request);
    }
    try (ThriftClients.Client other = client();
        HostileClients.SlowDrip drip = new HostileClients.SlowDrip(server.port(), request, 100)) {
      assertServingOn(other);
      long closedAfter = drip.awaitClosed(5000);
      assertTrue(closedAfter >= 500 && closedAfter < 2500, "closed after " + closedAfter + " ms; deadline 600 ms");
      assertTrue(drip.sent() < request.length, "closed before the request was complete (" + drip.sent() + " bytes)");
      assertServingOn(other);
    }
    assertEquals(1, metrics.connectionsClosed(CloseReason.REQUEST_TIMEOUT));
  }

  @Test
  void betweenRequestsOnlyTheIdleTimeoutApplies() throws Exception {
    start("shim.request.read.timeout.ms", "300", "shim.idle.timeout.ms", "60000");
    try (ThriftClients.Client c = client()) {
      assertServingOn(c);
      Thread.sleep(800); // idle between requests, beyond the request deadline
      assertServingOn(c);
    }
    assertEquals(0, metrics.connectionsClosed(CloseReason.REQUEST_TIMEOUT));
  }

  @Test
  void aConnectionThatSendsNothingIsClosedAtTheRequestDeadline() throws Exception {
    start("shim.request.read.timeout.ms", "400", "shim.idle.timeout.ms", "60000");
    try (HostileClients.Stalled idle = HostileClients.stall(server.port(), 20, new byte[0])) {
      awaitOpenConnections(20);
      long start = System.nanoTime();
      awaitOpenConnections(0);
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs < 1500, "closed after " + tookMs + " ms; deadline 400 ms");
      assertEquals(20, idle.closedByServer());
    }
    assertServing();
    assertEquals(20, metrics.connectionsClosed(CloseReason.NO_REQUEST));
    assertEquals(0, metrics.connectionsClosed(CloseReason.REQUEST_TIMEOUT));
  }

  @Test
  void anIdleConnectionIsClosedAtTheIdleTimeoutAndCountedAsIdle() throws Exception {
    start("shim.request.read.timeout.ms", "200", "shim.idle.timeout.ms", "600");
    try (ThriftClients.Client c = client()) {
      assertServingOn(c);
      awaitOpenConnections(0);
    }
    assertEquals(1, metrics.connectionsClosed(CloseReason.IDLE_TIMEOUT));
    assertEquals(0, metrics.connectionsClosed(CloseReason.REQUEST_TIMEOUT) + metrics.connectionsClosed(CloseReason.NO_REQUEST));
  }

  // ------------------------------------------------------------------ room at the connection limit

  /** One byte of a request from each of {@code count} connections, then nothing. */
  private HostileClients.Stalled halfSent(int count) throws Exception {
    int before = server.openConnections();
    HostileClients.Stalled s = HostileClients.stall(server.port(), count, new byte[] {(byte) 0x80});
    awaitOpenConnections(before + count);
    return s;
  }

  @Test
  void aHalfSentRequestMakesRoomForANewClientAtTheLimit() throws Exception {
    start("shim.max.connections", "4", "shim.evict.after.ms", "300", "shim.request.read.timeout.ms", "60000");
    try (HostileClients.Stalled held = halfSent(4)) {
      long start = System.nanoTime();
      assertServing();
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs < 3000, "served after " + tookMs + " ms");
      assertEquals(1, held.closedByServer());
      assertEquals(1, metrics.connectionsClosed(CloseReason.EVICTED_STALLED));
    }
    assertEquals(0, metrics.connectionsRejected.sum());
  }

  @Test
  void aClientBetweenRequestsKeepsItsConnectionWhileHalfSentOnesMakeRoom() throws Exception {
    start("shim.max.connections", "3", "shim.evict.after.ms", "100", "shim.request.read.timeout.ms", "60000");
    try (ThriftClients.Client pooled = client()) {
      assertServingOn(pooled);
      try (HostileClients.Stalled held = halfSent(2);
          ThriftClients.Client a = client(); ThriftClients.Client b = client()) {
        // each new client, kept open, took the slot of a half-sent request, not the idle client's
        assertServingOn(a);
        assertServingOn(b);
        assertServingOn(pooled);
        assertEquals(2, held.closedByServer());
      }
      assertServingOn(pooled);
    }
    assertEquals(2, metrics.connectionsClosed(CloseReason.EVICTED_STALLED));
    assertEquals(0, metrics.connectionsClosed(CloseReason.EVICTED_IDLE));
  }

  @Test
  void withNoneStalledTheLongestIdleConnectionMakesRoom() throws Exception {
    start("shim.max.connections", "2", "shim.evict.after.ms", "200");
    try (ThriftClients.Client first = client(); ThriftClients.Client second = client()) {
      assertServingOn(first);
      // the server marks a connection idle just after its answer has gone out: wait for it, so
      // that the first has been idle longer than the second (on a busy machine it can lag)
      awaitIdleConnections(1);
      assertServingOn(second);
      awaitIdleConnections(2);
      assertServing(); // waits until the first has idled 200 ms, which then makes room
      assertServingOn(second);
      assertThrows(org.apache.thrift.transport.TTransportException.class, () -> assertServingOn(first));
    }
    assertEquals(1, metrics.connectionsClosed(CloseReason.EVICTED_IDLE));
  }

  private void awaitIdleConnections(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (server.idleConnections() != n && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertEquals(n, server.idleConnections());
  }

  private void awaitOpenConnections(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (server.openConnections() != n && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(n, server.openConnections());
  }

  @Test
  void aLargeRequestArrivingSteadilyWithinTheDeadlineIsServed() throws Exception {
    start("shim.request.read.timeout.ms", "2000");
    try (ThriftClients.Client c = client()) {
      c.api.put(buf("t"), putOf(4 * MIB));
    }
    assertEquals(1, hbase.puts.get());
  }

  // ------------------------------------------------------------------ request memory

  /** Attackers holding most of the budget: a large request is refused (retry later), small ones pass. */
  @ParameterizedTest
  @ValueSource(strings = {"buffered", "framed"})
  void requestMemoryRefusesWhatItCannotHoldAndRecovers(String transport) throws Exception {
    start("shim.transport", transport, "shim.max.frame.bytes", Integer.toString(MIB),
        "shim.max.request.memory.bytes", Integer.toString(2 * MIB));
    // each sends 900 KiB of a 1 MiB request, then nothing: its buffer has grown to hold them
    byte[] start = HostileClients.putAnnouncingRow(MIB - 200);
    byte[] sent = new byte[start.length + 900 * 1024];
    System.arraycopy(start, 0, sent, 0, start.length);
    if (transport.equals("framed")) {
      sent = HostileClients.framed(MIB - 100, sent);
    }
    try (HostileClients.Stalled attackers = HostileClients.stall(server.port(), 2, sent)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (server.requestMemoryUsed() < MIB && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(server.requestMemoryUsed() > MIB, "the attackers hold " + server.requestMemoryUsed());
      try (ThriftClients.Client c = client()) {
        TApplicationException e = assertThrows(TApplicationException.class, () -> c.api.put(buf("t"), putOf(600 * 1024)));
        assertEquals(TApplicationException.INTERNAL_ERROR, e.getType());
        assertTrue(e.getMessage().startsWith("thrift-shim busy: requests being read already hold "), e.getMessage());
        assertTrue(e.getMessage().endsWith("(shim.max.request.memory.bytes); retry later"), e.getMessage());
      }
      assertServing(); // small requests live on their connection's free 64 KiB
      assertTrue(server.requestMemoryUsed() <= 2 * MIB);
    }
    awaitRequestMemoryFree();
    try (ThriftClients.Client c = client()) {
      c.api.put(buf("t"), putOf(600 * 1024));
    }
    assertEquals(1, hbase.puts.get());
    assertEquals(1, metrics.requestsRefusedForMemory.sum());
  }

  /**
   * A request of many tiny values decodes to hundreds of times its size: one that would need
   * more than the whole budget is refused for good, before it is decoded.
   */
  @ParameterizedTest
  @ValueSource(strings = {"buffered,binary", "framed,compact"})
  void aRequestTooLargeForTheWholeBudgetIsRefused(String choice) throws Exception {
    String[] c2 = choice.split(",");
    start("shim.transport", c2[0], "shim.protocol", c2[1], "shim.max.frame.bytes", Integer.toString(MIB),
        "shim.max.request.memory.bytes", Integer.toString(2 * MIB));
    List<TPut> puts = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      puts.add(new TPut(buf("r"), Collections.singletonList(new TColumnValue(buf("f"), buf(""), buf("")))));
    }
    try (ThriftClients.Client c = client()) {
      TApplicationException e = assertThrows(TApplicationException.class, () -> c.api.putMultiple(buf("t"), puts));
      assertEquals(TApplicationException.PROTOCOL_ERROR, e.getType());
      assertEquals("thrift-shim: the request needs more than shim.max.request.memory.bytes=" + 2 * MIB
          + " bytes to be read and decoded", e.getMessage());
      if (c2[0].equals("framed")) {
        assertServingOn(c); // the rest of the frame is skipped: the connection goes on
      }
    }
    assertServing();
    assertEquals(0, hbase.puts.get());
    awaitRequestMemoryFree();
  }

  private void awaitRequestMemoryFree() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (server.requestMemoryUsed() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(0, server.requestMemoryUsed(), "every request's memory is back once it has ended");
  }

  // ------------------------------------------------------------------ table names

  @Test
  void distinctTableNamesAreBounded() throws Exception {
    start("shim.max.table.names", "3");
    try (ThriftClients.Client c = client()) {
      for (String t : new String[] {"t1", "t2", "t3", "t1"}) {
        assertTrue(c.api.get(buf(t), new TGet(buf("r"))).getColumnValues().isEmpty());
      }
      TIOError e = assertThrows(TIOError.class, () -> c.api.get(buf("t4"), new TGet(buf("r"))));
      assertTrue(e.getMessage().startsWith("thrift-shim has already seen 3 distinct table names (shim.max.table.names)"),
          e.getMessage());
      assertFalse(e.isCanRetry());
      assertTrue(c.api.get(buf("t2"), new TGet(buf("r"))).getColumnValues().isEmpty(), "names already seen work");
      e = assertThrows(TIOError.class, () -> c.api.get(ByteBuffer.wrap(new byte[600]), new TGet(buf("r"))));
      assertTrue(e.getMessage().startsWith("invalid request: table name of 600 bytes"), e.getMessage());
    }
    assertEquals(1, metrics.errors(Op.GET, ErrorKind.TOO_MANY_TABLE_NAMES));
  }
}
