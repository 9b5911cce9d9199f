package io.github.hbasegrindersuite.console;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import net.grinder.common.GrinderProperties;

/**
 * What the run controller is asked to do: the run's plan.json (lifecycle's PlanJson, the one record
 * of a run's settings), named by the {@code hbasegrinder.*} system properties (or a session's
 * request). Without {@value #PLAN} the controller is dormant and the console behaves as a plain
 * Grinder console.
 *
 * <table>
 * <caption>keys</caption>
 * <tr><td>{@value #PLAN}</td><td>the run's plan.json; turns the controller on</td></tr>
 * <tr><td>{@value #PROPERTIES}</td><td>the properties sent to the agents, where they are not the plan's
 *   {@code console.properties} (a session's copy)</td></tr>
 * <tr><td>{@value #PROGRESS_INTERVAL}</td><td>seconds between progress lines (5)</td></tr>
 * <tr><td>{@value #EXIT_WHEN_DONE}</td><td>exit the console with the outcome's code (true)</td></tr>
 * </table>
 * From the plan: {@code run_dir}, the agents ({@code hosts[].id}), {@code timeouts} (agent_s,
 * worker_start_s, run_s), {@code console.linger_s}, {@code console.metrics_port} (0: no live
 * endpoint) and {@code warmup_max_s} (a warm-up run: its workers are stopped once the load is
 * steady and the JIT quiet, WarmupJudge, at the latest after this many seconds of load).
 */
public final class RunSettings {

  public static final String PREFIX = "hbasegrinder.";
  public static final String PLAN = PREFIX + "plan";
  public static final String PROPERTIES = PREFIX + "properties";
  public static final String PROGRESS_INTERVAL = PREFIX + "progressInterval";
  public static final String EXIT_WHEN_DONE = PREFIX + "exitWhenDone";
  /** Seconds between progress lines, unless {@value #PROGRESS_INTERVAL} says otherwise. */
  private static final int DEFAULT_PROGRESS_S = 5;

  private static final Pattern HOST_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  /** A setting that cannot be used; the message names the key and what it accepts. */
  public static final class SettingsException extends Exception {
    private static final long serialVersionUID = 1L;

    SettingsException(String message) {
      super(message);
    }
  }

  private final File runDirectory;
  private final List<String> agents;
  private final File propertiesFile;
  private final int agentTimeoutSeconds;
  private final int workerStartTimeoutSeconds;
  private final int runTimeoutSeconds;
  private final int progressIntervalSeconds;
  private final boolean exitWhenDone;
  private final int lingerSeconds;
  private final int metricsPort;
  private final int warmupMaxSeconds;
  private final boolean workersWarm;

  private RunSettings(Plan plan, File propertiesFile, int progressIntervalSeconds, boolean exitWhenDone)
      throws SettingsException {
    this.runDirectory = new File(plan.text("run_dir"));
    if (!runDirectory.isDirectory()) {
      throw new SettingsException(plan.file + ": run_dir " + runDirectory + " is not a directory");
    }
    this.agents = parseAgents(plan.hostIds());
    this.propertiesFile = propertiesFile != null ? propertiesFile : new File(plan.text("console", "properties"));
    if (!this.propertiesFile.isFile()) {
      throw new SettingsException("the properties to send, " + this.propertiesFile + ", are not a file");
    }
    this.agentTimeoutSeconds = plan.positive("timeouts", "agent_s");
    this.workerStartTimeoutSeconds = plan.positive("timeouts", "worker_start_s");
    this.runTimeoutSeconds = plan.positive("timeouts", "run_s");
    this.lingerSeconds = plan.nonNegative("console", "linger_s");
    this.metricsPort = plan.port("console", "metrics_port");
    this.warmupMaxSeconds = plan.nonNegative(null, "warmup_max_s");
    // plans written before session.workers have no "workers": fresh
    final JsonObject workers = plan.json.has("workers") && plan.json.get("workers").isJsonObject() ? plan.json.getAsJsonObject("workers") : null;
    this.workersWarm = workers != null && workers.has("mode") && "warm".equals(workers.get("mode").getAsString());
    this.progressIntervalSeconds = progressIntervalSeconds;
    this.exitWhenDone = exitWhenDone;
  }

