package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.lifecycle.faults.FaultExecutor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code ./suite run}'s decisions after the run, once bash has stopped the processes and
 * collected every host's files: the evidence (the console's outcome and statistics, the data
 * logs, the workers' and agents' logs, what bash saw happen) folded into one outcome, written to
 * manifest.json, and the summary the user reads. The only place that says whether a run is
 * complete.
 */
public final class RunFinaliser {

  /** How a run ended. */
  enum Status { COMPLETE, DEGRADED, INCOMPLETE, INTERRUPTED;
    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What bash saw: the console's exit status, an abort of its own, Ctrl-C, agents that left early. */
  static final class Observed {
    Integer consoleExit;
    String aborted;
    boolean interrupted;
    final List<String> agentsExited = new ArrayList<>();
    String hbaseMetrics;
    boolean tableInfo = true;
    /** Set by ./suite collect: logs brought in after the run was judged; the note says what. */
    String collected;

    /** What bash saw, kept in the manifest so that a later collect judges from the same observations. */
    Map<String, Object> toJson() {
      final Map<String, Object> o = new LinkedHashMap<>();
      o.put("console_exit", consoleExit);
      o.put("aborted", aborted);
      o.put("interrupted", interrupted);
      o.put("agents_exited", agentsExited);
      o.put("hbase_metrics", hbaseMetrics);
      return o;
    }

    /** The observations an earlier finalise recorded (a manifest from before they were kept: none). */
    static Observed fromManifest(JsonObject manifest) {
      final Observed seen = new Observed();
      final JsonObject o = manifest.has("observed") && manifest.get("observed").isJsonObject() ? manifest.getAsJsonObject("observed") : new JsonObject();
      seen.consoleExit = o.has("console_exit") && !o.get("console_exit").isJsonNull() ? o.get("console_exit").getAsInt() : null;
      seen.aborted = Json.text(o, "aborted");
      seen.interrupted = o.has("interrupted") && o.get("interrupted").getAsBoolean();
      if (o.has("agents_exited") && o.get("agents_exited").isJsonArray()) {
        o.getAsJsonArray("agents_exited").forEach(a -> seen.agentsExited.add(a.getAsString()));
      }
      seen.hbaseMetrics = Json.text(o, "hbase_metrics");
      return seen;
    }
  }

  /** Everything read from the run folder. */
  static final class Evidence {
    Properties outcome;                       // console/outcome.properties, null when absent
    final List<String[]> statistics = new ArrayList<>();  // console/statistics.csv rows
    final Map<String, DataLogs> logsByHost = new LinkedHashMap<>();
    String workerError;                       // first ERROR of any worker log
    String errorsByClass = "";                // the workers' "errors by class" lines
    final Map<String, String> agentLastWords = new LinkedHashMap<>();
    boolean reportsToConsoleFailed;
    double workerStartupSeconds;
    String consoleLastError = "";
    int threadsTotal;
    final IntervalLogs intervals = new IntervalLogs();  // the workers' *.hlog, merged
    boolean dataLogOff;                       // hbaseload.datalog=off: the interval logs stand in for the data logs
    String intervalMismatch = "";             // their counts against the data logs', "" when equal
    String faultSchedule;                     // plan.json faults.schedule, null without one
    int faultsPlanned;                        // its actions
    final List<FaultExecutor.Row> faultRows = new ArrayList<>();  // faults.csv, without its header
    boolean faultsRecorded;                   // faults.csv holds a line after its header
  }

  static final class Verdict {
    final Status status;
    final String reason;
    /** Degraded by the faults the run was asked for: the result it was run for (exit 0). */
    final boolean asAsked;

    Verdict(Status status, String reason) {
      this(status, reason, false);
    }

    Verdict(Status status, String reason, boolean asAsked) {
      this.status = status;
      this.reason = Text.oneLine(reason);
      this.asAsked = asAsked;
    }
  }

