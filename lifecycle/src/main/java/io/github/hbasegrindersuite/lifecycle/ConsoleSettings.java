package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Grinder console's own settings, in the file it reads from its user.home ({@value #FILE}):
 * where it listens, what it distributes, how it samples, and what the suite's run controller
 * follows (a run's plan, or an injector session's folder). bash starts both kinds of console with
 * only {@code -Duser.home=FOLDER}; a {@code -Dgrinder.console.*} flag would still win over the file.
 */
final class ConsoleSettings {
  /** The file under user.home where Grinder's console keeps its settings. */
  static final String FILE = ".grinder_console";

  private ConsoleSettings() {
  }

  /** The console's grinder.console.* settings: listening on HOST:PORT, distributing DISTRIBUTION and its grinder.properties. */
  static Map<String, String> grinderConsole(String host, int port, Path distribution) {
    final Map<String, String> s = new LinkedHashMap<>();
    s.put("grinder.console.consoleHost", host);
    s.put("grinder.console.consolePort", String.valueOf(port));
    s.put("grinder.console.httpHost", "127.0.0.1");
    s.put("grinder.console.scriptDistributionDirectory", distribution.toString());
    s.put("grinder.console.propertiesFile", distribution.resolve("grinder.properties").toString());
    // every sample counts from the first (the controller decides the window) at one a second
    s.put("grinder.console.numberToIgnore", "0");
    s.put("grinder.console.numberToCollect", "0");
    s.put("grinder.console.sampleInterval", "1000");
    return s;
  }

  /** A run's console (./suite run without a session): console/.grinder_console, naming the run's plan. */
  static void writeForRun(Path runDir, String runId, String host, int port) throws LifecycleException {
    final Map<String, String> s = grinderConsole(host, port, runDir.resolve("distribution"));
    s.put("hbasegrinder.plan", runDir.resolve("plan.json").toString());
    PropertiesFile.write(runDir.resolve("console").resolve(FILE),
        List.of("The Grinder console's settings for " + runId + ", written by ./suite run (lifecycle plan); the console",
            "reads them from its user.home, the run's console folder; hbasegrinder.plan: the run controller's plan."), s);
  }

  /**
   * An injector session started by the run of PLAN (suite.d/session.sh): SESSION/.grinder_console
   * (its console listens where the run's would, distributes SESSION/distribution and waits for the
   * runs' requests in SESSION) and SESSION/session.json, the hosts and workers every later run of
   * the session must have.
   */
  static void writeForSession(Path planFile, Path session) throws LifecycleException {
    final JsonObject plan = Json.read(planFile);
    final JsonObject console = plan.getAsJsonObject("console");
    if (console == null || !console.has("host") || !console.has("port")) {
      throw new LifecycleException(planFile + " has no console host and port");
    }
    final Map<String, String> s = grinderConsole(console.get("host").getAsString(), console.get("port").getAsInt(),
        session.resolve("distribution"));
    s.put("hbasegrinder.session.dir", session.toString());
    PropertiesFile.write(session.resolve(FILE),
        List.of("The Grinder console's settings for the injector session " + session + ", written by lifecycle",
            "session-start from the plan of the run that started it; the console reads them from its user.home, this folder."), s);
    final Map<String, Object> doc = new LinkedHashMap<>();
    final JsonArray hosts = new JsonArray();
    for (JsonObject host : PlanJson.hosts(plan)) {
      final JsonObject h = new JsonObject();
      h.add("id", host.get("id"));
      h.add("kind", host.get("kind"));
      hosts.add(h);
    }
    doc.put("hosts", hosts);
    doc.put("injector_mode", Json.text(plan, "injector_mode"));
    doc.put("started", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    doc.put("port_offset", plan.get("port_offset"));
    if (plan.has("workers") && plan.get("workers").isJsonObject()) {
      doc.put("workers", plan.get("workers"));
    } else {
      final JsonObject fresh = new JsonObject();
      fresh.addProperty("mode", "fresh");
      doc.put("workers", fresh);
    }
    Json.write(session.resolve("session.json"), doc);
  }
}
