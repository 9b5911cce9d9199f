package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.IntervalLog;
import io.github.hbasegrindersuite.worker.Operation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge of several workers' interval logs, against values computed by hand. */
class IntervalLogsTest {
  @TempDir
  Path dir;

  private Path worker(String host, String name, int intervals, long... getValues) throws Exception {
    Files.createDirectories(dir.resolve(host));
    final Path file = dir.resolve(host).resolve(name + ".hlog");
    try (IntervalLog log = IntervalLog.open(file, List.of(Operation.GET, Operation.PUT), 0)) {
      for (int i = 0; i < getValues.length; i++) {
        log.record(1, getValues[i], true);
        if (intervals > 1 && i == getValues.length / 2) {
          log.writeInterval();
        }
      }
      log.record(1, 5000, false);
      log.record(2, 1000, true);
    }
    return file;
  }

  private static long[] range(int from, int to) {
    return java.util.stream.LongStream.rangeClosed(from, to).toArray();
  }

  @Test
  void workersMergeExactlyPerTestWithErrorsCountedAndPercentilesByNearestRank() throws Exception {
    worker("inj1", "inj1-0", 2, range(100, 199));
    worker("inj2", "inj2-0", 1, range(200, 299));
    final IntervalLogs logs = new IntervalLogs();
    logs.addHost("inj1", dir.resolve("inj1"));
    logs.addHost("inj2", dir.resolve("inj2"));

    // get: 100..299 once each plus two failures at 5000: 202 requests.
    final Histogram get = logs.perTest.get(1);
    assertEquals(202, get.getTotalCount());
    assertEquals(2L, logs.errorsPerTest.get(1));
    assertEquals(200, get.getValueAtPercentile(50));   // rank 101
    assertEquals(281, get.getValueAtPercentile(90));   // rank ceil(181.8) = 182
    assertEquals(299, get.getValueAtPercentile(99));   // rank ceil(199.98) = 200
    assertEquals(5000, get.getValueAtPercentile(99.9), 5000 * 0.001);  // rank 202, within HdrHistogram's 0.1%
    assertEquals((39900 + 10000) / 202.0, get.getMean(), 0.05);
    assertEquals(2, logs.perTest.get(2).getTotalCount());
    assertEquals(204, logs.total());
    assertEquals(2, logs.asDataLogs("inj1").errors + logs.asDataLogs("inj2").errors);
    assertEquals(101L, logs.asDataLogs("inj1").perTest.get(1));
    assertEquals(204, logs.perSecond.values().stream().flatMap(m -> m.values().stream()).mapToLong(c -> c[0]).sum());

    assertEquals("", logs.mismatch(Map.of("inj1-0", 102L, "inj2-0", 102L)));
    assertEquals("the interval logs and the data logs count different requests (hlog against data log): inj2-0 102 against 100,"
        + " inj3-0 0 against 7", logs.mismatch(Map.of("inj1-0", 102L, "inj2-0", 100L, "inj3-0", 7L)));
  }

  @Test
  void aLogCutShortByAKilledWorkerKeepsItsWholeIntervals() throws Exception {
    final Path file = worker("inj1", "inj1-0", 2, range(1, 100));
    // HdrHistogram's own reader sees three intervals: get 51, get 49 + get-failed 1 + put 1.
    long intervals = 0;
    try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
      while (reader.nextIntervalHistogram() != null) {
        intervals++;
      }
    }
    assertEquals(5, intervals);   // get, put | get, get-failed, put
    final String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.length() - 30));   // the last line half written
    final IntervalLogs logs = new IntervalLogs();
    logs.addHost("inj1", dir.resolve("inj1"));
    assertEquals(51 + 49 + 1, logs.total(), "the first interval and the whole lines of the second");
    assertTrue(logs.workers.get(0).problem.startsWith("cut short after"), logs.workers.get(0).problem);
  }

  @Test
  void anUnknownTagIsAOneLineErrorNamingTheLog() throws Exception {
    final Path file = worker("inj1", "inj1-0", 1, 10, 20);
    Files.writeString(file, Files.readString(file).replace("Tag=put,", "Tag=upsert,"));
    final IntervalLogs logs = new IntervalLogs();
    final LifecycleException e = assertThrows(LifecycleException.class, () -> logs.addHost("inj1", dir.resolve("inj1")));
    assertTrue(e.getMessage().startsWith("interval log inj1-0 (host inj1): unknown tag 'upsert' (accepted: get, put,"), e.getMessage());
  }
}
