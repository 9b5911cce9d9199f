package io.github.hbasegrindersuite.shim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramTest {

  private static void assertWithinOnePercent(long expected, long got, String what) {
    assertTrue(Math.abs(got - expected) <= expected * 0.01, what + ": " + got + " vs " + expected + " (more than 1% apart)");
  }

  @Test
  void handComputedPercentilesWithinOnePercent() {
    // 1, 2, ..., 1000 microseconds: the nearest rank of p is the value ceil(p/100 * 1000) us.
    Histogram h = new Histogram();
    for (int us = 1000; us >= 1; us--) {
      h.record(us * 1000L);
    }
    Histogram.Snapshot s = h.snapshot();
    assertEquals(1000, s.count());
    assertWithinOnePercent(500_000, s.percentileNanos(50), "p50");
    assertWithinOnePercent(900_000, s.percentileNanos(90), "p90");
    assertWithinOnePercent(950_000, s.percentileNanos(95), "p95");
    assertWithinOnePercent(990_000, s.percentileNanos(99), "p99");
    assertWithinOnePercent(999_000, s.percentileNanos(99.9), "p99.9");
    assertWithinOnePercent(1_000, s.percentileNanos(0.1), "p0.1");
    assertEquals(1_000_000, s.percentileNanos(100), "p100 is the exact maximum");
    assertEquals(500_500_000L, s.sumNanos(), "the sum is exact");
    assertEquals(500_500.0, s.meanNanos(), 1e-9);
  }

  @Test
  void percentilesOfASkewedSampleAreNearestRankWithinOnePercent() {
    SplittableRandom r = new SplittableRandom(7);
    int n = 100_000;
    long[] values = new long[n];
    Histogram h = new Histogram();
    for (int i = 0; i < n; i++) {
      values[i] = 20_000 + (long) (Math.exp(r.nextDouble() * 12) * 100);
      h.record(values[i]);
    }
    Arrays.sort(values);
    Histogram.Snapshot s = h.snapshot();
    assertEquals(n, s.count());
    for (double p : new double[] {1, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100}) {
      long exact = values[(int) Math.ceil(p / 100 * n) - 1];
      assertWithinOnePercent(exact, s.percentileNanos(p), "p" + p);
    }
    assertEquals(values[n - 1], s.maxNanos());
    assertEquals(Arrays.stream(values).sum(), s.sumNanos());
  }

  @Test
  void mergingIsExact() {
    SplittableRandom r = new SplittableRandom(11);
    Histogram all = new Histogram();
    Histogram a = new Histogram();
    Histogram b = new Histogram();
    for (int i = 0; i < 20_000; i++) {
      long v = 1_000 + r.nextLong(50_000_000);
      all.record(v);
      (i % 3 == 0 ? a : b).record(v);
    }
    a.add(b);
    Histogram.Snapshot merged = a.snapshot();
    Histogram.Snapshot whole = all.snapshot();
    assertEquals(whole.count(), merged.count());
    assertEquals(whole.sumNanos(), merged.sumNanos());
    assertEquals(whole.maxNanos(), merged.maxNanos());
    for (double p : new double[] {50, 90, 99, 99.9}) {
      assertEquals(whole.percentileNanos(p), merged.percentileNanos(p), "p" + p + " of the merge");
    }
    assertEquals(whole.hdrHistogram(), merged.hdrHistogram(), "HdrHistogram's own equality: same counts in every bucket");
  }

  @Test
  void smallCountsAreExactBelow256Nanos() {
    Histogram a = new Histogram();
    Histogram b = new Histogram();
    assertEquals(0, a.snapshot().percentileNanos(50));
    a.record(100);
    a.record(200);
    b.record(300);
    b.record(10_000_000);
    b.record(-5); // a clock step backwards counts as 0
    a.add(b);
    Histogram.Snapshot s = a.snapshot();
    assertEquals(5, s.count());
    assertEquals(10_000_000, s.maxNanos());
    assertEquals(0, s.percentileNanos(20), "nearest rank 1 of 5: the 0");
    assertEquals(200, s.percentileNanos(50), "nearest rank 3 of 5: 200, exact below 256 ns");
    assertEquals(10_000_000, s.percentileNanos(100));
    assertEquals(4, s.countBelow(8192));
    assertEquals(5, s.countBelow(1L << 34));
  }

  @Test
  void prometheusBoundsAreBucketEdgesSoTheirCountsAreExact() {
    Histogram h = new Histogram();
    for (long bound : ShimMetrics.PROMETHEUS_BOUNDS_NANOS) {
      h.record(bound - 1);
      h.record(bound);
    }
    Histogram.Snapshot s = h.snapshot();
    for (int i = 0; i < ShimMetrics.PROMETHEUS_BOUNDS_NANOS.length; i++) {
      assertEquals(2L * i + 1, s.countBelow(ShimMetrics.PROMETHEUS_BOUNDS_NANOS[i]),
          "below " + ShimMetrics.PROMETHEUS_BOUNDS_NANOS[i] + ": every value under it, none at it");
    }
  }

  @Test
  void concurrentRecordingWhileSnapshottingLosesNothing() throws Exception {
    Histogram h = new Histogram();
    int threads = 4;
    int perThread = 50_000;
    List<Thread> recorders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final long base = (t + 1) * 1_000L;
      Thread thread = new Thread(() -> {
        for (int i = 0; i < perThread; i++) {
          h.record(base + i);
        }
      });
      recorders.add(thread);
      thread.start();
    }
    long last = 0;
    while (recorders.stream().anyMatch(Thread::isAlive)) {
      long count = h.snapshot().count();
      assertTrue(count >= last, "counts only grow");
      last = count;
    }
    for (Thread thread : recorders) {
      thread.join(10_000);
    }
    assertEquals((long) threads * perThread, h.snapshot().count());
  }
}