  private static final Pattern ERROR_LINE = Pattern.compile(".*(ERROR|Aborting|aborted).*");
  private static final Pattern LOG_PREFIX = Pattern.compile("^[0-9-]+ [0-9:,]+ ERROR [^:]*: ");

  private RunFinaliser() {
  }

  /** The outcome, from the evidence and what bash saw: pure, so each rule is tested on its own. */
  static Verdict decide(Evidence e, Observed seen) {
    String status = e.outcome == null ? null : e.outcome.getProperty("status");
    String reason = e.outcome == null ? "" : e.outcome.getProperty("reason", "");
    if (seen.interrupted) {
      return new Verdict(Status.INTERRUPTED, "interrupted (Ctrl-C or a signal) after " + (reason.isEmpty() ? "the start" : reason)
          + "; the data collected so far is kept");
    }
    if (seen.aborted != null) {
      status = "incomplete";
      reason = seen.aborted;
    } else if (status == null) {
      status = "incomplete";
      reason = "the console exited (status " + (seen.consoleExit == null ? "unknown" : seen.consoleExit) + ") without an outcome"
          + (e.consoleLastError.isEmpty() ? "" : ": " + e.consoleLastError);
    }
    final long console = consoleRequests(e);
    final long logged = e.logsByHost.values().stream().mapToLong(d -> d.total).sum();
    final List<String> missing = e.logsByHost.entrySet().stream().filter(x -> x.getValue().total == 0)
        .map(Map.Entry::getKey).collect(Collectors.toList());
    if (status.equals("complete") && !seen.agentsExited.isEmpty()) {
      // A worker whose agent dies stops at once and reports itself finished: the console calls
      // that run complete, but one host measured only part of it.
      status = "incomplete";
      reason = "agent " + String.join(", ", seen.agentsExited) + " exited before the run ended: its workers stopped with it"
          + " (the console, which saw them finish, said: " + reason + ")";
    }
    if (status.equals("complete")) {
      if (e.workerError != null) {
        status = "incomplete";
        reason = "worker error: " + e.workerError;
      } else if (!missing.isEmpty()) {
        status = "incomplete";
        reason = "no data log from " + String.join(" ", missing);
      } else if (console != logged) {
        // A request in flight when a worker stops is logged after its last report: at most one per thread.
        final long extra = logged - console;
        if (extra > 0 && extra <= e.threadsTotal) {
          reason += "; the data logs hold " + extra + " more requests than the console counted (" + logged + " against "
              + console + "): requests in flight when the workers stopped";
        } else {
          status = "incomplete";
          reason = "the console counted " + console + " requests, the data logs hold " + logged;
        }
      }
    } else if (e.workerError != null && !reason.contains(e.workerError)) {
      reason += "; worker error: " + e.workerError;
    }
    if (status.equals("complete") && !e.intervalMismatch.isEmpty()) {
      // Both count the same requests in the same worker: a difference means one of them lost some.
      status = "incomplete";
      reason = e.intervalMismatch;
    }
    if (!status.equals("complete")) {
      // The console counts a dead agent's workers as finished ("the other N worker(s) ran to the end"): say they were not.
      final String withIt = reason.contains("its workers stopped with it") ? "" : "; its workers stopped with it";
      for (String agent : seen.agentsExited) {
        final String words = e.agentLastWords.getOrDefault(agent, "");
        reason += "; agent " + agent + " had exited" + (words.isEmpty() ? " without a last word (killed?)" : ": " + words) + withIt;
      }
      // Grinder's console drops a connection silent for 30 s; a slower worker start loses its reports, not its log.
      // A console that died or was stopped explains failed reports by itself: nothing to add.
      final boolean consoleStayed = seen.aborted == null && seen.consoleExit != null && seen.consoleExit == 0;
      if (e.reportsToConsoleFailed && consoleStayed) {
        reason += String.format(Locale.ROOT, "; the workers' reports to the console failed: the console drops a connection silent"
            + " for 30s and worker start-up took %.0fs (an overloaded machine?); the data logs are complete", e.workerStartupSeconds);
      }
    }
    if (status.equals("complete") && e.faultSchedule != null) {
      final String unplanned = faultsNotAsPlanned(e);
      if (!unplanned.isEmpty()) {
        // the run did not meet the faults it was run for: what it measured is not the experiment asked
        status = "incomplete";
        reason = "the fault schedule (" + e.faultSchedule + ") did not run as planned: " + unplanned + "; " + reason;
      }
    }
    if (status.equals("complete")) {
      final String degraded = degradation(e, logged);
      if (!degraded.isEmpty() && e.faultSchedule != null) {
        return new Verdict(Status.DEGRADED, "degraded by its fault schedule (" + e.faultSchedule + "), as asked: " + degraded + "; " + reason, true);
      }
      if (!degraded.isEmpty()) {
        return new Verdict(Status.DEGRADED, degraded + "; " + reason);
      }
      if (e.faultSchedule != null) {
        reason += "; its fault schedule (" + e.faultSchedule + ") ran, and no request failed";
      }
    }
    return new Verdict(status.equals("complete") ? Status.COMPLETE : Status.INCOMPLETE, reason);
  }