  /** The file under user.home where Grinder's console keeps its settings (lifecycle's plan writes the run's). */
  static final String CONSOLE_SETTINGS_FILE = ".grinder_console";

  /**
   * What the run controller is told, read as the console reads its own settings: the file
   * {@value #CONSOLE_SETTINGS_FILE} in USER_HOME (./suite run starts the console with user.home =
   * the run's console folder, where the plan wrote it), with the {@value #PREFIX}* system
   * properties over it (a console started by hand with -Dhbasegrinder.plan=...). No file: the
   * system properties alone.
   */
  static Properties consoleSettings(File userHome, Properties system) throws SettingsException {
    final GrinderProperties settings;
    try {
      settings = new GrinderProperties(new File(userHome, CONSOLE_SETTINGS_FILE));
    } catch (GrinderProperties.PersistenceException e) {
      throw new SettingsException(new File(userHome, CONSOLE_SETTINGS_FILE) + " cannot be read: " + e.getMessage());
    }
    for (String name : system.stringPropertyNames()) {
      if (name.startsWith(PREFIX)) {
        settings.setProperty(name, system.getProperty(name));
      }
    }
    return settings;
  }

  /**
   * The settings of the run whose plan {@value #PLAN} names, or empty when it is not set (dormant).
   *
   * @param properties usually {@code System.getProperties()}, or a session's request
   */
  public static Optional<RunSettings> from(Properties properties) throws SettingsException {
    final String plan = trimmed(properties, PLAN);
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    final String sent = trimmed(properties, PROPERTIES);
    final int progress = integer(properties, PROGRESS_INTERVAL, DEFAULT_PROGRESS_S);
    if (progress <= 0) {
      throw new SettingsException(PROGRESS_INTERVAL + "=" + progress + " is out of range (accepted: a whole number > 0)");
    }
    return Optional.of(new RunSettings(Plan.read(new File(plan)), sent.isEmpty() ? null : new File(sent), progress,
        bool(properties, EXIT_WHEN_DONE, true)));
  }

  /**
   * A session request's run (SessionRequests): its plan and the properties to send, with the
   * defaults a one-run console has; empty when it names no plan.
   */
  static Optional<RunSettings> forRequest(String plan, String sent) throws SettingsException {
    if (plan == null || plan.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new RunSettings(Plan.read(new File(plan.trim())), sent == null || sent.isBlank() ? null : new File(sent.trim()), DEFAULT_PROGRESS_S, true));
  }

  /** plan.json, read with the key of every field in the message of what is wrong with it. */
  private static final class Plan {
    final File file;
    final JsonObject json;

    private Plan(File file, JsonObject json) {
      this.file = file;
      this.json = json;
    }

    static Plan read(File file) throws SettingsException {
      try {
        final JsonElement root = JsonParser.parseString(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8));
        if (!root.isJsonObject()) {
          throw new SettingsException(PLAN + ": " + file + " is not a JSON object");
        }
        return new Plan(file, root.getAsJsonObject());
      } catch (IOException | JsonParseException e) {
        throw new SettingsException(PLAN + ": " + file + " cannot be read: " + e.getMessage());
      }
    }

    private JsonElement field(String section, String key) throws SettingsException {
      final JsonObject in = section == null ? json : json.getAsJsonObject(section);
      final JsonElement e = in == null ? null : in.get(key);
      if (e == null || e.isJsonNull()) {
        throw new SettingsException(file + ": " + name(section, key) + " is missing");
      }
      return e;
    }

    private static String name(String section, String key) {
      return section == null ? key : section + "." + key;
    }

    String text(String key) throws SettingsException {
      return field(null, key).getAsString();
    }

    String text(String section, String key) throws SettingsException {
      return field(section, key).getAsString();
    }

