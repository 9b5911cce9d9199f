package io.github.hbasegrindersuite.console;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import net.grinder.common.GrinderProperties;
import net.grinder.common.Test;
import net.grinder.common.processidentity.WorkerProcessReport;
import net.grinder.console.communication.ConsoleCommunication;
import net.grinder.console.communication.ProcessControl;
import net.grinder.console.distribution.FileDistribution;
import net.grinder.console.distribution.FileDistributionHandler;
import net.grinder.console.model.ConsoleProperties;
import net.grinder.console.model.ModelTestIndex;
import net.grinder.console.model.SampleModel;
import net.grinder.console.model.SampleModelViews;
import net.grinder.statistics.StatisticExpression;
import net.grinder.statistics.StatisticsIndexMap;
import net.grinder.statistics.StatisticsServicesImplementation;
import net.grinder.statistics.StatisticsSet;
import net.grinder.statistics.TestStatisticsQueries;
import net.grinder.util.Directory;

import io.github.hbasegrindersuite.console.live.LiveExport;
import io.github.hbasegrindersuite.console.live.LiveStatistics;
import io.github.hbasegrindersuite.console.warmup.CpuTail;
import io.github.hbasegrindersuite.console.warmup.WarmupJudge;

import org.picocontainer.Startable;

/**
 * The suite's run controller: a Grinder console plug-in (named in META-INF/net.grinder.console,
 * built by the console's picocontainer) that runs one load test without a person: wait for the
 * expected agents, distribute the scripts and the run's properties, start the workers, follow
 * them, stop, write the console's statistics and sample timeline to runs/run-N/console, and exit
 * the console with the outcome's status (see {@link Outcome.Kind}).
 *
 * <p>Dormant unless the system property {@value RunSettings#PLAN} names a run's plan.json, so a
 * plain console is unaffected. Works in the Swing console too: a person watches the graphs; a
 * "stop collecting" there ends the run early (recorded in the reason).
 *
 * <p>With {@value SessionRequests#SESSION_DIR} instead, the console is an injector session: it runs
 * one run after another as {@link SessionRequests} asks, the same way, with the agents kept between
 * runs (each run still starts its own worker JVMs), until the session is stopped. A run whose
 * plan has warmup_max_s is a warm-up: its workers are stopped as soon as the
 * {@link WarmupJudge} finds the load steady and the JIT quiet (from the run's cpu.csv), or at the bound.
 */
public final class RunController implements Startable {

  /** How often the controller looks at the roster: a run's end is seen within this of Grinder's own 500 ms status update. */
  private static final long POLL_MS = 100;
  /** How long an agent's workers must have exited before one never heard from counts as exited at its start. */
  private static final long EXITED_GRACE_MS = 2000;
  /** Written by {@link #markStopping}; libexec/suite-run reads it. */
  static final String STOPPING_FILE = "stopping";

  private final ProcessControl processControl;
  private final ConsoleCommunication communication;
  private final FileDistribution fileDistribution;
  private final SampleModel model;
  private final ConsoleProperties consoleProperties;
  private final TestStatisticsQueries queries;
  private final StatisticExpression tpsExpression;
  private final StatisticsIndexMap.LongIndex periodIndex;
  private final StatisticsIndexMap.LongSampleIndex timedTestsIndex;
  private final StatisticsIndexMap.LongIndex witnessIndex;

  private volatile RunRoster roster;
  /** The console's latest process report: a session's next run starts from it, not from Grinder's next update. */
  private volatile List<RunRoster.Agent> lastReport;
  private volatile RosterProcesses processes;
  private volatile LiveStatistics live;
  private LiveExport liveExport;
  private volatile ModelTestIndex testIndex;
  private volatile long lastActivePeriodMs;
  private volatile double latestTps = Double.NaN;
  private volatile boolean recording;
  private volatile boolean stoppingModel;
  private PrintWriter timeline;
  private PrintWriter progressLog;
  private String runId = "";
  private Thread thread;
  /** A session's workers of earlier runs: each run's roster leaves them out. */
  private final Set<String> earlierWorkers = new LinkedHashSet<>();
  /** Samples of the total statistics seen (one a second): the warm-up judge takes each once. */
  private volatile long totalSamples;
  /** The sample count when this run's last worker finished (FinishedMark), for the wait at its end. */
  private final FinishedMark finished = new FinishedMark(() -> totalSamples);
  private boolean finishedHeard;
  private volatile boolean stopAsked;
  /** What the controller was told (RunSettings.consoleSettings): the console's settings file and hbasegrinder.* flags. */
  private volatile Properties told = System.getProperties();
  /** The injector session's folder, or null for a console of one run. */
  private File sessionDirectory;

