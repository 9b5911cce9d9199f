package io.github.hbasegrindersuite.console.warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When a warm-up has done its work: fed one second at a time (the console's throughput, and from
 * the run's cpu.csv the share of each side's CPU its JIT compiler threads took), it says "warm"
 * once, after at least {@link #MIN_SECONDS} of load, the JIT has taken at most {@link #JIT_LIMIT}
 * of the server side's CPU over the last {@link #JIT_WINDOW_S} seconds; or "bound" after
 * {@code maxSeconds}. What a warm-up leaves behind is the servers' compiled code and caches:
 * Grinder starts a new worker JVM for the next run, so neither the worker's JIT nor the
 * throughput its ramp holds back tells anything about the next run (both are reported); with warm
 * workers (session.workers = warm) the next run's workers run in the same agent JVM, so the client
 * side's JIT must be quiet as well. Without
 * CPU accounting the servers' JIT is unknown and throughput decides: within {@link #BAND} of its
 * mean over the last {@link #WINDOW_S} seconds and no longer rising against the seconds before.
 * The same JIT limit as the report's warming verdict (r-analysis/R/cpu.R, CPU_WARMING_JIT_PCT).
 * Pure: the console's run controller feeds it.
 */
public final class WarmupJudge {
  public static final int WINDOW_S = 5;
  /**
   * The JIT's quiet is judged over 10 s, not 5: a new HBase's compiler ends its backlog and then
   * compiles in bursts of a few seconds for a minute or more; over 5 s the first lull between two
   * bursts passed for warm, and the next run's server JIT was 18-23% of its CPU
   * (bench/results/2026-11-28-warmup-placement.md).
   */
  public static final int JIT_WINDOW_S = 10;
  public static final double BAND = 0.10;
  public static final double JIT_LIMIT = 0.05;
  /** Not before this many seconds of load: a first flat second or two is no level. */
  public static final int MIN_SECONDS = Math.max(2 * WINDOW_S, JIT_WINDOW_S);

  private final int maxSeconds;
  /** Warm workers (session.workers = warm): the next run's workers run in this JVM too, so its JIT counts. */
  private final boolean workersKept;
  private final List<double[]> seconds = new ArrayList<>(); // tps, server jit share, client jit share
  private String verdict;
  private boolean warm;

  public WarmupJudge(int maxSeconds) {
    this(maxSeconds, false);
  }

  /**
   * @param workersKept the workers are threads of the session's agent (session.workers = warm): the
   *     next run's workers keep what this one compiled, so the client side's JIT must be quiet too
   */
  public WarmupJudge(int maxSeconds, boolean workersKept) {
    this.maxSeconds = maxSeconds;
    this.workersKept = workersKept;
  }

  /**
   * One second of load. A share is NaN when unknown (no cpu.csv, or a side with no CPU that second).
   *
   * @return true once the judge has decided (warm, or the bound reached)
   */
  public boolean second(double tps, double serverJitShare, double clientJitShare) {
    if (verdict != null) {
      return true;
    }
    seconds.add(new double[] {tps, serverJitShare, clientJitShare});
    final int n = seconds.size();
    if (n >= MIN_SECONDS) {
      final double last = mean(n - WINDOW_S, n, 0);
      final double before = mean(n - 2 * WINDOW_S, n - WINDOW_S, 0);
      final double spread = maxDeviation(n - WINDOW_S, n, last);
      final double serverJit = mean(n - JIT_WINDOW_S, n, 1);
      final double clientJit = mean(n - JIT_WINDOW_S, n, 2);
      final boolean steady = last > 0 && spread <= BAND && last <= before * (1 + BAND);
      final boolean clientQuiet = !workersKept || Double.isNaN(clientJit) || clientJit <= JIT_LIMIT;
      if (!Double.isNaN(serverJit) && serverJit <= JIT_LIMIT && clientQuiet && last > 0) {
        warm = true;
        verdict = String.format(Locale.ROOT, "warm after %d s: JIT %s of the server side's CPU over %d s (%.0f req/s, varying %.0f%%; JIT %s of the client's, %s)",
            n, share(serverJit), JIT_WINDOW_S, last, 100 * spread, share(clientJit),
            workersKept ? "whose workers stay warm in the agent" : "whose worker JVM is new at the next run");
        return true;
      }
      if (Double.isNaN(serverJit) && steady) {
        warm = true;
        verdict = String.format(Locale.ROOT, "warm after %d s: %.0f req/s within %.0f%% over %d s (JIT unknown of the server side's CPU: no CPU accounting)",
            n, last, 100 * BAND, WINDOW_S);
        return true;
      }
    }
    if (n >= maxSeconds) {
      final double last = n >= WINDOW_S ? mean(n - WINDOW_S, n, 0) : Double.NaN;
      verdict = String.format(Locale.ROOT, "not warm after the %d s bound: %.0f req/s varying %.0f%% over the last %d s, JIT %s of the server side's CPU and %s of the client's",
          n, last, n >= WINDOW_S ? 100 * maxDeviation(n - WINDOW_S, n, last) : Double.NaN, WINDOW_S,
          share(mean(Math.max(0, n - WINDOW_S), n, 1)), share(mean(Math.max(0, n - WINDOW_S), n, 2)));
      return true;
    }
    return false;
  }

  public boolean decided() {
    return verdict != null;
  }

  /** True when it ended warm, false when the bound ended it. */
  public boolean warm() {
    return warm;
  }

  public String verdict() {
    return verdict;
  }

  public int secondsSeen() {
    return seconds.size();
  }

  /** Mean of column {@code c} over seconds [from, to), NaN values left out (all NaN: NaN). */
  private double mean(int from, int to, int c) {
    double sum = 0;
    int n = 0;
    for (int i = Math.max(0, from); i < to; i++) {
      final double v = seconds.get(i)[c];
      if (!Double.isNaN(v)) {
        sum += v;
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  private double maxDeviation(int from, int to, double level) {
    double worst = 0;
    for (int i = Math.max(0, from); i < to; i++) {
      worst = Math.max(worst, Math.abs(seconds.get(i)[0] / level - 1));
    }
    return worst;
  }

  private static String share(double v) {
    return Double.isNaN(v) ? "unknown" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }
}
