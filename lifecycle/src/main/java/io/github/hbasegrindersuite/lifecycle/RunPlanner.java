package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.lifecycle.cpu.LabCpus;
import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.SettingsException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code ./suite run}'s decisions before any process starts: which injector hosts, how the
 * threads split over them, the exact properties (validated through the worker's own
 * {@link Settings}, so a bad hbaseload.* key fails here, in a second), the console's and every
 * agent's properties, the timeouts; then a new run folder holding them, {@code plan.json} for bash
 * and a first {@code manifest.json} (status running). Nothing is written until all is checked.
 */
public final class RunPlanner {

  /** Keys that differ per host: the agent's own file holds them, the console's never does. */
  static final List<String> HOST_SPECIFIC_KEYS = List.of("grinder.hostID", "grinder.useConsole", "grinder.consoleHost",
      "grinder.consolePort", "grinder.logDirectory", "grinder.jvm", "grinder.jvm.classpath", "grinder.threads", "grinder.script",
      "grinder.jvm.arguments");


  /** What the planner knows of this machine (bash probes it; Java only reads it). */
  public static final class Machine {
    Path suiteRoot;
    Path runsDir;
    String java;
    int portOffset;
    /** The embedded stack's ZooKeeper, gateway and shim ports at this offset, as suite.d/common.sh computed them. */
    EmbeddedPorts embeddedPorts;
    int consolePort;
    /** The live metrics endpoint's port at this offset, when the run does not name one (0: none). */
    int metricsPort;
    boolean namespacesPermitted;
    String namespacesRefusal = "";
    String workerClasspath;
    String grinderClasspath;
    String gitRev = "unknown";
    boolean gitDirty;
    /** The ./suite run process that owns the run (0: none recorded): see {@link StaleRuns}. */
    long ownerPid;
    /** What holds the console port when something already listens there ("java pid 42"); "" when it is free. */
    String consolePortTakenBy = "";
    /** The CPUs online here (/sys/devices/system/cpu/online), which lab.cpus splits. */
    String onlineCpus = "0";
    /** Region servers of the local cluster that ./suite hbase start --regionservers N laid out here; 0: none (standalone, or none runs). */
    int localRegionServers;
    /** The local cluster's region servers (1-based) that do not run when the run is planned. */
    java.util.Set<Integer> regionServersDown = new java.util.TreeSet<>();
  }

  private final RunArguments args;
  private final Machine machine;

  RunPlanner(RunArguments args, Machine machine) {
    this.args = args;
    this.machine = machine;
  }

