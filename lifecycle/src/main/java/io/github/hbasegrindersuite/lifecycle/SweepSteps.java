package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What ./suite sweep does next (lifecycle sweep-next): the sweep's decisions -- restart the HBase
 * for a server variant, prepare a table or take one prepared earlier, skip the points of a table
 * that could not be made, warm a workload once, run a point, go on or stop after a failed run, the
 * sweep's final status -- so that libexec/suite-sweep only starts the processes it is told to and
 * reports back how each ended. The state between calls is sweep-state.json in the sweep's folder;
 * every call hands bash one step ({@link Step}), with the lines to print before it.
 */
final class SweepSteps {

  /** What bash is told to do. */
  enum Step {
    /** Restart the embedded HBase with a server variant's conf folder and read its settings back. */
    SERVER,
    /**
     * Start again the local cluster's region servers that are down (an earlier point's fault schedule
     * killed or stopped them), and wait until the master counts them live: every point starts from a
     * whole cluster, as ChaosMonkey restores its cluster after its actions.
     */
    HEAL,
    /** ./suite prepare --properties PREPARE_PROPERTIES --record PREPARE_RECORD. */
    PREPARE,
    /** A warm-up run before the point's first measured run of this workload. */
    WARMUP,
    /** The point's run. */
    RUN,
    /** Nothing more: the sweep ended with {@link Status}. */
    DONE
  }

  /** How a sweep ended. */
  enum Status {
    /** Every point ran (or was skipped for its table) and none failed; some may be degraded. */
    COMPLETE,
    /** A run failed and --keep-going was not given, or a table's preparation failed: stopped there. */
    STOPPED,
    /** Every point was tried (--keep-going), and some runs failed. */
    FAILED
  }

  /** Within a point, the next thing to consider. */
  enum Stage { START, PREPARE, WARMUP, RUN }

  /** sweep-state.json: what the sweep has done so far (gson, field names as written). */
  static final class State {
    int point = 1;
    Stage stage = Stage.START;
    /** The step handed out and not yet reported back (null when none), and when it was handed out. */
    Step pending;
    long pendingSinceMillis;
    /** Every step done: what the sweep's wall time went on (sweep.json's "steps" and "time"). */
    List<StepTime> steps = new ArrayList<>();
    boolean keepGoing;
    long startedMillis;
    /** The conf folder the HBase runs with now ("" = its normal one), and its read-back. */
    String serverConf = "";
    /** The region servers the HBase runs with now, as the sweep found or restarted it (0: not known). */
    int regionServers;
    String readBack;
    /** Workloads warmed on the HBase running now (sweep-plan.json's warmup_key). */
    Set<String> warmed = new LinkedHashSet<>();
    /** Of those, the ones whose short second warm-up (the settling) is done too. */
    Set<String> settled = new LinkedHashSet<>();
    /** Tables whose preparation timed out or crashed (prepare exit 3) -> their record. */
    Map<String, String> unmade = new TreeMap<>();
    /** Preparations done on the HBase running now (prepare_key) -> their record, and their table. */
    Map<String, String> ready = new TreeMap<>();
    Map<String, String> readyTable = new TreeMap<>();
    List<String> failed = new ArrayList<>();
    List<String> degraded = new ArrayList<>();
    /** Runs whose acknowledged-write audit found writes lost or corrupted (./suite run exit 4). */
    List<String> lostWrites = new ArrayList<>();
    Status status;
    /** Why the sweep stopped or failed. */
    String failureReason;
    /** The point before which the sweep last started region servers again (0: none): a second time is a failure. */
    int healedBefore;
  }

  /** One step done: its point, kind, when it was handed out and reported, its exit code. */
  static final class StepTime {
    int point;
    String step;
    @SerializedName("start_ms")
    long startMs;
    @SerializedName("end_ms")
    long endMs;
    int exit;
  }

  /** What one call hands bash. */
  static final class Next {
    Step step;
    final List<String> messages = new ArrayList<>();
    int point;
    /** WARMUP and RUN: libexec/suite-run's arguments. */
    final List<String> runArgs = new ArrayList<>();
    String prepareProperties;
    String prepareRecord;
    String serverConf;
    String serverVariant;
    String serverExpect;
    /** SERVER: the region servers to start the HBase with (null: as many as it ran with). */
    Integer serverRegionServers;
    /** SERVER with a cluster size: the sweep's tables whose regions are spread over every region server (comma-separated). */
    String spreadTables;
    /** HEAL: the region servers to start again (their numbers, comma-separated). */
    String regionServersDown;
    Status status;
    /** Why the sweep stopped or failed (STOPPED, FAILED); the closing line otherwise. */
    String summary;
    /** COMPLETE with degraded runs: which. */
    String degradedNote;
    /** COMPLETE: what its wall time went on. */
    String timeNote;
  }

