package io.github.hbasegrindersuite.console.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WarmupJudgeTest {

  @Test
  void warmOnceTheServersJitHasBeenQuietForAWindow() {
    final WarmupJudge judge = new WarmupJudge(60);
    // 1,000 -> 5,000 req/s over 8 s with the servers' JIT busy, then 8,000 +- 3% with it quiet
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
    // the servers' JIT over the last 10 s: at 16, (2 x 0.40 + 8 x 0.01) / 10 = 8.8%; at 17, (0.40 + 9 x 0.01) / 10 = 4.9%
    assertEquals(17, decidedAt);
    assertTrue(judge.warm());
    assertEquals("warm after 17 s: JIT 4.9% of the server side's CPU over 10 s (8040 req/s, varying 2%; JIT 4.8% of the client's, whose worker JVM is new at the next run)", judge.verdict());
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
    assertEquals("warm after 10 s: JIT 2.0% of the server side's CPU over 10 s (5000 req/s, varying 0%; JIT 30.0% of the client's, whose worker JVM is new at the next run)", judge.verdict());
  }

  @Test
  void warmWorkersWaitForTheClientsJitToo() {
    // session.workers = warm: the next run's workers run in this agent JVM and keep what it compiles
    final WarmupJudge judge = new WarmupJudge(30, true);
    for (int i = 0; i < 12; i++) {
      assertFalse(judge.second(5000, 0.02, 0.30), "second " + (i + 1));
    }
    // the client's JIT over the last 10 s: at 20, (2 x 0.30 + 8 x 0.01) / 10 = 6.8%; at 21, (0.30 + 9 x 0.01) / 10 = 3.9%
    boolean decided = false;
    int at = 12;
    while (!decided && at < 30) {
      at++;
      decided = judge.second(5000, 0.02, 0.01);
    }
    assertEquals(21, at);
    assertTrue(judge.warm());
    assertEquals("warm after 21 s: JIT 2.0% of the server side's CPU over 10 s (5000 req/s, varying 0%; JIT 3.9% of the client's, whose workers stay warm in the agent)", judge.verdict());
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
      assertFalse(judge.second(tps, Double.NaN, Double.NaN), "second " + (i + 1));
      tps *= 1.03;
    }
  }
}
