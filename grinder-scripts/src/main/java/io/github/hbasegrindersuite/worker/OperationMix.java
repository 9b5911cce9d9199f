package io.github.hbasegrindersuite.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Draws the next operation with the configured percentages. One instance per thread. */
public final class OperationMix {
  private final Operation[] operations;
  private final int[] cumulative;
  private final SplittableRandom random;

  public OperationMix(Map<Operation, Integer> weights, SplittableRandom random) {
    List<Operation> ops = new ArrayList<>();
    List<Integer> sums = new ArrayList<>();
    int total = 0;
    for (Map.Entry<Operation, Integer> entry : weights.entrySet()) {
      if (entry.getValue() > 0) {
        total += entry.getValue();
        ops.add(entry.getKey());
        sums.add(total);
      }
    }
    if (ops.isEmpty()) {
      throw new IllegalArgumentException("the mix has no operation with a weight above 0");
    }
    this.operations = ops.toArray(new Operation[0]);
    this.cumulative = sums.stream().mapToInt(Integer::intValue).toArray();
    this.random = random;
  }

  public Operation next() {
    if (operations.length == 1) {
      return operations[0];
    }
    int draw = random.nextInt(cumulative[cumulative.length - 1]);
    for (int i = 0; i < cumulative.length; i++) {
      if (draw < cumulative[i]) {
        return operations[i];
      }
    }
    return operations[operations.length - 1];
  }
}