  /** What bash reports of the step it was given: its exit code and, after SERVER, the read-back file. */
  static final class Report {
    Step step;
    int exitCode;
    String readBack;
  }

  static final String STATE_FILE = "sweep-state.json";

  private final Path sweepDir;
  private final JsonObject plan;
  private final List<JsonObject> points = new ArrayList<>();
  private final String sweepId;
  private final boolean serverVariants;
  private final int warmupMaxSeconds;
  /**
   * The settling after a warm-up: when a load ends, HBase's compiled request path hits branches its
   * load never took (connections closing) and HotSpot throws that code away (unstable_if traps,
   * "reinterpret": 27 of HBase's request-path methods in the second after a warm-up's load ended,
   * in its LogCompilation); the next load then spent 5-7 s at 50-70% of the server CPU compiling it
   * again. A second, short warm-up takes that recompilation out of the first measured run
   * (bench/results/2026-11-28-warmup-placement.md).
   */
  static final int SETTLE_S = 12;

  /** The settling after a warm-up bounded at WARMUP_BOUND seconds: none for a bound no longer than it (a check's tiny one). */
  static int settleSeconds(int warmupBound) {
    return warmupBound > SETTLE_S ? SETTLE_S : 0;
  }
  private final long nowMillis;
  /** The local cluster's region servers down now, as the caller reported them ("" = none). */
  private String regionServersDown = "";

  SweepSteps(Path sweepDir, long nowMillis) throws LifecycleException {
    this.sweepDir = sweepDir;
    this.plan = Json.read(sweepDir.resolve("sweep-plan.json"));
    for (JsonElement e : plan.getAsJsonArray("points")) {
      points.add(e.getAsJsonObject());
    }
    this.sweepId = Json.text(plan, "sweep_id");
    // site overrides, cluster sizes or both: any point with a server variant restarts the HBase for it
    this.serverVariants = points.stream().anyMatch(p -> p.get("server_variant") instanceof JsonObject);
    this.warmupMaxSeconds = Json.integer(plan, "warmup_max_s", 0);
    this.nowMillis = nowMillis;
  }

  /** {@link #advance(boolean, String, Report, String)} with every region server running. */
  Next advance(boolean keepGoing, String readBack, Report report) throws LifecycleException {
    return advance(keepGoing, readBack, report, null);
  }

  /**
   * One call: read the state (a new one at the first call), take the report in, decide, keep the state.
   * DOWN: the local cluster's region servers not running now (I,J; null or empty: none), as bash sees their PIDs.
   */
  Next advance(boolean keepGoing, String readBack, Report report, String down) throws LifecycleException {
    this.regionServersDown = down == null ? "" : down.trim();
    final Path file = sweepDir.resolve(STATE_FILE);
    final State state;
    if (Files.isRegularFile(file)) {
      state = Json.GSON.fromJson(Json.read(file), State.class);
    } else {
      state = new State();
      state.keepGoing = keepGoing;
      state.startedMillis = nowMillis;
      state.regionServers = Json.integer(plan, "local_regionservers", 0);
    }
    if (readBack != null) {
      state.readBack = readBack;
    }
    final Next next = new Next();
    if (report != null) {
      if (state.pending == report.step) {
        final StepTime done = new StepTime();
        done.point = state.point;
        done.step = lower(report.step);
        done.startMs = state.pendingSinceMillis;
        done.endMs = nowMillis;
        done.exit = report.exitCode;
        state.steps.add(done);
      }
      take(state, report, next);
    } else if (state.pending != null) {
      throw new LifecycleException("sweep-next: the " + lower(state.pending) + " step handed out last was not reported (--after)");
    }
    if (state.status == null) {
      decide(state, next);
    } else {
      finish(state, next, null);
    }
    state.pending = next.step == Step.DONE ? null : next.step;
    state.pendingSinceMillis = nowMillis;
    Json.write(file, state);
    return next;
  }

  // ---- the report of the step done ----

