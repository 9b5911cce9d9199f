package io.github.hbasegrindersuite.worker;

import net.grinder.script.Statistics;

/**
 * Writes each request's witness (and lag, when pacing) into Grinder's statistics for the test
 * in progress, so they land in its data log as the columns registered by {@link #registerColumns},
 * and marks failed requests as errors. Called from Java inside the recorded test: no
 * per-request trip through Jython.
 */
public final class GrinderReport implements RequestReport {
  public static final String WITNESS_COLUMN = "Witness (us)";
  public static final String LAG_COLUMN = "Lag (us)";
  private static final String WITNESS = "userLong0";
  private static final String LAG = "userLong1";

  private final Statistics statistics;
  private final boolean paced;

  public GrinderReport(Statistics statistics, boolean paced) {
    this.statistics = statistics;
    this.paced = paced;
  }

  /** Once per worker process, before the threads start. */
  public static void registerColumns(Statistics statistics, boolean paced) throws Exception {
    statistics.registerDataLogExpression(WITNESS_COLUMN, WITNESS);
    if (paced) {
      statistics.registerDataLogExpression(LAG_COLUMN, LAG);
    }
  }

  @Override
  public void request(long witnessMicros, long lagMicros, boolean success) {
    try {
      Statistics.StatisticsForTest current = statistics.getForCurrentTest();
      current.setLong(WITNESS, witnessMicros);
      if (paced) {
        current.setLong(LAG, lagMicros);
      }
      if (!success) {
        current.setSuccess(false);
      }
    } catch (Exception e) {
      throw new IllegalStateException("Grinder refused the request's statistics", e);
    }
  }
}
