package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleSettingsTest {
  @TempDir
  Path dir;

  private Path plan(String workers) throws Exception {
    final Path plan = dir.resolve("run-7/plan.json");
    Files.createDirectories(plan.getParent());
    Files.writeString(plan, "{\"run_dir\": \"" + plan.getParent() + "\", \"injector_mode\": \"namespaces\", \"port_offset\": 300,"
        + " \"hosts\": [{\"id\": \"inj1\", \"kind\": \"netns\", \"threads\": 4}, {\"id\": \"inj2\", \"kind\": \"netns\", \"threads\": 4}],"
        + " \"console\": {\"host\": \"10.231.3.1\", \"port\": 6672, \"ui\": \"headless\"}" + workers + "}");
    return plan;
  }

  @Test
  void aSessionsConsoleListensWhereTheRunsWouldAndServesTheSession() throws Exception {
    final Path session = Files.createDirectories(dir.resolve("session-7"));
    ConsoleSettings.writeForSession(plan(", \"workers\": {\"mode\": \"warm\", \"jvm_arguments\": \"-Xmx1g\", \"runs\": 16}"), session);
    final Properties console = PropertiesFile.read(session.resolve(".grinder_console"));
    assertEquals("10.231.3.1", console.getProperty("grinder.console.consoleHost"));
    assertEquals("6672", console.getProperty("grinder.console.consolePort"));
    assertEquals("127.0.0.1", console.getProperty("grinder.console.httpHost"));
    assertEquals(session.resolve("distribution").toString(), console.getProperty("grinder.console.scriptDistributionDirectory"));
    assertEquals(session.resolve("distribution/grinder.properties").toString(), console.getProperty("grinder.console.propertiesFile"));
    assertEquals("1000", console.getProperty("grinder.console.sampleInterval"));
    assertEquals(session.toString(), console.getProperty("hbasegrinder.session.dir"));
    assertEquals(null, console.getProperty("hbasegrinder.plan"), "a session's console follows requests, not one plan");

    final JsonObject json = Json.read(session.resolve("session.json"));
    assertEquals("[{\"id\":\"inj1\",\"kind\":\"netns\"},{\"id\":\"inj2\",\"kind\":\"netns\"}]", json.get("hosts").toString());
    assertEquals("namespaces", Json.text(json, "injector_mode"));
    assertEquals(300, Json.integer(json, "port_offset", -1));
    assertEquals("{\"mode\":\"warm\",\"jvm_arguments\":\"-Xmx1g\",\"runs\":16}", json.get("workers").toString());
    assertTrue(Json.text(json, "started").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), Json.text(json, "started"));
  }

  @Test
  void aPlanWithoutWorkersStartsAFreshSessionAndOneWithoutItsConsoleIsRefused() throws Exception {
    final Path session = Files.createDirectories(dir.resolve("session-8"));
    ConsoleSettings.writeForSession(plan(""), session);
    assertEquals("{\"mode\":\"fresh\"}", Json.read(session.resolve("session.json")).get("workers").toString());
    final Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"hosts\": []}");
    final LifecycleException e = assertThrows(LifecycleException.class, () -> ConsoleSettings.writeForSession(bad, session));
    assertEquals(bad + " has no console host and port", e.getMessage());
  }
}