  /** A Grinder log line at a quiet level: its text can hold "Error" (a JVM flag such as -XX:+ExitOnOutOfMemoryError) without being one. */
  private static final Pattern QUIET_LOG_LINE = Pattern.compile("^[0-9][^ ]*( [0-9][^ ]*)? +(INFO|DEBUG|TRACE) .*");

  /** The agent's last line that reads as a failure (an ERROR line, a stack trace, the JVM's own complaint), at most 200 characters; "" when none. */
  static String lastWords(List<String> agentOut) {
    return agentOut.stream().filter(l -> !QUIET_LOG_LINE.matcher(l).matches())
        .filter(l -> l.matches(".*(ERROR|Exception|Error|No such file|not found).*"))
        .reduce((a, b) -> b).map(l -> l.length() > 200 ? l.substring(0, 200) : l).orElse("");
  }

  /** The planned actions that did not happen, from faults.csv: "" when every one did ("2 of 3 actions failed: ..."). */
  static String faultsNotAsPlanned(Evidence e) {
    final long actions = e.faultRows.stream().filter(FaultExecutor.Row::isAction).count();
    final List<FaultExecutor.Row> bad = e.faultRows.stream().filter(r -> !r.done()).collect(Collectors.toList());
    if (actions < e.faultsPlanned && bad.isEmpty()) {
      return "faults.csv records " + actions + " of its " + e.faultsPlanned + " actions (the executor did not run them all)";
    }
    if (bad.isEmpty()) {
      return "";
    }
    final FaultExecutor.Row first = bad.get(0);
    return bad.size() + " row(s) of faults.csv not done as planned, the first: at=" + first.atS() + "s " + first.action()
        + " regionserver=" + first.regionServer() + " " + first.outcome() + " (" + first.detail() + ")";
  }

  /** manifest.json's faults: the schedule and how its actions ended (faults.csv); null without a schedule. */
  static Map<String, Object> faultFacts(Evidence e) {
    if (e.faultSchedule == null) {
      return null;
    }
    final Map<String, Object> f = new LinkedHashMap<>();
    f.put("schedule", e.faultSchedule);
    f.put("actions", e.faultsPlanned);
    final List<FaultExecutor.Row> actions = e.faultRows.stream().filter(FaultExecutor.Row::isAction).collect(Collectors.toList());
    f.put("done", actions.stream().filter(FaultExecutor.Row::done).count());
    f.put("failed", actions.stream().filter(r -> r.outcome().equals("failed")).count());
    f.put("not_done", e.faultsPlanned - actions.stream().filter(r -> !r.outcome().equals("not done")).count());
    f.put("record", e.faultsRecorded ? "faults.csv" : null);
    return f;
  }

