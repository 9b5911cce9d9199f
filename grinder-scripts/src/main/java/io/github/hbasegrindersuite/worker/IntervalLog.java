package io.github.hbasegrindersuite.worker;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * The witness of every request, per test, as an HdrHistogram interval log ({@code <host>-<n>.hlog}
 * beside the worker's data log): one interval a second, in HdrHistogram's standard format, so
 * HistogramLogReader, HistogramLogProcessor and the finaliser's merge read it. Successful requests
 * of an operation go under its label as the tag ("get"), failed ones under
 * {@link #failedTag} ("get-failed"), so a reader tells get from put and errors from successes.
 *
 * <p>Why a Recorder per test and tag: {@link #record} is on every request's path and must not
 * allocate or lock (a Recorder's recordValue is a few atomic increments); the swap to a fresh
 * interval and the writing happen on this log's own thread once a second.
 */
public final class IntervalLog implements AutoCloseable {
  /** Values are microseconds; one hour is far beyond any call's timeout (at most 3600 s). */
  public static final long HIGHEST_MICROS = 3_600_000_000L;
  /** Three significant digits: exact below 2048 µs, within 0.1% above. */
  public static final int SIGNIFICANT_DIGITS = 3;
  public static final String FAILED_SUFFIX = "-failed";
  public static final String FILE_SUFFIX = ".hlog";

  private final Recorder[] succeeded;   // by test number; null for tests not in the mix
  private final Recorder[] failed;
  private final String[] tags;
  private final Histogram[] spare;      // recycled interval histograms: the writer allocates once
  private final Histogram[] spareFailed;
  private final HistogramLogWriter writer;
  private final PrintStream out;
  private final ScheduledExecutorService thread;
  private boolean closed;

  /**
   * Opens {@code file} and writes the log's header. With {@code intervalMs > 0} a daemon thread
   * writes an interval every {@code intervalMs}, aligned to the wall clock's whole intervals so
   * that the workers' seconds line up; 0 leaves it to {@link #writeInterval} (tests).
   */
  public static IntervalLog open(Path file, Collection<Operation> operations, long intervalMs) throws IOException {
    return new IntervalLog(new PrintStream(new BufferedOutputStream(new FileOutputStream(file.toFile())), false, "US-ASCII"),
        operations, intervalMs, System::currentTimeMillis);
  }

  IntervalLog(PrintStream out, Collection<Operation> operations, long intervalMs, LongSupplier clock) {
    // Before the recorders, whose first interval starts when they are made: no interval before the log's start.
    long start = clock.getAsLong();
    int size = 0;
    for (Operation operation : Operation.values()) {
      size = Math.max(size, operation.testNumber() + 1);
    }
    succeeded = new Recorder[size];
    failed = new Recorder[size];
    tags = new String[size];
    spare = new Histogram[size];
    spareFailed = new Histogram[size];
    for (Operation operation : operations) {
      int test = operation.testNumber();
      succeeded[test] = new Recorder(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
      failed[test] = new Recorder(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
      tags[test] = operation.label();
    }
    this.out = out;
    this.writer = new HistogramLogWriter(out);
    writer.outputComment("[hbase-grinder-suite: the witness (System.nanoTime around the HBase call) of every request, in"
        + " microseconds; tag = operation, <operation>" + FAILED_SUFFIX + " = its failed requests]");
    writer.outputLogFormatVersion();
    writer.outputStartTime(start);
    writer.setBaseTime(start);
    writer.outputBaseTime(start);
    writer.outputLegend();
    out.flush();
    if (intervalMs > 0) {
      thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hbaseload-interval-log");
        t.setDaemon(true);
        return t;
      });
      long firstDelay = intervalMs - Math.floorMod(clock.getAsLong(), intervalMs);
      thread.scheduleAtFixedRate(this::writeIntervalQuietly, firstDelay, intervalMs, TimeUnit.MILLISECONDS);
    } else {
      thread = null;
    }
  }

  /** The tag of an operation's failed requests. */
  public static String failedTag(String operationLabel) {
    return operationLabel + FAILED_SUFFIX;
  }

  /** One request: on the hot path, so no allocation, no lock. A test not in the mix is ignored. */
  public void record(int testNumber, long witnessMicros, boolean success) {
    Recorder recorder = success ? succeeded[testNumber] : failed[testNumber];
    if (recorder != null) {
      recorder.recordValue(witnessMicros < 0 ? 0 : Math.min(witnessMicros, HIGHEST_MICROS));
    }
  }

  /**
   * Takes every recorder's interval and writes it: the successes of every test in the mix (an
   * empty interval too, so a reader sees seconds without requests), failures only when there were
   * some. Flushed at once: a killed worker loses at most the interval in progress.
   */
  public synchronized void writeInterval() {
    if (closed) {
      return;
    }
    for (int test = 0; test < tags.length; test++) {
      if (tags[test] == null) {
        continue;
      }
      spare[test] = succeeded[test].getIntervalHistogram(spare[test]);
      spare[test].setTag(tags[test]);
      writer.outputIntervalHistogram(spare[test]);
      spareFailed[test] = failed[test].getIntervalHistogram(spareFailed[test]);
      if (spareFailed[test].getTotalCount() > 0) {
        spareFailed[test].setTag(failedTag(tags[test]));
        writer.outputIntervalHistogram(spareFailed[test]);
      }
    }
    out.flush();
  }

  private void writeIntervalQuietly() {
    try {
      writeInterval();
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again: report and keep the schedule.
      System.err.println("hbaseload: interval log: " + e);
    }
  }

  /** Writes the last interval and closes the file; called once the worker's threads have ended. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    if (thread != null) {
      thread.shutdownNow();
    }
    writeInterval();
    closed = true;
    writer.close();
  }
}
