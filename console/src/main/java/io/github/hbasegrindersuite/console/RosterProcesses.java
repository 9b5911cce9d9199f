package io.github.hbasegrindersuite.console;

import io.github.hbasegrindersuite.console.live.LiveStatistics;

/** The run's agents and workers, as the live endpoint reads them from the {@link RunRoster}. */
final class RosterProcesses implements LiveStatistics.Processes {

  private final RunRoster roster;
  private volatile int workersExpected;

  RosterProcesses(RunRoster roster) {
    this.roster = roster;
  }

  /** Known once the run's properties are read: agents x grinder.processes. */
  void workersExpected(int workers) {
    workersExpected = workers;
  }

  @Override
  public int agentsExpected() {
    return roster.expected().size();
  }

  @Override
  public int agentsConnected() {
    return roster.connected().size();
  }

  @Override
  public int workersExpected() {
    return workersExpected;
  }

  @Override
  public int workersIn(String state) {
    return roster.workersIn(RunRoster.State.valueOf(state));
  }

  @Override
  public int workersLost() {
    return roster.deadWorkers().size();
  }

  @Override
  public int threadsRunning() {
    return roster.runningThreads();
  }
}
