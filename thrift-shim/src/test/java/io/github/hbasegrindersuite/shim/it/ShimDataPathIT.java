package io.github.hbasegrindersuite.shim.it;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static io.github.hbasegrindersuite.shim.ThriftClients.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.ShimConfig;
import io.github.hbasegrindersuite.shim.ShimInstance;
import io.github.hbasegrindersuite.shim.ThriftClients;
import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.thrift2.generated.TAppend;
import org.apache.hadoop.hbase.thrift2.generated.TColumn;
import org.apache.hadoop.hbase.thrift2.generated.TColumnIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TCompareOp;
import org.apache.hadoop.hbase.thrift2.generated.TDelete;
import org.apache.hadoop.hbase.thrift2.generated.TDeleteType;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THRegionLocation;
import org.apache.hadoop.hbase.thrift2.generated.TIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TMutation;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TRowMutations;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.hadoop.hbase.thrift2.generated.TThriftServerType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every supported call through the shim, with HBase's own generated thrift2 Java client (what
 * stock users have), checked against the direct HBase client on the same table.
 */
class ShimDataPathIT {

  private static Connection direct;
  private static TableName table;
  private static ByteBuffer t;
  private static ShimInstance shim;
  private static Path metricsFile;

  @BeforeAll
  static void start() throws Exception {
    startWith();
  }

  /** Starts the shim every test uses, with these settings besides the metrics file. */
  static void startWith(String... settings) throws Exception {
    direct = HBaseSupport.directConnection();
    table = HBaseSupport.createTable(direct, "data");
    t = buf(table.getNameAsString());
    metricsFile = HBaseSupport.targetDir().resolve("it-data-path-metrics.prom");
    Files.deleteIfExists(metricsFile);
    List<String> all = new ArrayList<>(Arrays.asList("shim.metrics.file", metricsFile.toString()));
    all.addAll(Arrays.asList(settings));
    shim = HBaseSupport.startShim(all.toArray(new String[0]));
  }

  @AfterAll
  static void stop() {
    if (shim != null) {
      shim.close();
    }
    HBaseSupport.dropTable(direct, table);
    try {
      if (direct != null) {
        direct.close();
      }
    } catch (Exception ignored) {
      // done
    }
  }

  private static ThriftClients.Client client() throws Exception {
    return ThriftClients.connect(shim.port());
  }

  private static TColumnValue cv(String family, String qualifier, String value) {
    return new TColumnValue(buf(family), buf(qualifier), buf(value));
  }

  private static TPut put(String row, TColumnValue... values) {
    return new TPut(buf(row), Arrays.asList(values));
  }

  private static String value(TResult r, String family, String qualifier) {
    for (TColumnValue c : r.getColumnValues()) {
      if (str(c.bufferForFamily()).equals(family) && str(c.bufferForQualifier()).equals(qualifier)) {
        return str(c.bufferForValue());
      }
    }
    return null;
  }

