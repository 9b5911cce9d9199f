package io.github.hbasegrindersuite.console;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What the console knows about the agents and their workers, from the process reports it gets
 * every half second, and the conclusions the controller draws from it: which expected agents
 * are missing, which unexpected ones came, which workers finished and which died.
 *
 * <p>The console forgets a process a few seconds after its last report, so a worker that was
 * seen running and then stays away without having reported FINISHED has died (killed, crashed,
 * lost its agent). Pure: fed plain values and a clock, so it is unit-tested without a console.
 */
public final class RunRoster {

  /** Grinder's ProcessReport.State, by name. */
  public enum State { STARTED, RUNNING, FINISHED, UNKNOWN }

  /** One worker in one report. */
  public static final class Worker {
    final String name;
    final State state;
    final int runningThreads;

    public Worker(String name, State state, int runningThreads) {
      this.name = name;
      this.state = state;
      this.runningThreads = runningThreads;
    }
  }

  /** One agent and its workers in one report. */
  public static final class Agent {
    final String name;
    final List<Worker> workers;

    public Agent(String name, List<Worker> workers) {
      this.name = name;
      this.workers = workers;
    }
  }

  /**
   * How long a process may be missing from the reports before it counts as gone. The console
   * forgets a process 2-4 s after its last report; a busy console (the Swing one on a loaded
   * machine) can miss a beat and see it again a moment later, which is no failure.
   */
  public static final long ABSENCE_GRACE_MS = 10_000;

  private final List<String> expected;
  private final LongSupplier clock;
  /** Workers of earlier points of a session (their names are never reused): not this run's. */
  private final Set<String> earlier;
  private final Set<String> connected = new LinkedHashSet<>();
  /** Agent or worker name -> when it was first missing from the reports (absent now). */
  private final Map<String, Long> agentAbsentSince = new LinkedHashMap<>();
  /** Worker name -> last state seen; kept after the console forgets the worker. */
  private final Map<String, State> workers = new TreeMap<>();
  private final Map<String, Long> workerAbsentSince = new LinkedHashMap<>();
  private final Map<String, String> workerAgent = new LinkedHashMap<>();
  private final Map<String, Integer> workerThreads = new LinkedHashMap<>();

  public RunRoster(List<String> expectedAgents) {
    this(expectedAgents, System::currentTimeMillis);
  }

  /** With a clock of its own (milliseconds), for tests. */
  public RunRoster(List<String> expectedAgents, LongSupplier clock) {
    this(expectedAgents, clock, Set.of());
  }

  /**
   * For a point of a session: the agents stay connected from point to point, and their workers of
   * earlier points (named {@code host-N}, N counting on within an agent's life) still appear in the
   * reports for a while; they are left out.
   */
  public RunRoster(List<String> expectedAgents, LongSupplier clock, Set<String> earlierWorkers) {
    this.expected = Collections.unmodifiableList(new ArrayList<>(expectedAgents));
    this.clock = clock;
    this.earlier = Set.copyOf(earlierWorkers);
  }

  /** A complete process report: every agent the console currently knows, with its workers. */
  public synchronized void update(List<Agent> agents) {
    final long now = clock.getAsLong();
    final Set<String> known = new LinkedHashSet<>(connected);
    known.addAll(agentAbsentSince.keySet());
    connected.clear();
    final Set<String> present = new LinkedHashSet<>();
    for (Agent agent : agents) {
      connected.add(agent.name);
      agentAbsentSince.remove(agent.name);
      for (Worker worker : agent.workers) {
        if (earlier.contains(worker.name)) {
          continue;
        }
        present.add(worker.name);
        workers.put(worker.name, worker.state);
        workerAbsentSince.remove(worker.name);
        workerAgent.put(worker.name, agent.name);
        workerThreads.put(worker.name, worker.runningThreads);
      }
    }
    for (String name : known) {
      if (!connected.contains(name)) {
        agentAbsentSince.putIfAbsent(name, now);
      }
    }
    for (String name : workers.keySet()) {
      if (!present.contains(name)) {
        workerThreads.put(name, 0);
        workerAbsentSince.putIfAbsent(name, now);
      }
    }
  }

  private boolean goneLongEnough(Map<String, Long> absentSince, String name) {
    final Long since = absentSince.get(name);
    return since != null && clock.getAsLong() - since >= ABSENCE_GRACE_MS;
  }

