package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import io.github.hbasegrindersuite.worker.IntendedStart;
import io.github.hbasegrindersuite.worker.RequestReport;

/**
 * One slice thread's RequestReport: each successful request's latency from the intended start
 * ({@link IntendedStart}) and, apart, its uncorrected latency (the witness, from the actual
 * start), in histograms; successes and failures counted. Failed requests are not timed.
 */
final class SliceRecorder implements RequestReport {
  final Histogram latency = new Histogram();
  final Histogram uncorrected = new Histogram();
  long count;
  long errors;

  @Override
  public void request(long witnessMicros, long lagMicros, boolean success) {
    if (!success) {
      errors++;
      return;
    }
    count++;
    latency.record(IntendedStart.latencyMicros(lagMicros, witnessMicros) * 1000);
    uncorrected.record(witnessMicros * 1000);
  }
}
