package io.github.hbasegrindersuite.console.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The console's live statistics as the Prometheus endpoint serves them: per test, the cumulative
 * figures of the latest sample, and the run's agents and workers. The run controller feeds it from
 * the console's sample listeners (once a sample interval); a scrape only reads it, so scraping never
 * touches the console's sample model or its locks.
 *
 * <p>Grinder's statistics carry, per test, counts and the sum and sum of squares of the test time
 * (plus the summed witness): no distribution, so there are no percentiles to serve here.
 */
public final class LiveStatistics {

  /** One test's cumulative figures at the latest sample, in Grinder's terms (see TestRow). */
  public static final class TestFigures {
    public final int test;
    public final String name;
    /** Successful requests (Grinder's "Tests"). */
    public final long count;
    /** Failed requests (Grinder's "Errors", not timed). */
    public final long errors;
    /** Sum of Grinder's test time over the successful requests, milliseconds. */
    public final long testTimeSumMs;
    /** Standard deviation of the test time, milliseconds (NaN when unknown). */
    public final double testTimeSdMs;
    /** Sum of the witness (userLong0) over the successful requests, microseconds. */
    public final long witnessSumMicros;
    /** Successful requests per second in the latest sample interval. */
    public final double intervalTps;

    public TestFigures(int test, String name, long count, long errors, long testTimeSumMs, double testTimeSdMs,
                       long witnessSumMicros, double intervalTps) {
      this.test = test;
      this.name = name == null ? "" : name;
      this.count = count;
      this.errors = errors;
      this.testTimeSumMs = testTimeSumMs;
      this.testTimeSdMs = testTimeSdMs;
      this.witnessSumMicros = witnessSumMicros;
      this.intervalTps = intervalTps;
    }

    /** Mean test time in milliseconds; NaN before the first successful request. */
    public double meanMs() {
      return count > 0 ? (double) testTimeSumMs / count : Double.NaN;
    }

    /** Mean witness in microseconds; NaN before the first successful request. */
    public double witnessMeanMicros() {
      return count > 0 ? (double) witnessSumMicros / count : Double.NaN;
    }
  }

  /** What the console knows of the run's processes, read at scrape time. */
  public interface Processes {
    int agentsExpected();

    int agentsConnected();

    int workersExpected();

    /** Workers whose last reported state is {@code state} (STARTED, RUNNING, FINISHED). */
    int workersIn(String state);

    /** Workers gone from the reports without having finished. */
    int workersLost();

    int threadsRunning();
  }

  private final ConcurrentSkipListMap<Integer, TestFigures> tests = new ConcurrentSkipListMap<>();
  private final String runId;
  private final Processes processes;
  private volatile double elapsedSeconds;

  public LiveStatistics(String runId, Processes processes) {
    this.runId = runId == null ? "" : runId;
    this.processes = processes;
  }

  /** The latest sample of one test: replaces the previous one. */
  public void update(TestFigures figures) {
    tests.put(figures.test, figures);
  }

  /** Seconds of load the console has counted (its sample period). */
  public void elapsedSeconds(double seconds) {
    elapsedSeconds = seconds;
  }

  public double elapsedSeconds() {
    return elapsedSeconds;
  }

  /** Every test that has reported, in test-number order. */
  public List<TestFigures> tests() {
    return new ArrayList<>(tests.values());
  }

  public String runId() {
    return runId;
  }

  public Processes processes() {
    return processes;
  }
}