  public RunController(ProcessControl processControl, FileDistribution fileDistribution,
                       SampleModel model, SampleModelViews views, ConsoleProperties consoleProperties,
                       ConsoleCommunication communication) {
    this.processControl = processControl;
    this.communication = communication;
    this.fileDistribution = fileDistribution;
    this.model = model;
    this.consoleProperties = consoleProperties;
    this.queries = views.getTestStatisticsQueries();
    this.tpsExpression = model.getTPSExpression();
    final StatisticsIndexMap indexMap = StatisticsServicesImplementation.getInstance().getStatisticsIndexMap();
    this.periodIndex = indexMap.getLongIndex("period");
    this.timedTestsIndex = indexMap.getLongSampleIndex("timedTests");
    this.witnessIndex = indexMap.getLongIndex("userLong0"); // the worker's witness (GrinderReport)
  }

  @Override
  public void start() {
    final Optional<RunSettings> settings;
    try {
      told = RunSettings.consoleSettings(new File(System.getProperty("user.home", ".")), System.getProperties());
      final String session = told.getProperty(SessionRequests.SESSION_DIR, "").trim();
      if (!session.isEmpty()) {
        sessionDirectory = new File(session);
        listen();
        thread = new Thread(() -> sessionLoop(new SessionRequests(new File(session))), "hbasegrinder-session-controller");
        thread.setDaemon(true);
        thread.start();
        return;
      }
      settings = RunSettings.from(told);
    } catch (RunSettings.SettingsException e) {
      badSettings(e.getMessage());
      return;
    }
    if (!settings.isPresent()) {
      return; // dormant: a plain console
    }
    final RunSettings run = settings.get();
    beginRun(run);
    listen();
    thread = new Thread(() -> runAndExit(run), "hbasegrinder-run-controller");
    thread.setDaemon(true);
    thread.start();
  }

  /** The console's process reports and samples, heard for the whole life of the console. */
  private void listen() {
    processControl.addProcessStatusListener(this::processReports);
    finishedHeard = finished.follow(communication.getMessageDispatchRegistry());
    model.addModelListener(new SampleModel.AbstractListener() {
      @Override
      public void newTests(Set<Test> tests, ModelTestIndex index) {
        testIndex = index;
        for (Test test : tests) {
          model.addSampleListener(test, (interval, cumulative) -> timelineSample(test, interval, cumulative));
        }
      }
    });
    model.addTotalSampleListener(this::totalSample);
  }

  /** A run's own state: its progress log, roster (without a session's earlier workers), live endpoint. */
  private void beginRun(RunSettings run) {
    openProgressLog(run);
    roster = new RunRoster(run.agents(), System::currentTimeMillis, earlierWorkers);
    // Grinder passes process reports on every 500 ms, and only when one has arrived: without this a
    // session's run waited 0.4-0.9 s for its idle agents' next report before it could start them.
    final List<RunRoster.Agent> known = lastReport;
    if (known != null) {
      roster.update(known);
    }
    processes = new RosterProcesses(roster);
    live = new LiveStatistics(run.runDirectory().getName(), processes);
    startLiveExport(run.metricsPort());
    stopAsked = false;
    stoppingModel = false;
    finished.reset();
  }

  // ------------------------------------------------------------------ a session

