package io.github.hbasegrindersuite.shim.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.Recorder;

/**
 * A latency histogram of nanosecond values on HdrHistogram, the way its {@code Recorder} is meant
 * to be used: requests record into a wait-free recorder on the hot path; a snapshot swaps the
 * recorder's interval out and adds it to the running total off it. {@value #SIGNIFICANT_DIGITS}
 * significant digits: every bucket is at most 1/128 of its values wide, so a percentile (its
 * bucket's middle value) is within 0.4% of the true one, and histograms merge exactly
 * ({@link #add}, or HdrHistogram's own tools on {@link Snapshot#hdrHistogram()}). Auto-resizing:
 * any non-negative value is kept, memory grows with the range actually seen. The exact sum and
 * maximum are kept beside it. Percentiles use the nearest rank, as the suite's reports do.
 */
public final class Histogram {

  /** 2 digits: within 1% (the bound), at a few KB per histogram. */
  public static final int SIGNIFICANT_DIGITS = 2;

  private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
  private final LongAdder sumNanos = new LongAdder();
  private final AtomicLong maxNanos = new AtomicLong();
  /** Every value recorded so far, up to the last snapshot; guarded by this. */
  private final org.HdrHistogram.Histogram total = new org.HdrHistogram.Histogram(SIGNIFICANT_DIGITS);
  /** The recorder's last interval, handed back to it for reuse; guarded by this. */
  private org.HdrHistogram.Histogram interval;

  public void record(long nanos) {
    final long value = Math.max(0, nanos);
    recorder.recordValue(value);
    sumNanos.add(value);
    long max = maxNanos.get();
    while (value > max && !maxNanos.compareAndSet(max, value)) {
      max = maxNanos.get();
    }
  }

  /** Adds another histogram's values into this one (merging per-thread histograms): exact. */
  public void add(Histogram other) {
    final Snapshot s = other.snapshot();
    synchronized (this) {
      drain();
      total.add(s.histogram);
    }
    sumNanos.add(s.sumNanos);
    long max = maxNanos.get();
    while (s.maxNanos > max && !maxNanos.compareAndSet(max, s.maxNanos)) {
      max = maxNanos.get();
    }
  }

  /** A copy to read percentiles from while recording goes on. */
  public Snapshot snapshot() {
    final org.HdrHistogram.Histogram copy;
    synchronized (this) {
      drain();
      copy = total.copy();
    }
    return new Snapshot(copy, sumNanos.sum(), maxNanos.get());
  }

  private void drain() {
    interval = recorder.getIntervalHistogram(interval);
    total.add(interval);
  }

  /** Immutable view of a histogram. */
  public static final class Snapshot {
    private final org.HdrHistogram.Histogram histogram;
    private final long sumNanos;
    private final long maxNanos;

    Snapshot(org.HdrHistogram.Histogram histogram, long sumNanos, long maxNanos) {
      this.histogram = histogram;
      this.sumNanos = sumNanos;
      this.maxNanos = maxNanos;
    }

    public long count() {
      return histogram.getTotalCount();
    }

    public long sumNanos() {
      return sumNanos;
    }

    public long maxNanos() {
      return maxNanos;
    }

    public double meanNanos() {
      final long count = count();
      return count == 0 ? 0 : (double) sumNanos / count;
    }

    /**
     * Nearest-rank percentile (the smallest recorded value with at least p percent of values at
     * or below it), reported as the middle of its bucket, never above the maximum seen; the top rank is the
     * exact maximum.
     */
    public long percentileNanos(double percent) {
      final long count = count();
      if (count == 0) {
        return 0;
      }
      final long rank = Math.max(1, (long) Math.ceil(percent / 100.0 * count));
      if (rank >= count) {
        return maxNanos; // the top rank is the maximum, kept exactly
      }
      long seen = 0;
      for (HistogramIterationValue v : histogram.recordedValues()) {
        seen += v.getCountAtValueIteratedTo();
        if (seen >= rank) {
          return Math.min(histogram.medianEquivalentValue(v.getValueIteratedTo()), maxNanos);
        }
      }
      return maxNanos;
    }

    /**
     * How many values are below {@code nanos}: exact when {@code nanos} is a bucket edge, as
     * every power of two above 256 and its 1.25, 1.5 and 1.75 multiples are.
     */
    public long countBelow(long nanos) {
      return nanos <= 0 ? 0 : histogram.getCountBetweenValues(0, nanos - 1);
    }

    /** A copy of the HdrHistogram itself, to merge or to write with HdrHistogram's own tools. */
    public org.HdrHistogram.Histogram hdrHistogram() {
      return histogram.copy();
    }
  }
}
