package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's decisions, step by step, on hand-made plans; runs are faked by their plan.json and manifest.json. */
class SweepStepsTest {
  @TempDir
  Path runs;

  private Path sweep;
  private long clock = 1_000_000L;
  private int nextRun = 1;

  /** A point: label, table, prepare key (null: none; "-" no preparation at all), warm-up key, server conf (null: normal). */
  private static Map<String, Object> point(int n, String table, String prepareKey, String warmupKey, String conf) {
    final Map<String, Object> p = new LinkedHashMap<>();
    p.put("point", n);
    p.put("label", "point " + n);
    p.put("args", List.of("--threads", String.valueOf(n)));
    p.put("warmup_key", warmupKey);
    p.put("table", table);
    final boolean prepared = !"-".equals(prepareKey);
    p.put("prepare_properties", prepared ? "/p/prepare-" + n + ".properties" : null);
    p.put("prepare_key", prepared ? prepareKey : null);
    if (conf != null) {
      p.put("server_variant", Map.of("label", "variant " + conf, "site", Map.of("hbase.k", conf), "conf_dir", "/conf/" + conf));
    } else {
      p.put("server_variant", null);
    }
    return p;
  }

  private void plan(int warmupMax, boolean serverVariants, List<Map<String, Object>> points) throws Exception {
    sweep = Files.createDirectories(runs.resolve("sweep-1"));
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("sweep_id", "sweep-1");
    doc.put("scenario", "s");
    doc.put("base_properties", "/b/base.properties");
    doc.put("common_args", List.of("--duration", "5"));
    doc.put("server_keys", serverVariants ? List.of("hbase.k") : List.of());
    doc.put("warmup_max_s", warmupMax);
    doc.put("points", points);
    Json.write(sweep.resolve("sweep-plan.json"), doc);
  }

  private SweepSteps.Next next(boolean keepGoing, String after, int exit) throws Exception {
    SweepSteps.Report report = null;
    if (after != null) {
      report = new SweepSteps.Report();
      report.step = SweepSteps.Step.valueOf(after.toUpperCase());
      report.exitCode = exit;
    }
    clock += 7_000;
    return new SweepSteps(sweep, clock).advance(keepGoing, null, report);
  }

  /** What ./suite run leaves for the sweep to find: a run folder naming the sweep and point, and how it ended. */
  private void ran(int point, String status) throws Exception {
    final Path run = Files.createDirectories(runs.resolve("run-" + nextRun++));
    Json.write(run.resolve("plan.json"), Map.of("sweep_id", "sweep-1", "sweep_point", point));
    Json.write(run.resolve("manifest.json"), Map.of("status", status, "duration_s", 5));
  }

  private void preparationRecorded(int point, String outcome) throws Exception {
    Json.write(sweep.resolve("prepare-" + point + ".json"), Map.of("outcome", outcome, "create_s", 1.5, "load_s", 2.5, "cells_loaded", 100));
  }

  /** One step handed out, done by the test: returns the read-back file to report with it (or null). */
  private interface StepDone {
    String done(SweepSteps.Next n) throws Exception;
  }

  /** The steps handed out, as "step point", and the last answer (DONE). */
  private record Drive(List<String> steps, SweepSteps.Next last) {
  }

  /** Drives the sweep to its end, each step succeeding after stepMillis of the fake clock. */
  private Drive driveToEnd(long stepMillis, StepDone onStep) throws Exception {
    final List<String> steps = new ArrayList<>();
    SweepSteps.Next n = next(false, null, 0);
    while (n.step != SweepSteps.Step.DONE) {
      steps.add(n.step.name().toLowerCase() + " " + n.point);
      final String readBack = onStep.done(n);
      final SweepSteps.Report report = new SweepSteps.Report();
      report.step = n.step;
      clock += stepMillis;
      n = new SweepSteps(sweep, clock).advance(false, readBack, report);
    }
    return new Drive(steps, n);
  }

  private JsonObject record() throws Exception {
    return Json.read(sweep.resolve("sweep.json"));
  }

