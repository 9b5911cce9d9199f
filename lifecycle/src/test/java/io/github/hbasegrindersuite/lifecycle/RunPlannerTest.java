package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunPlannerTest {
  @TempDir
  Path root;
  RunPlanner.Machine machine;

  @BeforeEach
  void machine() throws Exception {
    Files.write(root.resolve("grinder.properties"), List.of("grinder.processes = 1", "grinder.threads = 8",
        "grinder.duration = 60000", "grinder.useConsole = false", "hbaseload.operations = get:70,put:30",
        "hbaseload.agents = 1", "hbaseload.zookeeper.port = 2181", "hbaseload.thrift.port = 9092"));
    machine = new RunPlanner.Machine();
    machine.suiteRoot = root;
    machine.runsDir = root.resolve("runs");
    machine.java = "/jdk/bin/java";
    machine.portOffset = 500;
    machine.embeddedPorts = new EmbeddedPorts(2681, 9591, 9592);
    machine.consolePort = 6872;
    machine.metricsPort = 9598;
    machine.namespacesPermitted = true;
    machine.workerClasspath = "/lib/hbase-grinder-worker.jar:/lib/jars/hbase-client-2.6.1.jar";
    machine.grinderClasspath = "/lib/hbase-grinder-console.jar:/lib/jars/grinder-core-3.11.jar:/lib/jars/jython-standalone-2.7.4.jar";
    machine.gitRev = "abc";
  }

  private RunPlan plan(String... args) throws LifecycleException {
    return new RunPlanner(RunArguments.parse(List.of(args), root.resolve("grinder.properties")), machine).plan();
  }

  @Test
  void twoNamespaceInjectorsWithAnUnevenSplit() throws Exception {
    final RunPlan plan = plan("--injectors", "2", "--threads", "5", "--duration", "6", "--set", "hbaseload.table=t1");
    assertEquals("run-1", plan.runId);
    final Properties console = PropertiesFile.read(plan.runDir.resolve("grinder.properties"));
    // Per-host keys stay out of what the console sends (they would override every agent's own).
    for (String key : RunPlanner.HOST_SPECIFIC_KEYS) {
      if (!key.equals("grinder.script")) {
        assertNull(console.getProperty(key), key);
      }
    }
    assertEquals("hbase_load.py", console.getProperty("grinder.script"));
    assertEquals("6000", console.getProperty("grinder.duration"));
    assertEquals("0", console.getProperty("grinder.runs"));
    assertEquals("2", console.getProperty("hbaseload.agents"));
    assertEquals("t1", console.getProperty("hbaseload.table"));
    assertEquals("2681", console.getProperty("hbaseload.zookeeper.port"));   // the embedded ports bash handed on
    assertEquals("9592", console.getProperty("hbaseload.thrift.port"));
    final Properties inj1 = PropertiesFile.read(plan.runDir.resolve("injectors/inj1/agent.properties"));
    assertEquals("3", inj1.getProperty("grinder.threads"));
    assertEquals("inj1", inj1.getProperty("grinder.hostID"));
    assertEquals("6872", inj1.getProperty("grinder.consolePort"));
    assertEquals(plan.runDir.resolve("injectors/inj1").toString(), inj1.getProperty("grinder.logDirectory"));
    assertEquals("2", PropertiesFile.read(plan.runDir.resolve("injectors/inj2/agent.properties")).getProperty("grinder.threads"));

    // the console's own settings, where it reads them (user.home = the run's console folder)
    final Properties consoleSettings = PropertiesFile.read(plan.runDir.resolve("console/.grinder_console"));
    assertEquals("6872", consoleSettings.getProperty("grinder.console.consolePort"));
    assertEquals(plan.runDir.resolve("distribution").toString(), consoleSettings.getProperty("grinder.console.scriptDistributionDirectory"));
    assertEquals(plan.runDir.resolve("plan.json").toString(), consoleSettings.getProperty("hbasegrinder.plan"));
    final JsonObject json = Json.read(plan.runDir.resolve("plan.json"));
    assertEquals("namespaces", Json.text(json, "injector_mode"));
    assertEquals(5, Json.integer(json, "threads_total", 0));
    assertEquals(6 + 180 + 60, json.getAsJsonObject("timeouts").get("run_s").getAsInt());
    assertEquals("netns", Json.text(PlanJson.hosts(json).get(0), "kind"));
    assertEquals("3,2", json.getAsJsonObject("properties").get("grinder.threads").getAsString());
    assertEquals("3.11", json.getAsJsonObject("versions").get("grinder").getAsString());
    assertEquals(9598, json.getAsJsonObject("console").get("metrics_port").getAsInt(), "not given: this offset's port");
    assertEquals(0, json.getAsJsonObject("console").get("linger_s").getAsInt(), "a headless console does not linger");
    assertEquals(30, Json.read(plan("--ui", "swing").runDir.resolve("plan.json")).getAsJsonObject("console").get("linger_s").getAsInt());
    final JsonObject off = Json.read(plan("--metrics-port", "off").runDir.resolve("plan.json"));
    assertEquals(0, off.getAsJsonObject("console").get("metrics_port").getAsInt());
    assertEquals("2.6.1", json.getAsJsonObject("versions").get("hbase").getAsString());

    final JsonObject manifest = Json.read(plan.runDir.resolve("manifest.json"));
    assertEquals("running", Json.text(manifest, "status"));
    assertEquals("{\"inj1\":3,\"inj2\":2}", manifest.get("threads_per_host").toString());
  }

  @Test
  void anAuditedRunGetsItsOwnAuditKeyAndBashIsToldToVerifyIt() throws Exception {
    final RunPlan audited = plan("--set", "hbaseload.audit=true");
    assertEquals(audited.runKey, audited.properties.getProperty("hbaseload.audit.run"));
    assertEquals(audited.runKey, audited.consoleProperties.get("hbaseload.audit.run"));
    final com.google.gson.JsonObject planJson = Json.read(audited.runDir.resolve("plan.json"));
    assertTrue(PlanShell.of(planJson).contains("AUDIT='true'"));
    final RunPlan plain = plan();
    assertEquals("", plain.properties.getProperty("hbaseload.audit.run", "").trim());
    assertTrue(PlanShell.of(Json.read(plain.runDir.resolve("plan.json"))).contains("AUDIT='false'"));
    final LifecycleException e = assertThrows(LifecycleException.class, () -> plan("--set", "hbaseload.audit=true",
        "--set", "hbaseload.operations=get:100"));
    assertEquals("hbaseload: hbaseload.audit=true audits puts, and hbaseload.operations=get:100 has none", e.getMessage());
  }

  @Test
  void aBadKeyFailsBeforeAnyRunFolderExists() {
    final LifecycleException e = assertThrows(LifecycleException.class, () -> plan("--set", "hbaseload.rowz=5"));
    assertTrue(e.getMessage().startsWith("hbaseload: unknown key hbaseload.rowz"), e.getMessage());
    final LifecycleException mix = assertThrows(LifecycleException.class, () -> plan("--set", "hbaseload.operations=get:70,put:20"));
    assertTrue(mix.getMessage().contains("hbaseload.operations=get:70,put:20: percentages sum to 90, not 100"), mix.getMessage());
    assertFalse(Files.exists(root.resolve("runs/run-1")));
  }

  @Test
  void eachWorkerLogsItsGcPausesNextToItsDataLog() throws Exception {
    final RunPlan plan = plan("--injectors", "2", "--set", "grinder.jvm.arguments=-Xmx1g -XX:+UseSerialGC");
    final Path dir = plan.runDir.resolve("injectors/inj2");
    assertEquals("-Xmx1g -XX:+UseSerialGC -Xlog:gc:file=" + dir + "/inj2-gc.%p.log:utctime",
        PropertiesFile.read(dir.resolve("agent.properties")).getProperty("grinder.jvm.arguments"));
    assertNull(PropertiesFile.read(plan.runDir.resolve("grinder.properties")).getProperty("grinder.jvm.arguments"),
        "per host: the console's copy would override the agents' own");
    assertEquals("-Xmx1g -Xlog:gc*:stdout", RunPlanner.workerJvmArguments("-Xmx1g -Xlog:gc*:stdout", "/r/inj1", "inj1"), "the user's own GC log wins");
    assertEquals("-Xmx1g", RunPlanner.workerJvmArguments("-Xmx1g", "/my runs/inj1", "inj1"), "Grinder splits arguments on blanks");
    assertEquals("-Xlog:gc:file=/r/inj1/inj1-gc.%p.log:utctime", RunPlanner.workerJvmArguments("", "/r/inj1", "inj1"));
  }

  @Test
  void aTakenConsolePortIsRefusedAfterTheArgumentsAndBeforeAnyRunFolder() {
    machine.consolePortTakenBy = "java pid 4242";
    final LifecycleException usage = assertThrows(LifecycleException.class, () -> plan("--frobnicate", "1"));
    assertTrue(usage instanceof LifecycleException.Usage, "a wrong command line is said first, as a usage error");
    final LifecycleException e = assertThrows(LifecycleException.class, () -> plan("--threads", "2"));
    assertFalse(e instanceof LifecycleException.Usage);
    assertEquals("console port 6872 on 127.0.0.1 is already taken by java pid 4242; another run at this offset? (SUITE_PORT_OFFSET=500)",
        e.getMessage());
    assertFalse(Files.exists(root.resolve("runs/run-1")));
  }

  @Test
  void namespacesRefusedMeanLoopbackUnlessAskedFor() throws Exception {
    machine.namespacesPermitted = false;
    machine.namespacesRefusal = "not root";
    final RunPlan plan = plan("--injectors", "2");
    assertEquals("loopback", plan.injectorMode);
    assertTrue(plan.injectorNote.contains("network namespaces not permitted (not root)"), plan.injectorNote);
    assertEquals("network namespaces are not permitted here: not root (use --lab loopback)",
        assertThrows(LifecycleException.class, () -> plan("--injectors", "2", "--lab", "namespaces")).getMessage());
  }

  @Test
  void sequentialKeysNeedAnEqualSplit() {
    assertEquals("--threads 5 does not split equally over 2 injectors, which sequential keys need; use a multiple of 2",
        assertThrows(LifecycleException.class,
            () -> plan("--injectors", "2", "--threads", "5", "--set", "hbaseload.key.distribution=sequential")).getMessage());
  }

  @Test
  void runFoldersAreNumberedPastTheHighestAndNeverReused() throws Exception {
    Files.createDirectories(root.resolve("runs/run-7"));
    Files.createDirectories(root.resolve("runs/run-notanumber"));
    assertEquals("run-8", RunPlanner.allocate(root.resolve("runs"), "run").getFileName().toString());
    assertEquals("run-9", RunPlanner.allocate(root.resolve("runs"), "run").getFileName().toString());
  }

  @Test
  void remoteHostsSeeTheirOwnJarsAndAKeyedRunFolder() throws Exception {
    final Path hosts = Files.write(root.resolve("lab.hosts"), List.of("alice@box1 - /srv/g box1"));
    final RunPlan plan = plan("--hosts", hosts.toString());
    final Properties agent = PropertiesFile.read(plan.runDir.resolve("injectors/box1/agent.properties"));
    assertEquals("/srv/g/lib/jars/hbase-grinder-worker.jar:/srv/g/lib/jars/hbase-client-2.6.1.jar", agent.getProperty("grinder.jvm.classpath"));
    assertEquals("/srv/g/runs/" + plan.runKey, agent.getProperty("grinder.logDirectory"));
    assertTrue(plan.runKey.matches("run-1-[0-9]{13}"), plan.runKey);
    assertEquals("ssh", plan.injectorMode);
  }

  @Test
  void aFaultScheduleTravelsIntoThePlanAgainstTheLocalCluster() throws Exception {
    machine.localRegionServers = 3;
    final RunPlan plan = plan("--duration", "40", "--faults", "at=30s start regionserver=2; at=5s kill regionserver=2");
    final JsonObject json = Json.read(plan.runDir.resolve("plan.json"));
    final JsonObject faults = json.getAsJsonObject("faults");
    assertEquals("at=5s kill regionserver=2; at=30s start regionserver=2", Json.text(faults, "schedule"));
    assertEquals(3, Json.integer(faults, "regionservers", 0));
    assertEquals(2, faults.getAsJsonArray("actions").size());
    assertEquals("kill", Json.text(faults.getAsJsonArray("actions").get(0).getAsJsonObject(), "action"));
    final String shell = PlanShell.of(json);
    assertTrue(shell.contains("FAULTS_COUNT='2'"), shell);
    assertTrue(shell.contains("FAULTS_SCHEDULE='at=5s kill regionserver=2; at=30s start regionserver=2'"), shell);
    // the same setting as a property (a scenario, a sweep point) takes the same path
    final RunPlan viaSet = plan("--duration", "40", "--set", "faults.schedule=at=5s pause regionserver=1 for=3s");
    assertEquals("at=5s pause regionserver=1 for=3s", Json.text(Json.read(viaSet.runDir.resolve("plan.json")).getAsJsonObject("faults"), "schedule"));
  }

  @Test
  void withoutAScheduleThePlanSaysNone() throws Exception {
    final JsonObject json = Json.read(plan("--duration", "10").runDir.resolve("plan.json"));
    assertTrue(json.get("faults").isJsonNull());
    assertTrue(PlanShell.of(json).contains("FAULTS_COUNT='0'"));
  }

  @Test
  void aScheduleIsRefusedBeforeAnyRunFolderUnlessItCanRunHere() throws Exception {
    machine.localRegionServers = 2;
    final LifecycleException bad = assertThrows(LifecycleException.Usage.class,
        () -> plan("--duration", "30", "--faults", "at=5s kill regionserver=3"));
    assertEquals("faults: action 1 'at=5s kill regionserver=3': regionserver=3 is not one of the local cluster's 1..2", bad.getMessage());
    assertTrue(assertThrows(LifecycleException.Usage.class, () -> plan("--duration", "30", "--faults", "at=40s kill regionserver=1"))
        .getMessage().contains("past the run's 30 s"));
    assertTrue(assertThrows(LifecycleException.Usage.class, () -> plan("--duration", "30", "--faults", "at=5s kill regionserver=1",
        "--set", "hbaseload.hbase.site=/etc/hbase/conf/hbase-site.xml")).getMessage().contains("a cluster the suite does not manage"));
    machine.localRegionServers = 1;
    assertTrue(assertThrows(LifecycleException.Usage.class, () -> plan("--duration", "30", "--faults", "at=5s kill regionserver=1"))
        .getMessage().contains("the embedded HBase here is the standalone"));
    machine.localRegionServers = 0;
    assertTrue(assertThrows(LifecycleException.Usage.class, () -> plan("--duration", "30", "--faults", "at=5s kill regionserver=1"))
        .getMessage().contains("none is running here"));
    assertFalse(Files.exists(root.resolve("runs").resolve("run-1")), "no run folder for a refused schedule");
  }

  @Test
  void aWarmUpCarriesItsRunsSettingsButNoFaults() throws Exception {
    machine.localRegionServers = 2;
    final RunPlan warm = plan("--duration", "30", "--faults", "at=5s kill regionserver=1", "--warmup-only", "20",
        "--set", "hbaseload.audit=true", "--set", "hbaseload.operations=put:100");
    assertTrue(Json.read(warm.runDir.resolve("plan.json")).get("faults").isJsonNull());
    assertEquals("false", warm.properties.getProperty("hbaseload.audit"), "nor an audit");
    final RunPlan run = plan("--duration", "30", "--set", "hbaseload.audit=true", "--set", "hbaseload.operations=put:100");
    assertEquals("true", run.properties.getProperty("hbaseload.audit"));
  }

  @Test
  void aWarmUpInAnIsolatedLabGivesTheServersEveryCpuAndAMeasuredRunDoesNot() throws Exception {
    machine.onlineCpus = "0-3";
    final JsonObject warm = Json.read(plan("--warmup-only", "20", "--set", "lab.cpus=0:1-3").runDir.resolve("plan.json")).getAsJsonObject("lab");
    assertEquals("0", warm.get("server_cpus").getAsString());
    assertEquals("0-3", warm.get("warmup_server_cpus").getAsString());
    assertFalse(Json.read(plan("--duration", "20", "--set", "lab.cpus=0:1-3").runDir.resolve("plan.json"))
        .getAsJsonObject("lab").has("warmup_server_cpus"), "a measured run keeps the servers on theirs");
    assertFalse(Json.read(plan("--warmup-only", "20", "--set", "lab.cpus=off").runDir.resolve("plan.json"))
        .getAsJsonObject("lab").has("warmup_server_cpus"), "a shared lab has nothing to widen");
  }

  // session.workers (WarmWorkers)

  @Test
  void warmWorkersRunInTheAgentWithTheSuitesSharedSet() throws Exception {
    final RunPlan plan = plan("--set", "session.workers=warm", "--set", "session.workers.runs=4",
        "--set", "grinder.jvm.arguments=-Xmx1g -XX:+UseSerialGC");
    final Properties agent = PropertiesFile.read(plan.runDir.resolve("injectors/inj1/agent.properties"));
    assertEquals("true", agent.getProperty("grinder.debug.singleprocess"));
    final List<String> shared = List.of(agent.getProperty("grinder.debug.singleprocess.sharedclasses").split(","));
    assertEquals("*", shared.get(0));
    assertTrue(shared.containsAll(List.of("!net.grinder.*", "!org.python.*", "!net.grinder.util.weave.agent.ExposeInstrumentation")));
    final JsonObject workers = Json.read(plan.runDir.resolve("plan.json")).getAsJsonObject("workers");
    assertEquals("warm", Json.text(workers, "mode"));
    assertEquals("-Xmx1g -XX:+UseSerialGC", Json.text(workers, "jvm_arguments"), "the agent's JVM starts with the workers' own");
    assertEquals(4, Json.integer(workers, "runs_per_agent", 0));
    final String shell = PlanShell.of(Json.read(plan.runDir.resolve("plan.json")));
    assertTrue(shell.contains("WORKERS='warm'"), shell);
    assertTrue(shell.contains("WARM_RUNS_PER_AGENT='4'"), shell);
  }

  @Test
  void freshIsTheDefaultAndChangesNothingInTheAgentsProperties() throws Exception {
    final RunPlan plan = plan();
    final Properties agent = PropertiesFile.read(plan.runDir.resolve("injectors/inj1/agent.properties"));
    assertNull(agent.getProperty("grinder.debug.singleprocess"));
    assertEquals("fresh", Json.text(Json.read(plan.runDir.resolve("plan.json")).getAsJsonObject("workers"), "mode"));
    assertEquals(10, Json.integer(Json.read(plan.runDir.resolve("plan.json")).getAsJsonObject("workers"), "runs_per_agent", 0));
  }

  @Test
  void aBadValueIsNamedBeforeAnyRunFolderExists() {
    final LifecycleException mode = assertThrows(LifecycleException.class, () -> plan("--set", "session.workers=hot"));
    assertEquals("session.workers = hot: expected fresh or warm", mode.getMessage());
    final LifecycleException runs = assertThrows(LifecycleException.class, () -> plan("--set", "session.workers.runs=0"));
    assertEquals("session.workers.runs = 0: expected a whole number of runs from 1 to 1000", runs.getMessage());
    assertFalse(Files.exists(root.resolve("runs/run-1")));
  }

  @Test
  void hostsFileAgentsCannotBeWarm() throws Exception {
    final Path hosts = Files.write(root.resolve("lab.hosts"), List.of("alice@box1 - /srv/g box1"));
    final LifecycleException e = assertThrows(LifecycleException.class,
        () -> plan("--hosts", hosts.toString(), "--set", "session.workers=warm"));
    assertTrue(e.getMessage().startsWith("session.workers = warm: only agents ./suite starts here"), e.getMessage());
  }
}
