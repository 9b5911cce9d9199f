package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.keys.SequentialKeys;
import io.github.hbasegrindersuite.worker.targets.Client;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Driver against an in-memory fake Client (a unit test: the real targets are tested end to end). */
class DriverTest {

  /** Stores puts in a map; a get of a row never put returns null; sleeps 2 ms in get. */
  static class MapClient implements Client {
    final Map<String, byte[]> rows = new LinkedHashMap<>();
    final List<String> calls = new ArrayList<>();
    final ValuePool values;
    final SplittableRandom random = new SplittableRandom(1);

    MapClient(ValuePool values) {
      this.values = values;
    }

    private static String s(byte[] row) {
      return new String(row, StandardCharsets.US_ASCII);
    }

    @Override public byte[] get(byte[] row) throws Exception {
      calls.add("get " + s(row));
      Thread.sleep(2);
      return rows.get(s(row));
    }
    @Override public void put(byte[] row) {
      calls.add("put " + s(row));
      rows.put(s(row), values.valueFor(row, random));
    }
    /** Rows scanned as a 10-row table would return them: fewer near its end. */
    @Override public int scan(byte[] start, int n) {
      calls.add("scan " + s(start) + " " + n);
      return Math.max(0, Math.min(n, 10 - Integer.parseInt(s(start).trim())));
    }
    @Override public int batchGet(byte[][] r) {
      calls.add("batch-get " + r.length);
      return r.length;
    }
    @Override public void batchPut(byte[][] r) {
      calls.add("batch-put " + r.length);
    }
    @Override public void delete(byte[] row) {
      throw new IllegalStateException("delete refused");
    }
    @Override public long increment(byte[] row) {
      return 1;
    }
    @Override public void flush() {
      calls.add("flush");
    }
    /** Wide row: the columns put, by number, and each column read. */
    final java.util.TreeSet<Integer> wideColumns = new java.util.TreeSet<>();
    final List<Integer> wideReads = new ArrayList<>();

    @Override public void putColumns(byte[] row, int first, int count) {
      calls.add("put-columns " + s(row) + " " + first + " " + count);
      for (int c = first; c < first + count; c++) {
        wideColumns.add(c);
      }
    }
    @Override public byte[] getColumn(byte[] row, int column) {
      calls.add("get-column " + s(row) + " " + column);
      wideReads.add(column);
      return wideColumns.contains(column) ? new byte[] {1} : null;
    }
    @Override public void close() {
    }
  }

  static final class Recorded implements RequestReport {
    final List<long[]> requests = new ArrayList<>();
    final List<Long> rows = new ArrayList<>();

    @Override
    public void rows(long n) {
      rows.add(n);
    }

    @Override
    public void request(long witnessMicros, long lagMicros, boolean success) {
      requests.add(new long[] {witnessMicros, lagMicros, success ? 1 : 0});
    }
  }

  private static Settings settings(String operations, boolean verify) {
    return settings(operations, verify, "10000");
  }

  private static Settings settings(String operations, boolean verify, String timeoutMs) {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("hbaseload.timeout.ms", timeoutMs);
    given.put("hbaseload.operations", operations);
    given.put("hbaseload.verify", String.valueOf(verify));
    given.put("hbaseload.scan.length", "25");
    given.put("hbaseload.batch.size", "4");
    given.put("hbaseload.value.size", "32");
    return Settings.load(given);
  }

  private static Driver driver(Settings s, MapClient client, ErrorCounter errors, Recorded report, double rate) {
    return new Driver(client, new SequentialKeys(6, 0, 1), new OperationMix(s.mix(), new SplittableRandom(1)),
        new Pacer(rate), client.values, errors, report, s);
  }

  @Test
  void putThenVerifiedGetRoundTripAndTheWitnessTimesTheCall() {
    Settings s = settings("put:100", true);
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    ErrorCounter errors = new ErrorCounter();
    Recorded report = new Recorded();
    Driver puts = driver(s, client, errors, report, 0);
    for (int i = 0; i < 3; i++) {
      assertEquals(2, puts.next());
      puts.execute();
    }
    Driver gets = driver(settings("get:100", true), client, errors, report, 0);
    for (int i = 0; i < 6; i++) {
      assertEquals(1, gets.next());
      gets.execute();
    }
    // Rows 0..2 were put and verify; 3..5 are missing: 3 VerificationExceptions.
    assertEquals("VerificationException=3", errors.summary());
    List<long[]> getReports = report.requests.subList(3, 9);
    assertEquals(List.of(1L, 1L, 1L, 0L, 0L, 0L), getReports.stream().map(r -> r[2]).toList());
    for (long[] r : getReports) {
      assertTrue(r[0] >= 2000 && r[0] < 500_000, "witness covers the 2 ms call: " + r[0]);
    }
  }