  private void take(State state, Report report, Next next) throws LifecycleException {
    if (state.pending != report.step) {
      throw new LifecycleException("sweep-next: reported " + lower(report.step) + ", but the step handed out was "
          + (state.pending == null ? "none" : lower(state.pending)));
    }
    // null after the last point (the heal that leaves the cluster whole)
    final JsonObject point = state.point <= points.size() ? points.get(state.point - 1) : null;
    switch (report.step) {
      case SERVER:
        // a restarted HBase is a cold one: nothing warmed or prepared on it yet
        state.serverConf = serverConf(point);
        if (regionServers(point) > 0) {
          state.regionServers = regionServers(point);
        }
        state.warmed.clear();
        state.settled.clear();
        state.ready.clear();
        state.readyTable.clear();
        state.stage = Stage.PREPARE;
        break;
      case PREPARE:
        tookPreparation(state, point, report.exitCode, next);
        break;
      case WARMUP:
        // the first warm-up of a key, then its settling (decide hands out both)
        if (!state.warmed.add(Json.text(point, "warmup_key"))) {
          state.settled.add(Json.text(point, "warmup_key"));
        }
        if (report.exitCode != 0) {
          next.messages.add(sweepId + ": the warm-up for run " + state.point + " did not end cleanly; run " + state.point
              + " goes on (its verdict says whether it was warm)");
        }
        break;
      case RUN:
        tookRun(state, point, report.exitCode);
        break;
      case HEAL:
        // the servers not restarted are still warm, and the new one's regions are few until the
        // point's table is made: the warm-ups done stay done (the verdict's JIT share says if it was cold)
        state.healedBefore = state.point;
        if (report.exitCode != 0) {
          stop(state, Status.STOPPED, sweepId + " stopped: the region servers down before run " + state.point
              + " could not be started again (exit " + report.exitCode + "; ./suite hbase status)");
        }
        break;
      default:
        throw new LifecycleException("sweep-next: nothing to report after " + lower(report.step));
    }
  }

  private void tookPreparation(State state, JsonObject point, int exitCode, Next next) throws LifecycleException {
    final String table = Json.text(point, "table");
    final String record = sweepDir.resolve("prepare-" + state.point + ".json").toString();
    if (exitCode == 3) {
      // the table could not be made (timeout, crash): its points are skipped, not failed
      state.unmade.put(table, record);
      next.messages.add(sweepId + ": run " + state.point + " of " + points.size() + " (" + Json.text(point, "label")
          + ") skipped: table " + table + " was not made (" + outcomeOf(record) + ", recorded)");
      SweepRecord.write(sweepDir, "running", state);
      nextPoint(state);
    } else if (exitCode != 0) {
      stop(state, Status.STOPPED, "preparing the table failed (properties: " + Json.text(point, "prepare_properties") + ")");
    } else {
      final String key = Json.text(point, "prepare_key");
      if (key != null) {
        state.ready.put(key, record);
        state.readyTable.put(key, table);
      } else {
        // made fresh or recreated: what was known of this table is not true any more
        state.readyTable.entrySet().removeIf(e -> {
          final boolean same = e.getValue().equals(table);
          if (same) {
            state.ready.remove(e.getKey());
          }
          return same;
        });
      }
      state.stage = Stage.WARMUP;
    }
  }

  /** ./suite run's exit when the run's acknowledged-write audit found a write lost or corrupted (AuditVerifier.LOST). */
  static final int LOST_WRITES_EXIT = AuditVerifier.LOST;

  private void tookRun(State state, JsonObject point, int exitCode) throws LifecycleException {
    final Map<String, Object> row = SweepRecord.write(sweepDir, "running", state).rows().get(state.point - 1);
    final String run = (String) row.get("run");
    if (serverVariants && run != null && state.readBack != null && Files.isRegularFile(Path.of(state.readBack))) {
      // the run folder keeps the read-back of the configuration it ran with
      copy(Path.of(state.readBack), sweepDir.getParent().resolve(run).resolve("server-conf.json"));
    }
    final String name = "run " + state.point + " (" + Json.text(point, "label") + ")";
    if (exitCode == LOST_WRITES_EXIT) {
      // the run did its work and its audit counted what HBase lost (a durability study's answer): a result, not a failure
      state.lostWrites.add(name);
    } else if (exitCode != 0 && "degraded".equals(row.get("status"))) {
      // a degraded run did its work with a stall in it: a result its report explains, not a failure
      state.degraded.add(name);
    } else if (exitCode != 0) {
      state.failed.add(name);
      if (!state.keepGoing) {
        stop(state, Status.STOPPED, sweepId + " stopped: " + name + " failed (--keep-going runs the rest; sweep.json names the run)");
        return;
      }
    }
    nextPoint(state);
  }

