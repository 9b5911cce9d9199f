package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * sweep.json, the sweep's record (the report reads its "runs"): its plan from sweep-plan.json and,
 * for every point, the run made for it and how that run ended, found from the runs' own
 * plan.json and manifest.json (each run records its sweep id and point), never from output text.
 */
final class SweepRecord {

  private SweepRecord() {
  }

  /** What write put in sweep.json that the sweep's steps use next: each point's row, the runs made, the time. */
  record Written(List<Map<String, Object>> rows, List<String> runs, Map<String, Object> time) {
  }

  /** status: running while the sweep goes on, then complete, incomplete or interrupted; the steps from the state file. */
  static Written write(Path sweepDir, String status) throws LifecycleException {
    final Path state = sweepDir.resolve(SweepSteps.STATE_FILE);
    return write(sweepDir, status, Files.isRegularFile(state) ? Json.GSON.fromJson(Json.read(state), SweepSteps.State.class) : null);
  }

  /** The same, with the steps as the caller holds them (null: no steps yet). */
  static Written write(Path sweepDir, String status, SweepSteps.State steps) throws LifecycleException {
    final JsonObject plan = Json.read(sweepDir.resolve("sweep-plan.json"));
    final String id = Json.text(plan, "sweep_id");
    final Map<Integer, Path> runs = runsOf(sweepDir.getParent(), id);
    final List<String> done = new ArrayList<>();
    final List<Map<String, Object>> rows = new ArrayList<>();
    for (JsonElement e : plan.getAsJsonArray("points")) {
      final JsonObject point = e.getAsJsonObject();
      final Path run = runs.get(Json.integer(point, "point", 0));
      final Map<String, Object> row = new LinkedHashMap<>();
      row.put("label", Json.text(point, "label"));
      row.put("run", run == null ? null : run.getFileName().toString());
      row.put("status", run == null ? unrun(sweepDir, Json.integer(point, "point", 0)) : runStatus(run));
      if (run != null) {
        done.add(run.getFileName().toString());
      }
      rows.add(row);
    }
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("sweep_id", id);
    doc.put("scenario", Json.text(plan, "scenario"));
    doc.put("scenario_file", Json.text(plan, "scenario_file"));
    doc.put("scale", Json.text(plan, "scale"));
    doc.put("work", Json.text(plan, "work"));
    doc.put("status", status);
    doc.put("start_time", Json.text(plan, "start_time"));
    doc.put("end_time", status.equals("running") ? null : Text.iso(Instant.now()));
    doc.put("slo", Json.text(plan, "slo"));
    doc.put("runs", done);
    doc.put("plan", rows);
    doc.put("warmups", warmups(sweepDir.getParent(), id));
    final Map<String, Object> time = steps == null ? null : time(steps, loadSeconds(runs.values()));
    if (steps != null) {
      doc.put("time", time);
      doc.put("steps", steps.steps);
    }
    Json.write(sweepDir.resolve("sweep.json"), doc);
    return new Written(rows, done, time);
  }

  /**
   * What the sweep's wall time went on: its runs' load (their planned durations), and the seconds
   * of each kind of step (a run step's seconds beyond its load are its start and end: JVMs,
   * collection, the verdict), so that a sweep says how much of it was measuring.
   */
  static Map<String, Object> time(SweepSteps.State state, double loadSeconds) {
    final Map<String, Double> byKind = new TreeMap<>();
    long lastEnd = state.startedMillis;   // the wall time: up to the end of the last step done
    for (SweepSteps.StepTime step : state.steps) {
      byKind.merge(step.step, (step.endMs - step.startMs) / 1000.0, Double::sum);
      lastEnd = Math.max(lastEnd, step.endMs);
    }
    final double wall = (lastEnd - state.startedMillis) / 1000.0;
    final double runs = byKind.getOrDefault("run", 0.0);
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("wall_s", round(wall));
    out.put("load_s", round(loadSeconds));
    out.put("outside_load_share", wall > 0 ? round(Math.max(0, 1 - loadSeconds / wall)) : null);
    out.put("runs_s", round(runs));
    out.put("runs_beyond_load_s", round(Math.max(0, runs - loadSeconds)));
    out.put("warmups_s", round(byKind.getOrDefault("warmup", 0.0)));
    out.put("prepare_s", round(byKind.getOrDefault("prepare", 0.0)));
    // a server variant's restart of the HBase, and the start of region servers a fault schedule left down
    out.put("server_restarts_s", round(byKind.getOrDefault("server", 0.0) + byKind.getOrDefault("heal", 0.0)));
    return out;
  }

