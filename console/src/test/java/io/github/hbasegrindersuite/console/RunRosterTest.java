package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.github.hbasegrindersuite.console.RunRoster.Agent;
import io.github.hbasegrindersuite.console.RunRoster.State;
import io.github.hbasegrindersuite.console.RunRoster.Worker;
import org.junit.jupiter.api.Test;

class RunRosterTest {

  private static Agent agent(String name, Worker... workers) {
    return new Agent(name, Arrays.asList(workers));
  }

  private static Worker worker(String name, State state) {
    return new Worker(name, state, state == State.RUNNING ? 4 : 0);
  }

  private static List<Agent> report(Agent... agents) {
    return Arrays.asList(agents);
  }

  @Test
  void waitsForEveryExpectedAgentThenGoesOn() {
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"));
    roster.update(report(agent("inj1")));
    assertEquals(Collections.singletonList("inj2"), roster.missing());
    assertNull(RunRules.agents(roster, 1000, 60));
    roster.update(report(agent("inj1"), agent("inj2")));
    assertTrue(RunRules.agents(roster, 2000, 60).complete());
  }

  @Test
  void aMissingAgentFailsAtTheTimeoutNamingIt() {
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"));
    roster.update(report(agent("inj1")));
    final Outcome outcome = RunRules.agents(roster, 60_000, 60);
    assertEquals(Outcome.Kind.AGENTS_MISSING, outcome.kind());
    assertEquals(3, outcome.kind().code());
    assertEquals("agent inj2 did not connect within 60s (connected: inj1)", outcome.reason());
  }

  @Test
  void anUnexpectedAgentIsRefused() {
    final RunRoster roster = new RunRoster(Collections.singletonList("inj1"));
    roster.update(report(agent("inj1"), agent("stranger")));
    final Outcome outcome = RunRules.agents(roster, 0, 60);
    assertEquals(Outcome.Kind.AGENTS_MISSING, outcome.kind());
    assertTrue(outcome.reason().startsWith("unexpected agent stranger connected"), outcome.reason());
  }