  // ---- the next step ----

  private void decide(State state, Next next) throws LifecycleException {
    while (state.point <= points.size()) {
      final JsonObject point = points.get(state.point - 1);
      final String label = Json.text(point, "label");
      next.point = state.point;
      final String of = "run " + state.point + " of " + points.size();
      if (state.stage == Stage.START) {
        final String table = Json.text(point, "table");
        if (table != null && state.unmade.containsKey(table)) {
          copy(Path.of(state.unmade.get(table)), sweepDir.resolve("prepare-" + state.point + ".json"));
          next.messages.add(sweepId + ": " + of + " (" + label + ") skipped: table " + table + " was not made ("
              + outcomeOf(state.unmade.get(table)) + ")");
          nextPoint(state);
          continue;
        }
        // a restart makes the cluster whole: no heal before it
        final boolean restart = restartFor(state, point);
        if (!restart && heal(state, next, "before " + of)) {
          return;
        }
        if (restart) {
          final JsonObject variant = point.getAsJsonObject("server_variant");
          next.step = Step.SERVER;
          next.serverConf = serverConf(point);
          next.serverVariant = Json.text(variant, "label");
          next.serverExpect = Json.GSON.toJson(variant.get("site"));
          final int size = regionServers(point);
          if (size > 0) {
            next.serverRegionServers = size;
            next.spreadTables = size > 1 ? String.join(",", tables()) : null;
          }
          return;
        }
        state.stage = Stage.PREPARE;
      }
      if (state.stage == Stage.PREPARE) {
        final String properties = Json.text(point, "prepare_properties");
        final String key = Json.text(point, "prepare_key");
        if (properties != null && key != null && state.ready.containsKey(key)) {
          alreadyPrepared(Path.of(state.ready.get(key)), sweepDir.resolve("prepare-" + state.point + ".json"));
          next.messages.add(sweepId + ": table " + Json.text(point, "table") + " for " + of + ": prepared earlier in this sweep, nothing to do");
        } else if (properties != null) {
          next.step = Step.PREPARE;
          next.prepareProperties = properties;
          next.prepareRecord = sweepDir.resolve("prepare-" + state.point + ".json").toString();
          next.messages.add(sweepId + ": preparing the table for " + of + " (skipped when it already matches)");
          return;
        }
        state.stage = Stage.WARMUP;
      }
      if (state.stage == Stage.WARMUP) {
        final String key = Json.text(point, "warmup_key");
        final boolean settled = state.settled.contains(key) || state.warmed.contains(key) && settleSeconds(warmupMaxSeconds) == 0;
        if (warmupMaxSeconds > 0 && !settled) {
          final boolean settling = state.warmed.contains(key);
          final int bound = settling ? settleSeconds(warmupMaxSeconds) : warmupMaxSeconds;
          next.step = Step.WARMUP;
          // a plan from before warmup_args warms with the point's own arguments
          final String args = point.has("warmup_args") ? "warmup_args" : "args";
          runArgs(point, args, next.runArgs);
          next.runArgs.add("--warmup-only");
          next.runArgs.add(String.valueOf(bound));
          next.messages.add(sweepId + (settling
              ? ": settling after the warm-up for " + of + " (the same load again, at most " + bound
                  + "s: the servers compile again what the end of its load threw away)"
              : ": warming up for " + of + " (" + label + "; " + warmupMix(point) + "at most " + bound + "s)"));
          return;
        }
        state.stage = Stage.RUN;
      }
      next.step = Step.RUN;
      runArgs(point, "args", next.runArgs);
      next.messages.add(sweepId + ": " + of + ": " + label + " (" + (nowMillis - state.startedMillis) / 1000 + "s into the sweep)");
      return;
    }
    // the sweep leaves the cluster whole, as a server variant's leaves its conf as it found it
    if (heal(state, next, "after the last run")) {
      return;
    }
    if (state.failed.isEmpty()) {
      state.status = Status.COMPLETE;
      finish(state, next, SweepRecord.write(sweepDir, "complete", state));
    } else {
      stop(state, Status.FAILED, sweepId + ": " + state.failed.size() + " of " + points.size() + " runs failed: "
          + String.join(" ", state.failed));
      finish(state, next, null);
    }
  }

