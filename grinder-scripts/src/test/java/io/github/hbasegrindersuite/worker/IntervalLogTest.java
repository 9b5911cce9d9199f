package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's interval log, read back with HdrHistogram's own HistogramLogReader. */
class IntervalLogTest {

  /** Every interval histogram in the log, by tag, in order. */
  static Map<String, List<Histogram>> readBack(HistogramLogReader reader) {
    Map<String, List<Histogram>> byTag = new LinkedHashMap<>();
    while (reader.hasNext()) {
      Histogram h = (Histogram) reader.nextIntervalHistogram();
      if (h != null) {
        byTag.computeIfAbsent(h.getTag(), t -> new ArrayList<>()).add(h);
      }
    }
    return byTag;
  }

  static Histogram merged(List<Histogram> intervals) {
    Histogram all = new Histogram(IntervalLog.HIGHEST_MICROS, IntervalLog.SIGNIFICANT_DIGITS);
    intervals.forEach(all::add);
    return all;
  }

  @Test
  void intervalsPerTagReadBackWithCountsAndPercentilesComputedByHand() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IntervalLog log = new IntervalLog(new PrintStream(bytes), List.of(Operation.GET, Operation.PUT), 0, System::currentTimeMillis);
    for (int us = 1; us <= 100; us++) {
      log.record(1, us, true);
    }
    for (int i = 0; i < 5; i++) {
      log.record(1, 7000, false);
    }
    log.record(2, 1234, true);
    log.record(3, 99, true);            // scan is not in the mix: ignored
    log.writeInterval();
    for (int i = 0; i < 200; i++) {
      log.record(1, 50, true);
    }
    log.writeInterval();
    log.close();                        // a last, empty interval

    HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(bytes.toByteArray()));
    Map<String, List<Histogram>> byTag = readBack(reader);
    assertEquals(List.of("get", "get-failed", "put"), new ArrayList<>(byTag.keySet()));
    assertEquals(List.of(100L, 200L, 0L), byTag.get("get").stream().map(Histogram::getTotalCount).toList());
    assertEquals(List.of(5L), byTag.get("get-failed").stream().map(Histogram::getTotalCount).toList());
    assertEquals(List.of(1L, 0L, 0L), byTag.get("put").stream().map(Histogram::getTotalCount).toList());
    assertTrue(reader.getStartTimeSec() > 1.7e9, "the log's start time is read back: " + reader.getStartTimeSec());

    // 1..100 once and 50 200 more times: 300 values; nearest rank 150 is 50, rank 270 is 70.
    Histogram get = merged(byTag.get("get"));
    assertEquals(300, get.getTotalCount());
    assertEquals(50, get.getValueAtPercentile(50));
    assertEquals(70, get.getValueAtPercentile(90));
    assertEquals(100, get.getValueAtPercentile(99.9));
    assertEquals(100, get.getMaxValue());
    assertEquals(1, get.getMinValue());
    assertEquals((5050 + 200 * 50) / 300.0, get.getMean(), 1e-9);
    // Above 2048 µs the value is kept within 0.1% (three significant digits).
    assertEquals(7000, merged(byTag.get("get-failed")).getMaxValue(), 7);
    assertEquals(1234, merged(byTag.get("put")).getMaxValue());
  }

  /** The wrapper the worker puts around Grinder's report passes a scan's rows on, and records the request in both. */
  @Test
  void theIntervalReportPassesScanRowsAndRequestsToTheReportItWraps() {
    final long[] seen = new long[3];
    RequestReport inner = new RequestReport() {
      @Override
      public void request(long witnessMicros, long lagMicros, boolean success) {
        throw new AssertionError("the operation's form is called");
      }

      @Override
      public void request(Operation operation, long witnessMicros, long lagMicros, boolean success) {
        seen[0]++;
        seen[1] = witnessMicros;
      }

      @Override
      public void rows(long rows) {
        seen[2] = rows;
      }
    };
    IntervalLog log = new IntervalLog(new PrintStream(new ByteArrayOutputStream()), List.of(Operation.SCAN), 0, System::currentTimeMillis);
    IntervalReport report = new IntervalReport(inner, log);
    report.rows(697);
    report.request(Operation.SCAN, 1234, 0, true);
    assertEquals(697, seen[2]);
    assertEquals(1, seen[0]);
    assertEquals(1234, seen[1]);
  }

  @Test
  void valuesOutOfRangeAreClampedInsteadOfThrowing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IntervalLog log = new IntervalLog(new PrintStream(bytes), List.of(Operation.GET), 0, System::currentTimeMillis);
    log.record(1, -5, true);
    log.record(1, IntervalLog.HIGHEST_MICROS * 10, true);
    log.close();
    Histogram get = merged(readBack(new HistogramLogReader(new ByteArrayInputStream(bytes.toByteArray()))).get("get"));
    assertEquals(2, get.getTotalCount());
    assertEquals(0, get.getMinValue());
    assertTrue(get.getMaxValue() >= IntervalLog.HIGHEST_MICROS * 0.999, "max " + get.getMaxValue());
  }

  @Test
  void recordingAllocatesNothing() {
    IntervalLog log = new IntervalLog(new PrintStream(new ByteArrayOutputStream()), List.of(Operation.GET), 0, System::currentTimeMillis);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < 100_000; i++) {
      log.record(1, i % 5000, i % 10 != 0);   // warm up the JIT
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 1_000_000; i++) {
      log.record(1, i % 5000, i % 10 != 0);
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated < 4096, "a million records allocated " + allocated + " bytes");
    log.close();
  }

  @Test
  void theWritersThreadFlushesEveryIntervalWhileTheWorkerRuns(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("host-0.hlog");
    IntervalLog log = IntervalLog.open(file, List.of(Operation.PUT), 100);
    long deadline = System.nanoTime() + 5_000_000_000L;
    int intervals = 0;
    while (intervals < 3 && System.nanoTime() < deadline) {
      log.record(2, 300, true);
      Thread.sleep(20);
      try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
        intervals = readBack(reader).getOrDefault("put", List.of()).size();
      }
    }
    assertTrue(intervals >= 3, "intervals on disk before close: " + intervals);
    log.close();
    try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
      List<Histogram> put = readBack(reader).get("put");
      long total = put.stream().mapToLong(Histogram::getTotalCount).sum();
      assertTrue(total >= 3 && total == put.stream().mapToLong(Histogram::getTotalCount).sum());
      for (Histogram h : put) {
        assertTrue(h.getEndTimeStamp() >= h.getStartTimeStamp(), "interval ends after it starts");
      }
    }
    assertTrue(Files.size(file) > 0);
  }
}