  /** Checks everything, then allocates runs/run-N and writes the plan's files; returns the plan. */
  RunPlan plan() throws LifecycleException {
    final List<Host> hosts = new ArrayList<>();
    final String mode;
    final String note;
    if (args.hostsFile != null) {
      hosts.addAll(HostsFile.read(args.hostsFile, machine.java));
      final String kinds = hosts.stream().map(Host::kindName).distinct().sorted().collect(Collectors.joining(","));
      if (kinds.equals("local")) {
        mode = "loopback";
        note = "hosts from " + args.hostsFile + ", all 'local': agents on loopback on this one machine, each in its own work dir;"
            + " they share CPU, memory, disk and network";
      } else {
        mode = "ssh";
        note = "hosts from " + args.hostsFile + " (" + kinds + "); agents started by ssh, logs and metrics copied back";
      }
    } else {
      final boolean netns = args.lab == RunArguments.Lab.NAMESPACES
          || args.lab == RunArguments.Lab.AUTO && machine.namespacesPermitted;
      if (args.lab == RunArguments.Lab.NAMESPACES && !machine.namespacesPermitted) {
        throw new LifecycleException("network namespaces are not permitted here: " + machine.namespacesRefusal + " (use --lab loopback)");
      }
      for (int k = 1; k <= args.injectors; k++) {
        hosts.add(new Host("inj" + k, netns ? Host.Kind.NETNS : Host.Kind.LOOPBACK, k, "local", machine.java, null));
      }
      mode = netns ? "namespaces" : "loopback";
      note = netns
          ? args.injectors + " network namespaces, one agent each at its own address on a bridge; they reach HBase and the console"
              + " (127.0.0.1 of this machine) over their veth link. CPU, memory and disk are this one machine's, shared by all."
          : args.injectors + " agents on loopback on this one machine"
              + (args.lab == RunArguments.Lab.LOOPBACK ? " (--lab loopback)" : ": network namespaces not permitted (" + machine.namespacesRefusal + ")")
              + ". They share CPU, memory, disk and network; every host's metrics.csv is this machine's.";
    }

    final Properties properties = PropertiesFile.read(args.properties);
    final Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("grinder.useConsole", "true");
    if (args.processes != null) {
      overrides.put("grinder.processes", String.valueOf(args.processes));
    }
    if (args.durationSeconds != null) {
      overrides.put("grinder.duration", String.valueOf(args.durationSeconds * 1000L));
      overrides.put("grinder.runs", "0");
    }
    if (args.warmupOnlySeconds > 0) {
      // a warm-up runs until the console's WarmupJudge stops it, at the latest at its bound
      overrides.put("grinder.duration", String.valueOf(args.warmupOnlySeconds * 1000L));
      overrides.put("grinder.runs", "0");
    }
    if (args.target != null) {
      overrides.put("hbaseload.target", args.target);
    }
    for (String[] set : args.sets) {
      overrides.put(set[0], set[1]);
    }
    if (args.warmupOnlySeconds > 0) {
      // a warm-up is no experiment: its puts are not audited, nor read back at its end
      overrides.put("hbaseload.audit", "false");
    }
    overrides.forEach(properties::setProperty);
    embeddedPorts(properties, machine.embeddedPorts);
    try {
      Settings.load(properties);
    } catch (SettingsException e) {
      throw new LifecycleException("hbaseload: " + e.getMessage());
    }
    final int processes = positiveProperty(properties, "grinder.processes", 1);
    final int perThread = positiveProperty(properties, "grinder.threads", 1);
    final long durationMs = wholeProperty(properties, "grinder.duration", 0);
    if (args.threads != null) {
      ThreadSplit.split(args.threads, processes, hosts);
    } else {
      hosts.forEach(h -> h.threads = perThread);
    }
    final boolean uniform = hosts.stream().mapToInt(h -> h.threads).distinct().count() == 1;
    if (!uniform && "sequential".equals(properties.getProperty("hbaseload.key.distribution", "").trim())) {
      throw new LifecycleException("--threads " + args.threads + " does not split equally over " + hosts.size()
          + " injectors, which sequential keys need; use a multiple of " + hosts.size());
    }
    final LabCpus lab;
    try {
      lab = LabCpus.resolve(properties.getProperty("lab.cpus", "auto"), machine.onlineCpus,
          properties.getProperty("hbaseload.hbase.site", "").trim().isEmpty(), hosts.stream().anyMatch(h -> !h.remote()));
    } catch (IllegalArgumentException e) {
      throw new LifecycleException(e.getMessage());
    }
    final WarmWorkers.Mode workers = WarmWorkers.mode(properties);
    final int warmRuns = WarmWorkers.runsPerAgent(properties);
    if (workers == WarmWorkers.Mode.WARM && hosts.stream().anyMatch(h -> h.remote() || h.kind == Host.Kind.LOCAL)) {
      throw new LifecycleException(WarmWorkers.KEY + " = warm: only agents ./suite starts here (loopback or namespace injectors) run"
          + " their workers in their own JVM; use fresh with a hosts file");
    }
    final int durationSeconds = (int) (durationMs / 1000);
    final FaultSchedule faults = faults(properties, durationSeconds, machine.localRegionServers, machine.regionServersDown,
        args.warmupOnlySeconds > 0);
    final int runTimeout = args.runTimeoutSeconds != null ? args.runTimeoutSeconds
        : durationSeconds > 0 ? durationSeconds + args.workerStartTimeoutSeconds + 60 : 3600;

    if (!machine.consolePortTakenBy.isEmpty()) {
      // Checked last: a wrong command line is said first, and no run folder is made for a run that cannot start.
      throw new LifecycleException("console port " + machine.consolePort + " on 127.0.0.1 is already taken by " + machine.consolePortTakenBy
          + "; another run at this offset? (SUITE_PORT_OFFSET=" + machine.portOffset + ")");
    }
    final Path runDir = allocate(machine.runsDir, args.warmupOnlySeconds > 0 ? "warmup" : "run");
    for (Host host : hosts) {
      if (!host.remote() && host.kind != Host.Kind.LOCAL) {
        host.workDir = runDir.resolve("injectors").resolve(host.id).toString();
      }
    }
    final RunPlan plan = new RunPlan(runDir, hosts, mode, note, processes, durationSeconds, runTimeout, Instant.now());
    plan.arguments = args;
    plan.machine = machine;
    plan.properties = properties;
    plan.uniformThreads = uniform;
    plan.lab = lab;
    plan.workers = workers;
    plan.warmRunsPerAgent = warmRuns;
    if (Settings.load(properties).flag(Settings.Key.AUDIT) && properties.getProperty(Settings.Key.AUDIT_RUN.fullName(), "").trim().isEmpty()) {
      // the run's own audited keys: no later run writes them again (AuditScheme.runTag)
      properties.setProperty(Settings.Key.AUDIT_RUN.fullName(), plan.runKey);
    }
    plan.faults = faults;
    writeConsoleProperties(plan);
    ConsoleSettings.writeForRun(plan.runDir, plan.runId, args.consoleHost, machine.consolePort);
    for (Host host : plan.hosts) {
      writeAgentProperties(plan, host);
    }
    PlanJson.write(plan);
    Manifest.running(plan).write(runDir.resolve("manifest.json"));
    return plan;
  }