  /**
   * A run that ran to its end but through failures: requests that failed, or seconds in which no
   * request completed (an outage, a stall). "" when there were none. The report shows when.
   */
  static String degradation(Evidence e, long logged) {
    final long errors = e.logsByHost.values().stream().mapToLong(d -> d.errors).sum();
    final java.util.TreeMap<Long, Long> perSecond = new java.util.TreeMap<>();
    e.logsByHost.values().forEach(d -> d.perSecond.forEach((sec, n) -> perSecond.merge(sec, n, Long::sum)));
    final long lastStart = e.logsByHost.values().stream().mapToLong(d -> d.lastStartMillis).max().orElse(Long.MIN_VALUE);
    final List<Long> silent = DataLogs.silentSeconds(perSecond, lastStart == Long.MIN_VALUE ? Long.MAX_VALUE - 1 : lastStart / 1000);
    final List<String> parts = new ArrayList<>();
    if (errors > 0) {
      parts.add(String.format(Locale.ROOT, "%d of %d requests failed (%.3f%%)%s", errors, logged, 100.0 * errors / Math.max(1, logged),
          e.errorsByClass.isEmpty() ? "" : ": " + e.errorsByClass));
    }
    if (!silent.isEmpty()) {
      final long first = perSecond.firstKey();
      parts.add(silent.size() + " second(s) without a successful request, from " + (silent.get(0) - first) + " s after the first");
    }
    return String.join("; ", parts);
  }

  static long consoleRequests(Evidence e) {
    final String requests = e.outcome == null ? null : e.outcome.getProperty("requests");
    return requests != null && requests.matches("[0-9]+") ? Long.parseLong(requests) : 0;
  }

  /** Reads the run folder; hosts from plan.json. */
  static Evidence gather(Path runDir, JsonObject plan) throws LifecycleException {
    final Evidence e = new Evidence();
    e.threadsTotal = Json.integer(plan, "threads_total", 0);
    e.dataLogOff = "off".equalsIgnoreCase(Manifest.property(plan.getAsJsonObject("properties"), "hbaseload.datalog", "on"));
    final Path outcome = runDir.resolve("console").resolve("outcome.properties");
    if (Files.isRegularFile(outcome)) {
      e.outcome = PropertiesFile.read(outcome);
    }
    final Path statistics = runDir.resolve("console").resolve("statistics.csv");
    for (String line : lines(statistics)) {
      final String[] f = line.split(",", -1);
      if (f.length >= 7 && f[0].matches("[0-9]+")) {
        e.statistics.add(f);
      }
    }
    for (JsonObject host : PlanJson.hosts(plan)) {
      final String id = Json.text(host, "id");
      final Path dir = runDir.resolve("injectors").resolve(id);
      e.intervals.addHost(id, dir);
      e.logsByHost.put(id, e.dataLogOff ? e.intervals.asDataLogs(id) : DataLogs.below(dir));
      final List<String> agentOut = lines(dir.resolve("agent.out"));
      e.agentLastWords.put(id, lastWords(agentOut));
      if (agentOut.stream().anyMatch(l -> l.contains("Report to console failed"))) {
        e.reportsToConsoleFailed = true;
      }
      e.workerStartupSeconds = Math.max(e.workerStartupSeconds, workerStartup(agentOut));
    }
    if (!e.dataLogOff && !e.intervals.workers.isEmpty()) {
      e.intervalMismatch = e.intervals.mismatch(dataLogPerWorker(e));
    }
    if (plan.has("faults") && plan.get("faults").isJsonObject()) {
      final JsonObject faults = plan.getAsJsonObject("faults");
      e.faultSchedule = Json.text(faults, "schedule");
      e.faultsPlanned = faults.getAsJsonArray("actions").size();
      final List<String> rows = lines(runDir.resolve("faults.csv"));
      rows.stream().skip(1).filter(l -> !l.isBlank()).forEach(l -> {
        e.faultsRecorded = true;
        final FaultExecutor.Row row = FaultExecutor.Row.parse(l);
        if (row != null) {
          e.faultRows.add(row);
        }
      });
    }
    e.workerError = workerError(runDir.resolve("injectors"));
    e.errorsByClass = errorsByClass(runDir.resolve("injectors"));
    e.consoleLastError = lines(runDir.resolve("console").resolve("console.out")).stream()
        .filter(l -> l.matches(".*(ERROR|FATAL|Exception|Error:).*") && !l.contains("WARN"))
        .reduce((a, b) -> b).map(l -> l.length() > 300 ? l.substring(0, 300) : l).orElse("");
    return e;
  }