  @Test
  void completeWhenEveryWorkerOfEveryAgentFinished() {
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"));
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.STARTED))));
    assertNull(RunRules.follow(roster, 5000, 1, 90, 600));
    assertEquals(8 / 2, roster.runningThreads());
    roster.update(report(agent("inj1", worker("inj1-0", State.FINISHED)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    assertNull(RunRules.follow(roster, 6000, 1, 90, 600));
    roster.update(report(agent("inj1"), agent("inj2", worker("inj2-0", State.FINISHED))));
    final Outcome outcome = RunRules.follow(roster, 7000, 1, 90, 600);
    assertTrue(outcome.complete(), outcome.reason());
    assertEquals("all 2 workers finished", outcome.reason());
    // Agents leaving after the workers finished (a stop) is no failure.
    roster.update(report());
    assertTrue(RunRules.follow(roster, 9000, 1, 90, 600).complete());
  }

  @Test
  void aWorkerThatStaysAwayWithoutFinishingDied() {
    final long[] now = {0};
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"), () -> now[0]);
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    now[0] = 5000;
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)), agent("inj2")));
    now[0] = 14_999;
    assertEquals(Collections.emptyList(), roster.deadWorkers());
    assertNull(RunRules.follow(roster, 14_999, 1, 90, 600));
    now[0] = 15_000;
    assertEquals(Collections.singletonList("inj2-0 (last RUNNING)"), roster.deadWorkers());
    // inj1 keeps measuring: the run goes on until it finishes too.
    assertNull(RunRules.follow(roster, 15_000, 1, 90, 600));
    now[0] = 30_000;
    roster.update(report(agent("inj1", worker("inj1-0", State.FINISHED)), agent("inj2")));
    final Outcome outcome = RunRules.follow(roster, 30_000, 1, 90, 600);
    assertEquals(Outcome.Kind.WORKERS_DIED, outcome.kind());
    assertEquals("worker inj2-0 (last RUNNING) stopped reporting without finishing (killed or crashed);"
        + " the other 1 worker(s) ran to the end", outcome.reason());
  }

  @Test
  void aMomentaryGapInTheReportsIsNoFailure() {
    final long[] now = {0};
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"), () -> now[0]);
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    now[0] = 4000; // a busy console misses a beat: inj1 is forgotten for a while
    roster.update(report(agent("inj2", worker("inj2-0", State.RUNNING))));
    now[0] = 9000;
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    now[0] = 60_000; // steady reports bring no update; nobody is gone
    assertEquals(Collections.emptyList(), roster.lost());
    assertEquals(Collections.emptyList(), roster.deadWorkers());
    assertNull(RunRules.follow(roster, 60_000, 1, 90, 600));
  }

  @Test
  void anAgentLostDuringTheRunIsNamed() {
    final long[] now = {0};
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"), () -> now[0]);
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    now[0] = 30_000;
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING))));
    assertEquals(Collections.emptyList(), roster.lost());
    now[0] = 40_000;
    assertEquals(Collections.singletonList("inj2"), roster.lost());
    assertNull(RunRules.follow(roster, 40_000, 1, 90, 600));   // inj1 still measures
    roster.update(report(agent("inj1", worker("inj1-0", State.FINISHED))));
    final Outcome outcome = RunRules.follow(roster, 45_000, 1, 90, 600);
    assertEquals(Outcome.Kind.WORKERS_DIED, outcome.kind());
    assertTrue(outcome.reason().startsWith("agent inj2 disconnected during the run; workers lost: inj2-0 (last RUNNING)"), outcome.reason());
    assertTrue(outcome.reason().endsWith("the other 1 worker(s) ran to the end"), outcome.reason());
  }

  @Test
  void aLostAgentsWorkerThatReportedFinishedAsItDiedDidNotRunToTheEnd() {
    // seen in CI: inj3's agent was killed, its worker's last report said FINISHED, and inj2's worker was killed
    final long[] now = {0};
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2", "inj3"), () -> now[0]);
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)), agent("inj2", worker("inj2-0", State.RUNNING)),
                         agent("inj3", worker("inj3-0", State.RUNNING))));
    now[0] = 1000;
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)), agent("inj2"), agent("inj3", worker("inj3-0", State.FINISHED))));
    now[0] = 2000;
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING)), agent("inj2")));
    now[0] = 20_000;
    roster.update(report(agent("inj1", worker("inj1-0", State.FINISHED)), agent("inj2")));
    assertEquals(2, roster.workersIn(State.FINISHED));   // inj3-0 among them
    final Outcome outcome = RunRules.follow(roster, 20_000, 1, 90, 600);
    assertEquals("agent inj3 disconnected during the run; workers lost: inj2-0 (last RUNNING); the other 1 worker(s) ran to the end",
        outcome.reason());
  }

  @Test
  void whenEveryWorkerIsGoneTheRunEndsAtOnce() {
    final long[] now = {0};
    final RunRoster roster = new RunRoster(Arrays.asList("inj1"), () -> now[0]);
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING))));
    now[0] = 3000;
    roster.update(report(agent("inj1")));
    now[0] = 13_000;
    final Outcome outcome = RunRules.follow(roster, 13_000, 1, 90, 600);
    assertEquals(Outcome.Kind.WORKERS_DIED, outcome.kind());
    assertTrue(outcome.reason().endsWith("no worker finished"), outcome.reason());
  }

  @Test
  void workersThatNeverStartAndRunsThatNeverEndAreBounded() {
    final RunRoster roster = new RunRoster(Arrays.asList("inj1", "inj2"));
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING), worker("inj1-1", State.RUNNING)),
                         agent("inj2", worker("inj2-0", State.RUNNING))));
    assertNull(RunRules.follow(roster, 89_000, 2, 90, 600));
    final Outcome notStarted = RunRules.follow(roster, 90_000, 2, 90, 600);
    assertEquals(Outcome.Kind.WORKERS_DIED, notStarted.kind());
    assertTrue(notStarted.reason().startsWith("worker processes of inj2 did not start within 90s"));

    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING), worker("inj1-1", State.FINISHED)),
                         agent("inj2", worker("inj2-0", State.RUNNING), worker("inj2-1", State.RUNNING))));
    final Outcome timeout = RunRules.follow(roster, 600_000, 2, 90, 600);
    assertEquals(Outcome.Kind.TIMEOUT, timeout.kind());
    assertEquals(5, timeout.kind().code());
    assertEquals("workers still running after 600s: inj1-0 RUNNING, inj2-0 RUNNING, inj2-1 RUNNING",
                 timeout.reason());
    assertFalse(roster.allFinished(2));
  }

  @Test
  void progressLineSaysWhatRuns() {
    final RunRoster roster = new RunRoster(Collections.singletonList("inj1"));
    roster.update(report(agent("inj1", worker("inj1-0", State.RUNNING))));
    assertEquals("progress: 12s, 2345.7 TPS, mean 0.812 ms, 3 errors, 28140 tests, "
                 + "workers 1 running, 0 finished of 1, 4 threads",
                 RunRules.progressLine(12_345, 2345.67, 0.8123, 3, 28140, roster, 1));
    assertTrue(RunRules.progressLine(1000, Double.NaN, Double.NaN, 0, 0, roster, 1)
                 .startsWith("progress: 1s, NA TPS, mean NA ms"));
  }

  @Test
  void aCompleteRunSaysHowItEndedForADurationOrForAFixedAmountOfWork() {
    assertEquals("", RunRules.howItEnded(0, 60_000, 59_000));   // lasted its duration
    assertEquals(" after 20.0s of the planned 60s (stopped early from the console?)", RunRules.howItEnded(0, 60_000, 20_000));
    assertEquals(" after 44.3s: its 33334 runs a thread (grinder.runs) done", RunRules.howItEnded(33334, 900_000, 44_300));
    assertEquals(" after 3.0s: its 500 runs a thread (grinder.runs) done", RunRules.howItEnded(500, 0, 3_000));
    assertEquals(" at its bound of 60s: its 500 runs a thread (grinder.runs) may not all be done; the data logs count them",
                 RunRules.howItEnded(500, 60_000, 60_400));
  }
}
