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

class WarmWorkersTest {
  @TempDir
  Path root;
  RunPlanner.Machine machine;

  @BeforeEach
  void machine() throws Exception {
    Files.write(root.resolve("grinder.properties"), List.of("grinder.processes = 1", "grinder.threads = 8",
        "grinder.duration = 60000", "hbaseload.operations = get:100", "hbaseload.agents = 1",
        "grinder.jvm.arguments = -Xmx1g -XX:+UseSerialGC"));
    machine = new RunPlanner.Machine();
    machine.suiteRoot = root;
    machine.runsDir = root.resolve("runs");
    machine.java = "/jdk/bin/java";
    machine.embeddedPorts = new EmbeddedPorts(2181, 9091, 9092);
    machine.consolePort = 6372;
    machine.namespacesPermitted = true;
    machine.workerClasspath = "/lib/hbase-grinder-worker.jar";
    machine.grinderClasspath = "/lib/hbase-grinder-console.jar";
  }

  private RunPlan plan(String... args) throws LifecycleException {
    return new RunPlanner(RunArguments.parse(List.of(args), root.resolve("grinder.properties")), machine).plan();
  }

  @Test
  void warmWorkersRunInTheAgentWithTheSuitesSharedSet() throws Exception {
    final RunPlan plan = plan("--set", "session.workers=warm", "--set", "session.workers.runs=4");
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
