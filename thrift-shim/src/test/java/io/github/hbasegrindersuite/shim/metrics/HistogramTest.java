package io.github.hbasegrindersuite.shim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramTest {

  @Test
  void bucketsAreContiguousAndNarrow() {
    assertEquals(0, Histogram.lowerBound(0));
    for (int i = 0; i < Histogram.BUCKETS - 1; i++) {
      long lo = Histogram.lowerBound(i);
      long hi = Histogram.upperBound(i);
      assertTrue(hi > lo, "bucket " + i);
      assertEquals(i, Histogram.index(lo), "lower bound of " + i);
      assertEquals(i, Histogram.index(hi - 1), "last value of " + i);
      assertEquals(i + 1, Histogram.index(hi), "upper bound of " + i);
      if (lo >= 16) {
        assertTrue((double) (hi - lo) / lo <= 1.0 / 16 + 1e-12, "bucket " + i + " too wide");
      }
    }
    assertEquals(Histogram.BUCKETS - 1, Histogram.index(Long.MAX_VALUE));
    assertEquals(0, Histogram.index(-5));
  }

  @Test
  void percentilesAreNearestRankWithinBucketError() {
    SplittableRandom r = new SplittableRandom(7);
    int n = 100_000;
    long[] values = new long[n];
    Histogram h = new Histogram();
    for (int i = 0; i < n; i++) {
      values[i] = 20_000 + (long) (Math.exp(r.nextDouble() * 6) * 10_000);
      h.record(values[i]);
    }
    Arrays.sort(values);
    Histogram.Snapshot s = h.snapshot();
    assertEquals(n, s.count());
    for (double p : new double[] {50, 90, 99, 99.9, 100}) {
      long exact = values[(int) Math.ceil(p / 100 * n) - 1];
      long got = s.percentileNanos(p);
      assertTrue(Math.abs(got - exact) <= exact * 0.033, p + ": " + got + " vs " + exact);
    }
    assertEquals(values[n - 1], s.maxNanos());
    assertEquals(Arrays.stream(values).sum(), s.sumNanos());
  }

  @Test
  void smallCountsAndMerging() {
    Histogram a = new Histogram();
    Histogram b = new Histogram();
    assertEquals(0, a.snapshot().percentileNanos(50));
    a.record(100);
    a.record(200);
    b.record(300);
    b.record(10_000_000);
    a.add(b);
    Histogram.Snapshot s = a.snapshot();
    assertEquals(4, s.count());
    assertEquals(10_000_000, s.maxNanos());
    // nearest rank: p50 of 4 values is the 2nd value (200 lies in bucket 192..207)
    assertTrue(Math.abs(s.percentileNanos(50) - 200) <= 8);
    assertTrue(s.percentileNanos(100) <= 10_000_000);
    assertEquals(3, s.countBelow(8192));
    assertEquals(4, s.countBelow(1L << 34));
  }
}