  static Map<String, Long> dataLogPerWorker(Evidence e) {
    final Map<String, Long> perWorker = new java.util.TreeMap<>();
    e.logsByHost.values().forEach(d -> d.perWorker.forEach((w, n) -> perWorker.merge(w, n, Long::sum)));
    return perWorker;
  }

  /** What manifest.json says of the interval logs: how many, what they hold, how they compare with the data logs. */
  static Map<String, Object> intervalFacts(Evidence e) {
    final Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("files", e.intervals.workers.size());
    facts.put("requests", e.intervals.total());
    facts.put("datalog", e.dataLogOff ? "off" : "on");
    facts.put("check", e.intervals.workers.isEmpty() ? "no interval logs" : e.dataLogOff ? "no data logs to compare with"
        : e.intervalMismatch.isEmpty() ? "equal" : e.intervalMismatch);
    return facts;
  }

  /** The first error a worker logged (a bad key, a script that did not load), without its log prefix. */
  static String workerError(Path injectors) throws LifecycleException {
    if (!Files.isDirectory(injectors)) {
      return null;
    }
    final List<Path> logs;
    try (Stream<Path> walk = Files.walk(injectors)) {
      logs = walk.filter(p -> p.getFileName().toString().matches(".*-[0-9]+\\.log")).sorted().collect(Collectors.toList());
    } catch (IOException ex) {
      throw new LifecycleException("cannot list the worker logs below " + injectors + ": " + ex.getMessage());
    }
    for (Path log : logs) {
      for (String line : lines(log)) {
        if (ERROR_LINE.matcher(line).matches() && !line.contains("ShutdownException")) {
          final String message = LOG_PREFIX.matcher(line).replaceFirst("");
          return message.length() > 400 ? message.substring(0, 400) : message;
        }
      }
    }
    return null;
  }

  /**
   * The workers' own count of failures by exception class ("hbaseload: errors by class: X=12, Y=1"
   * in each worker log), summed over workers: "X=20, Y=1".
   */
  static String errorsByClass(Path injectors) throws LifecycleException {
    if (!Files.isDirectory(injectors)) {
      return "";
    }
    final Map<String, Long> sums = new java.util.TreeMap<>();
    final Pattern count = Pattern.compile("([A-Za-z0-9_$.]+)=([0-9]+)");
    try (Stream<Path> walk = Files.walk(injectors)) {
      for (Path log : (Iterable<Path>) walk.filter(p -> p.getFileName().toString().matches(".*-[0-9]+\\.log")).sorted()::iterator) {
        for (String line : lines(log)) {
          final int at = line.indexOf("hbaseload: errors by class: ");
          if (at >= 0) {
            final Matcher m = count.matcher(line.substring(at + "hbaseload: errors by class: ".length()));
            while (m.find()) {
              sums.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
            }
          }
        }
      }
    } catch (IOException ex) {
      throw new LifecycleException("cannot list the worker logs below " + injectors + ": " + ex.getMessage());
    }
    final List<String> parts = new ArrayList<>();
    sums.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(", ", parts);
  }