  /**
   * The run's fault schedule ({@value FaultSchedule#KEY}, --faults), checked before anything starts:
   * its text, then that the target is the local cluster of ./suite hbase start --regionservers N
   * with N >= 2, then its actions against N and the run's length. Null without one, and for a
   * warm-up, which carries its run's settings but is no experiment. A refusal is a usage error (exit 2).
   */
  static FaultSchedule faults(Properties p, int durationSeconds, int localRegionServers, java.util.Set<Integer> down, boolean warmup)
      throws LifecycleException {
    return warmup ? null : faults(p.getProperty(FaultSchedule.KEY), p.getProperty("hbaseload.hbase.site", ""), durationSeconds,
        localRegionServers, down);
  }

  /** The same from the schedule's TEXT and the run's hbaseload.hbase.site (SITE): a sweep checks each point's before its first run. */
  static FaultSchedule faults(String text, String siteSetting, int durationSeconds, int localRegionServers, java.util.Set<Integer> down)
      throws LifecycleException {
    if (FaultSchedule.isNone(text)) {
      return null;
    }
    try {
      final FaultSchedule schedule = FaultSchedule.parse(text);
      final String site = siteSetting == null ? "" : siteSetting.trim();
      if (!site.isEmpty()) {
        throw new LifecycleException.Usage("faults: only against the local cluster of ./suite hbase start --regionservers N;"
            + " this run's HBase is a cluster the suite does not manage (hbaseload.hbase.site=" + site + ")");
      }
      if (localRegionServers < 2) {
        throw new LifecycleException.Usage("faults: only against the local cluster of ./suite hbase start --regionservers N (N >= 2);"
            + (localRegionServers == 1 ? " the embedded HBase here is the standalone (one JVM)" : " none is running here"));
      }
      schedule.check(localRegionServers, down, durationSeconds);
      return schedule;
    } catch (FaultSchedule.Refused e) {
      throw new LifecycleException.Usage(e.getMessage());
    }
  }

  /** The embedded stack's default ports follow SUITE_PORT_OFFSET; other ports and a real cluster are left alone. */
  static void embeddedPorts(Properties p, EmbeddedPorts ports) {
    final String site = p.getProperty("hbaseload.hbase.site", "").trim();
    final String zk = p.getProperty("hbaseload.zookeeper.port", "").trim();
    if (site.isEmpty() && (zk.isEmpty() || zk.equals(String.valueOf(EmbeddedPorts.DEFAULT_ZOOKEEPER)))) {
      p.setProperty("hbaseload.zookeeper.port", String.valueOf(ports.zookeeper()));
    }
    final String thrift = p.getProperty("hbaseload.thrift.port", "").trim();
    if (thrift.isEmpty() || thrift.equals(String.valueOf(EmbeddedPorts.DEFAULT_GATEWAY))) {
      p.setProperty("hbaseload.thrift.port", String.valueOf(ports.gateway()));
    } else if (thrift.equals(String.valueOf(EmbeddedPorts.DEFAULT_SHIM))) {
      p.setProperty("hbaseload.thrift.port", String.valueOf(ports.shim()));
    }
  }


  private void writeConsoleProperties(RunPlan plan) throws LifecycleException {
    final TreeMap<String, String> sent = PropertiesFile.sorted(plan.properties);
    HOST_SPECIFIC_KEYS.forEach(sent::remove);
    sent.put("grinder.script", "hbase_load.py");
    if (plan.uniformThreads) {
      sent.put("grinder.threads", String.valueOf(plan.hosts.get(0).threads));
    }
    if (plan.properties.getProperty("hbaseload.agents") != null) {
      sent.put("hbaseload.agents", String.valueOf(plan.hosts.size()));
    }
    plan.consoleProperties = sent;
    final List<String> header = List.of("The properties the console sent to every agent for " + plan.runId + " (./suite run), from "
        + args.properties + " and the run's options; per-host keys (" + String.join(" ", HOST_SPECIFIC_KEYS)
        + ") are in injectors/<host>/agent.properties.");
    PropertiesFile.write(plan.runDir.resolve("grinder.properties"), header, sent);
    PropertiesFile.write(plan.runDir.resolve("distribution").resolve("grinder.properties"), header, sent);
  }

