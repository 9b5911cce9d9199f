package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one path did for one operation in one phase, over all rounds: latency from the intended
 * start (IntendedStart's rule; in a closed loop, the witness) and, kept apart, the uncorrected
 * latency from the actual start; counts, seconds, throughput per round, CPU ticks by process.
 */
final class Totals {
  final Histogram latency = new Histogram();
  final Histogram uncorrected = new Histogram();
  long count;
  long errors;
  double seconds;
  final List<Double> perRound = new ArrayList<>();
  /** Each round's median latency, from the intended start and uncorrected, in microseconds. */
  final List<Double> perRoundP50 = new ArrayList<>();
  final List<Double> perRoundUncorrectedP50 = new ArrayList<>();
  final Map<String, Long> cpuTicks = new LinkedHashMap<>();

  double throughput() {
    return count / seconds;
  }

  /**
   * Round by round, this path's median minus the reference path's median of the same round (the
   * slices of one round run minutes apart at most, so the drift of a shared machine cancels more
   * than in medians pooled over all rounds): the differences, then their median (nearest rank,
   * the suite's rule) and range. Rounds the reference lacks are left out.
   */
  static RoundDifferences perRoundDifferences(List<Double> mine, List<Double> reference) {
    int n = Math.min(mine.size(), reference.size());
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = mine.get(i) - reference.get(i);
    }
    return new RoundDifferences(d);
  }

  /** Per-round differences in microseconds, in round order. */
  record RoundDifferences(double[] values) {
    double median() {
      double[] s = values.clone();
      java.util.Arrays.sort(s);
      return s.length == 0 ? Double.NaN : s[(int) Math.max(0, Math.ceil(0.5 * s.length) - 1)];
    }

    double min() {
      return java.util.Arrays.stream(values).min().orElse(Double.NaN);
    }

    double max() {
      return java.util.Arrays.stream(values).max().orElse(Double.NaN);
    }

    /** "+313 us (+193 to +723; per round +653 +209 +723 +193 +359 +267)" */
    String describe() {
      StringBuilder rounds = new StringBuilder();
      for (double v : values) {
        rounds.append(rounds.length() == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, "%+.0f", v));
      }
      return String.format(java.util.Locale.ROOT, "%+.0f us (%+.0f to %+.0f; per round %s)", median(), min(), max(), rounds);
    }
  }

  void add(SliceResult slice) {
    latency.add(slice.latency());
    uncorrected.add(slice.uncorrected());
    count += slice.count();
    errors += slice.errors();
    seconds += slice.seconds();
    perRound.add(slice.throughput());
    perRoundP50.add(slice.medianMicros());
    perRoundUncorrectedP50.add(slice.uncorrected().snapshot().percentileNanos(50) / 1000.0);
    for (Map.Entry<String, Long> e : slice.cpuBefore().entrySet()) {
      long after = slice.cpuAfter().get(e.getKey());
      if (e.getValue() >= 0 && after >= 0) {
        cpuTicks.merge(e.getKey(), after - e.getValue(), Long::sum);
      }
    }
  }
}
