package io.github.hbasegrindersuite.lifecycle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The options of {@code ./suite run}, parsed and checked one by one: every refusal is a
 * {@link LifecycleException} whose message names the option and what it accepts, before any
 * run folder or process exists. What the options mean is in libexec/suite-run's usage header.
 */
public final class RunArguments {

  /** Where injectors come from: N on this machine (a lab) or the lines of a hosts file. */
  public enum Lab { AUTO, NAMESPACES, LOOPBACK }

  public enum Ui { HEADLESS, SWING }

  private static final Pattern KEY_VALUE = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*=.*", Pattern.DOTALL);
  private static final Pattern ADDRESS = Pattern.compile("[0-9A-Za-z.:-]+");
  private static final Pattern SWEEP_ID = Pattern.compile("sweep-[0-9]+");
  private static final int MAX_INJECTORS = 64;

  Path properties;
  Integer injectors;
  Lab lab = Lab.AUTO;
  Path hostsFile;
  Integer threads;
  Integer processes;
  Integer durationSeconds;
  String target;
  final List<String[]> sets = new ArrayList<>();
  String consoleHost = "127.0.0.1";
  int agentTimeoutSeconds = 60;
  int workerStartTimeoutSeconds = 180;
  Integer runTimeoutSeconds;
  String hbaseSsh;
  String sweepId;
  Integer sweepPoint;
  Ui ui = Ui.HEADLESS;
  int lingerSeconds = 30;
  /** Port of the console's live Prometheus endpoint; null: the suite's default; 0: none. */
  Integer metricsPort;
  String slo;
  /** --warmup: seconds a warm-up before the run may take at most (0: none). */
  int warmupSeconds;
  /** --warmup-only: this run IS a warm-up of at most this many seconds of load (0: an ordinary run). */
  int warmupOnlySeconds;

  /** --warmup auto: a warm-up's bound, like PerformanceEvaluation's users give their first pass. */
  static final int WARMUP_AUTO_S = 60;

  /** @param defaultProperties grinder.properties of the checkout, used without --properties */
  public static RunArguments parse(List<String> args, Path defaultProperties) throws LifecycleException {
    final RunArguments run = new RunArguments();
    run.properties = defaultProperties;
    for (int i = 0; i < args.size(); i += 2) {
      final String option = args.get(i);
      if (i + 1 >= args.size()) {
        throw new LifecycleException.Usage(option.startsWith("--") && isOption(option)
            ? option + " needs a value" : "unknown argument '" + option + "'");
      }
      run.set(option, args.get(i + 1));
    }
    if (run.injectors != null && run.hostsFile != null) {
      throw new LifecycleException("--injectors and --hosts exclude each other");
    }
    if (run.injectors == null && run.hostsFile == null) {
      run.injectors = 1;
    }
    return run;
  }

  private static boolean isOption(String option) {
    return List.of("--properties", "--injectors", "--lab", "--hosts", "--threads", "--processes", "--duration",
        "--target", "--set", "--console-host", "--agent-timeout", "--worker-start-timeout", "--run-timeout",
        "--hbase-ssh", "--sweep-id", "--sweep-point", "--ui", "--linger", "--slo", "--metrics-port", "--warmup",
        "--warmup-only", "--faults").contains(option);
  }

