package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSettingsTest {

  @TempDir
  Path dir;

  /** A plan.json of a run in dir (lifecycle's PlanJson, trimmed) with FIELD=VALUE edits, as a console's properties. */
  private Properties plan(String... edits) throws Exception {
    Files.createDirectories(dir.resolve("distribution"));
    Files.writeString(dir.resolve("distribution/grinder.properties"), "grinder.threads = 1\n");
    final com.google.gson.JsonObject plan = com.google.gson.JsonParser.parseString("{\"run_dir\": \"" + dir + "\","
        + " \"hosts\": [{\"id\": \"inj1\"}, {\"id\": \"inj2\"}], \"warmup_max_s\": 0,"
        + " \"console\": {\"ui\": \"headless\", \"linger_s\": 0, \"metrics_port\": 9398,"
        + "   \"properties\": \"" + dir.resolve("distribution/grinder.properties") + "\"},"
        + " \"timeouts\": {\"agent_s\": 60, \"worker_start_s\": 180, \"run_s\": 245}}").getAsJsonObject();
    for (String edit : edits) {
      final String[] kv = edit.split("=", 2);
      final String[] path = kv[0].split("\\.");
      final com.google.gson.JsonObject in = path.length == 1 ? plan : plan.getAsJsonObject(path[0]);
      final String key = path[path.length - 1];
      if (kv[1].equals("-")) {
        in.remove(key);
      } else {
        in.add(key, com.google.gson.JsonParser.parseString(kv[1]));
      }
    }
    Files.writeString(dir.resolve("plan.json"), plan.toString());
    final Properties p = new Properties();
    p.setProperty(RunSettings.PLAN, dir.resolve("plan.json").toString());
    return p;
  }

  @Test
  void dormantWithoutAPlan() throws Exception {
    assertFalse(RunSettings.from(new Properties()).isPresent());
    final Properties blank = new Properties();
    blank.setProperty(RunSettings.PLAN, "  ");
    assertFalse(RunSettings.from(blank).isPresent());
  }

  @Test
  void everySettingComesFromThePlan() throws Exception {
    final RunSettings s = RunSettings.from(plan("warmup_max_s=30", "console.linger_s=4", "timeouts.run_s=99")).get();
    assertEquals(dir.toFile(), s.runDirectory());
    assertEquals(Arrays.asList("inj1", "inj2"), s.agents());
    assertEquals(dir.resolve("distribution/grinder.properties").toFile(), s.propertiesFile());
    assertEquals(new File(dir.toFile(), "console"), s.consoleDirectory());
    assertEquals(60, s.agentTimeoutSeconds());
    assertEquals(180, s.workerStartTimeoutSeconds());
    assertEquals(99, s.runTimeoutSeconds());
    assertEquals(4, s.lingerSeconds());
    assertEquals(9398, s.metricsPort());
    assertEquals(30, s.warmupMaxSeconds());
    assertEquals(5, s.progressIntervalSeconds(), "the console's own: not a run setting");
    assertTrue(s.exitWhenDone());
  }

  @Test
  void theConsoleReadsItsPlanFromItsSettingsFileAndAFlagWinsOverIt() throws Exception {
    plan("timeouts.run_s=77");
    final Path home = Files.createDirectories(dir.resolve("console"));
    // as lifecycle's plan writes it (PropertiesFile: escaped, commented)
    Files.writeString(home.resolve(".grinder_console"), "# the console's settings\ngrinder.console.consolePort = 6372\n"
        + "hbasegrinder.plan = " + dir.resolve("plan.json").toString().replace("\\", "\\\\") + "\n");
    final Properties told = RunSettings.consoleSettings(home.toFile(), new Properties());
    assertEquals("6372", told.getProperty("grinder.console.consolePort"));
    assertEquals(77, RunSettings.from(told).get().runTimeoutSeconds());

    final Properties system = new Properties();
    system.setProperty(RunSettings.PLAN, dir.resolve("elsewhere.json").toString());
    system.setProperty("java.version", "17");
    final Properties flagged = RunSettings.consoleSettings(home.toFile(), system);
    assertEquals(dir.resolve("elsewhere.json").toString(), flagged.getProperty(RunSettings.PLAN));
    assertEquals(null, flagged.getProperty("java.version"), "only the controller's own keys come from the system properties");
    final RunSettings.SettingsException missing = assertThrows(RunSettings.SettingsException.class, () -> RunSettings.from(flagged));
    assertTrue(missing.getMessage().contains("elsewhere.json"), missing.getMessage());

    // a console with no settings file (./suite console by hand): dormant
    assertFalse(RunSettings.from(RunSettings.consoleSettings(dir.resolve("nowhere").toFile(), new Properties())).isPresent());
  }

  @Test
  void aSessionSendsItsOwnCopyOfTheProperties() throws Exception {
    final Properties p = plan();
    final Path copy = Files.writeString(dir.resolve("run-9.properties"), "grinder.threads = 2\n");
    p.setProperty(RunSettings.PROPERTIES, copy.toString());
    p.setProperty(RunSettings.EXIT_WHEN_DONE, "FALSE");
    final RunSettings s = RunSettings.from(p).get();
    assertEquals(copy.toFile(), s.propertiesFile());
    assertFalse(s.exitWhenDone());
  }

  @Test
  void aPlanThatCannotBeUsedIsRefusedNamingTheField() throws Exception {
    assertMessage(plan("timeouts.agent_s=\"soon\""), "plan.json: timeouts.agent_s=\"soon\" is not a whole number");
    assertMessage(plan("timeouts.agent_s=0"), "plan.json: timeouts.agent_s=0 is out of range");
    assertMessage(plan("console.metrics_port=65536"), "plan.json: console.metrics_port=65536 is out of range (accepted: a port 1-65535, or 0 for none)");
    assertMessage(plan("timeouts.worker_start_s=-"), "plan.json: timeouts.worker_start_s is missing");
    assertMessage(plan("run_dir=\"" + dir.resolve("missing") + "\""), "is not a directory");
    assertMessage(plan("hosts=[{\"id\": \"a\"}, {\"id\": \"a\"}]"), "'a' appears twice");
    final Properties p = plan();
    p.setProperty(RunSettings.PROPERTIES, dir.resolve("nope.properties").toString());
    assertMessage(p, "nope.properties, are not a file");
    p.setProperty(RunSettings.EXIT_WHEN_DONE, "maybe");
    assertMessage(p, "hbasegrinder.exitWhenDone=maybe is not accepted");
    final Properties missing = new Properties();
    missing.setProperty(RunSettings.PLAN, dir.resolve("no-plan.json").toString());
    assertMessage(missing, "hbasegrinder.plan: " + dir.resolve("no-plan.json") + " cannot be read");
    Files.writeString(dir.resolve("plan.json"), "[1, 2]");
    assertMessage(missing, "cannot be read");
    missing.setProperty(RunSettings.PLAN, dir.resolve("plan.json").toString());
    assertMessage(missing, "is not a JSON object");
  }

  @Test
  void agentListsMustBeNamesWithoutRepeats() {
    assertEquals(Arrays.asList("a", "b.c", "d-1"), assertDoesNotThrow("a,b.c , d-1"));
    assertThrows(RunSettings.SettingsException.class, () -> RunSettings.parseAgents(""));
    final RunSettings.SettingsException twice =
        assertThrows(RunSettings.SettingsException.class, () -> RunSettings.parseAgents("a,b,a"));
    assertTrue(twice.getMessage().contains("'a' appears twice"), twice.getMessage());
    final RunSettings.SettingsException odd =
        assertThrows(RunSettings.SettingsException.class, () -> RunSettings.parseAgents("a,,b"));
    assertTrue(odd.getMessage().contains("'' is not a host id"), odd.getMessage());
  }

  private static java.util.List<String> assertDoesNotThrow(String text) {
    try {
      return RunSettings.parseAgents(text);
    } catch (RunSettings.SettingsException e) {
      throw new AssertionError(e);
    }
  }

  private void assertMessage(Properties p, String expected) {
    final RunSettings.SettingsException e =
        assertThrows(RunSettings.SettingsException.class, () -> RunSettings.from(p));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
