package io.github.hbasegrindersuite.shim.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free log-linear latency histogram of nanosecond values: 16 buckets per power of two
 * (each bucket at most 6.25% wide, so a reported percentile, the bucket's midpoint, is within
 * about 3.2% of the true value), exact below 16 ns, values above about 18 minutes clamped.
 * Recording is one array increment plus a sum and a rarely contended max: cheap enough to sit
 * on every request. Percentiles use the nearest rank, as the suite's reports do.
 */
public final class Histogram {

  static final int SUB_BITS = 4;
  static final int SUB = 1 << SUB_BITS;
  /** Largest exponent kept: 2^40 ns, about 18 minutes. */
  static final int MAX_EXPONENT = 40;
  static final int BUCKETS = (MAX_EXPONENT - SUB_BITS + 2) * SUB;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final LongAdder sumNanos = new LongAdder();
  private final AtomicLong maxNanos = new AtomicLong();

  /** The bucket a value falls into. */
  static int index(long nanos) {
    long v = Math.max(0, nanos);
    if (v < SUB) {
      return (int) v;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(v);
    if (exponent > MAX_EXPONENT) {
      return BUCKETS - 1;
    }
    int shift = exponent - SUB_BITS;
    int mantissa = (int) (v >>> shift);
    return (shift + 1) * SUB + (mantissa - SUB);
  }

  /** Smallest value of a bucket. */
  static long lowerBound(int index) {
    if (index < SUB) {
      return index;
    }
    int shift = index / SUB - 1;
    long mantissa = SUB + index % SUB;
    return mantissa << shift;
  }

  /** First value above a bucket. */
  static long upperBound(int index) {
    return index + 1 < BUCKETS ? lowerBound(index + 1) : Long.MAX_VALUE;
  }

  public void record(long nanos) {
    counts.incrementAndGet(index(nanos));
    sumNanos.add(nanos);
    long max = maxNanos.get();
    while (nanos > max && !maxNanos.compareAndSet(max, nanos)) {
      max = maxNanos.get();
    }
  }

  /** Adds another histogram's counts into this one (merging per-thread histograms). */
  public void add(Histogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      long c = other.counts.get(i);
      if (c != 0) {
        counts.addAndGet(i, c);
      }
    }
    sumNanos.add(other.sumNanos.sum());
    long otherMax = other.maxNanos.get();
    long max = maxNanos.get();
    while (otherMax > max && !maxNanos.compareAndSet(max, otherMax)) {
      max = maxNanos.get();
    }
  }

  /** A consistent-enough copy to read percentiles from while recording goes on. */
  public Snapshot snapshot() {
    long[] copy = new long[BUCKETS];
    long count = 0;
    for (int i = 0; i < BUCKETS; i++) {
      copy[i] = counts.get(i);
      count += copy[i];
    }
    return new Snapshot(copy, count, sumNanos.sum(), maxNanos.get());
  }

  /** Immutable view of a histogram. */
  public static final class Snapshot {
    private final long[] counts;
    private final long count;
    private final long sumNanos;
    private final long maxNanos;

    Snapshot(long[] counts, long count, long sumNanos, long maxNanos) {
      this.counts = counts;
      this.count = count;
      this.sumNanos = sumNanos;
      this.maxNanos = maxNanos;
    }

    public long count() {
      return count;
    }

    public long sumNanos() {
      return sumNanos;
    }

    public long maxNanos() {
      return maxNanos;
    }

    public double meanNanos() {
      return count == 0 ? 0 : (double) sumNanos / count;
    }

    /**
     * Nearest-rank percentile (the smallest recorded value with at least p percent of values at
     * or below it), reported as its bucket's midpoint, never above the maximum seen.
     */
    public long percentileNanos(double percent) {
      if (count == 0) {
        return 0;
      }
      long rank = Math.max(1, (long) Math.ceil(percent / 100.0 * count));
      long seen = 0;
      for (int i = 0; i < counts.length; i++) {
        seen += counts[i];
        if (seen >= rank) {
          long lower = lowerBound(i);
          long upper = upperBound(i);
          long mid = upper == Long.MAX_VALUE ? lower : lower + (upper - lower - 1) / 2;
          return Math.min(mid, maxNanos);
        }
      }
      return maxNanos;
    }

    /** How many values are below {@code nanos} (a bucket edge gives an exact answer). */
    public long countBelow(long nanos) {
      long below = 0;
      for (int i = 0; i < counts.length && upperBound(i) <= nanos; i++) {
        below += counts[i];
      }
      return below;
    }
  }
}