  /** Longest worker start-up in an agent's log: "worker ... started" to "starting threads", seconds. */
  static double workerStartup(List<String> agentOut) {
    final Pattern time = Pattern.compile("^[0-9-]+ ([0-9]+):([0-9]+):([0-9]+),([0-9]+) ");
    double started = -1;
    double longest = 0;
    for (String line : agentOut) {
      final Matcher m = time.matcher(line);
      if (!m.find()) {
        continue;
      }
      final double t = Integer.parseInt(m.group(1)) * 3600 + Integer.parseInt(m.group(2)) * 60
          + Integer.parseInt(m.group(3)) + Integer.parseInt(m.group(4)) / 1000.0;
      if (line.matches(".* agent: worker .* started$")) {
        started = t;
      } else if (line.endsWith("starting threads") && started >= 0) {
        longest = Math.max(longest, t - started);
      }
    }
    return longest;
  }

  private static List<String> lines(Path file) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try {
      return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return List.of();
    }
  }

  /**
   * Decide, write manifest.json, print the summary. Returns the exit status: 0 complete (or degraded
   * by the fault schedule it was asked for), 1 not.
   */
  static int finalise(Path runDir, Observed given, PrintStream out) throws LifecycleException {
    final JsonObject plan = Json.read(runDir.resolve("plan.json"));
    // A re-judged run keeps its first judgement's table facts; a first judgement asks HBase meanwhile.
    final CompletableFuture<List<TableFacts.Fact>> tableFacts = given.collected == null && given.tableInfo
        ? TableFacts.ask(plan, runDir) : null;
    final Evidence e = gather(runDir, plan);
    JsonObject before = null;
    Observed seen = given;
    if (given.collected != null) {
      // Judged again with what bash saw then and the evidence now: logs that were missing may be here.
      before = Json.read(runDir.resolve("manifest.json"));
      if ("running".equals(Json.text(before, "status"))) {
        throw new LifecycleException(Json.text(plan, "run_id") + " has not been judged yet (its manifest says running)");
      }
      seen = Observed.fromManifest(before);
    }
    final Verdict verdict = decide(e, seen);
    final String endedBefore = before == null ? null : Json.text(before, "end_time");
    final Instant end = endedBefore == null ? Instant.now() : Instant.parse(endedBefore);
    final Manifest m = Manifest.from(plan, verdict.status.label(), verdict.reason, Text.iso(end));
    final Map<String, String> tests = new LinkedHashMap<>();
    for (String[] row : e.statistics) {
      tests.put(row[0], row[1]);
    }
    m.set("tests", tests);
    if (e.outcome != null) {
      m.set("load_start_time", isoMillis(e.outcome.getProperty("load_start_ms")));
      m.set("load_end_time", isoMillis(e.outcome.getProperty("load_end_ms")));
      m.setIn("console", "requests", Manifest.number(e.outcome.getProperty("requests")));
    }
    m.setIn("console", "exit_code", seen.consoleExit);
    final long logged = e.logsByHost.values().stream().mapToLong(d -> d.total).sum();
    m.set("datalog_requests", logged);
    m.set("hbase_metrics", seen.hbaseMetrics);
    m.set("observed", seen.toJson());
    m.set("hlog", intervalFacts(e));
    m.set("faults", faultFacts(e));
    if (!e.intervals.workers.isEmpty()) {
      final Map<Integer, Long> perTest = new java.util.TreeMap<>();
      e.logsByHost.values().forEach(d -> d.perTest.forEach((t, n) -> perTest.merge(t, n, Long::sum)));
      e.intervals.write(runDir.resolve("report-input"), perTest, dataLogPerWorker(e), !e.dataLogOff);
    }
    if (tableFacts != null) {
      TableFacts.fill(m, tableFacts.join());
    }
    if (before != null) {
      keepFromEarlierJudgement(m, before, given.collected);
    }
    m.write(runDir.resolve("manifest.json"));
    summary(out, plan, verdict, e, Duration.between(Instant.parse(Json.text(plan, "start_time")), end));
    return verdict.status == Status.COMPLETE || verdict.asAsked ? 0 : 1;
  }

