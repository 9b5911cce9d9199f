package io.github.hbasegrindersuite.shim.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The equal-load report's round-by-round differences from the direct client. */
class TotalsTest {

  private static SliceResult slice(long... latencyMicros) {
    Histogram latency = new Histogram();
    Histogram uncorrected = new Histogram();
    for (long us : latencyMicros) {
      latency.record(us * 1000);
      uncorrected.record(us * 1000 / 2);
    }
    return new SliceResult(latency, uncorrected, latencyMicros.length, 0, 1.0, Map.of(), Map.of());
  }

  @Test
  void differencesAreTakenRoundByRoundWithANearestRankMedianAndTheRange() {
    Totals.RoundDifferences d = Totals.perRoundDifferences(List.of(1653.0, 1209.0, 1723.0, 1193.0, 1359.0, 1267.0),
        List.of(1000.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0));
    assertArrayEquals(new double[] {653, 209, 723, 193, 359, 267}, d.values());
    // nearest rank over six: the third smallest (193 209 267 359 653 723)
    assertEquals(267, d.median());
    assertEquals(193, d.min());
    assertEquals(723, d.max());
    assertEquals("+267 us (+193 to +723; per round +653 +209 +723 +193 +359 +267)", d.describe());
  }

  @Test
  void aRoundWhereThePathWasFasterGivesANegativeDifference() {
    Totals.RoundDifferences d = Totals.perRoundDifferences(List.of(900.0, 1500.0, 1100.0), List.of(1000.0, 1000.0, 1000.0));
    assertArrayEquals(new double[] {-100, 500, 100}, d.values());
    assertEquals(100, d.median());
    assertEquals("+100 us (-100 to +500; per round -100 +500 +100)", d.describe());
  }

  @Test
  void roundsTheReferenceLacksAreLeftOut() {
    assertArrayEquals(new double[] {5}, Totals.perRoundDifferences(List.of(10.0, 20.0), List.of(5.0)).values());
  }

  @Test
  void eachAddedSliceKeepsItsOwnMedianBothWays() {
    Totals totals = new Totals();
    SliceResult fast = slice(400, 500, 600);
    SliceResult slow = slice(1400, 1500, 1600);
    totals.add(fast);
    totals.add(slow);
    assertEquals(List.of(fast.medianMicros(), slow.medianMicros()), totals.perRoundP50);
    assertEquals(List.of(fast.uncorrected().snapshot().percentileNanos(50) / 1000.0,
        slow.uncorrected().snapshot().percentileNanos(50) / 1000.0), totals.perRoundUncorrectedP50);
    // the two rounds' medians are their own, not the pooled one
    assertEquals(500, totals.perRoundP50.get(0), 500 * 0.02);
    assertEquals(1500, totals.perRoundP50.get(1), 1500 * 0.02);
    assertEquals(750, totals.perRoundUncorrectedP50.get(1), 750 * 0.02);
  }
}
