package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepPlannerTest {
  @TempDir
  Path dir;

  private SweepPlanner planner(SweepPlanner.Overrides overrides, String... lines) throws Exception {
    final Path defaults = Files.write(dir.resolve("grinder.properties"), List.of("grinder.threads = 8", "hbaseload.rows = 100"));
    return new SweepPlanner(Files.write(dir.resolve("s.properties"), List.of(lines)), defaults, overrides);
  }

  private static List<String> labels(SweepPlanner p) {
    return p.points.stream().map(x -> x.label).collect(Collectors.toList());
  }

  @Test
  void theGridIsTheProductThreadsOutermostVariantsInnermost() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.threads = 300,600", "sweep.targets = direct | thrift",
        "sweep.operations = get:100 | put:100", "sweep.vary.hbaseload.value.size = 100 | 1000",
        "sweep.variants = hbaseload.client.buffering=false | hbaseload.client.buffering=true;hbaseload.write.buffer.bytes=6291456",
        "sweep.injectors = 4", "sweep.duration = 2m", "hbaseload.rows = 5000");
    assertEquals(2 * 2 * 2 * 2 * 2, p.points.size());
    assertEquals("300 threads, direct, get:100, value.size=100, client.buffering=false", labels(p).get(0));
    assertEquals("300 threads, direct, get:100, value.size=100, client.buffering=true;write.buffer.bytes=6291456", labels(p).get(1));
    assertEquals("600 threads, thrift, put:100, value.size=1000, client.buffering=true;write.buffer.bytes=6291456", labels(p).get(31));
    assertEquals(List.of("--threads", "300", "--target", "direct", "--set", "hbaseload.operations=get:100",
        "--set", "hbaseload.value.size=100", "--set", "hbaseload.client.buffering=false"), p.points.get(0).args);
    assertEquals(List.of("--injectors", "4", "--duration", "120"), p.common);
    assertEquals("5000", p.base.get("hbaseload.rows"));     // the scenario's keys over grinder.properties
    assertEquals("8", p.base.get("grinder.threads"));
  }

  @Test
  void repeatsAlternateTheirOrder() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.repeat = 3;
    final SweepPlanner p = planner(o, "sweep.threads = 1,2", "sweep.operations = get:100");
    assertEquals(List.of("1 threads, get:100 (repeat 1 of 3)", "2 threads, get:100 (repeat 1 of 3)",
        "2 threads, get:100 (repeat 2 of 3)", "1 threads, get:100 (repeat 2 of 3)",
        "1 threads, get:100 (repeat 3 of 3)", "2 threads, get:100 (repeat 3 of 3)"), labels(p));
  }

  @Test
  void repeatsInPlaceKeepEachPointsVariantsTogether() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.repeat = 2;
    final SweepPlanner p = planner(o, "sweep.threads = 8", "sweep.operations = get:100 | put:100", "sweep.variants = a=1 | a=2",
        "sweep.repeat.order = variants");
    assertEquals(List.of("8 threads, get:100, a=1 (repeat 1 of 2)", "8 threads, get:100, a=2 (repeat 1 of 2)",
        "8 threads, get:100, a=2 (repeat 2 of 2)", "8 threads, get:100, a=1 (repeat 2 of 2)",
        "8 threads, put:100, a=1 (repeat 1 of 2)", "8 threads, put:100, a=2 (repeat 1 of 2)",
        "8 threads, put:100, a=2 (repeat 2 of 2)", "8 threads, put:100, a=1 (repeat 2 of 2)"), labels(p));
    // without variants each point is its own block: repeated back to back
    assertEquals(List.of("1 threads, get:100 (repeat 1 of 2)", "1 threads, get:100 (repeat 2 of 2)",
        "2 threads, get:100 (repeat 1 of 2)", "2 threads, get:100 (repeat 2 of 2)"),
        labels(planner(o, "sweep.threads = 1,2", "sweep.operations = get:100", "sweep.repeat.order = variants")));
    assertTrue(assertThrows(LifecycleException.class, () -> planner(o, "sweep.threads = 8", "sweep.repeat.order = shuffled"))
        .getMessage().endsWith("sweep.repeat.order=shuffled is not accepted (accepted: sweep, variants)"));
  }

  @Test
  void badScenariosAreNamed() throws Exception {
    final SweepPlanner.Overrides none = new SweepPlanner.Overrides();
    final String unknown = assertThrows(LifecycleException.class, () -> planner(none, "sweep.threadz = 1")).getMessage();
    assertTrue(unknown.endsWith("s.properties: unknown key sweep.threadz (accepted: sweep.name, sweep.threads, sweep.operations,"
        + " sweep.targets, sweep.injectors, sweep.hosts, sweep.lab, sweep.duration, sweep.processes, sweep.prepare,"
        + " sweep.variants, sweep.repeat, sweep.repeat.order, sweep.slo, sweep.scale, sweep.work, sweep.server.variants, sweep.server.regionservers, sweep.server.cross,"
        + " sweep.tiny.variants, sweep.tiny.threads,"
        + " sweep.tiny.duration, sweep.regionservers, sweep.warmup, sweep.vary.KEY)"), unknown);
    assertTrue(assertThrows(LifecycleException.class, () -> planner(none, "sweep.targets = direct | rest")).getMessage()
        .endsWith("sweep.targets: 'rest' is not accepted (accepted: direct, thrift)"));
    assertEquals("sweep.threads '0' is not a whole number > 0",
        assertThrows(LifecycleException.class, () -> planner(none, "sweep.threads = 1,0")).getMessage());
    assertEquals("sweep.variants: 'nokey' is not KEY=VALUE",
        assertThrows(LifecycleException.class, () -> planner(none, "sweep.variants = a=1;nokey")).getMessage());
    assertTrue(assertThrows(LifecycleException.class, () -> planner(none, "sweep.prepare = sometimes")).getMessage()
        .endsWith("sweep.prepare=sometimes is not accepted (accepted: once, each, no)"));
  }

  private static final String[] ADOBE_LIKE = {"sweep.threads = 300,600", "sweep.operations = get:100 | put:100",
      "sweep.injectors = 4", "sweep.duration = 60", "sweep.repeat = 3", "hbaseload.rows = 1000000", "hbaseload.regions = 16"};

  @Test
  void defaultScaleIsTheScenarioAsWritten() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), ADOBE_LIKE);
    assertEquals("default", p.scale.text);
    assertEquals("1000000", p.base.get("hbaseload.rows"));
    assertEquals(null, p.base.get("hbaseload.table"));
    assertEquals(List.of("--injectors", "4", "--duration", "60"), p.common);
    assertEquals(2 * 2 * 3, p.points.size());
    assertEquals(List.of("--threads", "300", "--set", "hbaseload.operations=get:100"), p.points.get(0).args);
  }

  @Test
  void tinyScaleIsOneInjectorFewRowsFewThreadsFiveSecondsNoRepeats() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "tiny";
    final SweepPlanner p = planner(o, ADOBE_LIKE);
    assertEquals("2000", p.base.get("hbaseload.rows"));
    assertEquals("2", p.base.get("hbaseload.regions"));
    assertEquals("hbaseload_tiny", p.base.get("hbaseload.table"));   // never the default scale's table
    assertEquals(List.of("--injectors", "1", "--duration", "5"), p.common);
    assertEquals(List.of("2 threads, get:100", "2 threads, put:100", "4 threads, get:100", "4 threads, put:100"), labels(p));
    // proportions kept, repeats dropped: 6,12,24,48 -> 1 (twice, once kept), 2, 4
    final SweepPlanner gbif = planner(o, "sweep.threads = 6,12,24,48", "sweep.operations = scan:100");
    assertEquals(List.of("1 threads, scan:100", "2 threads, scan:100", "4 threads, scan:100"), labels(gbif));
    assertEquals("100", gbif.base.get("hbaseload.rows"));   // fewer rows than tiny's cap stay as they are
  }

  @Test
  void tinyWorkersCompileWithC1OnlyUnlessTheScenarioChoseItsCompilers() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "tiny";
    assertEquals("-XX:TieredStopAtLevel=1", planner(o, "sweep.threads = 1").base.get("grinder.jvm.arguments"));
    assertEquals("-Xmx1g -XX:TieredStopAtLevel=1",
        planner(o, "sweep.threads = 1", "grinder.jvm.arguments = -Xmx1g").base.get("grinder.jvm.arguments"));
    assertEquals("-Xmx1g -XX:-TieredCompilation",
        planner(o, "sweep.threads = 1", "grinder.jvm.arguments = -Xmx1g -XX:-TieredCompilation").base.get("grinder.jvm.arguments"));
    assertEquals("-XX:TieredStopAtLevel=3",
        planner(o, "sweep.threads = 1", "grinder.jvm.arguments = -XX:TieredStopAtLevel=3").base.get("grinder.jvm.arguments"));
    assertEquals("-Xmx1g", planner(new SweepPlanner.Overrides(), "sweep.threads = 1", "grinder.jvm.arguments = -Xmx1g")
        .base.get("grinder.jvm.arguments"), "the default scale measures: its workers keep C2");
  }

  @Test
  void aNumberMultipliesRowsAndThreadsAndTheScenarioKeyWorksLikeTheOption() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.scale = 3", "sweep.threads = 6,12", "hbaseload.rows = 5000");
    assertEquals("3", p.scale.text);
    assertEquals("15000", p.base.get("hbaseload.rows"));
    assertEquals("hbaseload_x3", p.base.get("hbaseload.table"));
    assertEquals(List.of("18 threads", "36 threads"), labels(p));
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "default";   // the option wins over the scenario's key
    assertEquals("5000", planner(o, "sweep.scale = 3", "hbaseload.rows = 5000").base.get("hbaseload.rows"));
  }

  @Test
  void badScalesAndTablesTooBigForTheDiskAreNamedBeforeAnythingRuns() throws Exception {
    for (String bad : List.of("huge", "0", "-2", "1.5")) {
      final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
      o.scale = bad;
      assertEquals("--scale '" + bad + "' is not accepted (accepted: tiny, default, or a whole number > 0)",
          assertThrows(LifecycleException.class, () -> planner(o, "sweep.threads = 1")).getMessage());
    }
    assertEquals("sweep.scale 'big' is not accepted (accepted: tiny, default, or a whole number > 0)",
        assertThrows(LifecycleException.class, () -> planner(new SweepPlanner.Overrides(), "sweep.scale = big")).getMessage());
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "1000";
    o.diskFreeBytes = 10_000_000_000L;
    o.diskName = "/data";
    // 1,000,000 rows x 1000 = 1e9 rows of (1000 + 50) bytes: about 1050 GB
    assertEquals("scale 1000: the table needs about 1050.0 GB (1000000000 rows), the disk of /data has 10.0 GB free",
        assertThrows(LifecycleException.class, () -> planner(o, "hbaseload.rows = 1000000", "hbaseload.value.size = 1000")).getMessage());
    // a varied row shape counts its largest row: 1e9 x (256 + 5 x 50) bytes = 506 GB
    assertEquals("scale 1000: the table needs about 506.0 GB (1000000000 rows), the disk of /data has 10.0 GB free",
        assertThrows(LifecycleException.class, () -> planner(o, "hbaseload.rows = 1000000", "hbaseload.row.columns = 1-5",
            "hbaseload.row.bytes = 128-256")).getMessage());
    o.scale = "1";
    assertEquals("1000000", planner(o, "hbaseload.rows = 1000000", "hbaseload.value.size = 1000").base.get("hbaseload.rows"));
    o.scale = "1000";
    // a real cluster's disk is not ours to judge
    assertEquals("1000000000", planner(o, "hbaseload.rows = 1000000", "hbaseload.hbase.site = /etc/hbase/hbase-site.xml")
        .base.get("hbaseload.rows"));
  }

  @Test
  void tinyThreadsReplaceTheThreadCountsAtTinyScaleOnly() throws Exception {
    final SweepPlanner.Overrides tiny = new SweepPlanner.Overrides();
    tiny.scale = "tiny";
    assertEquals(List.of("4 threads, get:100", "4 threads, put:100"),
        labels(planner(tiny, "sweep.threads = 300,600", "sweep.tiny.threads = 4", "sweep.operations = get:100 | put:100")));
    assertEquals(List.of("2 threads, get:100", "4 threads, get:100"),
        labels(planner(tiny, "sweep.threads = 300,600", "sweep.operations = get:100")));   // without it: scaled down
    assertEquals(List.of("300 threads, get:100", "600 threads, get:100"),
        labels(planner(new SweepPlanner.Overrides(), "sweep.threads = 300,600", "sweep.tiny.threads = 4", "sweep.operations = get:100")));
    assertEquals("sweep.tiny.threads '0' is not a whole number > 0", assertThrows(LifecycleException.class,
        () -> planner(tiny, "sweep.threads = 300", "sweep.tiny.threads = 0")).getMessage());
  }

  @Test
  void fixedWorkSplitsTheRowsOverEachRunsThreadsAndKeepsTheDurationAsABound() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.work = rows", "sweep.threads = 12,7", "sweep.duration = 600",
        "sweep.operations = put:100 | scan:100", "sweep.vary.hbaseload.rows = 400000 | 1000", "hbaseload.scan.length = 100");
    // 400000 / 12 -> 33334 a thread, 1000 / 12 -> 84; scans: 4000 scans of 100 rows / 12 -> 334; 1000 rows / 7 threads -> 143
    assertEquals(List.of("33334", "84", "334", "1", "57143", "143", "572", "2"),
        p.points.stream().map(x -> x.sets.get("grinder.runs")).collect(Collectors.toList()));
    assertEquals(List.of("--threads", "12", "--set", "hbaseload.operations=put:100", "--set", "hbaseload.rows=400000",
        "--set", "grinder.runs=33334"), p.points.get(0).args);
    assertEquals(List.of("--injectors", "1", "--duration", "600"), p.common);
    assertEquals(1, FixedWork.requestsPerThread(1, 4, 1));     // never 0 runs: Grinder reads 0 as "until the duration"
    assertEquals(3, FixedWork.requestsPerThread(2000, 4, 200));

    final SweepPlanner.Overrides tiny = new SweepPlanner.Overrides();
    tiny.scale = "tiny";
    final SweepPlanner t = planner(tiny, "sweep.work = rows", "sweep.threads = 12", "sweep.operations = get:100", "hbaseload.rows = 400000");
    assertEquals("500", t.points.get(0).sets.get("grinder.runs"));     // 2000 rows over 4 threads
    assertEquals(List.of("--injectors", "1", "--duration", String.valueOf(SweepScale.TINY_WORK_BOUND_S)), t.common);

    final SweepPlanner.Overrides none = new SweepPlanner.Overrides();
    assertEquals("sweep.work = rows needs sweep.threads (the rows are split over each run's threads)",
        assertThrows(LifecycleException.class, () -> planner(none, "sweep.work = rows")).getMessage());
    assertTrue(assertThrows(LifecycleException.class, () -> planner(none, "sweep.work = requests")).getMessage()
        .endsWith("sweep.work=requests is not accepted (accepted: duration, rows)"));
    assertTrue(planner(none, "sweep.threads = 2").points.get(0).sets.get("grinder.runs") == null);   // duration: untouched
  }

  @Test
  void theWrittenPlanPreparesOnceAndRecordsEveryPoint() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.threads = 2,4", "sweep.targets = thrift", "sweep.slo = p99_ms<5");
    final Path sweep = p.write(dir.resolve("runs"));
    assertEquals("sweep-1", sweep.getFileName().toString());
    final JsonObject plan = Json.read(sweep.resolve("sweep-plan.json"));
    assertEquals(2, plan.getAsJsonArray("points").size());
    final JsonObject first = plan.getAsJsonArray("points").get(0).getAsJsonObject();
    assertEquals("thrift", PropertiesFile.read(Path.of(Json.text(first, "prepare_properties"))).getProperty("hbaseload.target"));
    assertTrue(plan.getAsJsonArray("points").get(1).getAsJsonObject().get("prepare_properties").isJsonNull());
    final JsonObject record = Json.read(sweep.resolve("sweep.json"));
    assertEquals("running", Json.text(record, "status"));
    assertEquals("p99_ms<5", Json.text(record, "slo"));
    assertEquals("default", Json.text(record, "scale"));   // the report says which scale ran
    assertEquals("pending", Json.text(record.getAsJsonArray("plan").get(0).getAsJsonObject(), "status"));
  }

  /** Points on one table with one signature share a prepare key (the sweep asks HBase once); fresh tables have none. */
  @Test
  void pointsOnTheSameTableShareTheirPrepareKeyFreshOnesHaveNone() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.prepare = each",
        "sweep.variants = hbaseload.operations=get:100 | hbaseload.operations=put:100;hbaseload.key.distribution=sequential"
            + " | hbaseload.regions=4 | hbaseload.table=new;hbaseload.prepare.mode=fresh");
    final Path sweep = p.write(dir.resolve("runs"));
    final List<String> keys = new java.util.ArrayList<>();
    for (var point : Json.read(sweep.resolve("sweep-plan.json")).getAsJsonArray("points")) {
      final var key = point.getAsJsonObject().get("prepare_key");
      keys.add(key.isJsonNull() ? null : key.getAsString());
    }
    assertEquals(4, keys.size());
    assertEquals(keys.get(0), keys.get(1));   // the operations and key order do not change the table
    assertTrue(keys.get(0).startsWith("hbaseload on |127.0.0.1:2181: rows=100 "), keys.get(0));
    assertTrue(keys.get(2).contains(" regions=4 "), keys.get(2));   // a different table signature
    assertEquals(null, keys.get(3));   // prepare.mode=fresh: made anew every time
  }

  @Test
  void theRecordFindsTheRunsThatNameTheSweep() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.threads = 2,4");
    final Path sweep = p.write(dir.resolve("runs"));
    final Path run = Files.createDirectories(dir.resolve("runs/run-3"));
    Files.writeString(run.resolve("plan.json"), "{\"sweep_id\":\"sweep-1\",\"sweep_point\":2}");
    Files.writeString(run.resolve("manifest.json"), "{\"status\":\"complete\"}");
    final Path other = Files.createDirectories(dir.resolve("runs/run-4"));
    Files.writeString(other.resolve("plan.json"), "{\"sweep_id\":\"sweep-9\",\"sweep_point\":1}");
    SweepRecord.write(sweep, "incomplete");
    final JsonObject record = Json.read(sweep.resolve("sweep.json"));
    assertEquals("[\"run-3\"]", record.get("runs").toString());
    assertEquals("pending", Json.text(record.getAsJsonArray("plan").get(0).getAsJsonObject(), "status"));
    assertEquals("complete", Json.text(record.getAsJsonArray("plan").get(1).getAsJsonObject(), "status"));
    assertEquals("incomplete", Json.text(record, "status"));
  }

  private static final String[] SCHEMA_LIKE = {"sweep.prepare = each",
      "sweep.variants = hbaseload.table=cf10;hbaseload.families=10 | hbaseload.table=keys;hbaseload.rows=1000000;hbaseload.regions=8",
      "sweep.tiny.variants = hbaseload.table=keys;hbaseload.rows=1000000;hbaseload.key.distribution=reverse"};

  /** A variant's own table and rows are scaled as the base's: tiny must not write a million rows into the default scale's table. */
  @Test
  void tinyRunsTheTinyVariantsAndScalesEachPointsOwnTableAndRows() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "tiny";
    final SweepPlanner tiny = planner(o, SCHEMA_LIKE);
    assertEquals(List.of("table=keys;rows=1000000;key.distribution=reverse"), labels(tiny));
    assertEquals(List.of("--set", "hbaseload.table=keys_tiny", "--set", "hbaseload.rows=2000", "--set", "hbaseload.key.distribution=reverse"),
        tiny.points.get(0).args);
    final Path sweep = tiny.write(dir.resolve("runs"));
    final JsonObject point = Json.read(sweep.resolve("sweep-plan.json")).getAsJsonArray("points").get(0).getAsJsonObject();
    assertEquals("keys_tiny", Json.text(point, "table"));
    assertEquals("2000", PropertiesFile.read(Path.of(Json.text(point, "prepare_properties"))).getProperty("hbaseload.rows"));

    final SweepPlanner full = planner(new SweepPlanner.Overrides(), SCHEMA_LIKE);
    assertEquals(2, full.points.size());
    assertEquals("hbaseload.rows=1000000", full.points.get(1).args.get(3));
    final SweepPlanner.Overrides two = new SweepPlanner.Overrides();
    two.scale = "2";
    final SweepPlanner doubled = planner(two, SCHEMA_LIKE);
    assertEquals(List.of("--set", "hbaseload.table=keys_x2", "--set", "hbaseload.rows=2000000", "--set", "hbaseload.regions=8"),
        doubled.points.get(1).args);
  }

  /** A point whose table could not be made (prepare-N.json says timeout or crash) is recorded as skipped, not pending. */
  @Test
  void aPointSkippedForItsTableIsRecordedWithTheTablesOutcome() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), SCHEMA_LIKE);
    final Path sweep = p.write(dir.resolve("runs"));
    Files.writeString(sweep.resolve("prepare-1.json"), "{\"outcome\":\"timeout\"}");
    Files.writeString(sweep.resolve("prepare-2.json"), "{\"outcome\":\"created\"}");
    SweepRecord.write(sweep, "complete");
    final JsonObject record = Json.read(sweep.resolve("sweep.json"));
    assertEquals("skipped: table timeout", Json.text(record.getAsJsonArray("plan").get(0).getAsJsonObject(), "status"));
    assertEquals("pending", Json.text(record.getAsJsonArray("plan").get(1).getAsJsonObject(), "status"));
  }

  /** Bad input in any point fails the plan, naming the point and the key, before anything runs. */
  @Test
  void everyPointsSettingsAreCheckedBeforeTheFirstRun() throws Exception {
    final SweepPlanner.Overrides none = new SweepPlanner.Overrides();
    assertEquals("s.properties: point 2 (table=b;families=1001): hbaseload.families=1001 is out of range (accepted: 1..1000)",
        assertThrows(LifecycleException.class, () -> planner(none,
            "sweep.variants = hbaseload.table=a;hbaseload.families=10 | hbaseload.table=b;hbaseload.families=1001")).getMessage());
    assertTrue(assertThrows(LifecycleException.class, () -> planner(none, "hbaseload.operations = put:100",
        "sweep.variants = hbaseload.wide.columns=1000000;hbaseload.value.size=2000")).getMessage()
        .startsWith("s.properties: point 1 (wide.columns=1000000;value.size=2000): hbaseload.wide.columns=1000000 x hbaseload.value.size=2000 is a row of"));
  }

  @Test
  void directAndThriftRunsShareOneWarmUpWithTargetBothAndEveryOperation() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.threads = 8",
        "sweep.operations = get:100 | put:100 | get:70,put:30 | scan:100",
        "sweep.variants = hbaseload.target=direct | hbaseload.target=thrift;hbaseload.thrift.port=9092");
    final java.util.Map<String, java.util.List<String>> warmups = new java.util.LinkedHashMap<>();
    for (int i = 0; i < p.points.size(); i++) {
      warmups.putIfAbsent(p.warmupKey(i), p.warmupArgs(i));
      assertEquals(warmups.get(p.warmupKey(i)), p.warmupArgs(i), "one warm-up per key, whichever point asks: point " + (i + 1));
    }
    assertEquals(List.of("both: --set hbaseload.target=thrift --set hbaseload.thrift.port=9092"), List.copyOf(warmups.keySet()));
    // the point's threads, the thrift point's port, target both, an even mix of every operation summing to 100
    assertEquals(List.of("--threads", "8", "--set", "hbaseload.thrift.port=9092", "--set", "hbaseload.target=both",
        "--set", "hbaseload.operations=get:34,put:33,scan:33"), warmups.values().iterator().next());
    assertEquals("get:100", SweepPlanner.evenMix(java.util.List.of(io.github.hbasegrindersuite.worker.Operation.GET)));
  }

  @Test
  void targetsWarmApartWhenTheyCannotShare() throws Exception {
    // two thrift servers (the gateway and the shim) beside direct: which would 'both' take? each its own
    final SweepPlanner two = planner(new SweepPlanner.Overrides(), "sweep.threads = 8", "sweep.operations = get:100",
        "sweep.variants = hbaseload.target=direct | hbaseload.target=thrift;hbaseload.thrift.port=9091 | hbaseload.target=thrift;hbaseload.thrift.port=9092");
    final java.util.Set<String> keys = new java.util.LinkedHashSet<>();
    for (int i = 0; i < two.points.size(); i++) {
      keys.add(two.warmupKey(i));
      assertTrue(!two.warmupArgs(i).contains("hbaseload.target=both"), "no shared warm-up: " + two.warmupArgs(i));
    }
    assertEquals(3, keys.size(), "one per target and port: " + keys);
    // only thrift points: nothing to share
    final SweepPlanner thrift = planner(new SweepPlanner.Overrides(), "sweep.threads = 4,8", "hbaseload.target = thrift");
    assertEquals(SweepPlanner.warmupKey(thrift.points.get(0)), thrift.warmupKey(0));
    assertEquals(List.of("--threads", "4", "--set", "hbaseload.operations=get:50,put:50"), thrift.warmupArgs(0), "its own mix's operations, evenly");
    // direct and thrift of different tables: each its own (the table is part of what a warm-up warms)
    final SweepPlanner tables = planner(new SweepPlanner.Overrides(), "sweep.threads = 8",
        "sweep.variants = hbaseload.target=direct;hbaseload.table=a | hbaseload.target=thrift;hbaseload.table=b");
    assertTrue(!tables.warmupKey(0).equals(tables.warmupKey(1)), tables.warmupKey(0) + " / " + tables.warmupKey(1));
    assertTrue(!tables.warmupKey(0).startsWith("both: "));
  }

  @Test
  void eachWorkloadIsWarmedOnceWhateverItsThreadCount() throws Exception {
    final SweepPlanner p = planner(new SweepPlanner.Overrides(), "sweep.threads = 4,8", "sweep.operations = get:100 | put:100");
    assertEquals(60, p.warmupSeconds, "auto at the default scale");
    final java.util.Set<String> keys = new java.util.LinkedHashSet<>();
    for (SweepPlanner.Point point : p.points) {
      keys.add(SweepPlanner.warmupKey(point));
    }
    assertEquals(java.util.List.of(""), java.util.List.copyOf(keys), "one warm-up for get and put alike");
    for (int i = 0; i < p.points.size(); i++) {
      assertEquals(java.util.List.of("--threads", i < 2 ? "4" : "8", "--set", "hbaseload.operations=get:50,put:50"), p.warmupArgs(i),
          "point " + (i + 1) + ": its own threads, every operation of the sweep");
    }
    final SweepPlanner.Overrides tiny = new SweepPlanner.Overrides();
    tiny.scale = "tiny";
    assertEquals(0, planner(tiny, "sweep.threads = 4").warmupSeconds, "off at tiny: a functional check");
    assertEquals(20, planner(new SweepPlanner.Overrides(), "sweep.threads = 4", "sweep.warmup = 20").warmupSeconds);
    assertEquals("sweep.warmup 'soon' is not accepted (accepted: auto, off, or the most seconds it may take, 1-600)",
        assertThrows(LifecycleException.class, () -> planner(new SweepPlanner.Overrides(), "sweep.threads = 4", "sweep.warmup = soon")).getMessage());
  }

  private static final String[] DURABILITY_LIKE = {"sweep.threads = 8", "sweep.operations = put:100", "sweep.duration = 45",
      "sweep.regionservers = 3", "sweep.tiny.duration = 20", "sweep.vary.faults.schedule = none | at=10s kill regionserver=2",
      "sweep.variants = hbaseload.durability=sync_wal | hbaseload.durability=skip_wal"};

  private static SweepPlanner.Overrides cluster(Integer regionServers) {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.localRegionServers = regionServers;
    return o;
  }

  @Test
  void aSweepThatNeedsRegionServersIsCheckedAgainstTheClusterBeforeAnyRun() throws Exception {
    assertEquals(3, planner(cluster(3), DURABILITY_LIKE).regionServersNeeded);
    assertEquals(4, planner(cluster(4), DURABILITY_LIKE).points.size(), "at least 3: a larger cluster runs it");
    assertEquals(4, planner(cluster(null), DURABILITY_LIKE).points.size(), "a dry run does not look at the cluster");
    assertEquals("s.properties needs the local cluster with at least 3 region servers (sweep.regionservers); the embedded HBase here is"
        + " the standalone: ./suite hbase stop; ./suite hbase start --regionservers 3",
        assertThrows(LifecycleException.Usage.class, () -> planner(cluster(1), DURABILITY_LIKE)).getMessage());
    assertEquals("s.properties needs the local cluster with at least 3 region servers (sweep.regionservers); the cluster here has 2:"
        + " ./suite hbase stop; ./suite hbase start --regionservers 3",
        assertThrows(LifecycleException.Usage.class, () -> planner(cluster(2), DURABILITY_LIKE)).getMessage());
    assertTrue(assertThrows(LifecycleException.Usage.class, () -> planner(cluster(0), DURABILITY_LIKE)).getMessage()
        .endsWith("no HBase of ours runs here: ./suite hbase start --regionservers 3"));
    assertEquals("sweep.regionservers 'three' is not a whole number > 0", assertThrows(LifecycleException.class,
        () -> planner(cluster(3), "sweep.threads = 4", "sweep.regionservers = three")).getMessage().replace("'three' must be", "'three' is"));
  }

  @Test
  void everyPointsFaultScheduleIsCheckedBeforeTheFirstRun() throws Exception {
    // the fourth point's kill at 50 s is past its 45-s run: refused at the plan, naming the point
    final String late = assertThrows(LifecycleException.Usage.class, () -> planner(cluster(3), "sweep.threads = 4", "sweep.duration = 45",
        "sweep.vary.faults.schedule = none | at=50s kill regionserver=2", "sweep.variants = hbaseload.durability=sync_wal | hbaseload.durability=skip_wal"))
        .getMessage();
    assertTrue(late.equals("s.properties: point 3 (4 threads, faults.schedule=at=50s kill regionserver=2, durability=sync_wal): faults: action 1"
        + " 'at=50s kill regionserver=2': at=50s is past the run's 45 s of load"), late);
    // against the standalone, any schedule is refused at the plan
    final String standalone = assertThrows(LifecycleException.Usage.class, () -> planner(cluster(1), "sweep.threads = 4",
        "sweep.vary.faults.schedule = none | at=1s kill regionserver=2")).getMessage();
    assertTrue(standalone.contains("point 2") && standalone.contains("the embedded HBase here is the standalone"), standalone);
    // a dry run checks the text alone
    final String text = assertThrows(LifecycleException.Usage.class, () -> planner(cluster(null), "sweep.threads = 4",
        "sweep.vary.faults.schedule = at=1s explode regionserver=2")).getMessage();
    assertEquals("s.properties: point 1 (4 threads, faults.schedule=at=1s explode regionserver=2): faults: action 1"
        + " 'at=1s explode regionserver=2': unknown action 'explode' (accepted: kill, stop, start, pause, move)", text);
  }

  @Test
  void aTinySweepRunsSweepTinyDurationAndWarmsPointsThatDifferOnlyByTheirFaultsAlike() throws Exception {
    final SweepPlanner.Overrides o = cluster(3);
    o.scale = "tiny";
    final SweepPlanner p = planner(o, DURABILITY_LIKE);
    assertEquals("20s", p.durationText);
    assertEquals("5s", planner(o, "sweep.threads = 4").durationText, "tiny's own default");
    // tiny keeps a region on each region server the scenario needs (its kill must hit the load), else at most 2
    final String[] nineRegions = java.util.Arrays.copyOf(DURABILITY_LIKE, DURABILITY_LIKE.length + 1);
    nineRegions[DURABILITY_LIKE.length] = "hbaseload.regions = 9";
    assertEquals("3", planner(o, nineRegions).base.get("hbaseload.regions"));
    assertEquals("2", planner(o, "sweep.threads = 4", "hbaseload.regions = 9").base.get("hbaseload.regions"));
    assertEquals("9", planner(cluster(3), nineRegions).base.get("hbaseload.regions"), "the default scale as written");
    assertEquals(SweepPlanner.warmupKey(p.points.get(0)), SweepPlanner.warmupKey(p.points.get(2)), "none and kill, sync_wal");
    assertTrue(!SweepPlanner.warmupKey(p.points.get(0)).equals(SweepPlanner.warmupKey(p.points.get(1))), "sync_wal and skip_wal differ");
  }

  @Test
  void clusterSizesAreADimensionOutermostWithTheServerVariants() throws Exception {
    final SweepPlanner p = planner(cluster(1), "sweep.threads = 4", "sweep.operations = get:100 | put:100", "sweep.server.regionservers = 1, 3");
    assertEquals(List.of("1 region server, 4 threads, get:100", "1 region server, 4 threads, put:100",
        "3 region servers, 4 threads, get:100", "3 region servers, 4 threads, put:100"), labels(p));
    assertEquals(3, p.points.get(2).server.regionServers);
    assertTrue(p.points.get(2).server.normal(), "sizes alone keep the normal configuration");
    // with server variants: every variant at every size, and a warm-up per size (another cluster is cold)
    final SweepPlanner both = planner(cluster(1), "sweep.threads = 4", "sweep.server.regionservers = 2,3",
        "sweep.server.variants = default | hbase.regionserver.handler.count=100");
    assertEquals(List.of("2 region servers, 4 threads", "server hbase.regionserver.handler.count=100, 2 region servers, 4 threads",
        "3 region servers, 4 threads", "server hbase.regionserver.handler.count=100, 3 region servers, 4 threads"), labels(both));
    assertTrue(!SweepPlanner.warmupKey(both.points.get(0)).equals(SweepPlanner.warmupKey(both.points.get(2))));
    // tiny: the smallest and the largest size, and a region for each server of the largest
    final SweepPlanner.Overrides tiny = cluster(1);
    tiny.scale = "tiny";
    final SweepPlanner t = planner(tiny, "sweep.threads = 4", "sweep.server.regionservers = 1,2,3", "hbaseload.regions = 8");
    assertEquals(List.of("1 region server, 4 threads", "3 region servers, 4 threads"), labels(t));
    assertEquals("3", t.base.get("hbaseload.regions"));
  }

  @Test
  void clusterSizesAreCheckedBeforeAnyRun() throws Exception {
    assertEquals("sweep.server.regionservers: 'two' is not a whole number (1 for the standalone HBase, 2 to 8 for a local cluster)",
        assertThrows(LifecycleException.class, () -> planner(cluster(1), "sweep.threads = 4", "sweep.server.regionservers = 1,two")).getMessage());
    assertTrue(assertThrows(LifecycleException.class, () -> planner(cluster(1), "sweep.threads = 4", "sweep.server.regionservers = 9"))
        .getMessage().startsWith("sweep.server.regionservers: '9': at most 8 region servers"));
    assertEquals("sweep.server.regionservers: 2 is listed twice",
        assertThrows(LifecycleException.class, () -> planner(cluster(1), "sweep.threads = 4", "sweep.server.regionservers = 2,3,2")).getMessage());
    assertEquals("s.properties: sweep.server.regionservers runs 1 region server(s), fewer than sweep.regionservers (3) asks",
        assertThrows(LifecycleException.Usage.class, () -> planner(cluster(3), "sweep.threads = 4", "sweep.regionservers = 3",
            "sweep.server.regionservers = 1,3")).getMessage());
    assertEquals("s.properties: sweep.server.regionservers restarts the embedded HBase at each size, and none runs here: ./suite hbase start",
        assertThrows(LifecycleException.Usage.class, () -> planner(cluster(0), "sweep.threads = 4", "sweep.server.regionservers = 1,3")).getMessage());
    assertTrue(assertThrows(LifecycleException.class, () -> planner(cluster(1), "sweep.threads = 4", "sweep.server.regionservers = 1,3",
        "hbaseload.hbase.site = /etc/hbase/conf/hbase-site.xml")).getMessage()
        .startsWith("sweep.server.regionservers: hbaseload.hbase.site is set (/etc/hbase/conf/hbase-site.xml): the suite does not manage that cluster"));
    // a point's fault schedule is checked against the cluster the sweep restarts for it, not what runs now
    assertEquals(2, planner(cluster(1), "sweep.threads = 4", "sweep.duration = 30", "sweep.server.regionservers = 2,3",
        "faults.schedule = at=5s kill regionserver=2").points.size());
    final String three = assertThrows(LifecycleException.Usage.class, () -> planner(cluster(3), "sweep.threads = 4", "sweep.duration = 30",
        "sweep.server.regionservers = 2,3", "faults.schedule = at=5s kill regionserver=3")).getMessage();
    assertTrue(three.startsWith("s.properties: point 1 (2 region servers, 4 threads): faults: "), three);
  }
}
