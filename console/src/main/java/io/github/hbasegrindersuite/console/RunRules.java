package io.github.hbasegrindersuite.console;

import java.util.List;
import java.util.Locale;

/**
 * The controller's decisions, as pure functions of what the roster knows and how long it has
 * been: keep waiting (null), go on ({@link Outcome.Kind#COMPLETE}), or stop with a reason.
 */
public final class RunRules {

  private RunRules() {
  }

  /** While waiting for the agents before anything is started. */
  public static Outcome agents(RunRoster roster, long elapsedMs, int timeoutSeconds) {
    final List<String> unexpected = roster.unexpected();
    if (!unexpected.isEmpty()) {
      return new Outcome(Outcome.Kind.AGENTS_MISSING,
          "unexpected agent " + String.join(", ", unexpected) + " connected to this console (expected: "
          + String.join(", ", roster.expected()) + "); another run uses the same console port?");
    }
    final List<String> missing = roster.missing();
    if (missing.isEmpty()) {
      return new Outcome(Outcome.Kind.COMPLETE, "all " + roster.expected().size() + " agents connected");
    }
    if (elapsedMs >= timeoutSeconds * 1000L) {
      final List<String> connected = roster.connected();
      return new Outcome(Outcome.Kind.AGENTS_MISSING,
          "agent" + (missing.size() > 1 ? "s " : " ") + String.join(", ", missing)
          + " did not connect within " + timeoutSeconds + "s (connected: "
          + (connected.isEmpty() ? "none" : String.join(", ", connected)) + ")");
    }
    return null;
  }

  /**
   * While the workers run. A lost agent or a dead worker does not end the run: the others keep
   * measuring to their end (a load tool is used when things break), and the outcome then names
   * what was lost. Only when nothing is left running, or on the timeouts, does the run end.
   */
  public static Outcome follow(RunRoster roster, long elapsedMs, int processesPerAgent,
                               int workerStartTimeoutSeconds, int runTimeoutSeconds) {
    if (roster.allFinished(processesPerAgent)) {
      return new Outcome(Outcome.Kind.COMPLETE, "all " + roster.workersSeen() + " workers finished");
    }
    final List<String> dead = roster.deadWorkers();
    final List<String> lost = roster.lost();
    if (roster.allSettled(processesPerAgent)) {
      final int finished = roster.finishedExcept(lost);
      final String survivors = finished == 0 ? "no worker finished" : "the other " + finished + " worker(s) ran to the end";
      if (!lost.isEmpty()) {
        return new Outcome(Outcome.Kind.WORKERS_DIED,
            "agent " + String.join(", ", lost) + " disconnected during the run"
            + (dead.isEmpty() ? "" : "; workers lost: " + String.join(", ", dead)) + "; " + survivors);
      }
      return new Outcome(Outcome.Kind.WORKERS_DIED,
          "worker " + String.join(", ", dead) + " stopped reporting without finishing (killed or crashed); " + survivors);
    }
    final List<String> short_ = roster.agentsShortOfWorkers(processesPerAgent);
    short_.removeAll(lost);
    if (!short_.isEmpty() && elapsedMs >= workerStartTimeoutSeconds * 1000L) {
      return new Outcome(Outcome.Kind.WORKERS_DIED,
          "worker processes of " + String.join(", ", short_) + " did not start within "
          + workerStartTimeoutSeconds + "s (expected " + processesPerAgent + " per agent)");
    }
    if (elapsedMs >= runTimeoutSeconds * 1000L) {
      return new Outcome(Outcome.Kind.TIMEOUT,
          "workers still running after " + runTimeoutSeconds + "s: " + String.join(", ", roster.unfinished()));
    }
    return null;
  }

  /** "progress: 12s, 2345.0 TPS, mean 0.812 ms, 0 errors, 28140 tests, workers 2 running, 0 finished of 2". */
  /**
   * What a complete run's outcome adds about its length: a run for a duration that ended well before
   * it (stopped from the console?), or a fixed amount of work (grinder.runs a thread) done before
   * its duration bound or cut by it. Empty when a run for a duration lasted it.
   */
  public static String howItEnded(int runsPerThread, long plannedMs, long elapsedMs) {
    final boolean early = plannedMs > 0 && elapsedMs < plannedMs - 2000;
    if (runsPerThread > 0) {
      return early || plannedMs <= 0
          ? String.format(Locale.ROOT, " after %.1fs: its %d runs a thread (grinder.runs) done", elapsedMs / 1000.0, runsPerThread)
          : String.format(Locale.ROOT, " at its bound of %ds: its %d runs a thread (grinder.runs) may not all be done; the data logs count them",
              plannedMs / 1000, runsPerThread);
    }
    return early ? String.format(Locale.ROOT, " after %.1fs of the planned %ds (stopped early from the console?)",
        elapsedMs / 1000.0, plannedMs / 1000) : "";
  }

  public static String progressLine(long elapsedMs, double intervalTps, double meanMs, long errors,
                                    long tests, RunRoster roster, int expectedWorkers) {
    return String.format(Locale.ROOT,
        "progress: %ds, %s TPS, mean %s ms, %d errors, %d tests, workers %d running, %d finished of %d, %d threads",
        elapsedMs / 1000, TestRow.number(intervalTps, 1), TestRow.number(meanMs, 3), errors, tests,
        roster.workersIn(RunRoster.State.RUNNING), roster.workersIn(RunRoster.State.FINISHED), expectedWorkers,
        roster.runningThreads());
  }
}