  @Test
  void aFixedAmountOfWorkFlushesTheBufferWithItsLastRequestInsideItsTiming() {
    MapClient client = new MapClient(new ValuePool(32, false, 1)) {
      @Override public void flush() {
        calls.add("flush");
        try {
          Thread.sleep(20);     // the buffered rows going out
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    Recorded report = new Recorded();
    Driver d = driver(settings("put:100", false), client, new ErrorCounter(), report, 0);
    d.flushWithRequest(3);
    for (int i = 0; i < 4; i++) {
      d.next();
      d.execute();
    }
    assertEquals(List.of("put 000000", "put 000001", "put 000002", "flush", "put 000003"),
        client.calls.stream().map(c -> c.replaceAll("put 0*([0-9])", "put 00000$1")).toList());
    assertTrue(report.requests.get(2)[0] >= 20_000, "the last request's witness covers the flush: " + report.requests.get(2)[0]);
    assertTrue(report.requests.get(1)[0] < 20_000, "an earlier one does not: " + report.requests.get(1)[0]);

    MapClient duration = new MapClient(new ValuePool(32, false, 1));
    Driver untimed = driver(settings("put:100", false), duration, new ErrorCounter(), new Recorded(), 0);
    for (int i = 0; i < 4; i++) {
      untimed.next();
      untimed.execute();
    }
    assertTrue(duration.calls.stream().noneMatch("flush"::equals), "a run for a duration never flushes in a request");
  }

  @Test
  void aWideRowIsWrittenInBatchesByEachThreadsSliceAndReadOneColumnAtATime() {
    // 2500 columns, 1000 a put: batches 0..2, the last of 500 columns; two threads' slices of the batches
    Map<String, String> given = new LinkedHashMap<>();
    given.put("hbaseload.wide.columns", "2500");
    given.put("hbaseload.wide.batch", "1000");
    given.put("hbaseload.key.distribution", "sequential");
    given.put("hbaseload.operations", "put:100");
    given.put("hbaseload.key.width", "4");
    Settings s = Settings.load(given);
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    ErrorCounter errors = new ErrorCounter();
    Recorded report = new Recorded();
    for (int thread = 0; thread < 2; thread++) {
      Driver d = new Driver(client, io.github.hbasegrindersuite.worker.keys.KeyChoosers.create(s, new SplittableRandom(thread), thread, 2),
          new OperationMix(s.mix(), new SplittableRandom(1)), new Pacer(0), client.values, errors, report, s);
      for (int i = 0; i < (thread == 0 ? 1 : 2); i++) {
        d.next();
        d.execute();
      }
    }
    assertEquals(List.of("put-columns 0000 0 1000", "put-columns 0000 1000 1000", "put-columns 0000 2000 500"), client.calls);
    assertEquals(2500, client.wideColumns.size());
    assertEquals(2499, (int) client.wideColumns.last());
    given.put("hbaseload.operations", "get:100");
    given.put("hbaseload.key.distribution", "uniform");
    Settings reads = Settings.load(given);
    Driver d = new Driver(client, io.github.hbasegrindersuite.worker.keys.KeyChoosers.create(reads, new SplittableRandom(5), 0, 1),
        new OperationMix(reads.mix(), new SplittableRandom(1)), new Pacer(0), client.values, errors, report, reads);
    for (int i = 0; i < 3000; i++) {
      d.next();
      d.execute();
    }
    assertEquals(3000, client.wideReads.size());
    assertTrue(client.wideReads.stream().allMatch(c -> c >= 0 && c < 2500), "every read within the row's columns");
    // spread over the row: every tenth of it is read, and more than half the columns distinct
    assertEquals(10, client.wideReads.stream().map(c -> c / 250).distinct().count());
    assertTrue(client.wideReads.stream().distinct().count() > 1250, "distinct columns read");
    assertEquals("none", errors.summary());
    assertEquals(3003, report.requests.stream().filter(r -> r[2] == 1).count());
  }

  @Test
  void scanAndBatchesUseTheirSizesAndFailuresAreCountedByClass() {
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    ErrorCounter errors = new ErrorCounter();
    Recorded report = new Recorded();
    Map<Integer, Integer> seen = new LinkedHashMap<>();
    Driver d = driver(settings("scan:25,batch-get:25,batch-put:25,delete:25", false), client, errors, report, 0);
    for (int i = 0; i < 400; i++) {
      seen.merge(d.next(), 1, Integer::sum);
      d.execute();
    }
    assertEquals(java.util.Set.of(3, 4, 5, 6), seen.keySet());
    assertTrue(client.calls.stream().filter(c -> c.startsWith("scan")).allMatch(c -> c.endsWith(" 25")));
    assertTrue(client.calls.stream().filter(c -> c.startsWith("batch")).allMatch(c -> c.endsWith(" 4")));
    assertEquals("IllegalStateException=" + seen.get(6), errors.summary());
    assertEquals((long) seen.get(6), report.requests.stream().filter(r -> r[2] == 0).count());
  }

  @Test
  void eachScanReportsTheRowsItReturnedNotTheScanLength() {
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    Recorded report = new Recorded();
    Driver d = driver(settings("scan:100", false), client, new ErrorCounter(), report, 0);
    for (int i = 0; i < 7; i++) {
      d.next();
      d.execute();
    }
    // sequential starts 0..5 then 0 again over a 10-row table, scan.length 25: 10 - start rows each
    assertEquals(List.of(10L, 9L, 8L, 7L, 6L, 5L, 10L), report.rows);
    assertEquals(7, report.requests.size());
  }

  @Test
  void onlyScansReportRows() {
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    Recorded report = new Recorded();
    Driver d = driver(settings("put:50,get:50", false), client, new ErrorCounter(), report, 0);
    for (int i = 0; i < 20; i++) {
      d.next();
      d.execute();
    }
    assertEquals(List.of(), report.rows);
  }

  @Test
  void pacingHoldsTheRateAndReportsLag() {
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    Recorded report = new Recorded();
    Driver d = driver(settings("put:100", false), client, new ErrorCounter(), report, 200);
    long start = System.nanoTime();
    for (int i = 0; i < 21; i++) {
      d.next();
      d.execute();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    // 21 requests at 200/s: the last intended start is 100 ms after the first.
    assertTrue(seconds >= 0.099, "ran in " + seconds + " s");
    assertTrue(report.requests.stream().allMatch(r -> r[1] >= 0));
  }

  /**
   * Gets take 2 ms at an intended 1000/s: the thread falls 1 ms further behind with every
   * request, and the schedule does not slip, so the lag grows by about 1 ms per request and
   * lag + witness is the time from the intended start (IntendedStart's rule).
   */
  @Test
  void aStallShowsAsLagInEveryRequestBehindIt() {
    MapClient client = new MapClient(new ValuePool(32, false, 1));
    Recorded report = new Recorded();
    Driver d = driver(settings("get:100", false), client, new ErrorCounter(), report, 1000);
    long first = 0;
    for (int i = 0; i < 20; i++) {
      d.next();
      if (i == 0) {
        first = System.nanoTime();
      }
      d.execute();
    }
    long lastEnd = System.nanoTime();
    List<long[]> r = report.requests;
    assertTrue(r.get(0)[1] < 5000, "the first request starts on time: lag " + r.get(0)[1] + " us");
    for (int i = 1; i < r.size(); i++) {
      assertTrue(r.get(i)[1] > r.get(i - 1)[1], "lag grows: " + r.get(i - 1)[1] + " then " + r.get(i)[1]);
    }
    assertTrue(r.get(19)[1] >= 19 * 1000, "19 requests of at least 1 ms behind: lag " + r.get(19)[1] + " us");
    // request 19 was intended 19 ms after the first; it ended at lastEnd
    long fromIntended = IntendedStart.latencyMicros(r.get(19)[1], r.get(19)[0]);
    long measured = (lastEnd - first) / 1000 - 19 * 1000;
    assertTrue(Math.abs(fromIntended - measured) < 2000, "lag + witness " + fromIntended + " us against " + measured + " us");
  }

  /** A get that blocks (as HBase 2.6 locating a region of a stopped cluster does) for 60 s unless interrupted. */
  static final class HangingClient extends MapClient {
    volatile boolean hang = true;

    HangingClient() {
      super(new ValuePool(32, false, 1));
    }

    @Override public byte[] get(byte[] row) throws Exception {
      if (hang) {
        Thread.sleep(60_000);
      }
      return super.get(row);
    }
  }

  @Test
  void aCallTheClientDoesNotEndIsCutAtTheDeadlineCountedAndTheThreadGoesOn() {
    HangingClient client = new HangingClient();
    ErrorCounter errors = new ErrorCounter();
    Recorded report = new Recorded();
    // timeout 200 ms: the watchdog cuts at 300 ms (+10%, at least 100 ms), on its 50 ms tick.
    Driver d = driver(settings("get:100", false, "200"), client, errors, report, 0);
    d.next();
    d.execute();
    assertEquals("CallDeadlineException=1", errors.summary());
    long witness = report.requests.get(0)[0];
    assertTrue(witness >= 300_000 && witness < 1_000_000, "cut after 300 ms, not 60 s: " + witness + " us");
    assertEquals(0, report.requests.get(0)[2]);
    assertTrue(!Thread.currentThread().isInterrupted(), "no interrupt left for Grinder");
    client.hang = false;
    d.next();
    d.execute();
    assertEquals(1, report.requests.get(1)[2], "the next call runs normally");
    assertEquals(1, errors.total());
  }
}
