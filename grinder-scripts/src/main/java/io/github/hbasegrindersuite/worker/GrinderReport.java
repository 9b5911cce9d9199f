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
  /** Rows a scan returned (0 for the other tests); only in the data logs of mixes that scan. */
  public static final String ROWS_COLUMN = "Rows";
  private static final String WITNESS = "userLong0";
  private static final String LAG = "userLong1";
  private static final String ROWS = "userLong2";

  private final Statistics statistics;
  private final boolean paced;
  private final boolean scans;

  public GrinderReport(Statistics statistics, boolean paced, boolean scans) {
    this.statistics = statistics;
    this.paced = paced;
    this.scans = scans;
  }

  /** Once per worker process, before the threads start. */
  public static void registerColumns(Statistics statistics, boolean paced, boolean scans) throws Exception {
    statistics.registerDataLogExpression(WITNESS_COLUMN, WITNESS);
    if (paced) {
      statistics.registerDataLogExpression(LAG_COLUMN, LAG);
    }
    if (scans) {
      statistics.registerDataLogExpression(ROWS_COLUMN, ROWS);
    }
  }

  @Override
  public void rows(long rows) {
    if (!scans) {
      return;
    }
    try {
      statistics.getForCurrentTest().setLong(ROWS, rows);
    } catch (Exception e) {
      throw new IllegalStateException("Grinder refused the request's statistics", e);
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
