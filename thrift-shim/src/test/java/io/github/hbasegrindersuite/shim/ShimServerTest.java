package io.github.hbasegrindersuite.shim;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TIllegalArgument;
import org.apache.hadoop.hbase.thrift2.generated.TNamespaceDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TTableDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;
import org.apache.hadoop.hbase.thrift2.generated.TThriftServerType;
import org.apache.log4j.Logger;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shim's network side against a stub HBase (no HBase needed): every server choice serves
 * stock clients; overload, bad frames, garbage, unknown methods, unknown scanners and refused
 * admin calls get the documented answers, are counted, are not logged, and the shim keeps
 * serving; a drain lets calls in progress finish.
 */
class ShimServerTest {

  private final StubHBase hbase = new StubHBase();
  private ShimServer server;
  private ShimMetrics metrics;
  private Gate gate;
  private final ExecutorService pool = Executors.newCachedThreadPool();

  /** The server kind every test runs on unless it names one ({@code ShimServer*EventLoopTest}: eventloop). */
  String server() {
    return "threadpool";
  }

  private ShimServer start(String... settings) throws Exception {
    Map<String, String> s = new HashMap<>();
    s.put("shim.port", "0");
    s.put("shim.server", server());
    s.put("shim.metrics.port", "0");
    for (int i = 0; i < settings.length; i += 2) {
      s.put(settings[i], settings[i + 1]);
    }
    ShimConfig config = ShimConfig.of(s);
    metrics = new ShimMetrics();
    gate = new Gate(config.intValue(ShimConfig.Key.MAX_INFLIGHT));
    ShimHandler handler = new ShimHandler(hbase.connection(), config, metrics, gate);
    server = ShimServer.start(config, handler, gate, metrics);
    return server;
  }

  @AfterEach
  void stop() {
    CountDownLatch h = hbase.hold;
    if (h != null) {
      h.countDown();
    }
    if (server != null) {
      server.close();
    }
    pool.shutdownNow();
  }

  private ThriftClients.Client client() throws Exception {
    return ThriftClients.connect(server.port(), server.config().transport(), server.config().protocol());
  }

  private void assertServing() throws Exception {
    try (ThriftClients.Client c = client()) {
      TResult r = c.api.get(buf("t"), new TGet(buf("row")));
      assertTrue(r.getColumnValues().isEmpty());
    }
  }

  @ParameterizedTest
  @CsvSource({"threadpool,buffered,binary", "threadpool,buffered,compact", "threadpool,framed,binary",
      "threadpool,framed,compact", "nonblocking,framed,binary", "nonblocking,framed,compact",
      "eventloop,buffered,binary", "eventloop,buffered,compact", "eventloop,framed,binary", "eventloop,framed,compact"})
  void everyServerChoiceServesStockClients(String kind, String transport, String protocol) throws Exception {
    start("shim.server", kind, "shim.transport", transport, "shim.protocol", protocol);
    try (ThriftClients.Client c = client()) {
      for (int i = 0; i < 20; i++) {
        TResult r = c.api.get(buf("t"), new TGet(buf("row" + i)));
        assertFalse(r.isSetRow());
        c.api.put(buf("t"), new TPut(buf("row" + i), Arrays.asList(new TColumnValue(buf("f"), buf("q"), buf("v")))));
      }
      assertEquals(TThriftServerType.TWO, c.api.getThriftServerType());
      assertEquals("stub-cluster", c.api.getClusterId());
    }
    assertEquals(20, metrics.callSnapshot(Op.GET).count());
    assertEquals(20, metrics.hbaseSnapshot(Op.GET).count());
    assertEquals(20, metrics.callSnapshot(Op.PUT).count());
  }

