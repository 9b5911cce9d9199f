package io.github.hbasegrindersuite.console;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the run controller is asked to do, read from {@code hbasegrinder.*} system properties.
 * Without {@value #RUN_DIR} the controller is dormant and the console behaves as a plain
 * Grinder console.
 *
 * <table>
 * <caption>keys</caption>
 * <tr><td>{@value #RUN_DIR}</td><td>the run folder (runs/run-N); turns the controller on</td></tr>
 * <tr><td>{@value #AGENTS}</td><td>comma-separated grinder.hostID of every expected agent</td></tr>
 * <tr><td>{@value #PROPERTIES}</td><td>the properties sent to the agents (default:
 *   grinder.properties in the distribution directory)</td></tr>
 * <tr><td>{@value #AGENT_TIMEOUT}</td><td>seconds to wait for the agents (60)</td></tr>
 * <tr><td>{@value #WORKER_START_TIMEOUT}</td><td>seconds for every worker to report (180)</td></tr>
 * <tr><td>{@value #RUN_TIMEOUT}</td><td>seconds from start to all workers finished (600)</td></tr>
 * <tr><td>{@value #PROGRESS_INTERVAL}</td><td>seconds between progress lines (5)</td></tr>
 * <tr><td>{@value #EXIT_WHEN_DONE}</td><td>exit the console with the outcome's code (true)</td></tr>
 * <tr><td>{@value #LINGER}</td><td>seconds to keep the console up after the run (0)</td></tr>
 * <tr><td>{@value #METRICS_PORT}</td><td>port of the live Prometheus endpoint on 127.0.0.1 (0 or
 *   absent: none; ./suite run sets it)</td></tr>
 * <tr><td>{@value #WARMUP_MAX_SECONDS}</td><td>a warm-up run: its workers are stopped once the load is
 *   steady and the JIT quiet (WarmupJudge), at the latest after this many seconds of load (0 or absent:
 *   an ordinary run)</td></tr>
 * </table>
 */
public final class RunSettings {

  public static final String PREFIX = "hbasegrinder.";
  public static final String RUN_DIR = PREFIX + "run.dir";
  public static final String AGENTS = PREFIX + "agents";
  public static final String PROPERTIES = PREFIX + "properties";
  public static final String AGENT_TIMEOUT = PREFIX + "agentTimeout";
  public static final String WORKER_START_TIMEOUT = PREFIX + "workerStartTimeout";
  public static final String RUN_TIMEOUT = PREFIX + "runTimeout";
  public static final String PROGRESS_INTERVAL = PREFIX + "progressInterval";
  public static final String EXIT_WHEN_DONE = PREFIX + "exitWhenDone";
  public static final String LINGER = PREFIX + "linger";
  public static final String METRICS_PORT = PREFIX + "metrics.port";
  public static final String WARMUP_MAX_SECONDS = PREFIX + "warmup.maxSeconds";

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
  private int warmupMaxSeconds;

  private RunSettings(File runDirectory, List<String> agents, File propertiesFile,
                      int agentTimeoutSeconds, int workerStartTimeoutSeconds,
                      int runTimeoutSeconds, int progressIntervalSeconds,
                      boolean exitWhenDone, int lingerSeconds, int metricsPort) {
    this.runDirectory = runDirectory;
    this.agents = agents;
    this.propertiesFile = propertiesFile;
    this.agentTimeoutSeconds = agentTimeoutSeconds;
    this.workerStartTimeoutSeconds = workerStartTimeoutSeconds;
    this.runTimeoutSeconds = runTimeoutSeconds;
    this.progressIntervalSeconds = progressIntervalSeconds;
    this.exitWhenDone = exitWhenDone;
    this.lingerSeconds = lingerSeconds;
    this.metricsPort = metricsPort;
  }

  /**
   * The settings in {@code properties}, or empty when {@value #RUN_DIR} is not set (dormant).
   *
   * @param properties usually {@code System.getProperties()}
   * @param distributionDirectory the console's distribution directory, for the default
   *        properties file; may be null
   */
  public static Optional<RunSettings> from(Properties properties, File distributionDirectory)
      throws SettingsException {
    final String runDir = trimmed(properties, RUN_DIR);
    if (runDir.isEmpty()) {
      return Optional.empty();
    }
    final File runDirectory = new File(runDir);
    if (!runDirectory.isDirectory()) {
      throw new SettingsException(RUN_DIR + "=" + runDir + " is not a directory");
    }

    final List<String> agents = parseAgents(trimmed(properties, AGENTS));

    final String propertiesName = trimmed(properties, PROPERTIES);
    final File propertiesFile;
    if (!propertiesName.isEmpty()) {
      propertiesFile = new File(propertiesName);
    } else if (distributionDirectory != null) {
      propertiesFile = new File(distributionDirectory, "grinder.properties");
    } else {
      throw new SettingsException(PROPERTIES + " is not set and there is no distribution directory");
    }
    if (!propertiesFile.isFile()) {
      throw new SettingsException(PROPERTIES + ": " + propertiesFile + " is not a file");
    }

    final RunSettings settings = new RunSettings(
        runDirectory, agents, propertiesFile,
        positive(properties, AGENT_TIMEOUT, 60),
        positive(properties, WORKER_START_TIMEOUT, 180),
        positive(properties, RUN_TIMEOUT, 600),
        positive(properties, PROGRESS_INTERVAL, 5),
        bool(properties, EXIT_WHEN_DONE, true),
        nonNegative(properties, LINGER, 0),
        port(properties, METRICS_PORT));
    settings.warmupMaxSeconds = nonNegative(properties, WARMUP_MAX_SECONDS, 0);
    return Optional.of(settings);
  }

  /** "inj1, inj2" -> [inj1, inj2]; refuses empty lists, duplicates and odd names. */
  static List<String> parseAgents(String text) throws SettingsException {
    if (text.isEmpty()) {
      throw new SettingsException(AGENTS + " is empty (accepted: comma-separated grinder.hostID values, e.g. inj1,inj2)");
    }
    final Set<String> names = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      final String name = part.trim();
      if (!HOST_ID.matcher(name).matches()) {
        throw new SettingsException(AGENTS + "=" + text + ": '" + name
            + "' is not a host id (accepted: letters, digits, '.', '_', '-')");
      }
      if (!names.add(name)) {
        throw new SettingsException(AGENTS + "=" + text + ": '" + name + "' appears twice");
      }
    }
    return Collections.unmodifiableList(new ArrayList<>(names));
  }

  private static String trimmed(Properties properties, String key) {
    final String value = properties.getProperty(key);
    return value == null ? "" : value.trim();
  }

  private static int positive(Properties properties, String key, int fallback) throws SettingsException {
    final int value = integer(properties, key, fallback);
    if (value <= 0) {
      throw new SettingsException(key + "=" + value + " is out of range (accepted: a whole number > 0)");
    }
    return value;
  }

  private static int nonNegative(Properties properties, String key, int fallback) throws SettingsException {
    final int value = integer(properties, key, fallback);
    if (value < 0) {
      throw new SettingsException(key + "=" + value + " is out of range (accepted: a whole number >= 0)");
    }
    return value;
  }

  private static int port(Properties properties, String key) throws SettingsException {
    final int value = integer(properties, key, 0);
    if (value < 0 || value > 65535) {
      throw new SettingsException(key + "=" + value + " is out of range (accepted: a port 1-65535, or 0 for none)");
    }
    return value;
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

  /** Port of the live Prometheus endpoint on 127.0.0.1; 0 when there is none. */
  public int metricsPort() {
    return metricsPort;
  }
}
