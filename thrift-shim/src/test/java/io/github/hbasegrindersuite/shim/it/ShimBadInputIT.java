package io.github.hbasegrindersuite.shim.it;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.Op;
import io.github.hbasegrindersuite.shim.ShimConfig;
import io.github.hbasegrindersuite.shim.ShimInstance;
import io.github.hbasegrindersuite.shim.ThriftClients;
import io.github.hbasegrindersuite.shim.WarningCapture;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TIllegalArgument;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.log4j.Logger;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TIOStreamTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input against the real stack: each case gets a clear Thrift error (or, for garbage, a
 * closed connection), is counted, writes no log line, and the shim serves the next client.
 */
class ShimBadInputIT {

  private static final int LIMIT = 1 << 20;

  private static Connection direct;
  private static TableName table;
  private static ByteBuffer t;
  private static ShimInstance buffered;
  private static ShimInstance framed;
  private WarningCapture capture;

  @BeforeAll
  static void start() throws Exception {
    startWith();
  }

  /** Starts the buffered and the framed shim, each with these settings besides its own. */
  static void startWith(String... settings) throws Exception {
    direct = HBaseSupport.directConnection();
    table = HBaseSupport.createTable(direct, "bad");
    t = buf(table.getNameAsString());
    buffered = HBaseSupport.startShim(with(settings, "shim.max.frame.bytes", Integer.toString(LIMIT)));
    framed = HBaseSupport.startShim(with(settings, "shim.max.frame.bytes", Integer.toString(LIMIT), "shim.transport", "framed",
        "shim.metrics.port", "-1"));
    try (ThriftClients.Client c = ThriftClients.connect(buffered.port())) {
      c.api.put(t, new TPut(buf("here"), Collections.singletonList(new TColumnValue(buf("f"), buf("q"), buf("v")))));
    }
  }

  private static String[] with(String[] settings, String... own) {
    List<String> all = new ArrayList<>(Arrays.asList(settings));
    all.addAll(Arrays.asList(own));
    return all.toArray(new String[0]);
  }

  @AfterAll
  static void stop() throws Exception {
    for (ShimInstance s : new ShimInstance[] {buffered, framed}) {
      if (s != null) {
        s.close();
      }
    }
    HBaseSupport.dropTable(direct, table);
    if (direct != null) {
      direct.close();
    }
  }

  @BeforeEach
  void captureLog() {
    capture = new WarningCapture();
    Logger.getRootLogger().addAppender(capture);
  }

  @AfterEach
  void noLogLines() {
    Logger.getRootLogger().removeAppender(capture);
    assertEquals(new ArrayList<String>(), capture.lines, "bad input must not be logged");
  }

  /** The shim still serves a new client, through a fresh connection. */
  private static void assertServing(ShimInstance shim) throws Exception {
    ShimConfig cfg = shim.config();
    try (ThriftClients.Client c = ThriftClients.connect(shim.port(), cfg.transport(), cfg.protocol())) {
      TResult r = c.api.get(t, new TGet(buf("here")));
      assertEquals(1, r.getColumnValuesSize());
    }
  }

  private static TPut putOf(int bytes) {
    return new TPut(buf("big"), Collections.singletonList(new TColumnValue(buf("f"), buf("q"), ByteBuffer.wrap(new byte[bytes]))));
  }

  @Test
  void oversizedFrameOrMessage() throws Exception {
    long before = buffered.metrics().oversizedRequests.sum() + framed.metrics().oversizedRequests.sum();
    for (ShimInstance shim : new ShimInstance[] {buffered, framed}) {
      ShimConfig cfg = shim.config();
      try (ThriftClients.Client c = ThriftClients.connect(shim.port(), cfg.transport(), cfg.protocol())) {
        TApplicationException e = assertThrows(TApplicationException.class, () -> c.api.put(t, putOf(3 * LIMIT)));
        assertEquals(TApplicationException.PROTOCOL_ERROR, e.getType());
        assertTrue(e.getMessage().contains("shim.max.frame.bytes=" + LIMIT), e.getMessage());
      }
      assertServing(shim);
      try (ThriftClients.Client c = ThriftClients.connect(shim.port(), cfg.transport(), cfg.protocol())) {
        c.api.put(t, putOf(LIMIT / 2)); // below the limit: stored
      }
    }
    // a frame header announcing 1 GiB, with nothing behind it
    ThriftClients.Exchange x = ThriftClients.raw(framed.port(), new byte[] {0x40, 0, 0, 0});
    assertTrue(x.closedByServer);
    assertServing(framed);
    assertEquals(before + 3, buffered.metrics().oversizedRequests.sum() + framed.metrics().oversizedRequests.sum());
  }