  public List<String> expected() {
    return expected;
  }

  public synchronized List<String> connected() {
    return new ArrayList<>(connected);
  }

  /** Expected agents not connected now, in the expected order. */
  public synchronized List<String> missing() {
    final List<String> result = new ArrayList<>();
    for (String name : expected) {
      if (!connected.contains(name)) {
        result.add(name);
      }
    }
    return result;
  }

  /** Connected agents nobody expected (another agent on the same console port). */
  public synchronized List<String> unexpected() {
    final List<String> result = new ArrayList<>();
    for (String name : connected) {
      if (!expected.contains(name)) {
        result.add(name);
      }
    }
    return result;
  }

  /** Expected agents that were connected once and have been gone for the grace period. */
  public synchronized List<String> lost() {
    final List<String> result = new ArrayList<>();
    for (String name : expected) {
      if (goneLongEnough(agentAbsentSince, name)) {
        result.add(name);
      }
    }
    return result;
  }

  /** "inj2-0 (last RUNNING)" for every worker gone for the grace period without finishing. */
  public synchronized List<String> deadWorkers() {
    final List<String> result = new ArrayList<>();
    for (Map.Entry<String, State> entry : workers.entrySet()) {
      if (entry.getValue() != State.FINISHED && goneLongEnough(workerAbsentSince, entry.getKey())) {
        result.add(entry.getKey() + " (last " + entry.getValue() + ")");
      }
    }
    return result;
  }

  /** Every worker this roster has seen (a session leaves them out of its next points). */
  public synchronized Set<String> workerNames() {
    return new LinkedHashSet<>(workers.keySet());
  }

  public synchronized int workersSeen() {
    return workers.size();
  }

  public synchronized int workersIn(State state) {
    int count = 0;
    for (State s : workers.values()) {
      if (s == state) {
        count++;
      }
    }
    return count;
  }

  /** Finished workers whose agent is not among AGENTS: a lost agent's workers report themselves finished as it dies. */
  public synchronized int finishedExcept(List<String> agents) {
    int count = 0;
    for (Map.Entry<String, State> entry : workers.entrySet()) {
      if (entry.getValue() == State.FINISHED && !agents.contains(workerAgent.get(entry.getKey()))) {
        count++;
      }
    }
    return count;
  }

  public synchronized int runningThreads() {
    int sum = 0;
    for (int threads : workerThreads.values()) {
      sum += threads;
    }
    return sum;
  }

  /** Expected agents with fewer than {@code perAgent} workers seen so far. */
  public synchronized List<String> agentsShortOfWorkers(int perAgent) {
    final List<String> result = new ArrayList<>();
    for (String agent : expected) {
      int count = 0;
      for (String owner : workerAgent.values()) {
        if (owner.equals(agent)) {
          count++;
        }
      }
      if (count < perAgent) {
        result.add(agent);
      }
    }
    return result;
  }

  /** Every expected agent has {@code perAgent} workers and every worker seen has finished. */
  public synchronized boolean allFinished(int perAgent) {
    return agentsShortOfWorkers(perAgent).isEmpty() && !workers.isEmpty()
        && workersIn(State.FINISHED) == workers.size();
  }

  /**
   * Nothing left to wait for: every expected agent that is not lost has its {@code perAgent}
   * workers, and every worker seen has finished or is gone for the grace period (dead).
   */
  public synchronized boolean allSettled(int perAgent) {
    final List<String> lost = lost();
    for (String agent : agentsShortOfWorkers(perAgent)) {
      if (!lost.contains(agent)) {
        return false;
      }
    }
    for (Map.Entry<String, State> entry : workers.entrySet()) {
      if (entry.getValue() != State.FINISHED && !goneLongEnough(workerAbsentSince, entry.getKey())) {
        return false;
      }
    }
    return !workers.isEmpty() || lost.size() == expected.size();
  }

  /** Workers not finished, "inj1-0 RUNNING", for timeout messages. */
  public synchronized List<String> unfinished() {
    final List<String> result = new ArrayList<>();
    for (Map.Entry<String, State> entry : workers.entrySet()) {
      if (entry.getValue() != State.FINISHED) {
        result.add(entry.getKey() + " " + entry.getValue());
      }
    }
    return result;
  }
}