  @Test
  void overloadIsAFastErrorNotAQueue() throws Exception {
    start("shim.max.inflight", "2");
    hbase.hold = new CountDownLatch(1);
    List<Future<TResult>> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      held.add(pool.submit(() -> {
        try (ThriftClients.Client c = client()) {
          return c.api.get(buf("t"), new TGet(buf("r")));
        }
      }));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (hbase.waiting.get() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(2, hbase.waiting.get(), "two calls in flight");
    try (ThriftClients.Client c = client()) {
      c.api.getThriftServerType(); // connected and warm
      long t0 = System.nanoTime();
      TIOError e = assertThrows(TIOError.class, () -> c.api.get(buf("t"), new TGet(buf("r"))));
      long tookMs = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(e.getMessage().startsWith("thrift-shim overloaded: 2 calls already in progress"), e.getMessage());
      assertTrue(e.isCanRetry());
      assertTrue(tookMs < 1000, "overload answer took " + tookMs + " ms");
      hbase.hold.countDown();
      for (Future<TResult> f : held) {
        assertTrue(f.get(10, TimeUnit.SECONDS).getColumnValues().isEmpty(), "held calls complete");
      }
      assertTrue(c.api.get(buf("t"), new TGet(buf("r"))).getColumnValues().isEmpty(), "served again");
    }
    assertEquals(1, metrics.errors(Op.GET, ErrorKind.OVERLOADED));
  }

  @Test
  void adminCallsAreRefusedByDefault() throws Exception {
    start();
    try (ThriftClients.Client c = client()) {
      List<org.junit.jupiter.api.function.Executable> calls = Arrays.asList(
          () -> c.api.createTable(new TTableDescriptor(new TTableName(buf("x"))), null),
          () -> c.api.deleteTable(new TTableName(buf("x"))),
          () -> c.api.disableTable(new TTableName(buf("x"))),
          () -> c.api.truncateTable(new TTableName(buf("x")), true),
          () -> c.api.createNamespace(new TNamespaceDescriptor("ns")),
          () -> c.api.deleteNamespace("ns"),
          () -> c.api.listNamespaces(),
          () -> c.api.tableExists(new TTableName(buf("x"))));
      for (org.junit.jupiter.api.function.Executable call : calls) {
        TIOError e = assertThrows(TIOError.class, call);
        assertTrue(e.getMessage().startsWith("thrift-shim does not allow "), e.getMessage());
        assertTrue(e.getMessage().contains("shim.admin.enabled=false"), e.getMessage());
        assertFalse(e.isCanRetry());
      }
      assertServingOn(c);
    }
    assertEquals(8, metrics.errors(ErrorKind.ADMIN_REFUSED));
  }

  private static void assertServingOn(ThriftClients.Client c) throws Exception {
    assertTrue(c.api.get(buf("t"), new TGet(buf("row"))).getColumnValues().isEmpty());
  }

  @Test
  void unknownMethodGetsAnErrorAndTheConnectionStaysUsable() throws Exception {
    start();
    byte[] call = ThriftClients.rawCall("dropEverything", 7);
    byte[] twice = new byte[call.length * 2];
    System.arraycopy(call, 0, twice, 0, call.length);
    System.arraycopy(call, 0, twice, call.length, call.length);
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(5000);
      s.getOutputStream().write(twice);
      org.apache.thrift.protocol.TBinaryProtocol p = new org.apache.thrift.protocol.TBinaryProtocol(
          new org.apache.thrift.transport.TIOStreamTransport(s.getInputStream()));
      for (int i = 0; i < 2; i++) {
        org.apache.thrift.protocol.TMessage m = p.readMessageBegin();
        assertEquals(org.apache.thrift.protocol.TMessageType.EXCEPTION, m.type);
        assertEquals(7, m.seqid);
        TApplicationException x = TApplicationException.readFrom(p);
        assertEquals(TApplicationException.UNKNOWN_METHOD, x.getType());
        assertTrue(x.getMessage().contains("no method 'dropEverything'"), x.getMessage());
      }
    }
    assertEquals(2, metrics.unknownMethods.sum());
    assertServing();
  }