  @Test
  void garbageBytes() throws Exception {
    List<byte[]> junk = Arrays.asList(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        new byte[] {(byte) 0x80, 0x01, 0x00, 0x01, 0x7f, 0x7f, 0x7f, 0x7f}, // a binary header, method name length 2 GiB
        new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3},
        new byte[0]);
    long before = buffered.metrics().malformedRequests.sum() + buffered.metrics().oversizedRequests.sum();
    for (byte[] j : junk) {
      ThriftClients.Exchange x = ThriftClients.raw(buffered.port(), j);
      assertTrue(x.closedByServer, "connection closed");
      assertServing(buffered);
      ThriftClients.Exchange y = ThriftClients.raw(framed.port(), j);
      assertTrue(y.closedByServer, "connection closed (framed)");
      assertServing(framed);
    }
    assertTrue(buffered.metrics().malformedRequests.sum() + buffered.metrics().oversizedRequests.sum() >= before + 3);
  }

  @Test
  void unknownMethod() throws Exception {
    byte[] call = ThriftClients.rawCall("compactEverything", 11);
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", buffered.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(call);
      TBinaryProtocol p = new TBinaryProtocol(new TIOStreamTransport(s.getInputStream()));
      TMessage m = p.readMessageBegin();
      assertEquals(TMessageType.EXCEPTION, m.type);
      assertEquals(11, m.seqid);
      TApplicationException x = TApplicationException.readFrom(p);
      assertEquals(TApplicationException.UNKNOWN_METHOD, x.getType());
      assertTrue(x.getMessage().contains("no method 'compactEverything'"), x.getMessage());
    }
    assertTrue(buffered.metrics().unknownMethods.sum() >= 1);
    assertServing(buffered);
  }

  @Test
  void tableThatDoesNotExist() throws Exception {
    ByteBuffer missing = buf("shim_it_no_such_table");
    try (ThriftClients.Client c = ThriftClients.connect(buffered.port())) {
      List<org.junit.jupiter.api.function.Executable> calls = Arrays.asList(
          () -> c.api.get(missing, new TGet(buf("r"))),
          () -> c.api.put(missing, new TPut(buf("r"), Collections.singletonList(new TColumnValue(buf("f"), buf("q"), buf("v"))))),
          () -> c.api.openScanner(missing, new TScan()),
          () -> c.api.getScannerResults(missing, new TScan(), 10),
          () -> c.api.exists(missing, new TGet(buf("r"))));
      for (int i = 0; i < calls.size(); i++) {
        TIOError e = assertThrows(TIOError.class, calls.get(i), "call " + i);
        assertTrue(e.getMessage().startsWith("table does not exist: "), e.getMessage());
        assertTrue(e.getMessage().contains("shim_it_no_such_table"), e.getMessage());
        assertFalse(e.isCanRetry());
      }
      // and a column family that does not exist
      TIOError e = assertThrows(TIOError.class, () -> c.api.put(t,
          new TPut(buf("r"), Collections.singletonList(new TColumnValue(buf("nofamily"), buf("q"), buf("v"))))));
      assertTrue(e.getMessage().startsWith("column family does not exist: "), e.getMessage());
      assertFalse(e.isCanRetry());
      // a put with no columns, and an invalid table name
      e = assertThrows(TIOError.class, () -> c.api.put(t, new TPut(buf("r"), new ArrayList<>())));
      assertTrue(e.getMessage().startsWith("invalid request: "), e.getMessage());
      e = assertThrows(TIOError.class, () -> c.api.get(buf("no spaces allowed"), new TGet(buf("r"))));
      assertTrue(e.getMessage().startsWith("invalid request: "), e.getMessage());
      assertEquals("here", new String(c.api.get(t, new TGet(buf("here"))).getRow(), StandardCharsets.UTF_8));
    }
    assertTrue(buffered.metrics().errors(Op.GET, ErrorKind.TABLE_NOT_FOUND) >= 1);
    assertTrue(buffered.metrics().errors(Op.PUT, ErrorKind.NO_SUCH_FAMILY) >= 1);
    assertServing(buffered);
  }

  /** Not an error in thrift2: an empty TResult, exactly as HBase's own gateway answers. */
  @Test
  void rowThatDoesNotExist() throws Exception {
    try (ThriftClients.Client c = ThriftClients.connect(buffered.port())) {
      TResult r = c.api.get(t, new TGet(buf("no-such-row")));
      assertFalse(r.isSetRow());
      assertTrue(r.getColumnValues().isEmpty());
      assertFalse(c.api.exists(t, new TGet(buf("no-such-row"))));
      assertTrue(c.api.getMultiple(t, Collections.singletonList(new TGet(buf("no-such-row")))).get(0).getColumnValues().isEmpty());
    }
    assertServing(buffered);
  }

  @Test
  void scannerIdThatDoesNotExist() throws Exception {
    try (ThriftClients.Client c = ThriftClients.connect(buffered.port())) {
      TIllegalArgument e = assertThrows(TIllegalArgument.class, () -> c.api.getScannerRows(987654, 5));
      assertTrue(e.getMessage().startsWith("no open scanner with id 987654"), e.getMessage());
      int id = c.api.openScanner(t, new TScan());
      c.api.closeScanner(id);
      e = assertThrows(TIllegalArgument.class, () -> c.api.getScannerRows(id, 5));
      assertTrue(e.getMessage().contains("already closed"), e.getMessage());
      e = assertThrows(TIllegalArgument.class, () -> c.api.closeScanner(id));
      assertTrue(e.getMessage().startsWith("no open scanner with id " + id), e.getMessage());
    }
    assertTrue(buffered.metrics().errors(ErrorKind.UNKNOWN_SCANNER) >= 3);
    assertServing(buffered);
  }
}
