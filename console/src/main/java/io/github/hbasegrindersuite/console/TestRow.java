package io.github.hbasegrindersuite.console;

import java.util.Locale;

/**
 * One test's statistics as the console keeps them, in Grinder's own terms: {@code count} is
 * Grinder's "Tests" (successful requests), {@code errors} its "Errors" (failed requests, which
 * Grinder does not time), so the requests a data log holds are {@code count + errors};
 * mean and standard deviation are over the successful requests, in milliseconds.
 */
public final class TestRow {

  public static final String STATISTICS_HEADER = "test,name,count,errors,mean_ms,sd_ms,tps";
  public static final String TIMELINE_HEADER = "time_ms,elapsed_s,test,name,count,errors,mean_ms,tps";

  final int test;
  final String name;
  final long count;
  final long errors;
  final double meanMs;
  final double sdMs;
  final double tps;

  public TestRow(int test, String name, long count, long errors, double meanMs, double sdMs, double tps) {
    this.test = test;
    this.name = name;
    this.count = count;
    this.errors = errors;
    this.meanMs = meanMs;
    this.sdMs = sdMs;
    this.tps = tps;
  }

  /** A line of statistics.csv. */
  public String statisticsLine() {
    return test + "," + csv(name) + "," + count + "," + errors + ","
        + number(meanMs, 4) + "," + number(sdMs, 4) + "," + number(tps, 2);
  }

  /** A line of timeline.csv: this row holds one sample interval's figures. */
  public String timelineLine(long timeMs, double elapsedSeconds) {
    return timeMs + "," + number(elapsedSeconds, 1) + "," + test + "," + csv(name) + ","
        + count + "," + errors + "," + number(meanMs, 4) + "," + number(tps, 2);
  }

  /** Requests per second: {@code count} over {@code periodMs}; NaN without a period. */
  public static double perSecond(long count, long periodMs) {
    return periodMs > 0 ? count * 1000.0 / periodMs : Double.NaN;
  }

  /** Fixed decimals with a dot whatever the locale; NA for NaN or infinity (R reads NA). */
  static String number(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "NA";
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  /** A CSV field: quoted when it holds a comma, a quote or a line break. */
  static String csv(String text) {
    final String value = text == null ? "" : text;
    if (value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r")) {
      return "\"" + value.replace("\"", "\"\"") + "\"";
    }
    return value;
  }

  public int test() {
    return test;
  }

  public String name() {
    return name;
  }

  public long count() {
    return count;
  }

  public long errors() {
    return errors;
  }

  public double meanMs() {
    return meanMs;
  }
}