  @Test
  void eachWorkloadIsWarmedOnceAndEveryPointRunsInOrder() throws Exception {
    plan(30, false, List.of(point(1, "t", "-", "get", null), point(2, "t", "-", "get", null), point(3, "t", "-", "put", null)));
    final List<List<String>> bounds = new ArrayList<>();
    final Drive d = driveToEnd(7_000, n -> {
      if (n.step == SweepSteps.Step.RUN) {
        assertEquals(List.of("--properties", "/b/base.properties", "--duration", "5", "--threads", String.valueOf(n.point),
            "--sweep-id", "sweep-1", "--sweep-point", String.valueOf(n.point)), n.runArgs);
        ran(n.point, "complete");
      }
      if (n.step == SweepSteps.Step.WARMUP) {
        bounds.add(n.runArgs.subList(n.runArgs.size() - 2, n.runArgs.size()));
      }
      return null;
    });
    final List<String> steps = d.steps();
    final SweepSteps.Next n = d.last();
    // each warm-up is followed by its settling: the same load again, shortly (SweepSteps.SETTLE_S)
    assertEquals(List.of("warmup 1", "warmup 1", "run 1", "run 2", "warmup 3", "warmup 3", "run 3"), steps);
    assertEquals(List.of(List.of("--warmup-only", "30"), List.of("--warmup-only", "12"), List.of("--warmup-only", "30"),
        List.of("--warmup-only", "12")), bounds);
    assertEquals(SweepSteps.Status.COMPLETE, n.status);
    assertTrue(n.summary.startsWith("sweep-1 complete in "), n.summary);
    assertTrue(n.summary.contains(": run-1 run-2 run-3 ("), n.summary);
    assertNull(n.degradedNote);
    assertEquals("complete", Json.text(record(), "status"));
    // every step took 7 s of the fake clock: 7 steps, 49 s; 3 runs of 5 s of load; 2 warm-ups and their settling
    final JsonObject time = record().getAsJsonObject("time");
    assertEquals(49.0, time.get("wall_s").getAsDouble());
    assertEquals(15.0, time.get("load_s").getAsDouble());
    assertEquals(21.0, time.get("runs_s").getAsDouble());
    assertEquals(6.0, time.get("runs_beyond_load_s").getAsDouble());
    assertEquals(28.0, time.get("warmups_s").getAsDouble());
    assertEquals(0.69, time.get("outside_load_share").getAsDouble());
    assertEquals(7, record().getAsJsonArray("steps").size());
    assertEquals("of its 49 s, 15 s were load (31%); the runs took 21 s (6 s of it starting and ending them), "
        + "warm-ups 28 s, preparation 0 s, HBase restarts 0 s", n.timeNote);
    // asked again after the end: still done, nothing run twice
    assertEquals(SweepSteps.Step.DONE, next(false, null, 0).step);
  }

  @Test
  void aWarmupRunsThePlansWarmupArgumentsAndSaysItsMix() throws Exception {
    final Map<String, Object> first = point(1, "t", "-", "direct", null);
    first.put("warmup_args", List.of("--threads", "1", "--set", "hbaseload.operations=get:50,put:50"));
    plan(30, false, List.of(first, point(2, "t", "-", "direct", null)));
    final List<List<String>> warmups = new java.util.ArrayList<>();
    final List<String> said = new java.util.ArrayList<>();
    driveToEnd(7_000, n -> {
      said.addAll(n.messages);
      if (n.step == SweepSteps.Step.WARMUP) {
        warmups.add(n.runArgs);
      }
      if (n.step == SweepSteps.Step.RUN) {
        assertEquals(List.of("--threads", String.valueOf(n.point)), n.runArgs.subList(4, 6), "a run keeps its own arguments");
        ran(n.point, "complete");
      }
      return null;
    });
    assertEquals(2, warmups.size(), "one warm-up for the key, and its settling");
    assertEquals(List.of("--properties", "/b/base.properties", "--duration", "5", "--threads", "1", "--set", "hbaseload.operations=get:50,put:50",
        "--sweep-id", "sweep-1", "--sweep-point", "1", "--warmup-only", "30"), warmups.get(0));
    assertEquals(List.of("--warmup-only", "12"), warmups.get(1).subList(warmups.get(1).size() - 2, warmups.get(1).size()));
    assertEquals(warmups.get(0).subList(0, warmups.get(0).size() - 1), warmups.get(1).subList(0, warmups.get(1).size() - 1),
        "the settling runs the warm-up's load");
    assertTrue(said.contains("sweep-1: warming up for run 1 of 2 (point 1; with get:50,put:50, every operation of its target's runs; at most 30s)"),
        String.join("\n", said));
    assertTrue(said.contains("sweep-1: settling after the warm-up for run 1 of 2 (the same load again, at most 12s: the servers compile "
        + "again what the end of its load threw away)"), String.join("\n", said));
  }

