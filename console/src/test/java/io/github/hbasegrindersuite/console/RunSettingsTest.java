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

  private Properties configured() throws Exception {
    Files.writeString(dir.resolve("grinder.properties"), "grinder.threads = 1\n");
    final Properties p = new Properties();
    p.setProperty(RunSettings.RUN_DIR, dir.toString());
    p.setProperty(RunSettings.AGENTS, "inj1, inj2");
    return p;
  }

  @Test
  void dormantWithoutARunFolder() throws Exception {
    assertFalse(RunSettings.from(new Properties(), dir.toFile()).isPresent());
    final Properties blank = new Properties();
    blank.setProperty(RunSettings.RUN_DIR, "  ");
    assertFalse(RunSettings.from(blank, dir.toFile()).isPresent());
  }

  @Test
  void readsAgentsDefaultsAndTheDistributedPropertiesFile() throws Exception {
    final RunSettings s = RunSettings.from(configured(), dir.toFile()).get();
    assertEquals(Arrays.asList("inj1", "inj2"), s.agents());
    assertEquals(new File(dir.toFile(), "grinder.properties"), s.propertiesFile());
    assertEquals(new File(dir.toFile(), "console"), s.consoleDirectory());
    assertEquals(60, s.agentTimeoutSeconds());
    assertEquals(600, s.runTimeoutSeconds());
    assertTrue(s.exitWhenDone());
    assertEquals(0, s.lingerSeconds());
    assertEquals(0, s.metricsPort(), "no live endpoint unless asked (./suite run asks)");
  }

  @Test
  void overridesAreRead() throws Exception {
    final Properties p = configured();
    p.setProperty(RunSettings.AGENT_TIMEOUT, "7");
    p.setProperty(RunSettings.RUN_TIMEOUT, "99");
    p.setProperty(RunSettings.EXIT_WHEN_DONE, "FALSE");
    p.setProperty(RunSettings.LINGER, "3");
    p.setProperty(RunSettings.METRICS_PORT, "9398");
    final RunSettings s = RunSettings.from(p, dir.toFile()).get();
    assertEquals(9398, s.metricsPort());
    assertEquals(7, s.agentTimeoutSeconds());
    assertEquals(99, s.runTimeoutSeconds());
    assertFalse(s.exitWhenDone());
    assertEquals(3, s.lingerSeconds());
  }

  @Test
  void badValuesAreRefusedNamingTheKey() throws Exception {
    final Properties p = configured();
    p.setProperty(RunSettings.AGENT_TIMEOUT, "soon");
    assertMessage(p, "hbasegrinder.agentTimeout=soon is not a whole number");
    p.setProperty(RunSettings.AGENT_TIMEOUT, "0");
    assertMessage(p, "hbasegrinder.agentTimeout=0 is out of range");
    p.remove(RunSettings.AGENT_TIMEOUT);
    p.setProperty(RunSettings.EXIT_WHEN_DONE, "maybe");
    assertMessage(p, "hbasegrinder.exitWhenDone=maybe is not accepted");
    p.remove(RunSettings.EXIT_WHEN_DONE);
    p.setProperty(RunSettings.METRICS_PORT, "65536");
    assertMessage(p, "hbasegrinder.metrics.port=65536 is out of range (accepted: a port 1-65535, or 0 for none)");
    p.setProperty(RunSettings.METRICS_PORT, "-1");
    assertMessage(p, "hbasegrinder.metrics.port=-1 is out of range");
    p.remove(RunSettings.METRICS_PORT);
    p.setProperty(RunSettings.PROPERTIES, dir.resolve("nope.properties").toString());
    assertMessage(p, "nope.properties is not a file");
    p.remove(RunSettings.PROPERTIES);
    p.setProperty(RunSettings.RUN_DIR, dir.resolve("missing").toString());
    assertMessage(p, "is not a directory");
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
        assertThrows(RunSettings.SettingsException.class, () -> RunSettings.from(p, dir.toFile()));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