  /**
   * A HEAL step when region servers of the local cluster are down (WHEN: "before run 3 of 6", "after
   * the last run"); stops the sweep when they are still down right after one. False: nothing to do.
   */
  private boolean heal(State state, Next next, String when) throws LifecycleException {
    if (regionServersDown.isEmpty()) {
      return false;
    }
    if (state.healedBefore == state.point) {
      stop(state, Status.STOPPED, sweepId + " stopped: region server(s) " + regionServersDown + " still down " + when
          + " after being started again (./suite hbase status)");
      finish(state, next, null);
      return true;
    }
    next.step = Step.HEAL;
    next.point = state.point;
    next.regionServersDown = regionServersDown;
    next.messages.add(sweepId + ": region server(s) " + regionServersDown + " of the local cluster down " + when
        + " (a fault schedule's kill or stop): starting them again");
    return true;
  }

  /** written: the complete record just written, or null (a call after the sweep ended reads it back). */
  private void finish(State state, Next next, SweepRecord.Written written) throws LifecycleException {
    next.step = Step.DONE;
    next.status = state.status;
    if (state.status == Status.COMPLETE) {
      final List<String> runs = new ArrayList<>();
      final JsonObject time;
      if (written != null) {
        runs.addAll(written.runs());
        time = written.time() == null ? null : Json.GSON.toJsonTree(written.time()).getAsJsonObject();
      } else {
        final JsonObject record = Json.read(sweepDir.resolve("sweep.json"));
        record.getAsJsonArray("runs").forEach(r -> runs.add(r.getAsString()));
        time = record.getAsJsonObject("time");
      }
      next.summary = sweepId + " complete in " + Math.round((nowMillis - state.startedMillis) / 1000.0) + "s: " + String.join(" ", runs)
          + " (" + sweepDir.resolve("sweep.json") + ")";
      next.timeNote = timeNote(time);
      final List<String> notes = new ArrayList<>();
      if (!state.degraded.isEmpty()) {
        notes.add(sweepId + ": " + state.degraded.size() + " of " + points.size()
            + " runs degraded (each ran to its end; its manifest and report say what stalled): " + String.join(" ", state.degraded));
      }
      if (state.lostWrites != null && !state.lostWrites.isEmpty()) {
        notes.add(sweepId + ": " + state.lostWrites.size() + " of " + points.size()
            + " runs lost acknowledged writes (their audit.json and report count them): " + String.join(" ", state.lostWrites));
      }
      next.degradedNote = notes.isEmpty() ? null : String.join("; ", notes);
    } else {
      next.summary = state.failureReason;
    }
  }

  /** "of its 62 s, 9 s were load (15%): ..." from sweep.json's time (null without one). */
  static String timeNote(JsonObject time) {
    if (time == null) {
      return null;
    }
    final double wall = time.get("wall_s").getAsDouble();
    final double load = time.get("load_s").getAsDouble();
    return String.format(java.util.Locale.ROOT,
        "of its %.0f s, %.0f s were load (%.0f%%); the runs took %.0f s (%.0f s of it starting and ending them), "
            + "warm-ups %.0f s, preparation %.0f s, HBase restarts %.0f s",
        wall, load, wall > 0 ? 100 * load / wall : 0, time.get("runs_s").getAsDouble(), time.get("runs_beyond_load_s").getAsDouble(),
        time.get("warmups_s").getAsDouble(), time.get("prepare_s").getAsDouble(), time.get("server_restarts_s").getAsDouble());
  }

  private void stop(State state, Status status, String reason) throws LifecycleException {
    SweepRecord.write(sweepDir, "incomplete", state);
    state.status = status;
    state.failureReason = reason;
  }

  /** ./suite run's arguments for a point: the sweep's base properties and common arguments, the point's own. */
  /** "with get:50,put:50; " when the warm-up's mix is not the point's own, else empty. */
  private static String warmupMix(JsonObject point) {
    if (!point.has("warmup_args") || point.get("warmup_args").equals(point.get("args"))) {
      return "";
    }
    String mix = "";
    boolean both = false;
    for (com.google.gson.JsonElement a : point.getAsJsonArray("warmup_args")) {
      if (a.getAsString().startsWith("hbaseload.operations=")) {
        mix = a.getAsString().substring("hbaseload.operations=".length());
      }
      both |= a.getAsString().equals("hbaseload.target=both");
    }
    final String target = both ? "direct and thrift at once (target both): every operation of both targets' runs; "
        : "every operation of its target's runs; ";
    return mix.isEmpty() ? "" : "with " + mix + ", " + target;
  }