  @Test
  void aWarmUpBoundedNoLongerThanTheSettlingIsNotSettled() throws Exception {
    plan(SweepSteps.SETTLE_S, false, List.of(point(1, "t", "-", "get", null), point(2, "t", "-", "get", null)));
    final Drive d = driveToEnd(1_000, n -> {
      if (n.step == SweepSteps.Step.RUN) {
        ran(n.point, "complete");
      }
      return null;
    });
    assertEquals(List.of("warmup 1", "run 1", "run 2"), d.steps());
  }

  /** A fixed-work run ends before its bound: its load is the time it took, not the bound (a sweep of them showed 113% load). */
  @Test
  void theLoadOfARunIsItsBoundOrTheTimeItTookWhenShorter() throws Exception {
    plan(0, false, List.of(point(1, "t", "-", "w", null), point(2, "t", "-", "w", null)));
    final Drive d = driveToEnd(7_000, n -> {
      if (n.step == SweepSteps.Step.RUN) {
        ran(n.point, "complete");
        final Path manifest = runs.resolve("run-" + (nextRun - 1)).resolve("manifest.json");
        // run 1: 60 s bound, done in 26.5 s; run 2: 5 s bound, its load (with the workers' start) 11 s
        Json.write(manifest, Map.of("status", "complete", "duration_s", n.point == 1 ? 60 : 5,
            "load_start_time", "2026-11-27T04:34:35.576Z", "load_end_time", n.point == 1 ? "2026-11-27T04:35:02.076Z" : "2026-11-27T04:34:46.576Z"));
      }
      return null;
    });
    assertEquals(SweepSteps.Status.COMPLETE, d.last().status);
    assertEquals(31.5, record().getAsJsonObject("time").get("load_s").getAsDouble(), "26.5 + 5");
  }

  @Test
  void aPreparationIsReusedAndAnUnmadeTableSkipsItsPoints() throws Exception {
    plan(0, false, List.of(point(1, "a", "k1", "w", null), point(2, "a", "k1", "w", null),
        point(3, "b", null, "w", null), point(4, "b", "k2", "w", null), point(5, "a", "k1", "w", null)));
    SweepSteps.Next n = next(false, null, 0);
    assertEquals(SweepSteps.Step.PREPARE, n.step);
    assertEquals("/p/prepare-1.properties", n.prepareProperties);
    assertEquals(sweep.resolve("prepare-1.json").toString(), n.prepareRecord);
    preparationRecorded(1, "created");
    n = next(false, "prepare", 0);
    assertEquals(SweepSteps.Step.RUN, n.step);
    ran(1, "complete");
    // point 2: the same table and signature, prepared earlier: no preparation, its record says so
    n = next(false, "run", 0);
    assertEquals(SweepSteps.Step.RUN, n.step);
    assertEquals(2, n.point);
    assertTrue(n.messages.get(0).contains("table a for run 2 of 5: prepared earlier in this sweep"), n.messages.toString());
    final JsonObject reused = Json.read(sweep.resolve("prepare-2.json"));
    assertEquals("already prepared", Json.text(reused, "outcome"));
    assertTrue(reused.get("load_s").isJsonNull());
    ran(2, "complete");
    // point 3: table b times out (prepare exit 3): skipped, and point 4 of the same table without asking
    n = next(false, "run", 0);
    assertEquals(SweepSteps.Step.PREPARE, n.step);
    assertEquals(3, n.point);
    preparationRecorded(3, "timeout");
    n = next(false, "prepare", 3);
    assertTrue(n.messages.get(0).contains("run 3 of 5 (point 3) skipped: table b was not made (timeout, recorded)"), n.messages.toString());
    assertTrue(n.messages.get(1).contains("run 4 of 5 (point 4) skipped: table b was not made (timeout)"), n.messages.toString());
    assertEquals(SweepSteps.Step.RUN, n.step);
    assertEquals(5, n.point);
    assertEquals("timeout", Json.text(Json.read(sweep.resolve("prepare-4.json")), "outcome"));
    ran(5, "complete");
    n = next(false, "run", 0);
    assertEquals(SweepSteps.Status.COMPLETE, n.status);
    final List<String> statuses = new ArrayList<>();
    record().getAsJsonArray("plan").forEach(r -> statuses.add(Json.text(r.getAsJsonObject(), "status")));
    assertEquals(List.of("complete", "complete", "skipped: table timeout", "skipped: table timeout", "complete"), statuses);
  }