  @Test
  void putThenGetMatchesTheDirectClient() throws Exception {
    try (ThriftClients.Client c = client()) {
      c.api.put(t, put("a1", cv("f", "q1", "one"), cv("g", "q2", "two")));
      TResult r = c.api.get(t, new TGet(buf("a1")));
      assertEquals("a1", str(r.bufferForRow()));
      assertEquals(2, r.getColumnValuesSize());
      assertEquals("one", value(r, "f", "q1"));
      assertEquals("two", value(r, "g", "q2"));
      TGet onlyG = new TGet(buf("a1"));
      onlyG.setColumns(Collections.singletonList(new TColumn(buf("g"))));
      TResult g = c.api.get(t, onlyG);
      assertEquals(1, g.getColumnValuesSize());
      // written through the shim, read directly, and the other way round
      try (Table d = direct.getTable(table)) {
        Result dr = d.get(new Get(Bytes.toBytes("a1")));
        assertEquals("one", Bytes.toString(dr.getValue(Bytes.toBytes("f"), Bytes.toBytes("q1"))));
        d.put(new Put(Bytes.toBytes("a2")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), Bytes.toBytes("direct")));
        long ts = dr.rawCells()[0].getTimestamp();
        assertEquals(ts, r.getColumnValues().get(0).getTimestamp());
      }
      assertEquals("direct", value(c.api.get(t, new TGet(buf("a2"))), "f", "q"));
      byte[] big = new byte[100_000];
      Arrays.fill(big, (byte) 7);
      c.api.put(t, new TPut(buf("a3"), Collections.singletonList(new TColumnValue(buf("f"), buf("big"), ByteBuffer.wrap(big)))));
      ByteBuffer back = c.api.get(t, new TGet(buf("a3"))).getColumnValues().get(0).bufferForValue();
      assertEquals(ByteBuffer.wrap(big), back);
    }
  }

  @Test
  void multiGetsAndExistence() throws Exception {
    try (ThriftClients.Client c = client()) {
      c.api.putMultiple(t, Arrays.asList(put("b1", cv("f", "q", "v1")), put("b2", cv("f", "q", "v2")),
          put("n1", cv("f", "q", "v3"))));
      List<TResult> rs = c.api.getMultiple(t, Arrays.asList(new TGet(buf("b1")), new TGet(buf("nope")), new TGet(buf("n1"))));
      assertEquals(3, rs.size());
      assertEquals("v1", value(rs.get(0), "f", "q"));
      assertTrue(rs.get(1).getColumnValues().isEmpty(), "a row that does not exist is an empty result");
      assertEquals("v3", value(rs.get(2), "f", "q"));
      assertTrue(c.api.exists(t, new TGet(buf("b2"))));
      assertFalse(c.api.exists(t, new TGet(buf("b3"))));
      assertEquals(Arrays.asList(true, false, true),
          c.api.existsAll(t, Arrays.asList(new TGet(buf("b1")), new TGet(buf("b3")), new TGet(buf("n1")))));
    }
  }

  @Test
  void deletes() throws Exception {
    try (ThriftClients.Client c = client()) {
      c.api.putMultiple(t, Arrays.asList(put("d1", cv("f", "q", "x"), cv("g", "q", "y")), put("d2", cv("f", "q", "x")),
          put("d3", cv("f", "q", "x"))));
      TDelete onlyF = new TDelete(buf("d1"));
      onlyF.setColumns(Collections.singletonList(new TColumn(buf("f"))));
      onlyF.setDeleteType(TDeleteType.DELETE_FAMILY); // the default, DELETE_COLUMNS, needs qualifiers
      c.api.deleteSingle(t, onlyF);
      TResult d1 = c.api.get(t, new TGet(buf("d1")));
      assertEquals(1, d1.getColumnValuesSize());
      assertEquals("y", value(d1, "g", "q"));
      List<TDelete> failed = c.api.deleteMultiple(t, Arrays.asList(new TDelete(buf("d2")), new TDelete(buf("d3"))));
      assertTrue(failed.isEmpty());
      assertFalse(c.api.exists(t, new TGet(buf("d2"))));
      assertFalse(c.api.exists(t, new TGet(buf("d3"))));
    }
  }

  @Test
  void incrementAndAppend() throws Exception {
    try (ThriftClients.Client c = client()) {
      TIncrement inc = new TIncrement(buf("c1"), Collections.singletonList(new TColumnIncrement(buf("f"), buf("n")).setAmount(5)));
      TResult r1 = c.api.increment(t, inc);
      assertEquals(5L, Bytes.toLong(r1.getColumnValues().get(0).getValue()));
      TResult r2 = c.api.increment(t, inc);
      assertEquals(10L, Bytes.toLong(r2.getColumnValues().get(0).getValue()));
      c.api.put(t, put("c2", cv("f", "s", "ab")));
      TResult a = c.api.append(t, new TAppend(buf("c2"), Collections.singletonList(cv("f", "s", "cd"))));
      assertEquals("abcd", value(a, "f", "s"));
      assertEquals("abcd", value(c.api.get(t, new TGet(buf("c2"))), "f", "s"));
    }
  }

  @Test
  void conditionalMutations() throws Exception {
    try (ThriftClients.Client c = client()) {
      // checkAndPut with no value: "if the cell does not exist"
      assertTrue(c.api.checkAndPut(t, buf("e1"), buf("f"), buf("q"), null, put("e1", cv("f", "q", "first"))));
      assertFalse(c.api.checkAndPut(t, buf("e1"), buf("f"), buf("q"), null, put("e1", cv("f", "q", "second"))));
      assertTrue(c.api.checkAndPut(t, buf("e1"), buf("f"), buf("q"), buf("first"), put("e1", cv("f", "q", "third"))));
      assertFalse(c.api.checkAndPut(t, buf("e1"), buf("f"), buf("q"), buf("first"), put("e1", cv("f", "q", "fourth"))));
      assertEquals("third", value(c.api.get(t, new TGet(buf("e1"))), "f", "q"));

      assertFalse(c.api.checkAndDelete(t, buf("e1"), buf("f"), buf("q"), buf("nope"), new TDelete(buf("e1"))));
      assertTrue(c.api.checkAndDelete(t, buf("e1"), buf("f"), buf("q"), buf("third"), new TDelete(buf("e1"))));
      assertFalse(c.api.exists(t, new TGet(buf("e1"))));

      TDelete delG = new TDelete(buf("e2"));
      delG.setColumns(Collections.singletonList(new TColumn(buf("g")).setQualifier(Bytes.toBytes("q"))));
      c.api.put(t, put("e2", cv("g", "q", "old")));
      c.api.mutateRow(t, new TRowMutations(buf("e2"), Arrays.asList(
          TMutation.put(put("e2", cv("f", "q", "new"))), TMutation.deleteSingle(delG))));
      TResult e2 = c.api.get(t, new TGet(buf("e2")));
      assertEquals("new", value(e2, "f", "q"));
      assertEquals(null, value(e2, "g", "q"));

      TRowMutations next = new TRowMutations(buf("e2"), Collections.singletonList(TMutation.put(put("e2", cv("f", "q", "newer")))));
      assertFalse(c.api.checkAndMutate(t, buf("e2"), buf("f"), buf("q"), TCompareOp.EQUAL, buf("old"), next));
      assertTrue(c.api.checkAndMutate(t, buf("e2"), buf("f"), buf("q"), TCompareOp.EQUAL, buf("new"), next));
      assertEquals("newer", value(c.api.get(t, new TGet(buf("e2"))), "f", "q"));
    }
  }

  @Test
  void scanners() throws Exception {
    try (ThriftClients.Client c = client()) {
      List<TPut> puts = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        puts.add(put(String.format("s%02d", i), cv("f", "q", "v" + i)));
      }
      c.api.putMultiple(t, puts);
      TScan scan = new TScan().setStartRow(Bytes.toBytes("s")).setStopRow(Bytes.toBytes("t"));
      int id = c.api.openScanner(t, scan);
      List<String> rows = new ArrayList<>();
      List<Integer> batches = new ArrayList<>();
      for (int n = 0; n < 10; n++) {
        List<TResult> batch = c.api.getScannerRows(id, 10);
        batches.add(batch.size());
        for (TResult r : batch) {
          rows.add(str(r.bufferForRow()));
        }
        if (batch.isEmpty()) {
          break;
        }
      }
      c.api.closeScanner(id);
      assertEquals(Arrays.asList(10, 10, 5, 0), batches);
      assertEquals("s00", rows.get(0));
      assertEquals("s24", rows.get(24));
      // the two calls scan in one go
      List<TResult> first7 = c.api.getScannerResults(t, scan, 7);
      assertEquals(7, first7.size());
      assertEquals("s06", str(first7.get(6).bufferForRow()));
      assertEquals("v6", value(first7.get(6), "f", "q"));
      assertEquals(0, shim.metrics().errors(io.github.hbasegrindersuite.shim.Op.CLOSE_SCANNER,
          io.github.hbasegrindersuite.shim.ErrorKind.UNKNOWN_SCANNER));
    }
  }

  @Test
  void locationsAndServerInfo() throws Exception {
    try (ThriftClients.Client c = client()) {
      List<THRegionLocation> all = c.api.getAllRegionLocations(t);
      assertEquals(2, all.size(), "the table is split at 'm'");
      THRegionLocation loc = c.api.getRegionLocation(t, buf("z"), false);
      assertEquals("m", Bytes.toString(loc.getRegionInfo().getStartKey()));
      assertEquals(TThriftServerType.TWO, c.api.getThriftServerType());
      assertEquals(direct.getClusterId(), c.api.getClusterId());
    }
  }

  @ParameterizedTest
  @CsvSource({"threadpool,buffered,compact", "threadpool,framed,binary", "threadpool,framed,compact",
      "nonblocking,framed,binary", "nonblocking,framed,compact", "eventloop,buffered,binary",
      "eventloop,buffered,compact", "eventloop,framed,binary", "eventloop,framed,compact"})
  void everyServerChoiceServesTheDataPath(String server, String transport, String protocol) throws Exception {
    try (ShimInstance other = HBaseSupport.startShim("shim.server", server, "shim.transport", transport,
        "shim.protocol", protocol, "shim.metrics.port", "-1")) {
      ShimConfig cfg = other.config();
      try (ThriftClients.Client c = ThriftClients.connect(other.port(), cfg.transport(), cfg.protocol())) {
        String row = "x-" + server + "-" + transport + "-" + protocol;
        c.api.put(t, put(row, cv("f", "q", row)));
        assertEquals(row, value(c.api.get(t, new TGet(buf(row))), "f", "q"));
        List<TResult> scanned = c.api.getScannerResults(t, new TScan().setStartRow(Bytes.toBytes(row)), 1);
        assertEquals(row, str(scanned.get(0).bufferForRow()));
      }
    }
  }

  /** The two histograms per operation, on /metrics and in the metrics files. */
  @Test
  void metricsSplitShimTimeFromHBaseTime() throws Exception {
    try (ThriftClients.Client c = client()) {
      c.api.put(t, put("m1", cv("f", "q", "v")));
      for (int i = 0; i < 50; i++) {
        c.api.get(t, new TGet(buf("m1")));
      }
    }
    ShimMetrics m = shim.metrics();
    // the call is recorded just after its response is flushed: let the last one land
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (m.callSnapshot(io.github.hbasegrindersuite.shim.Op.GET).count()
        < m.hbaseSnapshot(io.github.hbasegrindersuite.shim.Op.GET).count() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    long calls = m.callSnapshot(io.github.hbasegrindersuite.shim.Op.GET).count();
    long hbase = m.hbaseSnapshot(io.github.hbasegrindersuite.shim.Op.GET).count();
    assertTrue(calls >= 50);
    assertEquals(calls, hbase, "every get timed twice");
    assertTrue(m.callSnapshot(io.github.hbasegrindersuite.shim.Op.GET).percentileNanos(50)
        >= m.hbaseSnapshot(io.github.hbasegrindersuite.shim.Op.GET).percentileNanos(50), "the call contains the HBase call");
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + shim.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertTrue(r.body().contains("hbasegrinder_shim_call_seconds_bucket{operation=\"get\",le=\"+Inf\"} "));
    assertTrue(r.body().contains("hbasegrinder_shim_hbase_seconds_bucket{operation=\"get\",le=\"+Inf\"} "));
    shim.writeMetricsFile();
    assertTrue(Files.readString(metricsFile).contains("hbasegrinder_shim_call_seconds_count{operation=\"get\"}"));
    List<String> csv = Files.readAllLines(ShimMetrics.csvPathFor(metricsFile));
    assertTrue(csv.stream().anyMatch(l -> l.startsWith("get,call,")), csv.toString());
    assertTrue(csv.stream().anyMatch(l -> l.startsWith("get,hbase,")), csv.toString());
  }
}
