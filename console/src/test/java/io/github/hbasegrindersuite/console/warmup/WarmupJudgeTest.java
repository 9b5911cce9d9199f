package io.github.hbasegrindersuite.console.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WarmupJudgeTest {

  @Test
  void aRampThatLevelsOffIsWarmOnceFlatAndQuiet() {
    final WarmupJudge judge = new WarmupJudge(60);
    // 1,000 -> 5,000 req/s over 8 s with the JIT busy, then flat at 8,000 +- 3% with the JIT quiet
    final double[] ramp = {1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000};
    for (double tps : ramp) {
      assertFalse(judge.second(tps, 0.40, 0.30));
    }
    final double[] flat = {7800, 8100, 8000, 7900, 8200, 8000, 7900, 8100, 8000, 8050};
    int decidedAt = -1;
    for (int i = 0; i < flat.length && decidedAt < 0; i++) {
      if (judge.second(flat[i], 0.01, 0.02)) {
        decidedAt = ramp.length + i + 1;
      }
    }
    // the last 5 s must also not be over 10% above the 5 s before: at second 16 they are 8,020 against 6,580
    // (the ramp's 4,000 and 5,000 still in them); at 17, 8,040 against 7,360 x 1.1 = 8,096 holds
    assertEquals(17, decidedAt);
    assertTrue(judge.warm());
    assertEquals("warm after 17 s: 8040 req/s within 10% over 5 s, JIT 1.0% of the server side's CPU and 2.0% of the client's", judge.verdict());
  }

  @Test
  void flatThroughputWithTheServersJitStillBusyIsNotWarm() {
    final WarmupJudge judge = new WarmupJudge(20);
    for (int i = 0; i < 19; i++) {
      assertFalse(judge.second(5000, 0.12, 0.02), "second " + (i + 1));
    }
    assertTrue(judge.second(5000, 0.12, 0.02));
    assertFalse(judge.warm());
    assertTrue(judge.verdict().startsWith("not warm after the 20 s bound: 5000 req/s varying 0% over the last 5 s, JIT 12.0% of the server"), judge.verdict());
  }

  @Test
  void theWorkersOwnJitDoesNotHoldTheWarmUp() {
    // Grinder starts a new worker JVM for the next run: only the servers keep what they compiled
    final WarmupJudge judge = new WarmupJudge(20);
    for (int i = 0; i < 9; i++) {
      assertFalse(judge.second(5000, 0.02, 0.30), "second " + (i + 1));
    }
    assertTrue(judge.second(5000, 0.02, 0.30));
    assertTrue(judge.warm());
    assertEquals("warm after 10 s: 5000 req/s within 10% over 5 s, JIT 2.0% of the server side's CPU and 30.0% of the client's", judge.verdict());
  }

  @Test
  void withoutCpuAccountingThroughputAloneDecides() {
    final WarmupJudge judge = new WarmupJudge(60);
    for (int i = 0; i < WarmupJudge.MIN_SECONDS - 1; i++) {
      assertFalse(judge.second(3000, Double.NaN, Double.NaN));
    }
    assertTrue(judge.second(3000, Double.NaN, Double.NaN));
    assertTrue(judge.warm());
    assertTrue(judge.verdict().contains("JIT unknown of the server side's CPU"), judge.verdict());
  }

  @Test
  void stillRisingIsNotWarm() {
    final WarmupJudge judge = new WarmupJudge(60);
    // +3% a second: each 5-s window within 10% of its mean, but 15% above the window before
    double tps = 1000;
    for (int i = 0; i < 30; i++) {
      assertFalse(judge.second(tps, 0, 0), "second " + (i + 1));
      tps *= 1.03;
    }
  }
}