  /** The suite-run arguments of POINT: the base properties, the common arguments and the point's ARGS_KEY array. */
  private void runArgs(JsonObject point, String argsKey, List<String> out) {
    out.add("--properties");
    out.add(Json.text(plan, "base_properties"));
    plan.getAsJsonArray("common_args").forEach(a -> out.add(a.getAsString()));
    point.getAsJsonArray(argsKey).forEach(a -> out.add(a.getAsString()));
    out.add("--sweep-id");
    out.add(sweepId);
    out.add("--sweep-point");
    out.add(String.valueOf(Json.integer(point, "point", 0)));
  }

  private static void nextPoint(State state) {
    state.point++;
    state.stage = Stage.START;
  }

  /** Does POINT need the HBase restarted: another conf folder, or another cluster size than what runs? */
  private boolean restartFor(State state, JsonObject point) {
    if (!serverVariants) {
      return false;
    }
    final int size = regionServers(point);
    return !serverConf(point).equals(state.serverConf) || size > 0 && size != state.regionServers;
  }

  /** The point's cluster size (sweep.server.regionservers), 0 when it has none. */
  private static int regionServers(JsonObject point) {
    final JsonElement variant = point.get("server_variant");
    return variant instanceof JsonObject v ? Json.integer(v, "regionservers", 0) : 0;
  }

  /** The tables of the sweep's points, each once, in point order. */
  private List<String> tables() {
    final Set<String> out = new LinkedHashSet<>();
    points.forEach(p -> {
      final String table = Json.text(p, "table");
      if (table != null) {
        out.add(table);
      }
    });
    return new ArrayList<>(out);
  }

  private static String serverConf(JsonObject point) {
    final JsonElement variant = point.get("server_variant");
    if (variant == null || variant.isJsonNull()) {
      return "";
    }
    final String conf = Json.text(variant.getAsJsonObject(), "conf_dir");
    return conf == null ? "" : conf;
  }

  private static String outcomeOf(String record) {
    try {
      final String outcome = Json.text(Json.read(Path.of(record)), "outcome");
      return outcome == null ? "no outcome recorded" : outcome;
    } catch (LifecycleException e) {
      return "its record is unreadable";
    }
  }

  /** The record of a preparation done earlier in the sweep, as this point's: nothing was created or loaded. */
  private static void alreadyPrepared(Path earlier, Path record) throws LifecycleException {
    final JsonObject doc = Json.read(earlier);
    doc.addProperty("outcome", "already prepared");
    for (String key : List.of("create_s", "load_s", "cells_loaded", "reason")) {
      doc.add(key, JsonNull.INSTANCE);
    }
    Json.write(record, doc);
  }

  private static void copy(Path from, Path to) throws LifecycleException {
    try {
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new LifecycleException("cannot copy " + from + " to " + to + ": " + e.getMessage());
    }
  }

  private static String lower(Step step) {
    return step.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The step as shell assignments for libexec/suite-sweep (STEP in lower case; MESSAGES printed before it). */
  static String shell(Next next) {
    final ShellAssignments out = new ShellAssignments();
    out.scalar("STEP", lower(next.step));
    out.array("MESSAGES", next.messages);
    out.array("RUN_ARGS", next.runArgs);
    out.scalar("PREPARE_PROPERTIES", next.prepareProperties);
    out.scalar("PREPARE_RECORD", next.prepareRecord);
    out.scalar("SERVER_CONF", next.serverConf);
    out.scalar("SERVER_VARIANT", next.serverVariant);
    out.scalar("SERVER_EXPECT", next.serverExpect);
    out.scalar("SERVER_REGIONSERVERS", next.serverRegionServers);
    out.scalar("SPREAD_TABLES", next.spreadTables);
    out.scalar("HEAL_REGIONSERVERS", next.regionServersDown);
    out.scalar("STATUS", next.status == null ? "" : next.status.name().toLowerCase(java.util.Locale.ROOT));
    out.scalar("SUMMARY", next.summary);
    out.scalar("DEGRADED_NOTE", next.degradedNote);
    out.scalar("TIME_NOTE", next.timeNote);
    return out.toString();
  }
}