  @ParameterizedTest
  @CsvSource({"threadpool,buffered", "threadpool,framed", "nonblocking,framed", "eventloop,buffered", "eventloop,framed"})
  void garbageClosesTheConnectionAndTheShimKeepsServing(String kind, String transport) throws Exception {
    start("shim.server", kind, "shim.transport", transport);
    for (String junk : new String[] {"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "\u0000\u0000\u0000\u0005hello",
        "\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff"}) {
      ThriftClients.Exchange x = ThriftClients.raw(server.port(), junk.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      assertTrue(x.closedByServer, "garbage closes the connection: " + junk);
      assertServing();
    }
    assertTrue(metrics.malformedRequests.sum() + ThriftLogCounter.count() > 0);
  }

  @ParameterizedTest
  @CsvSource({"threadpool,buffered,binary", "threadpool,buffered,compact", "threadpool,framed,binary",
      "nonblocking,framed,binary", "eventloop,buffered,binary", "eventloop,buffered,compact", "eventloop,framed,binary"})
  void oversizedRequestsAreRejectedClearly(String kind, String transport, String protocol) throws Exception {
    start("shim.server", kind, "shim.transport", transport, "shim.protocol", protocol, "shim.max.frame.bytes", "65536");
    byte[] big = new byte[200_000];
    try (ThriftClients.Client c = client()) {
      TApplicationException e = assertThrows(TApplicationException.class, () ->
          c.api.put(buf("t"), new TPut(buf("r"), Arrays.asList(new TColumnValue(buf("f"), buf("q"), ByteBuffer.wrap(big))))));
      assertEquals(TApplicationException.PROTOCOL_ERROR, e.getType());
      assertTrue(e.getMessage().contains("shim.max.frame.bytes=65536"), e.getMessage());
    }
    // just below the limit is fine
    try (ThriftClients.Client c = client()) {
      c.api.put(buf("t"), new TPut(buf("r"), Arrays.asList(new TColumnValue(buf("f"), buf("q"), ByteBuffer.wrap(new byte[60_000])))));
    }
    assertServing();
    assertTrue(metrics.oversizedRequests.sum() >= 1);
  }

  @Test
  void frameSizeHeaderBeyondTheLimitIsRejectedWithoutReadingIt() throws Exception {
    start("shim.transport", "framed", "shim.max.frame.bytes", "65536");
    // a 4-byte frame header announcing 1 GiB, nothing else
    ThriftClients.Exchange x = ThriftClients.raw(server.port(), new byte[] {0x40, 0, 0, 0});
    assertTrue(x.closedByServer);
    assertTrue(x.reply.length > 4, "a framed TApplicationException came back");
    assertEquals(1, metrics.oversizedRequests.sum());
    assertServing();
  }

  @Test
  void unknownScannerIdsAreIllegalArguments() throws Exception {
    start();
    try (ThriftClients.Client c = client()) {
      TIllegalArgument e = assertThrows(TIllegalArgument.class, () -> c.api.getScannerRows(424242, 10));
      assertTrue(e.getMessage().startsWith("no open scanner with id 424242"), e.getMessage());
      e = assertThrows(TIllegalArgument.class, () -> c.api.closeScanner(424242));
      assertTrue(e.getMessage().startsWith("no open scanner with id 424242"), e.getMessage());
      assertServingOn(c);
    }
    assertEquals(2, metrics.errors(ErrorKind.UNKNOWN_SCANNER));
  }

  @Test
  void missingTableIsATIOError() throws Exception {
    start();
    try (ThriftClients.Client c = client()) {
      TIOError e = assertThrows(TIOError.class, () -> c.api.get(buf("missing"), new TGet(buf("r"))));
      assertEquals("table does not exist: missing", e.getMessage());
      assertFalse(e.isCanRetry());
      e = assertThrows(TIOError.class, () -> c.api.get(buf("bad name!"), new TGet(buf("r"))));
      assertTrue(e.getMessage().startsWith("invalid request: "), e.getMessage());
      assertServingOn(c);
    }
    assertEquals(1, metrics.errors(Op.GET, ErrorKind.TABLE_NOT_FOUND));
    assertEquals(1, metrics.errors(Op.GET, ErrorKind.INVALID_REQUEST));
  }

  /** Bad input leaves no line in the log: only counters move. */
  @Test
  void badInputIsCountedNotLogged() throws Exception {
    start("shim.max.frame.bytes", "65536");
    WarningCapture capture = new WarningCapture();
    Logger.getRootLogger().addAppender(capture);
    try {
      for (int i = 0; i < 3; i++) {
        ThriftClients.raw(server.port(), "garbage garbage garbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ThriftClients.raw(server.port(), ThriftClients.rawCall("noSuchCall", 1));
        try (ThriftClients.Client c = client()) {
          assertThrows(TIOError.class, () -> c.api.get(buf("missing"), new TGet(buf("r"))));
          assertThrows(TIllegalArgument.class, () -> c.api.getScannerRows(99, 1));
          assertThrows(TApplicationException.class, () -> c.api.put(buf("t"),
              new TPut(buf("r"), Arrays.asList(new TColumnValue(buf("f"), buf("q"), ByteBuffer.wrap(new byte[100_000]))))));
        }
      }
      assertServing();
    } finally {
      Logger.getRootLogger().removeAppender(capture);
    }
    assertEquals(new ArrayList<String>(), capture.lines, "log lines written for bad input");
    assertTrue(metrics.malformedRequests.sum() >= 3);
    assertEquals(3, metrics.unknownMethods.sum());
    assertEquals(3, metrics.oversizedRequests.sum());
  }

  @Test
  void drainFinishesCallsInProgressAndRefusesNewOnes() throws Exception {
    start();
    try (ThriftClients.Client idle = client()) {
      idle.api.getThriftServerType();
      hbase.hold = new CountDownLatch(1);
      Future<TResult> inFlight = pool.submit(() -> {
        try (ThriftClients.Client c = client()) {
          return c.api.get(buf("t"), new TGet(buf("r")));
        }
      });
      while (hbase.waiting.get() < 1) {
        Thread.sleep(5);
      }
      Future<Integer> drained = pool.submit(() -> server.drain(10_000));
      while (!gate.draining()) {
        Thread.sleep(5);
      }
      TIOError refused = assertThrows(TIOError.class, () -> idle.api.get(buf("t"), new TGet(buf("r"))));
      assertTrue(refused.getMessage().startsWith("thrift-shim is shutting down"), refused.getMessage());
      assertFalse(drained.isDone(), "drain waits for the call in progress");
      hbase.hold.countDown();
      assertTrue(inFlight.get(10, TimeUnit.SECONDS).getColumnValues().isEmpty(), "the call in progress finished");
      assertEquals(0, drained.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void connectionsAreCountedByWhereTheyAreInTheirRequestCycle() throws Exception {
    start();
    byte[] get = HostileClients.getRequest(buf("t"));
    try (ThriftClients.Client idle = client();
        java.net.Socket silent = new java.net.Socket("127.0.0.1", server.port());
        java.net.Socket partial = new java.net.Socket("127.0.0.1", server.port())) {
      assertServingOn(idle);                                                  // answered: idle
      partial.getOutputStream().write(java.util.Arrays.copyOf(get, get.length / 2)); // half a request: reading
      partial.getOutputStream().flush();
      String want = "new 1, reading 1, call 0, idle 1";
      String seen = "";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!want.equals(seen) && System.nanoTime() < deadline) {
        Thread.sleep(10);
        java.util.Map<String, Long> p = phasesOnMetrics();
        seen = "new " + p.get("new") + ", reading " + p.get("reading") + ", call " + p.get("call") + ", idle " + p.get("idle");
      }
      assertEquals(want, seen, "silent (new), partial (reading), idle (idle)");
    }
  }

  /** hbasegrinder_shim_connections{phase=...} from /metrics. */
  private java.util.Map<String, Long> phasesOnMetrics() throws Exception {
    String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    java.util.Map<String, Long> phases = new java.util.HashMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^hbasegrinder_shim_connections\\{phase=\"([a-z]+)\"\\} ([0-9.E]+)$").matcher(body);
    while (m.find()) {
      phases.put(m.group(1), (long) Double.parseDouble(m.group(2)));
    }
    return phases;
  }

  @Test
  void metricsEndpointServesPrometheusText() throws Exception {
    start();
    assertServing();
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
    assertTrue(r.body().contains("hbasegrinder_shim_call_seconds_count{operation=\"get\"} 1\n"), r.body());
    assertTrue(r.body().contains("hbasegrinder_shim_hbase_seconds_count{operation=\"get\"} 1\n"));
    assertTrue(r.body().contains("hbasegrinder_shim_open_connections "));
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.metricsPort() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, health.statusCode());
    HttpResponse<String> csv = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics.csv")).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(csv.body().startsWith("op,stage,count"));
    HttpResponse<String> missing = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metricsx")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(404, missing.statusCode());
  }

  @Test
  void idleConnectionsAreClosedAfterTheIdleTimeout() throws Exception {
    start("shim.idle.timeout.ms", "300");
    try (ThriftClients.Client idle = client(); ThriftClients.Client busy = client()) {
      assertServingOn(idle);
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1200);
      while (System.nanoTime() < until) {
        assertServingOn(busy); // a call every 100 ms keeps a connection open
        Thread.sleep(100);
      }
      assertThrows(org.apache.thrift.transport.TTransportException.class,
          () -> idle.api.get(buf("t"), new TGet(buf("r"))), "idle for 1.2 s with a 0.3 s timeout");
      assertServingOn(busy);
      assertEquals(1, server.openConnections());
    }
    assertServing();
  }

  @Test
  void aConnectionBeyondTheLimitIsClosedWhenNoneCanMakeRoomInTime() throws Exception {
    start("shim.max.connections", "2", "shim.accept.wait.ms", "300");
    hbase.hold = new CountDownLatch(1); // both connections in a call: neither may be closed
    try (ThriftClients.Client a = client(); ThriftClients.Client b = client()) {
      Future<TResult> callA = pool.submit(() -> a.api.get(buf("t"), new TGet(buf("r"))));
      Future<TResult> callB = pool.submit(() -> b.api.get(buf("t"), new TGet(buf("r"))));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (hbase.waiting.get() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(2, hbase.waiting.get(), "two calls in HBase");
      long start = System.nanoTime();
      ThriftClients.Exchange x = ThriftClients.raw(server.port(), ThriftClients.rawCall("getThriftServerType", 1));
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(x.closedByServer);
      assertEquals(0, x.reply.length);
      assertTrue(tookMs >= 250 && tookMs < 3000, "closed after " + tookMs + " ms; shim.accept.wait.ms=300");
      assertEquals(1, metrics.connectionsRejected.sum());
      hbase.hold.countDown();
      callA.get(10, TimeUnit.SECONDS); // the calls in progress were never cut off
      callB.get(10, TimeUnit.SECONDS);
      assertTrue(a.api.get(buf("t"), new TGet(buf("r"))).getColumnValues().isEmpty(), "served again");
    } finally {
      hbase.hold = null;
    }
    assertEquals(0, metrics.connectionsClosed(CloseReason.EVICTED_IDLE) + metrics.connectionsClosed(CloseReason.EVICTED_STALLED));
  }
}