  @Test
  void aFreshPreparationForgetsWhatWasKnownOfItsTable() throws Exception {
    plan(0, false, List.of(point(1, "a", "k1", "w", null), point(2, "a", null, "w", null), point(3, "a", "k1", "w", null)));
    next(false, null, 0);
    preparationRecorded(1, "created");
    next(false, "prepare", 0);
    ran(1, "complete");
    assertEquals(SweepSteps.Step.PREPARE, next(false, "run", 0).step);   // point 2: no key, always prepared
    preparationRecorded(2, "recreated");
    next(false, "prepare", 0);
    ran(2, "complete");
    final SweepSteps.Next n = next(false, "run", 0);
    assertEquals(SweepSteps.Step.PREPARE, n.step, "point 3: the table was recreated since k1 was prepared");
    assertEquals(3, n.point);
  }

  @Test
  void aFailedPreparationStopsTheSweep() throws Exception {
    plan(0, false, List.of(point(1, "a", "k1", "w", null), point(2, "a", "k1", "w", null)));
    next(false, null, 0);
    final SweepSteps.Next n = next(false, "prepare", 1);
    assertEquals(SweepSteps.Step.DONE, n.step);
    assertEquals(SweepSteps.Status.STOPPED, n.status);
    assertEquals("preparing the table failed (properties: /p/prepare-1.properties)", n.summary);
    assertEquals("incomplete", Json.text(record(), "status"));
  }

  @Test
  void aFailedRunStopsTheSweepUnlessKeepGoing() throws Exception {
    plan(0, false, List.of(point(1, "a", "-", "w", null), point(2, "a", "-", "w", null)));
    next(false, null, 0);
    ran(1, "incomplete");
    SweepSteps.Next n = next(false, "run", 1);
    assertEquals(SweepSteps.Status.STOPPED, n.status);
    assertEquals("sweep-1 stopped: run 1 (point 1) failed (--keep-going runs the rest; sweep.json names the run)", n.summary);
    assertEquals("incomplete", Json.text(record(), "status"));

    Files.delete(sweep.resolve(SweepSteps.STATE_FILE));
    next(true, null, 0);
    ran(1, "incomplete");
    n = next(true, "run", 1);
    assertEquals(SweepSteps.Step.RUN, n.step);
    assertEquals(2, n.point);
    ran(2, "complete");
    n = next(true, "run", 0);
    assertEquals(SweepSteps.Status.FAILED, n.status);
    assertEquals("sweep-1: 1 of 2 runs failed: run 1 (point 1)", n.summary);
  }

  @Test
  void aDegradedRunIsAResultNotAFailure() throws Exception {
    plan(0, false, List.of(point(1, "a", "-", "w", null), point(2, "a", "-", "w", null)));
    next(false, null, 0);
    ran(1, "degraded");
    final SweepSteps.Next n2 = next(false, "run", 1);
    assertEquals(SweepSteps.Step.RUN, n2.step);
    ran(2, "complete");
    final SweepSteps.Next done = next(false, "run", 0);
    assertEquals(SweepSteps.Status.COMPLETE, done.status);
    assertEquals("sweep-1: 1 of 2 runs degraded (each ran to its end; its manifest and report say what stalled): run 1 (point 1)",
        done.degradedNote);
  }

  @Test
  void aRunThatLostAcknowledgedWritesIsAResultTheSweepGoesOnAndNames() throws Exception {
    plan(0, false, List.of(point(1, "a", "-", "w", null), point(2, "a", "-", "w", null)));
    next(false, null, 0);
    ran(1, "complete");
    final SweepSteps.Next n2 = next(false, "run", SweepSteps.LOST_WRITES_EXIT);
    assertEquals(SweepSteps.Step.RUN, n2.step);
    assertEquals(2, n2.point);
    ran(2, "complete");
    final SweepSteps.Next done = next(false, "run", 0);
    assertEquals(SweepSteps.Status.COMPLETE, done.status);
    assertEquals("sweep-1: 1 of 2 runs lost acknowledged writes (their audit.json and report count them): run 1 (point 1)",
        done.degradedNote);
  }

