package io.github.hbasegrindersuite.worker;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * PlainJavaLoad's RequestReport, in place of Grinder's statistics: it counts in the JVM what the
 * injector benchmark counts in a Grinder run's data log -- requests that started and ended
 * inside the measured window, their errors, and their latency (from the intended start,
 * {@link IntendedStart}; the uncorrected witness apart) -- plus every request, warm-up
 * included, for the client CPU per request. One instance serves all threads.
 */
public final class CountingReport implements RequestReport {
  private final long windowStart;
  private final long windowEnd;
  private final LongSupplier clock;
  private final LongAdder all = new LongAdder();
  private final LongAdder requests = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder latencyMicros = new LongAdder();
  private final LongAdder witnessMicros = new LongAdder();

  /** The measured window, on the System.nanoTime scale. */
  public CountingReport(long windowStartNanos, long windowEndNanos) {
    this(windowStartNanos, windowEndNanos, System::nanoTime);
  }

  CountingReport(long windowStartNanos, long windowEndNanos, LongSupplier clock) {
    this.windowStart = windowStartNanos;
    this.windowEnd = windowEndNanos;
    this.clock = clock;
  }

  /** Called right after the timed call: now is the request's end, now - witness its start. */
  @Override
  public void request(long witnessMicros, long lagMicros, boolean success) {
    long end = clock.getAsLong();
    long start = end - witnessMicros * 1000;
    all.increment();
    if (start >= windowStart && end <= windowEnd) {
      requests.increment();
      if (!success) {
        errors.increment();
      }
      latencyMicros.add(IntendedStart.latencyMicros(lagMicros, witnessMicros));
      this.witnessMicros.add(witnessMicros);
    }
  }

  /** Every request reported, warm-up and the stragglers after the window included. */
  public long all() {
    return all.sum();
  }

  /** Requests inside the measured window, failed ones included. */
  public long requests() {
    return requests.sum();
  }

  public long errors() {
    return errors.sum();
  }

  /** Mean latency from the intended start in the window (the witness when unpaced). */
  public double meanLatencyMicros() {
    long n = requests.sum();
    return n == 0 ? 0.0 : latencyMicros.sum() / (double) n;
  }

  /** Mean witness in the window: the uncorrected latency, from the actual start. */
  public double meanUncorrectedMicros() {
    long n = requests.sum();
    return n == 0 ? 0.0 : witnessMicros.sum() / (double) n;
  }
}
