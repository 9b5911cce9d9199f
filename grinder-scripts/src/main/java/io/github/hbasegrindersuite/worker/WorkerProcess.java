package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.audit.AuditLog;
import io.github.hbasegrindersuite.worker.audit.AuditScheme;
import io.github.hbasegrindersuite.worker.audit.AuditedClient;
import io.github.hbasegrindersuite.worker.keys.KeyChoosers;
import io.github.hbasegrindersuite.worker.targets.Client;
import io.github.hbasegrindersuite.worker.targets.Target;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * What one Grinder worker process shares between its threads: the validated settings, the
 * value pool, the target (one HBase Connection per process), the error counter. hbase_load.py
 * builds it at module level and asks it for one {@link Driver} per thread; PlainJavaLoad does
 * the same without Grinder.
 */
public final class WorkerProcess implements AutoCloseable {
  private final Settings settings;
  private final ValuePool values;
  private final Target target;
  private final ErrorCounter errors = new ErrorCounter();
  private final int agentNumber;
  private final int processNumber;
  private final int processes;
  private final int threads;
  /** grinder.runs: requests each thread makes (0: until the duration ends it); see {@link Driver#flushWithRequest}. */
  private long runsPerThread;
  private volatile IntervalLog intervals;
  private final java.util.List<Thread> exitHooks = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** hbaseload.audit=true: the log of every audited put and the keys' writer part; null otherwise. */
  private volatile AuditLog audit;
  private byte[] auditWriter;

  private WorkerProcess(Settings settings, int agentNumber, int processNumber, int processes, int threads)
      throws Exception {
    this.settings = settings;
    this.agentNumber = agentNumber;
    this.processNumber = processNumber;
    this.processes = processes;
    this.threads = threads;
    this.values = ValuePool.of(settings, seed(settings.integer(Key.SEED), agentNumber, processNumber, -1));
    this.target = Target.open(settings, values);
  }

  /**
   * @param properties the run's grinder.properties (hbaseload.* and grinder.processes/threads)
   * @throws SettingsException naming a bad key; the worker must not start
   */
  public static WorkerProcess start(Properties properties, int agentNumber, int processNumber) throws Exception {
    Settings settings = Settings.load(properties);
    int processes = Integer.parseInt(properties.getProperty("grinder.processes", "1").trim());
    int threads = Integer.parseInt(properties.getProperty("grinder.threads", "1").trim());
    WorkerProcess worker = new WorkerProcess(settings, Math.max(agentNumber, 0), processNumber, processes, threads);
    worker.runsPerThread = Long.parseLong(properties.getProperty("grinder.runs", "0").trim());
    return worker;
  }

  public Settings settings() {
    return settings;
  }

  public boolean paced() {
    return settings.decimal(Key.RATE_PER_THREAD) > 0;
  }

  /** True when the mix scans: the data log then counts each scan's rows ({@link GrinderReport#ROWS_COLUMN}). */
  public boolean scans() {
    return settings.mix().containsKey(Operation.SCAN);
  }

  /** grinder.threads: the threads of this process. */
  public int threads() {
    return threads;
  }

  /**
   * Records every request's witness into {@code <processName>.hlog} in {@code logDirectory} (beside
   * Grinder's {@code <processName>-data.log}), one interval a second; hbase_load.py calls it at module
   * level, before the threads start. The log is closed by {@link #close}, or at JVM exit when a
   * worker is stopped before its threads end.
   */
  public void recordIntervals(Path logDirectory, String processName) throws IOException {
    Files.createDirectories(logDirectory);
    IntervalLog log = IntervalLog.open(logDirectory.resolve(processName + IntervalLog.FILE_SUFFIX), settings.mix().keySet(), 1000);
    intervals = log;
    closeAtExit(new Thread(log::close, "hbaseload-interval-log-close"));
  }

  /**
   * With hbaseload.audit=true, opens {@code <processName>.audit} in {@code logDirectory} (beside the
   * data log and the interval log, collected with them) and makes every thread's puts audited
   * ({@link AuditedClient}); without it, nothing. hbase_load.py calls it at module level.
   */
  public void auditPuts(Path logDirectory, String processName) throws IOException {
    if (!settings.flag(Key.AUDIT)) {
      return;
    }
    String run = settings.text(Key.AUDIT_RUN);
    String writer = AuditScheme.writer(AuditScheme.runTag(run.isEmpty() ? "started-" + System.currentTimeMillis() : run), processName);
    Files.createDirectories(logDirectory);
    AuditLog log = AuditLog.open(logDirectory.resolve(processName + AuditLog.FILE_SUFFIX), writer, settings.integer(Key.KEY_WIDTH));
    auditWriter = writer.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    audit = log;
    closeAtExit(new Thread(() -> closeQuietly(log), "hbaseload-audit-log-close"));
  }

  /**
   * A hook that closes a log at JVM exit, taken off again by {@link #close}: a worker that is a thread
   * of a long-lived agent (session.workers = warm) must not leave one behind at every run (each holds
   * the worker's class loader through its context class loader).
   */
  private void closeAtExit(Thread hook) {
    Runtime.getRuntime().addShutdownHook(hook);
    exitHooks.add(hook);
  }

  private static void closeQuietly(AuditLog log) {
    try {
      log.close();
    } catch (IOException e) {
      System.err.println("hbaseload: audit log: " + e);
    }
  }

  /** A driver for one thread; its random streams depend only on the seed and the thread's place. */
  public Driver driver(int threadNumber, RequestReport report) throws Exception {
    SplittableRandom random = new SplittableRandom(seed(settings.integer(Key.SEED), agentNumber, processNumber, threadNumber));
    int agents = settings.integer(Key.AGENTS);
    int slices = agents * processes * threads;
    int slice = ((agentNumber % agents) * processes + processNumber) * threads + threadNumber;
    Client client = target.client(random.split());
    AuditLog auditLog = audit;
    if (auditLog != null) {
      client = new AuditedClient(client, auditLog, auditWriter, settings.integer(Key.KEY_WIDTH), threadNumber,
          settings.integer(Key.VALUE_SIZE));
    }
    Driver driver = new Driver(client, KeyChoosers.create(settings, random.split(), slice, slices),
        new OperationMix(settings.mix(), random.split()), new Pacer(settings.decimal(Key.RATE_PER_THREAD)),
        values, errors, intervals == null ? report : new IntervalReport(report, intervals), settings);
    driver.flushWithRequest(runsPerThread);
    return driver;
  }

  public String errorSummary() {
    return errors.summary();
  }

  static long seed(long runSeed, int agent, int process, int thread) {
    return runSeed * 0x9E3779B97F4A7C15L ^ (agent + 1L) * 0xC2B2AE3D27D4EB4FL
        ^ (process + 1L) * 0x165667B19E3779F9L ^ (thread + 2L) * 0x27D4EB2F165667C5L;
  }

  @Override
  public void close() throws Exception {
    for (Thread hook : exitHooks) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already exiting: the hook runs (closing twice is harmless)
      }
    }
    exitHooks.clear();
    IntervalLog log = intervals;
    if (log != null) {
      log.close();
    }
    AuditLog auditLog = audit;
    if (auditLog != null) {
      auditLog.close();
    }
    target.close();
  }
}