  @Test
  void aServerVariantRestartsTheHBaseOnceAndItIsColdAfter() throws Exception {
    plan(20, true, List.of(point(1, "a", "k", "w", null), point(2, "a", "k", "w", "v1"), point(3, "a", "k", "w", "v1")));
    final Path readBack = Files.writeString(runs.resolve("server-conf-2.json"), "{\"read_back\":{}}");
    final List<String> steps = driveToEnd(1_000, n -> {
      if (n.step == SweepSteps.Step.SERVER) {
        assertEquals("/conf/v1", n.serverConf);
        assertEquals("variant v1", n.serverVariant);
        assertEquals("{\"hbase.k\":\"v1\"}", n.serverExpect);
        return readBack.toString();
      }
      if (n.step == SweepSteps.Step.PREPARE) {
        preparationRecorded(n.point, "created");
      }
      if (n.step == SweepSteps.Step.RUN) {
        ran(n.point, "complete");
      }
      return null;
    }).steps();
    // the restart makes everything cold again: prepared and warmed anew, once
    assertEquals(List.of("prepare 1", "warmup 1", "warmup 1", "run 1", "server 2", "prepare 2", "warmup 2", "warmup 2", "run 2", "run 3"), steps);
    assertTrue(Files.isRegularFile(runs.resolve("run-2").resolve("server-conf.json")), "the variant's run keeps its read-back");
    assertTrue(Files.isRegularFile(runs.resolve("run-3").resolve("server-conf.json")));
  }

  @Test
  void aReportOfAnotherStepIsRefused() throws Exception {
    plan(0, false, List.of(point(1, "a", "-", "w", null)));
    assertEquals(SweepSteps.Step.RUN, next(false, null, 0).step);
    final String wrong = assertThrows(LifecycleException.class, () -> next(false, "prepare", 0)).getMessage();
    assertEquals("sweep-next: reported prepare, but the step handed out was run", wrong);
    final String silent = assertThrows(LifecycleException.class, () -> next(false, null, 0)).getMessage();
    assertEquals("sweep-next: the run step handed out last was not reported (--after)", silent);
  }

  @Test
  void theStepReachesBashAsAssignments() {
    final SweepSteps.Next n = new SweepSteps.Next();
    n.step = SweepSteps.Step.RUN;
    n.messages.add("sweep-1: run 1 of 2: it's 4 threads");
    n.runArgs.add("--set");
    n.runArgs.add("hbaseload.operations=get:70,put:30");
    final String shell = SweepSteps.shell(n);
    assertTrue(shell.contains("STEP='run'\n"), shell);
    assertTrue(shell.contains("MESSAGES=('sweep-1: run 1 of 2: it'\\''s 4 threads')\n"), shell);
    assertTrue(shell.contains("RUN_ARGS=('--set' 'hbaseload.operations=get:70,put:30')\n"), shell);
  }

  @Test
  void regionServersAFaultScheduleLeftDownAreStartedAgainBeforeTheNextPoint() throws Exception {
    plan(0, false, List.of(point(1, "t", null, "w", null), point(2, "t", null, "w", null)));
    final List<String> steps = new ArrayList<>();
    String down = null;
    SweepSteps.Next n = new SweepSteps(sweep, clock += 1000).advance(false, null, null, down);
    while (n.step != SweepSteps.Step.DONE) {
      steps.add(n.step.name().toLowerCase() + " " + n.point);
      if (n.step == SweepSteps.Step.PREPARE) {
        preparationRecorded(n.point, "created");
      }
      if (n.step == SweepSteps.Step.RUN) {
        ran(n.point, "degraded");
        down = n.point == 1 ? "2" : "3";   // point 1's schedule killed region server 2, point 2's region server 3
      }
      if (n.step == SweepSteps.Step.HEAL) {
        final String expected = n.point == 2 ? "2" : "3";
        assertEquals(expected, n.regionServersDown);
        assertTrue(n.messages.get(0).contains("region server(s) " + expected + " of the local cluster down "
            + (n.point == 2 ? "before run 2 of 2" : "after the last run")), n.messages.get(0));
        assertTrue(SweepSteps.shell(n).contains("HEAL_REGIONSERVERS='" + expected + "'\n"));
        down = null;
      }
      final SweepSteps.Report report = new SweepSteps.Report();
      report.step = n.step;
      report.exitCode = n.step == SweepSteps.Step.RUN ? 1 : 0;
      clock += 5_000;
      n = new SweepSteps(sweep, clock).advance(false, null, report, down);
    }
    // the last heal leaves the cluster whole after the sweep, as it was before
    assertEquals(List.of("prepare 1", "run 1", "heal 2", "prepare 2", "run 2", "heal 3"), steps);
    assertEquals(SweepSteps.Status.COMPLETE, n.status);
    assertEquals(10.0, record().getAsJsonObject("time").get("server_restarts_s").getAsDouble(), 0.01, "the heal's time is counted");
  }