    String hostIds() throws SettingsException {
      final List<String> ids = new ArrayList<>();
      for (JsonElement host : field(null, "hosts").getAsJsonArray()) {
        ids.add(host.getAsJsonObject().get("id").getAsString());
      }
      return String.join(",", ids);
    }

    int whole(String section, String key) throws SettingsException {
      final JsonElement e = field(section, key);
      try {
        return e.getAsInt();
      } catch (RuntimeException notANumber) {
        throw new SettingsException(file + ": " + name(section, key) + "=" + e + " is not a whole number");
      }
    }

    int positive(String section, String key) throws SettingsException {
      final int value = whole(section, key);
      if (value <= 0) {
        throw new SettingsException(file + ": " + name(section, key) + "=" + value + " is out of range (accepted: a whole number > 0)");
      }
      return value;
    }

    int nonNegative(String section, String key) throws SettingsException {
      final int value = whole(section, key);
      if (value < 0) {
        throw new SettingsException(file + ": " + name(section, key) + "=" + value + " is out of range (accepted: a whole number >= 0)");
      }
      return value;
    }

    int port(String section, String key) throws SettingsException {
      final int value = whole(section, key);
      if (value < 0 || value > 65535) {
        throw new SettingsException(file + ": " + name(section, key) + "=" + value
            + " is out of range (accepted: a port 1-65535, or 0 for none)");
      }
      return value;
    }
  }

  /** "inj1, inj2" -> [inj1, inj2]; refuses empty lists, duplicates and odd names. */
  static List<String> parseAgents(String text) throws SettingsException {
    if (text.isEmpty()) {
      throw new SettingsException("the plan's hosts are empty (accepted: grinder.hostID values, e.g. inj1, inj2)");
    }
    final Set<String> names = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      final String name = part.trim();
      if (!HOST_ID.matcher(name).matches()) {
        throw new SettingsException("the plan's hosts " + text + ": '" + name
            + "' is not a host id (accepted: letters, digits, '.', '_', '-')");
      }
      if (!names.add(name)) {
        throw new SettingsException("the plan's hosts " + text + ": '" + name + "' appears twice");
      }
    }
    return Collections.unmodifiableList(new ArrayList<>(names));
  }

  private static String trimmed(Properties properties, String key) {
    final String value = properties.getProperty(key);
    return value == null ? "" : value.trim();
  }




  private static int integer(Properties properties, String key, int fallback) throws SettingsException {
    final String text = trimmed(properties, key);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new SettingsException(key + "=" + text + " is not a whole number");
    }
  }

  private static boolean bool(Properties properties, String key, boolean fallback) throws SettingsException {
    final String text = trimmed(properties, key);
    if (text.isEmpty()) {
      return fallback;
    }
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new SettingsException(key + "=" + text + " is not accepted (accepted: true, false)");
  }

  public File runDirectory() {
    return runDirectory;
  }

  /** Where the console's own files go: runs/run-N/console. */
  public File consoleDirectory() {
    return new File(runDirectory, "console");
  }

  public List<String> agents() {
    return agents;
  }

  public File propertiesFile() {
    return propertiesFile;
  }

  public int agentTimeoutSeconds() {
    return agentTimeoutSeconds;
  }

  public int workerStartTimeoutSeconds() {
    return workerStartTimeoutSeconds;
  }

  public int runTimeoutSeconds() {
    return runTimeoutSeconds;
  }

  public int progressIntervalSeconds() {
    return progressIntervalSeconds;
  }

  public boolean exitWhenDone() {
    return exitWhenDone;
  }

  public int lingerSeconds() {
    return lingerSeconds;
  }

  /** Seconds of load a warm-up may take at most; 0 for an ordinary run. */
  public int warmupMaxSeconds() {
    return warmupMaxSeconds;
  }

  /** session.workers = warm: this run's workers are threads of the session's agent JVM. */
  public boolean workersWarm() {
    return workersWarm;
  }

  /** Port of the live Prometheus endpoint on 127.0.0.1; 0 when there is none. */
  public int metricsPort() {
    return metricsPort;
  }
}