  private void set(String option, String value) throws LifecycleException {
    switch (option) {
      case "--properties":
        properties = Path.of(value);
        break;
      case "--injectors":
        injectors = positive(option, value);
        if (injectors > MAX_INJECTORS) {
          throw new LifecycleException("--injectors " + value + ": at most " + MAX_INJECTORS);
        }
        break;
      case "--lab":
        lab = choice(option, value, Lab.class);
        break;
      case "--hosts":
        hostsFile = Path.of(value);
        break;
      case "--threads":
        threads = positive(option, value);
        break;
      case "--processes":
        processes = positive(option, value);
        break;
      case "--duration":
        durationSeconds = duration(value);
        break;
      case "--target":
        if (!value.equals("direct") && !value.equals("thrift")) {
          throw new LifecycleException("--target '" + value + "' is not accepted (accepted: direct, thrift)");
        }
        target = value;
        break;
      case "--set":
        if (!KEY_VALUE.matcher(value).matches() || value.contains("\n") || value.contains("\r")) {
          throw new LifecycleException("--set '" + Text.oneLine(value) + "' is not KEY=VALUE on one line");
        }
        sets.add(new String[] {value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1)});
        break;
      case "--console-host":
        consoleHost = consoleHost(value);
        break;
      case "--agent-timeout":
        agentTimeoutSeconds = positive(option, value);
        break;
      case "--worker-start-timeout":
        workerStartTimeoutSeconds = positive(option, value);
        break;
      case "--run-timeout":
        runTimeoutSeconds = positive(option, value);
        break;
      case "--hbase-ssh":
        if (value.isEmpty() || value.startsWith("-")) {
          throw new LifecycleException("--hbase-ssh '" + value + "' is not an ssh destination (it may not start with '-')");
        }
        hbaseSsh = value;
        break;
      case "--sweep-id":
        if (!SWEEP_ID.matcher(value).matches()) {
          throw new LifecycleException("--sweep-id '" + value + "' is not sweep-N");
        }
        sweepId = value;
        break;
      case "--sweep-point":
        sweepPoint = positive(option, value);
        break;
      case "--ui":
        ui = choice(option, value, Ui.class);
        break;
      case "--linger":
        lingerSeconds = whole(option, value);
        break;
      case "--slo":
        slo = value;
        break;
      case "--metrics-port":
        metricsPort = metricsPort(value);
        break;
      case "--warmup":
        warmupSeconds = warmup(option, value);
        break;
      case "--warmup-only":
        warmupOnlySeconds = positive(option, value);
        break;
      case "--faults":
        // the property's shorthand: the schedule travels as any setting does (plan.json, a sweep point)
        sets.add(new String[] {io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.KEY, value});
        break;
      default:
        throw new LifecycleException.Usage("unknown argument '" + option + "'");
    }
  }

  /** off (0), auto ({@value #WARMUP_AUTO_S} s) or a bound of 1 to 600 seconds. */
  static int warmup(String option, String value) throws LifecycleException {
    if (value.equals("off")) {
      return 0;
    }
    if (value.equals("auto")) {
      return WARMUP_AUTO_S;
    }
    final int n = value.matches("[0-9]{1,3}") ? Integer.parseInt(value) : -1;
    if (n < 1 || n > 600) {
      throw new LifecycleException(option + " '" + value + "' is not accepted (accepted: auto, off, or the most seconds it may take, 1-600)");
    }
    return n;
  }

  /** A port 1-65535, or "off" (or 0): no live endpoint. */
  static int metricsPort(String value) throws LifecycleException {
    if (value.equals("off")) {
      return 0;
    }
    if (!value.matches("[0-9]{1,5}") || Integer.parseInt(value) > 65535) {
      throw new LifecycleException("--metrics-port '" + value + "' is not a port (accepted: 1-65535, or off)");
    }
    return Integer.parseInt(value);
  }

  /** "30", "30s" or "2m" in seconds, more than 0. */
  static int duration(String text) throws LifecycleException {
    final java.util.regex.Matcher m = Pattern.compile("([0-9]{1,7})([sm]?)").matcher(text);
    if (!m.matches()) {
      throw new LifecycleException("--duration '" + text + "' is not a duration (accepted: 30, 30s, 2m)");
    }
    final int seconds = Integer.parseInt(m.group(1)) * (m.group(2).equals("m") ? 60 : 1);
    if (seconds <= 0) {
      throw new LifecycleException("--duration must be > 0");
    }
    return seconds;
  }

  /** Any address the console may listen on but "all interfaces" in any spelling. */
  static String consoleHost(String value) throws LifecycleException {
    final boolean everywhere = value.equals("0") || value.matches("0+(\\.0+){0,3}") || value.matches("[:0]+");
    if (!ADDRESS.matcher(value).matches() || everywhere) {
      throw new LifecycleException("--console-host '" + value + "' is not an address (0.0.0.0 and :: are refused)");
    }
    return value;
  }

  static int positive(String option, String value) throws LifecycleException {
    final int n = whole(option, value);
    if (n <= 0) {
      throw new LifecycleException(option + " '" + value + "' is not a whole number > 0");
    }
    return n;
  }

  static int whole(String option, String value) throws LifecycleException {
    if (!value.matches("[0-9]{1,9}")) {
      throw new LifecycleException(option + " '" + value + "' is not a whole number" + (option.equals("--linger") ? "" : " > 0"));
    }
    return Integer.parseInt(value);
  }

  private static <E extends Enum<E>> E choice(String option, String value, Class<E> type) throws LifecycleException {
    final List<String> accepted = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      final String name = e.name().toLowerCase(java.util.Locale.ROOT);
      if (name.equals(value)) {
        return e;
      }
      accepted.add(name);
    }
    throw new LifecycleException(option + " '" + value + "' is not accepted (accepted: " + String.join(", ", accepted) + ")");
  }
}