  /** Runs the session's requests one after another until it is stopped; then stops the agents and exits 0. */
  private void sessionLoop(SessionRequests requests) {
    System.out.println("run controller: session " + requests.directory() + ": waiting for runs");
    System.out.flush();
    try {
      while (true) {
        final SessionRequests.Request request = requests.next(1000);
        if (request == null) {
          if (requests.stopped()) {
            break;
          }
          continue;
        }
        Outcome outcome = runRequest(request);
        try {
          requests.done(request, outcome);
        } catch (IOException e) {
          System.out.println("run controller: cannot answer " + request.name() + ": " + e);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.out.println("run controller: session stopped: stopping the agents");
    System.out.flush();
    processControl.stopAgentAndWorkerProcesses();
    sleepQuietly(500);
    System.exit(0);
  }

  private Outcome runRequest(SessionRequests.Request request) {
    final RunSettings run;
    try {
      if (request.unreadable != null) {
        throw new RunSettings.SettingsException("request " + request.name() + " is unreadable: " + request.unreadable);
      }
      run = RunSettings.forRequest(request.plan, request.properties)
          .orElseThrow(() -> new RunSettings.SettingsException("request " + request.name() + " names no plan"));
    } catch (RunSettings.SettingsException e) {
      System.out.println("run controller: " + e.getMessage());
      return new Outcome(Outcome.Kind.BAD_SETTINGS, e.getMessage());
    }
    testIndex = null;
    model.reset();
    beginRun(run);
    Outcome outcome;
    final long started = System.currentTimeMillis();
    try {
      outcome = runPhases(run);
    } catch (Throwable t) {
      outcome = new Outcome(Outcome.Kind.START_FAILED, "run controller error: " + t);
    }
    outcome.with("controller_start_ms", started).with("controller_end_ms", System.currentTimeMillis());
    final Outcome result = conclude(run, outcome, false);
    earlierWorkers.addAll(roster.workerNames());
    stopLiveExport();
    closeProgressLog();
    return result;
  }

  @Override
  public void stop() {
    // The console is shutting down; the controller thread is a daemon and ends with it.
  }

  // ------------------------------------------------------------------ the run

  private void runAndExit(RunSettings run) {
    Outcome outcome;
    final long started = System.currentTimeMillis();
    try {
      outcome = runPhases(run);
    } catch (Throwable t) { // the console must still exit with a reason
      outcome = new Outcome(Outcome.Kind.START_FAILED, "run controller error: " + t);
    }
    outcome.with("controller_start_ms", started).with("controller_end_ms", System.currentTimeMillis());
    finish(run, outcome);
  }

  private Outcome runPhases(RunSettings run) throws Exception {
    final File consoleDir = run.consoleDirectory();
    if (!consoleDir.isDirectory() && !consoleDir.mkdirs()) {
      return new Outcome(Outcome.Kind.START_FAILED, "cannot create " + consoleDir);
    }
    final GrinderProperties properties = new GrinderProperties(run.propertiesFile());
    final int processes = properties.getInt("grinder.processes", 1);
    final long plannedMs = properties.getLong("grinder.duration", 0);
    // grinder.runs > 0: a fixed amount of work (sweep.work = rows), which ends before its duration bound by design.
    final int runsPerThread = properties.getInt("grinder.runs", 0);
    this.processes.workersExpected(processes * run.agents().size());
    say("run controller: run folder " + run.runDirectory() + ", expecting agents "
        + String.join(", ", run.agents()) + " (" + processes + " worker process(es) each)");

    final Outcome agents = waitForAgents(run);
    if (!agents.complete()) {
      return agents;
    }

    final Directory distribution = consoleProperties.getDistributionDirectory();
    final int files = distribute();
    say("run controller: distributed " + files + " file(s) from " + distribution.getFile() + " to "
        + processControl.getNumberOfLiveAgents() + " agent(s)");

    openTimeline(new File(consoleDir, "timeline.csv"));
    model.start();
    recording = true;
    final long loadStart = System.currentTimeMillis();
    try {
      processControl.startWorkerProcessesWithDistributedFiles(distribution, properties);
    } catch (Exception e) {
      return new Outcome(Outcome.Kind.START_FAILED, "starting the workers failed: " + e.getMessage());
    }
    say("run controller: workers started with " + run.propertiesFile().getName());

    Outcome verdict = follow(run, processes, loadStart);
    final long loadEnd = System.currentTimeMillis();
    verdict.with("load_start_ms", loadStart).with("load_end_ms", loadEnd).with("files_distributed", files);
    if (verdict.complete() && run.warmupMaxSeconds() == 0) { // a warm-up says how it ended itself
      verdict = verdict.as(Outcome.Kind.COMPLETE, verdict.reason() + RunRules.howItEnded(runsPerThread, plannedMs, loadEnd - loadStart));
    }
    awaitNextSample(consoleProperties.getSampleInterval() + 1000L);
    return verdict;
  }

  /**
   * The run's last interval is in the first sample taken after its last worker's "finished" was
   * handled (FinishedMark): wait for it unless it came already, while the roster waited for
   * Grinder's process report (bounded; a stopped model has none), not a fixed 2 s. Without the
   * mark (no "finished" heard: workers lost), the next sample from now.
   */
  private void awaitNextSample(long boundMs) throws InterruptedException {
    final long mark = finishedHeard ? finished.mark() : -1;
    final long after = mark >= 0 ? mark : totalSamples;
    final long end = System.currentTimeMillis() + boundMs;
    while (totalSamples <= after && System.currentTimeMillis() < end) {
      Thread.sleep(50);
    }
  }

  private Outcome waitForAgents(RunSettings run) throws InterruptedException {
    final long start = System.currentTimeMillis();
    long nextSay = start + run.progressIntervalSeconds() * 1000L;
    while (true) {
      final long now = System.currentTimeMillis();
      final Outcome verdict = RunRules.agents(roster, now - start, run.agentTimeoutSeconds());
      if (verdict != null) {
        say("run controller: " + verdict.reason());
        return verdict;
      }
      if (now >= nextSay) {
        say("waiting: agents connected " + roster.connected() + ", missing " + roster.missing());
        nextSay += run.progressIntervalSeconds() * 1000L;
      }
      Thread.sleep(POLL_MS);
    }
  }

  private int distribute() throws Exception {
    final FileDistributionHandler handler = fileDistribution.getHandler();
    int files = 0;
    while (handler.sendNextFile() != null) {
      files++;
    }
    return files;
  }

  private Outcome follow(RunSettings run, int processes, long loadStart) throws InterruptedException {
    final int expectedWorkers = processes * run.agents().size();
    long nextProgress = loadStart + run.progressIntervalSeconds() * 1000L;
    long nextGrace = loadStart;
    boolean graceWorks = true;
    final WarmupJudge judge = run.warmupMaxSeconds() > 0 ? new WarmupJudge(run.warmupMaxSeconds(), run.workersWarm()) : null;
    final CpuTail cpu = judge == null ? null : new CpuTail(new File(run.runDirectory(), "cpu.csv").getPath());
    final Map<String, AgentLogWatch> agentLogs = new LinkedHashMap<>();
    for (String agent : run.agents()) {
      agentLogs.put(agent, AgentLogWatch.of(agent, run.runDirectory(), sessionDirectory));
    }
    long nextLogRead = loadStart;
    long judgedSamples = totalSamples;
    CpuTail.Interval lastCpu = null;
    while (true) {
      final long now = System.currentTimeMillis();
      // Until every worker has reported, keep the console from dropping their silent connections.
      if (graceWorks && now >= nextGrace && roster.workersSeen() < expectedWorkers) {
        try {
          IdleConnectionGrace.refresh(communication);
        } catch (ReflectiveOperationException | RuntimeException e) {
          say("run controller: cannot extend the console's 30s idle grace for starting workers (" + e
              + "); a worker whose script takes longer than 30s to start will be lost");
          graceWorks = false;
        }
        nextGrace = now + 5000;
      }
      if (judge != null && !judge.decided() && totalSamples > judgedSamples) {
        judgedSamples = totalSamples;
        for (CpuTail.Interval i : cpu.read()) {
          lastCpu = i;
        }
        if (latestTps > 0 || judge.secondsSeen() > 0) {
          judge.second(latestTps, lastCpu == null ? Double.NaN : lastCpu.serverJitShare, lastCpu == null ? Double.NaN : lastCpu.clientJitShare);
        }
        if (judge.decided()) {
          say("run controller: warm-up " + judge.verdict() + ": stopping the workers");
          processControl.resetWorkerProcesses();
          stopAsked = true;
        }
      }
      if (now >= nextLogRead) {
        final Outcome exited = workersExitedAtStart(agentLogs, processes, now);
        if (exited != null) {
          return exited;
        }
        nextLogRead = now + 1000;
      }
      final Outcome verdict = RunRules.follow(roster, now - loadStart, processes,
          run.workerStartTimeoutSeconds(), run.runTimeoutSeconds());
      if (verdict != null) {
        if (judge != null && verdict.complete()) {
          // decided, or the workers' own duration (the bound, counted from their start) ended it first
          return verdict.as(Outcome.Kind.COMPLETE, "warm-up " + (judge.decided() ? judge.verdict()
                  : "not warm when its bound ended it, " + judge.secondsSeen() + " s after the first request"))
              .with("warmup_s", judge.secondsSeen()).with("warmup_warm", judge.warm());
        }
        if (stopAsked && verdict.complete()) {
          return verdict.as(Outcome.Kind.COMPLETE, verdict.reason()
              + " (statistics collection was stopped from the console; the console totals stop there)");
        }
        return verdict;
      }
      if (!stopAsked && !stoppingModel && model.getState().getValue() == SampleModel.State.Value.Stopped) {
        // A person pressed stop in the Swing console: end the run.
        say("run controller: statistics collection stopped from the console: stopping the workers");
        processControl.resetWorkerProcesses();
        stopAsked = true;
      }
      if (now >= nextProgress) {
        final StatisticsSet total = model.getTotalCumulativeStatistics().snapshot();
        say(RunRules.progressLine(now - loadStart, latestTps, queries.getAverageTestTime(total),
            queries.getNumberOfErrors(total), queries.getNumberOfTests(total), roster, expectedWorkers));
        nextProgress += run.progressIntervalSeconds() * 1000L;
      }
      Thread.sleep(POLL_MS);
    }
  }

  /**
   * A worker JVM that exits before it reaches the console is seen only in its agent's log: end the
   * run then, naming it, rather than at the worker-start timeout.
   */
  private Outcome workersExitedAtStart(Map<String, AgentLogWatch> agentLogs, int processes, long now) {
    final List<AgentLogWatch> exited = new ArrayList<>();
    boolean graceOver = false;
    for (String agent : roster.agentsShortOfWorkers(processes)) {
      final AgentLogWatch log = agentLogs.get(agent);
      if (log == null) {
        continue;
      }
      log.poll(now);
      if (log.workersExited(now, 0)) {
        exited.add(log);
        graceOver |= log.workersExited(now, EXITED_GRACE_MS);
      }
    }
    // the grace once over for one, every agent whose workers are gone is named with it
    if (!graceOver || exited.stream().anyMatch(log -> !roster.agentsShortOfWorkers(processes).contains(log.agent()))) {
      return null;
    }
    final String reason = AgentLogWatch.exitedAtStart(exited);
    say("run controller: " + reason + ": stopping the run");
    processControl.resetWorkerProcesses();
    stopAsked = true;
    return new Outcome(Outcome.Kind.START_FAILED, reason);
  }

  private void finish(RunSettings run, Outcome outcome) {
    final Outcome result = conclude(run, outcome, true);
    if (run.lingerSeconds() > 0) {
      say("run controller: console stays up for " + run.lingerSeconds() + "s");
      sleepQuietly(run.lingerSeconds() * 1000L);
    }
    if (run.exitWhenDone()) {
      System.out.flush();
      System.exit(result.kind().code());
    }
  }

  /**
   * The end of a run: the model stopped, the agents sent away (one run) or only the workers still
   * running stopped (a session keeps its agents), the statistics and outcome written.
   */
  private Outcome conclude(RunSettings run, Outcome outcome, boolean stopAgents) {
    recording = false;
    stoppingModel = true;
    model.stop();
    markStopping(run);
    if (stopAgents) {
      processControl.stopAgentAndWorkerProcesses();
    } else {
      stopWorkers();
    }
    closeTimeline();
    Outcome result = outcome;
    final File consoleDir = run.consoleDirectory();
    try {
      final List<TestRow> rows = statistics();
      if (!rows.isEmpty() || consoleDir.isDirectory()) {
        writeStatistics(new File(consoleDir, "statistics.csv"), rows);
      }
      long requests = 0;
      final StringBuilder tests = new StringBuilder();
      for (TestRow row : rows) {
        requests += row.count() + row.errors();
        tests.append(tests.length() == 0 ? "" : ";").append(row.test()).append(':').append(row.name());
      }
      if (result.complete() && requests == 0) {
        result = result.as(Outcome.Kind.NO_TESTS,
            "the workers finished without reporting a single request (see the worker logs)");
      }
      result.with("tests", tests).with("requests", requests)
          .with("agents", String.join(",", roster.connected()))
          .with("workers_seen", roster.workersSeen())
          .with("workers_finished", roster.workersIn(RunRoster.State.FINISHED))
          .with("load_period_ms", lastActivePeriodMs);
      if (consoleDir.isDirectory()) {
        result.write(new File(consoleDir, "outcome.properties"));
      }
    } catch (IOException e) {
      result = result.as(Outcome.Kind.START_FAILED, "writing the console's results failed: " + e);
    }
    say("run controller: outcome " + (result.complete() ? "complete" : "incomplete")
        + " (exit " + result.kind().code() + "): " + result.reason());
    return result;
  }

  /** A session's run that ends with workers still running (a timeout, a lost agent) stops them, bounded. */
  private void stopWorkers() {
    if (roster.runningThreads() == 0 && roster.unfinished().isEmpty()) {
      return;
    }
    processControl.resetWorkerProcesses();
    final long until = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < until && roster.runningThreads() > 0) {
      sleepQuietly(POLL_MS);
    }
  }

  /**
   * console/stopping, written just before the agents are told to stop: ./suite run then knows that
   * an agent that leaves from here on was sent away, not lost (the outcome is written after, and on
   * a loaded machine an agent can be gone before it is).
   */
  private static void markStopping(RunSettings run) {
    final File consoleDir = run.consoleDirectory();
    try {
      if (consoleDir.isDirectory()) {
        Files.writeString(new File(consoleDir, STOPPING_FILE).toPath(), System.currentTimeMillis() + "\n", StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      System.out.println("run controller: cannot write console/" + STOPPING_FILE + ": " + e);
    }
  }

  /** Settings given but unusable: say so where ./suite run looks, and exit 7. */
  private void badSettings(String message) {
    final Outcome outcome = new Outcome(Outcome.Kind.BAD_SETTINGS, message);
    say("run controller: " + message);
    // the plan lives in its run's folder
    final File plan = new File(told.getProperty(RunSettings.PLAN, "").trim());
    final File consoleDir = new File(plan.getAbsoluteFile().getParentFile(), "console");
    if (!plan.getPath().isEmpty() && (consoleDir.isDirectory() || consoleDir.mkdirs())) {
      try {
        outcome.write(new File(consoleDir, "outcome.properties"));
      } catch (IOException e) {
        say("run controller: cannot write " + consoleDir + "/outcome.properties: " + e);
      }
    }
    if (!"false".equalsIgnoreCase(told.getProperty(RunSettings.EXIT_WHEN_DONE, "true").trim())) {
      System.exit(outcome.kind().code());
    }
  }

  // ------------------------------------------------------------------ statistics

  private List<TestRow> statistics() {
    final List<TestRow> rows = new ArrayList<>();
    final ModelTestIndex index = testIndex;
    if (index == null) {
      return rows;
    }
    for (int i = 0; i < index.getNumberOfTests(); i++) {
      final Test test = index.getTest(i);
      final StatisticsSet cumulative = index.getCumulativeStatistics(i).snapshot();
      final long count = queries.getNumberOfTests(cumulative);
      if (count + queries.getNumberOfErrors(cumulative) == 0) {
        continue; // registered by the script but never run in this mix
      }
      rows.add(new TestRow(test.getNumber(), test.getDescription(), count,
          queries.getNumberOfErrors(cumulative), queries.getAverageTestTime(cumulative),
          Math.sqrt(cumulative.getVariance(timedTestsIndex)),
          TestRow.perSecond(count, lastActivePeriodMs)));
    }
    return rows;
  }

  private static void writeStatistics(File file, List<TestRow> rows) throws IOException {
    final List<String> lines = new ArrayList<>();
    lines.add(TestRow.STATISTICS_HEADER);
    for (TestRow row : rows) {
      lines.add(row.statisticsLine());
    }
    Files.write(file.toPath(), lines, StandardCharsets.UTF_8);
  }

  private void processReports(ProcessControl.ProcessReports[] reports) {
    final List<RunRoster.Agent> agents = new ArrayList<>();
    for (ProcessControl.ProcessReports report : reports) {
      final List<RunRoster.Worker> workers = new ArrayList<>();
      for (WorkerProcessReport worker : report.getWorkerProcessReports()) {
        workers.add(new RunRoster.Worker(worker.getWorkerIdentity().getName(),
            RunRoster.State.valueOf(worker.getState().name()), worker.getNumberOfRunningThreads()));
      }
      agents.add(new RunRoster.Agent(report.getAgentProcessReport().getAgentIdentity().getName(), workers));
    }
    lastReport = agents;
    // A session's console hears its agents before its first run has a roster (beginRun takes
    // lastReport then). An exception here would end Grinder's status timer thread for good, and
    // no agent connecting later would ever be seen (a sweep's run waited 60 s for inj1 and failed).
    final RunRoster current = roster;
    if (current != null) {
      current.update(agents);
    }
  }

  private void totalSample(StatisticsSet interval, StatisticsSet cumulative) {
    if (!recording) {
      return;
    }
    latestTps = tpsExpression.getDoubleValue(interval);
    totalSamples++;
    if (queries.getNumberOfTests(interval) + queries.getNumberOfErrors(interval) > 0) {
      lastActivePeriodMs = cumulative.getValue(periodIndex);
    }
    synchronized (this) {
      if (timeline != null) {
        timeline.flush();
      }
    }
  }

  private void timelineSample(Test test, StatisticsSet interval, StatisticsSet cumulative) {
    if (!recording || queries.getNumberOfTests(cumulative) + queries.getNumberOfErrors(cumulative) == 0) {
      return; // tests that have not run (yet) leave no rows
    }
    live.update(new LiveStatistics.TestFigures(test.getNumber(), test.getDescription(),
        queries.getNumberOfTests(cumulative), queries.getNumberOfErrors(cumulative),
        cumulative.getSum(timedTestsIndex), Math.sqrt(cumulative.getVariance(timedTestsIndex)),
        cumulative.getValue(witnessIndex), tpsExpression.getDoubleValue(interval)));
    live.elapsedSeconds(cumulative.getValue(periodIndex) / 1000.0);
    final TestRow row = new TestRow(test.getNumber(), test.getDescription(),
        queries.getNumberOfTests(interval), queries.getNumberOfErrors(interval),
        queries.getAverageTestTime(interval), Double.NaN, tpsExpression.getDoubleValue(interval));
    final String line = row.timelineLine(System.currentTimeMillis(), cumulative.getValue(periodIndex) / 1000.0);
    synchronized (this) {
      if (timeline != null) {
        timeline.println(line);
      }
    }
  }

  private void stopLiveExport() {
    if (liveExport != null) {
      liveExport.close();
      liveExport = null;
    }
  }

  private synchronized void closeProgressLog() {
    if (progressLog != null) {
      progressLog.close();
      progressLog = null;
    }
  }

  /** The live Prometheus endpoint; a port that cannot be bound costs the run nothing but the endpoint. */
  private void startLiveExport(int port) {
    if (port <= 0) {
      return;
    }
    try {
      liveExport = LiveExport.start(live, port);
      say("run controller: live metrics on http://127.0.0.1:" + liveExport.port() + "/metrics");
    } catch (IOException | RuntimeException e) {
      say("run controller: warning: no live metrics, 127.0.0.1:" + port + " cannot be served (" + e + ")");
    }
  }

  private synchronized void openTimeline(File file) throws IOException {
    timeline = new PrintWriter(Files.newBufferedWriter(file.toPath(), StandardCharsets.UTF_8));
    timeline.println(TestRow.TIMELINE_HEADER);
    timeline.flush();
  }

  private synchronized void closeTimeline() {
    if (timeline != null) {
      timeline.close();
      timeline = null;
    }
  }

  /**
   * A line for the console's output and for console/progress.log, which ./suite run relays to the
   * user as it grows (a file it copies, not output it parses): progress lines carry the run id.
   */
  private void say(String line) {
    System.out.println(line);
    System.out.flush();
    synchronized (this) {
      if (progressLog != null) {
        progressLog.println(runId + " " + (line.startsWith("progress: ") ? line.substring("progress: ".length()) : line));
        progressLog.flush();
      }
    }
  }

  private synchronized void openProgressLog(RunSettings run) {
    try {
      final File dir = run.consoleDirectory();
      if (dir.isDirectory() || dir.mkdirs()) {
        progressLog = new PrintWriter(Files.newBufferedWriter(new File(dir, "progress.log").toPath(), StandardCharsets.UTF_8));
        runId = run.runDirectory().getName();
      }
    } catch (IOException e) {
      System.out.println("run controller: cannot write console/progress.log: " + e);
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
