package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OperationMixTest {

  @Test
  void seventyThirtyOver100kDraws() {
    Map<Operation, Integer> weights = new LinkedHashMap<>();
    weights.put(Operation.GET, 70);
    weights.put(Operation.PUT, 30);
    OperationMix mix = new OperationMix(weights, new SplittableRandom(3));
    int gets = 0;
    for (int i = 0; i < 100_000; i++) {
      gets += mix.next() == Operation.GET ? 1 : 0;
    }
    // Binomial sd = sqrt(100000 * 0.7 * 0.3) = 145; 5 sd either side.
    assertTrue(gets > 69_275 && gets < 70_725, "gets " + gets);
  }

  @Test
  void fourWayMixAndZeroWeights() {
    Map<Operation, Integer> weights = new LinkedHashMap<>();
    weights.put(Operation.GET, 40);
    weights.put(Operation.SCAN, 10);
    weights.put(Operation.DELETE, 0);
    weights.put(Operation.INCREMENT, 50);
    OperationMix mix = new OperationMix(weights, new SplittableRandom(5));
    Map<Operation, Integer> counts = new EnumMap<>(Operation.class);
    for (int i = 0; i < 100_000; i++) {
      counts.merge(mix.next(), 1, Integer::sum);
    }
    assertEquals(null, counts.get(Operation.DELETE));
    assertTrue(Math.abs(counts.get(Operation.GET) - 40_000) < 800, counts.toString());
    assertTrue(Math.abs(counts.get(Operation.SCAN) - 10_000) < 500, counts.toString());
    assertTrue(Math.abs(counts.get(Operation.INCREMENT) - 50_000) < 800, counts.toString());
  }

  @Test
  void sameSeedSameSequence() {
    Map<Operation, Integer> weights = Map.of(Operation.GET, 50, Operation.PUT, 50);
    OperationMix a = new OperationMix(new LinkedHashMap<>(weights), new SplittableRandom(9));
    OperationMix b = new OperationMix(new LinkedHashMap<>(weights), new SplittableRandom(9));
    for (int i = 0; i < 1000; i++) {
      assertEquals(a.next(), b.next());
    }
  }
}
