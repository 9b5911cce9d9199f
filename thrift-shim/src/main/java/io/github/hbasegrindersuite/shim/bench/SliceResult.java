package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import java.util.Map;

/** One slice's outcome: every thread's requests merged, its length, CPU samples around it. */
record SliceResult(Histogram latency, Histogram uncorrected, long count, long errors, double seconds,
                   Map<String, Long> cpuBefore, Map<String, Long> cpuAfter) {

  double throughput() {
    return count / seconds;
  }

  /** Median latency from the intended start, in microseconds. */
  double medianMicros() {
    return latency.snapshot().percentileNanos(50) / 1000.0;
  }
}