  /** A re-judged run keeps what only the first judgement could ask (HBase's table facts) and lists every collection. */
  private static void keepFromEarlierJudgement(Manifest m, JsonObject before, String note) {
    for (String key : List.of("table", "cluster")) {
      if (before.has(key)) {
        m.set(key, before.get(key));
      }
    }
    final com.google.gson.JsonArray collections = before.has("collections") && before.get("collections").isJsonArray()
        ? before.getAsJsonArray("collections") : new com.google.gson.JsonArray();
    final JsonObject entry = new JsonObject();
    entry.addProperty("time", Text.iso(Instant.now()));
    entry.addProperty("note", note);
    collections.add(entry);
    m.set("collections", collections);
    m.set("reason", Text.oneLine(m.get("reason") + "; " + note));
  }

  static String isoMillis(String ms) {
    return ms != null && ms.matches("[0-9]{1,15}") ? Text.iso(Instant.ofEpochMilli(Long.parseLong(ms))) : null;
  }

  /** What the user reads at the end of ./suite run: the outcome, the console's statistics beside the data logs' counts. */
  static void summary(PrintStream out, JsonObject plan, Verdict verdict, Evidence e, Duration took) {
    final JsonObject properties = plan.getAsJsonObject("properties");
    final List<JsonObject> hosts = PlanJson.hosts(plan);
    // A run with grinder.runs > 0 (sweep.work = rows) is a fixed amount of work; its duration only bounds it.
    final String runs = Manifest.property(properties, "grinder.runs", "0").trim();
    final int duration = Json.integer(plan, "duration_s", 0);
    final String length = runs.matches("[1-9][0-9]*") ? runs + " requests a thread" + (duration > 0 ? " (at most " + duration + "s)" : "")
        : duration + "s of load";
    out.printf(Locale.ROOT, "%s %s in %ds: %d injector(s) (%s), %d threads, %s, %s, %s%n", Json.text(plan, "run_id"),
        verdict.status.label(), took.getSeconds(), hosts.size(), Json.text(plan, "injector_mode"), Json.integer(plan, "threads_total", 0),
        Manifest.property(properties, "hbaseload.operations", "get:70,put:30"), Json.text(plan, "target"), length);
    if (!e.statistics.isEmpty()) {
      out.printf(Locale.ROOT, "  %-5s %-10s %10s %7s %9s %9s %10s%n", "test", "name", "requests", "errors", "mean_ms", "tps", "data-logs");
      final Map<Integer, Long> logged = new LinkedHashMap<>();
      e.logsByHost.values().forEach(d -> d.perTest.forEach((t, n) -> logged.merge(t, n, Long::sum)));
      for (String[] row : e.statistics) {
        final long requests = Long.parseLong(row[2]) + Long.parseLong(row[3]);
        out.printf(Locale.ROOT, "  %-5s %-10s %10d %7s %9s %9s %10d%n", row[0], row[1], requests, row[3], row[4], row[6],
            logged.getOrDefault(Integer.parseInt(row[0]), 0L));
      }
    }
    out.println("  requests per host: " + e.logsByHost.entrySet().stream().map(x -> x.getKey() + " " + x.getValue().total)
        .collect(Collectors.joining(", ")));
    out.println("  interval logs: " + e.intervals.workers.size() + " file(s), " + e.intervals.total() + " requests; "
        + intervalFacts(e).get("check"));
    out.println("  folder: " + Json.text(plan, "run_dir") + " (manifest.json, grinder.properties, console/, injectors/<host>/, hbase/)");
    if (verdict.status != Status.COMPLETE) {
      out.println("  " + verdict.status.label() + ": " + verdict.reason);
    }
  }
}