  /**
   * The load of the runs made: each run's planned duration (manifest.json's duration_s), or the time
   * its load really took when that was shorter (a fixed-work run ends before its bound; the
   * console's load_start_time to load_end_time, which also holds the workers' start, is longer for
   * a timed run).
   */
  private static double loadSeconds(Iterable<Path> runs) {
    double total = 0;
    for (Path run : runs) {
      try {
        final JsonObject manifest = Json.read(run.resolve("manifest.json"));
        final double planned = Json.integer(manifest, "duration_s", 0);
        final String start = Json.text(manifest, "load_start_time");
        final String end = Json.text(manifest, "load_end_time");
        double load = planned;
        if (start != null && end != null) {
          final double took = java.time.Duration.between(Instant.parse(start), Instant.parse(end)).toMillis() / 1000.0;
          load = planned > 0 ? Math.min(planned, took) : took;
        }
        total += Math.max(0, load);
      } catch (LifecycleException | java.time.format.DateTimeParseException e) {
        // a run without a readable manifest adds no load
      }
    }
    return total;
  }

  private static double round(double seconds) {
    return Math.round(seconds * 100) / 100.0;
  }

  /**
   * The sweep's warm-ups (warmup-N folders whose plan names it), in order: the point each came
   * before, how long it took and whether it ended warm, from the console's outcome; a second one
   * before the same point is the first one's settling (SweepSteps.SETTLE_S).
   */
  static List<Map<String, Object>> warmups(Path runsDir, String sweepId) throws LifecycleException {
    final List<Map<String, Object>> out = new ArrayList<>();
    final TreeMap<Integer, Path> found = new TreeMap<>();
    try (Stream<Path> entries = Files.list(runsDir)) {
      for (Path dir : (Iterable<Path>) entries::iterator) {
        final String name = dir.getFileName().toString();
        if (name.matches("warmup-[0-9]+") && Files.isRegularFile(dir.resolve("plan.json"))
            && sweepId.equals(Json.text(Json.read(dir.resolve("plan.json")), "sweep_id"))) {
          found.put(Integer.parseInt(name.substring("warmup-".length())), dir);
        }
      }
    } catch (IOException e) {
      throw new LifecycleException("cannot list " + runsDir + ": " + e.getMessage());
    }
    int previousPoint = -1;
    for (Path dir : found.values()) {
      final JsonObject plan = Json.read(dir.resolve("plan.json"));
      final int point = Json.integer(plan, "sweep_point", 0);
      Map<String, String> outcome = Map.of();   // none yet, or unreadable: the row says so below
      final Path file = dir.resolve("console").resolve("outcome.properties");
      if (Files.isRegularFile(file)) {
        try {
          outcome = PropertiesFile.sorted(PropertiesFile.read(file));
        } catch (LifecycleException e) {
          // an unreadable outcome: as none
        }
      }
      final Map<String, Object> row = new LinkedHashMap<>();
      row.put("warmup", dir.getFileName().toString());
      row.put("before_point", point);
      row.put("settling", point == previousPoint);
      previousPoint = point;
      row.put("warm", outcome.containsKey("warmup_warm") ? Boolean.valueOf(outcome.get("warmup_warm")) : null);
      row.put("seconds", outcome.containsKey("warmup_s") ? Integer.valueOf(outcome.get("warmup_s")) : null);
      row.put("reason", outcome.getOrDefault("reason", "no outcome (the warm-up did not end normally)"));
      out.add(row);
    }
    return out;
  }

  /** Point -> run folder, for the runs whose plan.json names this sweep. */
  static Map<Integer, Path> runsOf(Path runsDir, String sweepId) throws LifecycleException {
    final Map<Integer, Path> runs = new TreeMap<>();
    try (Stream<Path> entries = Files.list(runsDir)) {
      for (Path dir : (Iterable<Path>) entries::iterator) {
        final Path planFile = dir.resolve("plan.json");
        if (!dir.getFileName().toString().startsWith("run-") || !Files.isRegularFile(planFile)) {
          continue;
        }
        final JsonObject plan = Json.read(planFile);
        if (sweepId.equals(Json.text(plan, "sweep_id"))) {
          runs.put(Json.integer(plan, "sweep_point", 0), dir);
        }
      }
    } catch (IOException e) {
      throw new LifecycleException("cannot list " + runsDir + ": " + e.getMessage());
    }
    return runs;
  }

  /** A point without a run: pending, or skipped because its table's preparation timed out or crashed (prepare-N.json). */
  private static String unrun(Path sweepDir, int point) {
    final Path record = sweepDir.resolve("prepare-" + point + ".json");
    if (!Files.isRegularFile(record)) {
      return "pending";
    }
    try {
      final String outcome = Json.text(Json.read(record), "outcome");
      return "timeout".equals(outcome) || "crash".equals(outcome) ? "skipped: table " + outcome : "pending";
    } catch (LifecycleException e) {
      return "pending";
    }
  }

  private static String runStatus(Path run) {
    try {
      final String status = Json.text(Json.read(run.resolve("manifest.json")), "status");
      return status == null ? "unknown" : status;
    } catch (LifecycleException e) {
      return "unknown";
    }
  }
}
