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
  final Map<String, Long> cpuTicks = new LinkedHashMap<>();

  double throughput() {
    return count / seconds;
  }

  void add(SliceResult slice) {
    latency.add(slice.latency());
    uncorrected.add(slice.uncorrected());
    count += slice.count();
    errors += slice.errors();
    seconds += slice.seconds();
    perRound.add(slice.throughput());
    for (Map.Entry<String, Long> e : slice.cpuBefore().entrySet()) {
      long after = slice.cpuAfter().get(e.getKey());
      if (e.getValue() >= 0 && after >= 0) {
        cpuTicks.merge(e.getKey(), after - e.getValue(), Long::sum);
      }
    }
  }
}