  private void writeAgentProperties(RunPlan plan, Host host) throws LifecycleException {
    final Map<String, String> own = new LinkedHashMap<>();
    own.put("grinder.hostID", host.id);
    own.put("grinder.useConsole", "true");
    own.put("grinder.consoleHost", args.consoleHost);
    own.put("grinder.consolePort", String.valueOf(machine.consolePort));
    own.put("grinder.logDirectory", host.runDirOnHost(plan.runKey));
    // Workers on this machine start through the lab's wrapper, which charges them to the lab's
    // worker role (suite.d/lab.sh); it execs the host's java (SUITE_LAB_JAVA, set by the agent's start).
    own.put("grinder.jvm", host.remote() ? host.java : machine.suiteRoot.resolve("injectors").resolve("lab-java.sh").toString());
    own.put("grinder.jvm.classpath", classpathOn(host, machine.workerClasspath));
    own.put("grinder.threads", String.valueOf(host.threads));
    own.put("grinder.jvm.arguments", workerJvmArguments(plan.properties.getProperty("grinder.jvm.arguments", ""),
        host.runDirOnHost(plan.runKey), host.id));
    own.putAll(WarmWorkers.agentKeys(plan.workers));
    PropertiesFile.write(plan.runDir.resolve("injectors").resolve(host.id).resolve("agent.properties"),
        List.of("Agent properties of injector host " + host.id + " (" + host.kindName() + ") for " + plan.runId + ", written by ./suite run.",
            "The console sends the run's properties (grinder.properties) with the start signal; those win over this file,",
            "so it holds only what differs per host."), own);
  }

  /**
   * The run's worker JVM arguments plus a GC log per worker next to its data log
   * (HOST-gc.PID.log: every pause with its UTC time, for the report's timeline), unless the
   * arguments already log GC or the folder has a blank (Grinder splits the arguments on blanks).
   */
  static String workerJvmArguments(String given, String logDirectory, String hostId) {
    final String args = given.trim();
    if (args.contains("-Xlog:gc") || args.contains("-verbose:gc") || logDirectory.matches(".*[\\s:].*")) {
      return args;
    }
    return (args + " -Xlog:gc:file=" + logDirectory + "/" + hostId + "-gc.%p.log:utctime").trim();
  }

  /** A classpath as host I sees it: its jars live in WORK_DIR/lib/jars on a remote host. */
  static String classpathOn(Host host, String classpath) {
    if (!host.remote()) {
      return classpath;
    }
    return Stream.of(classpath.split(":")).filter(s -> !s.isEmpty())
        .map(jar -> host.workDir + "/lib/jars/" + jar.substring(jar.lastIndexOf('/') + 1))
        .collect(Collectors.joining(":"));
  }

  private static int positiveProperty(Properties p, String key, int fallback) throws LifecycleException {
    final String value = p.getProperty(key, String.valueOf(fallback)).trim();
    if (!value.matches("[0-9]{1,9}") || Integer.parseInt(value) <= 0) {
      throw new LifecycleException(key + " '" + value + "' is not a whole number > 0");
    }
    return Integer.parseInt(value);
  }

  private static long wholeProperty(Properties p, String key, long fallback) throws LifecycleException {
    final String value = p.getProperty(key, String.valueOf(fallback)).trim();
    if (!value.matches("[0-9]{1,15}")) {
      throw new LifecycleException(key + " '" + value + "' is not a whole number of ms");
    }
    return Long.parseLong(value);
  }

  /**
   * A new, empty runsDir/PREFIX-N numbered past the highest: createDirectory fails when the folder
   * exists, so an id is never reused even when two runs start at once.
   */
  static Path allocate(Path runsDir, String prefix) throws LifecycleException {
    try {
      Files.createDirectories(runsDir);
      for (int attempt = 0; attempt < 5; attempt++) {
        int last = 0;
        try (Stream<Path> entries = Files.list(runsDir)) {
          for (Path entry : (Iterable<Path>) entries::iterator) {
            final String name = entry.getFileName().toString();
            if (Files.isDirectory(entry) && name.matches(prefix + "-[0-9]{1,9}")) {
              last = Math.max(last, Integer.parseInt(name.substring(prefix.length() + 1)));
            }
          }
        }
        try {
          return Files.createDirectory(runsDir.resolve(prefix + "-" + (last + 1)));
        } catch (FileAlreadyExistsException raced) {
          // another run took it: count again
        }
      }
    } catch (IOException e) {
      throw new LifecycleException("cannot create a new " + prefix + " folder in " + runsDir + ": " + e.getMessage());
    }
    throw new LifecycleException("could not allocate a new " + prefix + " folder in " + runsDir + " after 5 attempts");
  }
}
