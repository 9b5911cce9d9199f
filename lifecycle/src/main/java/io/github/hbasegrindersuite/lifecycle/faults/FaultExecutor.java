package io.github.hbasegrindersuite.lifecycle.faults;

import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Action;
import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Fault;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Carries out a {@link FaultSchedule} during a run, on the region servers of the local cluster,
 * and records every action in {@code faults.csv} ({@link #HEADER}): when it was planned (seconds from
 * the start of the load), when it happened (ms since the Epoch), on which server and PID, and how it
 * ended. Each region server has a thread of its own that runs its actions at their times and in the
 * schedule's order (a start, then a stop at the same second, happen in that order), so a slow start or
 * a graceful stop holds back only that server's next action. Every wait is bounded. A paused JVM is always resumed: at its time, or
 * by {@link #shutdown} when the run ends first (libexec/suite-run stops this JVM with SIGTERM; its
 * shutdown hook calls it).
 */
public final class FaultExecutor {

  /** faults.csv's columns (lifecycle/README.md, "faults.csv"); detail last, the one that may hold commas (quoted). */
  public static final String HEADER = "at_s,time_ms,action,regionserver,for_s,pid,outcome,load_start_ms,detail";

  /** How long a killed JVM may take to be gone, and a stopped one to close its regions and leave. */
  static final long KILL_GONE_MS = 10_000;
  static final long STOP_GONE_MS = 60_000;

  /** The region servers' processes: the local cluster's (LocalRegionServers) or a test's. */
  public interface Servers {
    /** The PID of region server I when it runs (and is the cluster's own), else 0. */
    long pid(int regionServer);

    /** Sends SIGNAL (KILL, TERM, STOP, CONT) to PID; a failure is one line. */
    void signal(long pid, String signal) throws IOException;

    boolean alive(long pid);

    /** Starts region server I again as the cluster started it; bounded; returns its PID. */
    long start(int regionServer) throws IOException;

    /** Moves one region of the load table from region server I to the next live one by port; bounded; says which and where. */
    String moveRegion(int regionServer) throws IOException;
  }

  private final FaultSchedule schedule;
  private final Servers servers;
  private final PrintWriter csv;
  private final LongSupplier clock;
  /** One thread per region server of the schedule: FIFO among actions due at the same time. */
  private final Map<Integer, ScheduledThreadPoolExecutor> pools = new java.util.TreeMap<>();
  /** PIDs stopped by a pause and not yet resumed, with the fault that stopped them. */
  private final Map<Long, Fault> paused = new ConcurrentHashMap<>();
  private final Map<Integer, Fault> pending = new ConcurrentHashMap<>();
  private final List<ScheduledFuture<?>> futures = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Actions under way (a stop waiting for its JVM to leave, a start for its port). */
  private final java.util.concurrent.atomic.AtomicInteger underWay = new java.util.concurrent.atomic.AtomicInteger();
  private long loadStartMs;
  private volatile boolean shutDown;
  /** faults.csv is closed: rows of actions still under way when the executor was cut are dropped. */
  private boolean closed;

  public FaultExecutor(FaultSchedule schedule, Servers servers, Path csvFile, LongSupplier clock) throws IOException {
    this.schedule = schedule;
    this.servers = servers;
    this.clock = clock;
    this.csv = new PrintWriter(Files.newBufferedWriter(csvFile, StandardCharsets.UTF_8));
    this.csv.println(HEADER);
    this.csv.flush();
    for (Fault f : schedule.faults) {
      pools.computeIfAbsent(f.regionServer, rs -> new ScheduledThreadPoolExecutor(1, r -> {
        final Thread t = new Thread(r, "fault-regionserver-" + rs);
        t.setDaemon(true);
        return t;
      }));
    }
  }

  /**
   * Schedules every action relative to LOAD_START_MS and waits until all have ended, at most
   * BOUND_MS; what has not happened by then is recorded as not done.
   */
  public void run(long loadStartMs, long boundMs) throws InterruptedException {
    this.loadStartMs = loadStartMs;
    // one reading of the clock for all: actions due at the same second keep the schedule's order
    final long now = clock.getAsLong();
    for (Fault f : schedule.faults) {
      pending.put(f.index, f);
      final long delay = Math.max(0, loadStartMs + f.atSeconds * 1000L - now);
      futures.add(pools.get(f.regionServer).schedule(() -> carryOut(f), delay, TimeUnit.MILLISECONDS));
    }
    final long end = clock.getAsLong() + boundMs;
    while ((!pending.isEmpty() || !paused.isEmpty() || underWay.get() > 0) && clock.getAsLong() < end && !shutDown) {
      Thread.sleep(50);
    }
    shutdown("the executor's bound of " + boundMs / 1000 + " s ran out first");
  }

  /** No load seen: every action recorded as not done, for that reason. */
  public void neverStarted(String why) {
    synchronized (this) {
      shutDown = true;
    }
    for (Fault f : schedule.faults) {
      row(f.atSeconds, 0, f.action.word(), f, 0, "not done", why);
    }
    synchronized (csv) {
      closed = true;
      csv.close();
    }
  }

  private void carryOut(Fault f) {
    if (shutDown || pending.remove(f.index) == null) {
      return;
    }
    underWay.incrementAndGet();
    try {
      act(f);
    } finally {
      underWay.decrementAndGet();
    }
  }

  private void act(Fault f) {
    final long pid = servers.pid(f.regionServer);
    final long at = clock.getAsLong();
    try {
      switch (f.action) {
        case KILL:
          requireRunning(pid, f);
          servers.signal(pid, "KILL");
          row(f.atSeconds, at, "kill", f, pid, "done", "SIGKILL; " + gone(pid, KILL_GONE_MS, at));
          break;
        case STOP:
          requireRunning(pid, f);
          servers.signal(pid, "TERM");
          row(f.atSeconds, at, "stop", f, pid, "done", "SIGTERM; " + gone(pid, STOP_GONE_MS, at));
          break;
        case PAUSE:
          requireRunning(pid, f);
          synchronized (this) {
            // under the lock that shutdown() sets shutDown with: a pause either is seen by its resume-all or does not happen
            if (shutDown) {
              throw new IOException("not paused: the run ended first");
            }
            paused.put(pid, f);
            servers.signal(pid, "STOP");
          }
          row(f.atSeconds, at, "pause", f, pid, "done", "SIGSTOP for " + f.forSeconds + " s");
          futures.add(pools.get(f.regionServer).schedule(() -> resume(pid, f, "at its time"), Math.max(0, at + f.forSeconds * 1000L - clock.getAsLong()),
              TimeUnit.MILLISECONDS));
          break;
        case MOVE:
          requireRunning(pid, f);
          row(f.atSeconds, at, "move", f, pid, "done", servers.moveRegion(f.regionServer));
          break;
        case START:
          if (pid != 0) {
            throw new IOException("regionserver-" + f.regionServer + " is already running (pid " + pid + ")");
          }
          final long started = servers.start(f.regionServer);
          row(f.atSeconds, at, "start", f, started, "done", shutDown || Thread.currentThread().isInterrupted()
              ? "launched again; the run ended before its RPC port was seen listening"
              : String.format(Locale.ROOT, "started again; its RPC port listened %.1f s later", (clock.getAsLong() - at) / 1000.0));
          break;
        default:
          throw new IllegalStateException(f.action.toString());
      }
    } catch (IOException | RuntimeException e) {
      row(f.atSeconds, at, f.action.word(), f, pid, "failed", String.valueOf(e.getMessage()));
      if (paused.containsKey(pid)) {
        resume(pid, f, "at once, as the pause failed");   // SIGCONT is harmless to a JVM that was not stopped
      }
    }
  }

  private static void requireRunning(long pid, Fault f) throws IOException {
    if (pid == 0) {
      throw new IOException("regionserver-" + f.regionServer + " is not running (no live process of the cluster in its pid file)");
    }
  }

  /** Waits (bounded) for PID to be gone; says how long that took. */
  private String gone(long pid, long boundMs, long since) {
    final long end = since + boundMs;
    while (servers.alive(pid) && clock.getAsLong() < end) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "not seen gone: the run ended first";
      }
    }
    return servers.alive(pid) ? String.format(Locale.ROOT, "still running %.0f s later", boundMs / 1000.0)
        : String.format(Locale.ROOT, "gone %.1f s later", (clock.getAsLong() - since) / 1000.0);
  }

  private void resume(long pid, Fault f, String when) {
    if (paused.remove(pid) == null) {
      return;   // resumed already (shutdown came first)
    }
    final long at = clock.getAsLong();
    try {
      servers.signal(pid, "CONT");
      row(f.atSeconds + f.forSeconds, at, "resume", f, pid, "done", "SIGCONT " + when);
    } catch (IOException | RuntimeException e) {
      row(f.atSeconds + f.forSeconds, at, "resume", f, pid, "failed", String.valueOf(e.getMessage()));
    }
  }

  /**
   * Ends the executor: every paused JVM resumed (SIGCONT) first, then what had not happened is
   * recorded as not done with WHY, and faults.csv closed. Idempotent.
   */
  public void shutdown(String why) {
    synchronized (this) {
      if (shutDown) {
        return;
      }
      shutDown = true;
    }
    futures.forEach(fu -> fu.cancel(false));
    for (Map.Entry<Long, Fault> p : paused.entrySet()) {
      resume(p.getKey(), p.getValue(), "early: " + why);
    }
    // an action under way is interrupted in its wait (a stop's, a start's) and records itself
    pools.values().forEach(ScheduledThreadPoolExecutor::shutdownNow);
    try {
      for (ScheduledThreadPoolExecutor pool : pools.values()) {
        pool.awaitTermination(3, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Fault f : pending.values()) {
      row(f.atSeconds, 0, f.action.word(), f, 0, "not done", why);
    }
    synchronized (csv) {
      closed = true;
      csv.close();
    }
  }

  private void row(int atS, long timeMs, String action, Fault f, long pid, String outcome, String detail) {
    synchronized (csv) {
      if (closed) {
        return;
      }
      csv.println(atS + "," + (timeMs > 0 ? String.valueOf(timeMs) : "") + "," + action + "," + f.regionServer + ","
        + (f.action == Action.PAUSE ? String.valueOf(f.forSeconds) : "") + "," + (pid > 0 ? String.valueOf(pid) : "") + "," + outcome
        + "," + (loadStartMs > 0 ? String.valueOf(loadStartMs) : "") + "," + quoted(detail));
      csv.flush();
    }
  }

  /** One row of faults.csv as the finaliser reads it back. */
  public record Row(String atS, String action, String regionServer, String outcome, String detail) {
    /** A line of faults.csv ({@link #HEADER} order, detail last and quoted); null when it has too few fields. */
    public static Row parse(String line) {
      final String[] f = line.split(",", 9);
      return f.length < 9 ? null : new Row(f[0], f[2], f[3], f[6], f[8].replaceAll("^\"|\"$", "").replace("\"\"", "\""));
    }

    /** An action of the schedule (a pause's resume is recorded as a row of its own). */
    public boolean isAction() {
      return !action.equals("resume");
    }

    public boolean done() {
      return outcome.equals("done");
    }
  }

  /** RFC 4180: a field in double quotes, quotes doubled; on one line. */
  static String quoted(String text) {
    return "\"" + text.replaceAll("[\\r\\n]+", " ").replace("\"", "\"\"") + "\"";
  }
}