  @Test
  void aRegionServerStillDownAfterItsStartStopsTheSweep() throws Exception {
    plan(0, false, List.of(point(1, "t", "-", "w", null), point(2, "t", "-", "w", null)));
    SweepSteps.Next n = new SweepSteps(sweep, clock += 1000).advance(false, null, null, null);
    assertEquals(SweepSteps.Step.RUN, n.step);
    ran(1, "complete");
    n = new SweepSteps(sweep, clock += 1000).advance(false, null, report(SweepSteps.Step.RUN, 0), "3");
    assertEquals(SweepSteps.Step.HEAL, n.step);
    n = new SweepSteps(sweep, clock += 1000).advance(false, null, report(SweepSteps.Step.HEAL, 0), "3");
    assertEquals(SweepSteps.Step.DONE, n.step);
    assertEquals(SweepSteps.Status.STOPPED, n.status);
    assertEquals("sweep-1 stopped: region server(s) 3 still down before run 2 of 2 after being started again (./suite hbase status)", n.summary);
    // and a start that failed
    plan(0, false, List.of(point(1, "t", "-", "w", null), point(2, "t", "-", "w", null)));
    Files.deleteIfExists(sweep.resolve(SweepSteps.STATE_FILE));
    n = new SweepSteps(sweep, clock += 1000).advance(false, null, null, null);
    ran(1, "complete");
    n = new SweepSteps(sweep, clock += 1000).advance(false, null, report(SweepSteps.Step.RUN, 0), "3");
    n = new SweepSteps(sweep, clock += 1000).advance(false, null, report(SweepSteps.Step.HEAL, 1), "3");
    assertEquals(SweepSteps.Status.STOPPED, n.status);
    assertTrue(n.summary.contains("could not be started again (exit 1"), n.summary);
  }

  /** A point of a sized sweep: the normal configuration at SIZE region servers. */
  private static Map<String, Object> sized(int n, String table, int size) {
    final Map<String, Object> p = point(n, table, "-", "w" + size, null);
    final Map<String, Object> variant = new LinkedHashMap<>();
    variant.put("label", size + " region servers");
    variant.put("site", Map.of());
    variant.put("conf_dir", null);
    variant.put("regionservers", size);
    p.put("server_variant", variant);
    return p;
  }

  @Test
  void aClusterSizeRestartsTheHBaseOnlyWhenItDiffersFromWhatRuns() throws Exception {
    plan(0, false, List.of(sized(1, "a", 3), sized(2, "b", 3), sized(3, "a", 1), sized(4, "a", 2)));
    // the sweep found 3 region servers running: the first size needs no restart
    final Path file = sweep.resolve("sweep-plan.json");
    final JsonObject doc = Json.read(file);
    doc.addProperty("local_regionservers", 3);
    Json.write(file, doc);
    final List<SweepSteps.Next> servers = new ArrayList<>();
    final List<String> steps = driveToEnd(1_000, n -> {
      if (n.step == SweepSteps.Step.SERVER) {
        servers.add(n);
      }
      if (n.step == SweepSteps.Step.RUN) {
        ran(n.point, "complete");
      }
      return null;
    }).steps();
    assertEquals(List.of("run 1", "run 2", "server 3", "run 3", "server 4", "run 4"), steps);
    assertEquals(1, servers.get(0).serverRegionServers);
    assertNull(servers.get(0).spreadTables, "one region server: nothing to spread");
    assertEquals("", servers.get(0).serverConf, "the normal conf");
    assertEquals(2, servers.get(1).serverRegionServers);
    assertEquals("a,b", servers.get(1).spreadTables, "every table of the sweep, once");
    final String shell = SweepSteps.shell(servers.get(1));
    assertTrue(shell.contains("SERVER_REGIONSERVERS='2'\n") && shell.contains("SPREAD_TABLES='a,b'\n"), shell);
  }

  private static SweepSteps.Report report(SweepSteps.Step step, int exit) {
    final SweepSteps.Report r = new SweepSteps.Report();
    r.step = step;
    r.exitCode = exit;
    return r;
  }
}
