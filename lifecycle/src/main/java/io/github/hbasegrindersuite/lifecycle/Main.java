package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lifecycle's command line, called by libexec/suite-run and libexec/suite-sweep (never by users):
 *
 * <pre>
 * plan --plan-out FILE MACHINE... -- RUN_ARGS...     check a run, allocate runs/run-N, write its plan.json;
 *                                                    FILE gets it as shell assignments (PlanShell)
 * plan-env PLAN_JSON                                 a plan.json as those shell assignments
 * finalise RUN_DIR [--console-exit N] [--aborted TEXT] [--interrupted] [--agent-exited HOST]...
 *          [--hbase-metrics TEXT] [--no-table-info]   judge a finished run, write manifest.json
 * finalise RUN_DIR --collected NOTE                  judge it again after ./suite collect brought logs in,
 *                                                    from the observations its manifest kept
 * sweep-plan --runs-dir D --default-properties F --plan-out FILE [--dry-run] SCENARIO [--duration D]
 *          [--scale tiny|default|N] [--injectors N] [--repeat N] [--slo GATES] [--owner-pid PID]  expand a sweep into runs
 *          [--hbase-conf DIR]                       (the embedded HBase's conf, which server variants copy)
 *          [--local-regionservers N]                (the local cluster running here, 1: standalone, 0: none;
 *                                                    sweep.regionservers and fault schedules are checked against it)
 *          [--check-only]                           (only the gates it resolves, SLO=..., writing nothing)
 *                                                    FILE gets SWEEP_ID, SWEEP_DIR, SERVER_KEYS, SERVER_RESTARTS as shell assignments
 * sweep-next SWEEP_DIR [--keep-going] [--read-back FILE] [--after STEP --exit CODE] [--regionservers-down I,J]
 *                                                    the sweep's next step after the one reported (SweepSteps)
 * sweep-record SWEEP_DIR STATUS                      write sweep.json from the sweep's runs
 * cpu-meter --clock-ticks N OUT_CSV COMMAND [ARGS...] COMMAND with every process it starts charged to it
 *                                                    (cpu/CpuMeter; bench/cpu-meter.sh)
 * sweep-keys                                         the scenario keys for ./suite sweep --help (SweepKey)
 * run-state RUN_DIR                                  RUN_STATUS, RUN_REASON (manifest.json), OWNER_PID (plan.json)
 *                                                    as shell assignments
 * server-conf --url URL --keys K1,K2 [--variant LABEL] [--expect JSON] --out FILE [--timeout S]
 *                                                    a region server's settings read back from its /conf (ServerConf)
 * stale-runs --runs-dir D                            runs and sweeps still "running" whose ./suite run
 *                                                    or sweep is gone: "DIR TAB OWNER_PID" lines
 * lab --online LIST [--cpus SPEC] [--properties F] [--injectors-here yes|no]
 *                                                    the lab's CPU split as shell assignments (LabCpus)
 * cluster --regionservers N --ports ZK,MASTER,MASTER_INFO,RS,RS_INFO --standalone-heap H [--regionserver-heap H]
 *          --conf DIR --cluster-conf DIR              the embedded HBase's JVMs as shell assignments (LocalCluster);
 *                                                    for N >= 2 writes the cluster's conf folder
 * cluster-live --master URL [--regionserver NAME=URL]... [--wait N --timeout S [--watch NAME=PID]...]
 *                                                    live region servers as the master counts them (ClusterLive)
 * cluster-ready --zookeeper-port P --wait N --timeout S
 *                                                    until N live region servers have each reported to the master,
 *                                                    so that it gives them regions (ClusterReady)
 * cluster-spread --zookeeper-port P --wait N --tables A,B --timeout S
 *                                                    each table's regions spread evenly over the region servers
 *                                                    with the fewest moves (ClusterSpread), after a restart at another size
 * verify RUN_DIR [--timeout S] [--batch N] [--threads N]
 *                                                    read back every audited put of the run (AuditVerifier):
 *                                                    audit.json; exit 4 when an acknowledged write is lost or
 *                                                    corrupted, 3 when not every key was read in time
 * faults-run --plan PLAN --hbase-dir DIR --hbase-ctl FILE  carry out the run's fault schedule on the local cluster
 *                                                    into RUN_DIR/faults.csv (FaultExecutor); stopped by PID
 * resolve-properties --out FILE --embedded-ports ZK,GATEWAY,SHIM --script S --log-dir D --worker-classpath CP PROPERTIES
 *          [-- OVERRIDE_LINE...]                     a standalone run's exact properties
 * </pre>
 *
 * MACHINE: --suite-root --runs-dir --java --port-offset --embedded-ports ZK,GATEWAY,SHIM --console-port --namespaces yes|no
 * [--namespaces-refusal TEXT] --worker-classpath --grinder-classpath [--git-rev] [--git-dirty true|false]
 * [--owner-pid PID] [--online-cpus LIST] [--metrics-port-default PORT]
 * [--local-regionservers N] (the local cluster's region servers, 0: none; a fault schedule needs N >= 2)
 * [--local-regionservers-down I,J] (those of them not running now: a fault schedule starts from what runs).
 * A refusal prints one line on stderr and exits 1; a misuse of this command line exits 2.
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] argv) {
    int status;
    try {
      status = run(Arrays.asList(argv));
    } catch (LifecycleException e) {
      System.err.println(e.getMessage());
      status = e instanceof LifecycleException.Usage ? 2 : 1;
    } catch (IllegalArgumentException e) {
      System.err.println("lifecycle: " + e.getMessage());
      status = 2;
    }
    System.out.flush();
    System.exit(status);
  }

  static int run(List<String> argv) throws LifecycleException {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("usage: plan | finalise | sweep-plan | sweep-next | sweep-record (see Main.java)");
    }
    final List<String> rest = argv.subList(1, argv.size());
    switch (argv.get(0)) {
      case "plan":
        return plan(rest);
      case "finalise":
        return finalise(rest);
      case "plan-env":
        if (rest.size() != 1) {
          throw new IllegalArgumentException("usage: plan-env PLAN_JSON");
        }
        System.out.print(PlanShell.of(Json.read(Path.of(rest.get(0)))));
        return 0;
      case "sweep-plan":
        return sweepPlan(rest);
      case "resolve-properties":
        return resolveProperties(rest);
      case "stale-runs":
        final Map<String, String> where = options(rest, List.of());
        for (StaleRuns.Stale stale : StaleRuns.find(Path.of(required(where, "--runs-dir")))) {
          System.out.println(stale.runDir + "\t" + stale.ownerPid);
        }
        return 0;
      case "lab":
        return lab(options(rest, List.of()));
      case "cluster":
        return cluster(options(rest, List.of()));
      case "faults-run":
        return faultsRun(options(rest, List.of()));
      case "cluster-live":
        return ClusterLive.main(rest);
      case "cluster-ready":
        return ClusterReady.main(options(rest, List.of()));
      case "cluster-spread":
        return ClusterSpread.main(options(rest, List.of()));
      case "table-settle":
        return TableSettle.main(options(rest, List.of()));
      case "server-conf":
        return ServerConf.main(options(rest, List.of()));
      case "sweep-next":
        return sweepNext(rest);
      case "sweep-keys":
        System.out.print(SweepKey.helpText());
        return 0;
      case "run-state":
        if (rest.size() != 1) {
          throw new IllegalArgumentException("usage: run-state RUN_DIR");
        }
        System.out.print(runState(Path.of(rest.get(0))));
        return 0;
      case "verify":
        return AuditVerifier.main(rest, System.out);
      case "session-start":
        final Map<String, String> session = options(rest, List.of());
        ConsoleSettings.writeForSession(Path.of(required(session, "--plan")), Path.of(required(session, "--session")));
        return 0;
      case "cpu-meter":
        return io.github.hbasegrindersuite.lifecycle.cpu.CpuMeter.main(rest);
      case "sweep-record":
        if (rest.size() != 2) {
          throw new IllegalArgumentException("usage: sweep-record SWEEP_DIR STATUS");
        }
        SweepRecord.write(Path.of(rest.get(0)), rest.get(1));
        return 0;
      default:
        throw new IllegalArgumentException("unknown command '" + argv.get(0) + "'");
    }
  }

  private static int sweepNext(List<String> argv) throws LifecycleException {
    final Map<String, String> options = options(argv, List.of("--keep-going"));
    final String dir = options.get("");
    if (dir == null) {
      throw new IllegalArgumentException("usage: sweep-next SWEEP_DIR [--keep-going] [--read-back FILE] [--after STEP --exit CODE]");
    }
    SweepSteps.Report report = null;
    if (options.containsKey("--after")) {
      report = new SweepSteps.Report();
      try {
        report.step = SweepSteps.Step.valueOf(options.get("--after").toUpperCase(java.util.Locale.ROOT));
        report.exitCode = Integer.parseInt(required(options, "--exit"));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--exit: not a whole number: " + options.get("--exit"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage().startsWith("missing") ? e.getMessage()
            : "--after: not a step: " + options.get("--after"));
      }
    }
    final SweepSteps.Next next = new SweepSteps(Path.of(dir), System.currentTimeMillis())
        .advance(options.containsKey("--keep-going"), emptyAsNull(options.get("--read-back")), report,
            emptyAsNull(options.get("--regionservers-down")));
    System.out.print(SweepSteps.shell(next));
    return 0;
  }

  /** How a run stands, for bash: RUN_STATUS and RUN_REASON (manifest.json; empty before one exists), OWNER_PID (plan.json). */
  static String runState(Path runDir) throws LifecycleException {
    final Path manifest = runDir.resolve("manifest.json");
    final JsonObject m = Files.isRegularFile(manifest) ? Json.read(manifest) : new JsonObject();
    final Path planFile = runDir.resolve("plan.json");
    final JsonElement owner = Files.isRegularFile(planFile) ? Json.read(planFile).get("owner") : null;
    return new ShellAssignments().scalar("RUN_STATUS", Json.text(m, "status")).scalar("RUN_REASON", Json.text(m, "reason"))
        .scalar("OWNER_PID", owner instanceof JsonObject o ? Json.text(o, "pid") : null).toString();
  }

  private static String emptyAsNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static int plan(List<String> argv) throws LifecycleException {
    final int split = argv.indexOf("--");
    if (split < 0) {
      throw new IllegalArgumentException("plan: the run's arguments come after --");
    }
    final Map<String, String> options = options(argv.subList(0, split), List.of());
    final RunPlanner.Machine machine = new RunPlanner.Machine();
    machine.suiteRoot = Path.of(required(options, "--suite-root"));
    machine.runsDir = Path.of(required(options, "--runs-dir"));
    machine.java = required(options, "--java");
    machine.portOffset = Integer.parseInt(required(options, "--port-offset"));
    machine.embeddedPorts = EmbeddedPorts.parse(required(options, "--embedded-ports"));
    machine.consolePort = Integer.parseInt(required(options, "--console-port"));
    machine.metricsPort = Integer.parseInt(options.getOrDefault("--metrics-port-default", "0"));
    machine.namespacesPermitted = "yes".equals(required(options, "--namespaces"));
    machine.namespacesRefusal = options.getOrDefault("--namespaces-refusal", "");
    machine.workerClasspath = required(options, "--worker-classpath");
    machine.grinderClasspath = required(options, "--grinder-classpath");
    machine.gitRev = options.getOrDefault("--git-rev", "unknown");
    machine.gitDirty = "true".equals(options.get("--git-dirty"));
    machine.ownerPid = Long.parseLong(options.getOrDefault("--owner-pid", "0"));
    machine.consolePortTakenBy = options.getOrDefault("--console-port-taken-by", "");
    machine.onlineCpus = options.getOrDefault("--online-cpus", "0");
    machine.localRegionServers = Integer.parseInt(options.getOrDefault("--local-regionservers", "0"));
    for (String down : options.getOrDefault("--local-regionservers-down", "").split(",")) {
      if (!down.isBlank()) {
        machine.regionServersDown.add(Integer.parseInt(down.trim()));
      }
    }
    final RunArguments args = RunArguments.parse(argv.subList(split + 1, argv.size()),
        machine.suiteRoot.resolve("grinder.properties"));
    final RunPlan plan = new RunPlanner(args, machine).plan();
    // bash gets the plan whole, as shell assignments (PlanShell), not by a jq call per field
    writeText(Path.of(required(options, "--plan-out")), PlanShell.of(Json.read(plan.runDir.resolve("plan.json"))));
    return 0;
  }

  /**
   * faults-run --plan PLAN --hbase-dir DIR --hbase-ctl FILE: the plan's fault schedule carried out on
   * the local cluster (FaultExecutor), timed from the first row of the console's timeline (the load has
   * begun), recorded in RUN_DIR/faults.csv. Started by suite.d/faults.sh beside the run and stopped by
   * PID: its SIGTERM resumes a paused region server and records what had not happened. Exit 1 when no
   * load was seen within the plan's agent and worker-start bounds.
   */
  private static int faultsRun(Map<String, String> options) throws LifecycleException {
    final Path planFile = Path.of(required(options, "--plan")).toAbsolutePath();
    final JsonObject plan = Json.read(planFile);
    final Path runDir = planFile.getParent();
    final JsonElement f = plan.get("faults");
    if (f == null || !f.isJsonObject()) {
      throw new LifecycleException(Json.text(plan, "run_id") + " has no fault schedule (plan.json: faults)");
    }
    final io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule schedule;
    try {
      schedule = io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.parse(Json.text(f.getAsJsonObject(), "schedule"));
    } catch (io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Refused e) {
      throw new LifecycleException(e.getMessage());
    }
    final Path logDir = runDir.resolve("faults");
    final io.github.hbasegrindersuite.lifecycle.faults.FaultExecutor executor;
    try {
      Files.createDirectories(logDir);
      executor = new io.github.hbasegrindersuite.lifecycle.faults.FaultExecutor(schedule,
          new io.github.hbasegrindersuite.lifecycle.faults.LocalRegionServers(Path.of(required(options, "--hbase-dir")),
              Path.of(required(options, "--hbase-ctl")), Json.integer(plan, "port_offset", 0), logDir, runProperties(plan)),
          runDir.resolve("faults.csv"), System::currentTimeMillis);
    } catch (java.io.IOException e) {
      throw new LifecycleException("cannot write " + runDir.resolve("faults.csv") + ": " + e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> executor.shutdown("the run ended first")));
    final JsonObject timeouts = plan.getAsJsonObject("timeouts");
    final int startBound = Json.integer(timeouts, "agent_s", 60) + Json.integer(timeouts, "worker_start_s", 180) + 60;
    final long loadStart = firstTimelineRow(runDir.resolve("console").resolve("timeline.csv"), startBound * 1000L);
    if (loadStart == 0) {
      executor.neverStarted("no request was seen within " + startBound + " s (console/timeline.csv)");
      return 1;
    }
    try {
      executor.run(loadStart, (Json.integer(plan, "duration_s", 0) + 60) * 1000L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      executor.shutdown("the executor was interrupted");
    }
    return 0;
  }

  /** plan.json's properties (the run's, as the console sent them) as a map: the move action's client configuration. */
  private static Map<String, String> runProperties(JsonObject plan) {
    final Map<String, String> properties = new LinkedHashMap<>();
    plan.getAsJsonObject("properties").entrySet().forEach(e -> properties.put(e.getKey(), e.getValue().getAsString()));
    return properties;
  }

  /** When the console's timeline got its first row (the load has begun), polled; 0 when not within BOUND_MS. */
  static long firstTimelineRow(Path timeline, long boundMs) {
    final long end = System.currentTimeMillis() + boundMs;
    while (System.currentTimeMillis() < end) {
      try {
        if (Files.isRegularFile(timeline) && Files.readAllLines(timeline, java.nio.charset.StandardCharsets.UTF_8).size() >= 2) {
          return System.currentTimeMillis();
        }
        Thread.sleep(100);
      } catch (java.io.IOException e) {
        // written while read: the next poll reads it whole
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
    }
    return 0;
  }

  private static void writeText(Path file, String text) throws LifecycleException {
    try {
      java.nio.file.Files.writeString(file, text, java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new LifecycleException("cannot write " + file + ": " + e.getMessage());
    }
  }

  /**
   * The lab's CPUs for ./suite hbase start, ./suite shim start and suite.d/lab.sh, as shell
   * assignments: --cpus SPEC (SUITE_LAB_CPUS; empty: lab.cpus of --properties, else auto),
   * --online LIST, --injectors-here yes|no (default yes).
   */
  private static int lab(Map<String, String> options) throws LifecycleException {
    String spec = options.getOrDefault("--cpus", "").trim();
    if (spec.isEmpty() && options.containsKey("--properties")) {
      spec = PropertiesFile.read(Path.of(options.get("--properties"))).getProperty("lab.cpus", "auto").trim();
    }
    try {
      final io.github.hbasegrindersuite.lifecycle.cpu.LabCpus lab = io.github.hbasegrindersuite.lifecycle.cpu.LabCpus.resolve(
          spec, required(options, "--online"), true, !"no".equals(options.get("--injectors-here")));
      System.out.print(lab.shell());
      return 0;
    } catch (IllegalArgumentException e) {
      throw new LifecycleException(e.getMessage());
    }
  }

  /**
   * ./suite hbase start's processes (LocalCluster): --regionservers N checked first, so a bad N is
   * refused before anything starts; for a cluster the conf folder --cluster-conf is (re)written from
   * --conf. The base ports are suite.d/common.sh's, in the order of --ports.
   */
  private static int cluster(Map<String, String> options) throws LifecycleException {
    final int n = LocalCluster.parseCount(required(options, LocalCluster.OPTION));
    final String[] p = required(options, "--ports").split(",");
    if (p.length != 5) {
      throw new LifecycleException.Usage("--ports: ZK,MASTER,MASTER_INFO,RS,RS_INFO expected, got " + options.get("--ports"));
    }
    final int[] ports = new int[5];
    for (int i = 0; i < 5; i++) {
      try {
        ports[i] = Integer.parseInt(p[i].trim());
      } catch (NumberFormatException e) {
        throw new LifecycleException.Usage("--ports: '" + p[i] + "' is not a port");
      }
    }
    final LocalCluster cluster = LocalCluster.of(n, new LocalCluster.Ports(ports[0], ports[1], ports[2], ports[3], ports[4]),
        required(options, "--standalone-heap"), options.get("--regionserver-heap"));
    final Path conf = Path.of(required(options, "--conf"));
    Path used = conf;
    if (!cluster.standalone()) {
      used = cluster.writeConf(conf, Path.of(required(options, "--cluster-conf")));
    }
    System.out.print(cluster.shell(used.toString()));
    return 0;
  }

  private static int finalise(List<String> argv) throws LifecycleException {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("usage: finalise RUN_DIR [options]");
    }
    final RunFinaliser.Observed seen = new RunFinaliser.Observed();
    for (int i = 1; i < argv.size(); i++) {
      final String option = argv.get(i);
      switch (option) {
        case "--interrupted":
          seen.interrupted = true;
          break;
        case "--no-table-info":
          seen.tableInfo = false;
          break;
        case "--console-exit":
          final String code = value(argv, ++i, option);
          seen.consoleExit = code.matches("-?[0-9]+") ? Integer.parseInt(code) : null;
          break;
        case "--aborted":
          seen.aborted = value(argv, ++i, option);
          break;
        case "--agent-exited":
          seen.agentsExited.add(value(argv, ++i, option));
          break;
        case "--hbase-metrics":
          seen.hbaseMetrics = value(argv, ++i, option);
          break;
        case "--collected":
          seen.collected = value(argv, ++i, option);
          break;
        default:
          throw new IllegalArgumentException("finalise: unknown option '" + option + "'");
      }
    }
    return RunFinaliser.finalise(Path.of(argv.get(0)), seen, System.out);
  }

  private static int sweepPlan(List<String> argv) throws LifecycleException {
    final Map<String, String> options = options(argv, List.of("--dry-run", "--check-only"));
    final SweepPlanner.Overrides overrides = new SweepPlanner.Overrides();
    if (options.containsKey("--duration")) {
      overrides.durationSeconds = RunArguments.duration(options.get("--duration"));
    }
    if (options.containsKey("--injectors")) {
      overrides.injectors = RunArguments.positive("--injectors", options.get("--injectors"));
    }
    if (options.containsKey("--repeat")) {
      overrides.repeat = RunArguments.positive("--repeat", options.get("--repeat"));
    }
    overrides.slo = options.get("--slo");
    overrides.scale = options.get("--scale");
    if (options.containsKey("--runs-dir")) {
      Path disk = Path.of(options.get("--runs-dir")).toAbsolutePath();
      while (!Files.exists(disk) && disk.getParent() != null) {
        disk = disk.getParent();
      }
      try {
        overrides.diskFreeBytes = Files.getFileStore(disk).getUsableSpace();
        overrides.diskName = disk.toString();
      } catch (java.io.IOException e) {
        throw new LifecycleException("cannot read the free space of " + disk + ": " + e.getMessage());
      }
    }
    overrides.ownerPid = Long.parseLong(options.getOrDefault("--owner-pid", "0"));
    if (options.containsKey("--hbase-conf")) {
      overrides.hbaseConf = Path.of(options.get("--hbase-conf"));
    }
    if (options.containsKey("--local-regionservers")) {
      overrides.localRegionServers = Integer.parseInt(options.get("--local-regionservers"));
    }
    final String scenario = options.get("");
    if (scenario == null) {
      throw new LifecycleException("no scenario given");
    }
    final SweepPlanner planner = new SweepPlanner(Path.of(scenario), Path.of(required(options, "--default-properties")), overrides);
    if (options.containsKey("--check-only")) {
      // the gates are checked (by R) before anything is written: nothing but what they are
      System.out.print(new ShellAssignments().scalar("SLO", planner.slo)
          .scalar("SLO_SOURCE", overrides.slo != null ? "--slo" : "sweep.slo"));
      return 0;
    }
    planner.print(System.out);
    if (!options.containsKey("--dry-run")) {
      final Path dir = planner.write(Path.of(required(options, "--runs-dir")));
      final JsonObject written = Json.read(dir.resolve("sweep-plan.json"));
      final List<String> serverKeys = new ArrayList<>();
      written.getAsJsonArray("server_keys").forEach(k -> serverKeys.add(k.getAsString()));
      writeText(Path.of(required(options, "--plan-out")), new ShellAssignments()
          .scalar("SWEEP_ID", dir.getFileName().toString())
          .scalar("SWEEP_DIR", dir.toString())
          .scalar("SERVER_KEYS", String.join(",", serverKeys))
          // sweep.server.variants or .regionservers: the sweep restarts the HBase (server-variants.sh)
          .scalar("SERVER_RESTARTS", planner.serverVariants.isEmpty() ? "" : "yes").toString());
    }
    return 0;
  }

  /**
   * A standalone run's exact properties (a Grinder agent without the console, ./suite prepare):
   * the file, this machine's script, log folder and worker classpath, the overrides (each a
   * properties line, read by java.util.Properties like the rest), the embedded ports.
   */
  private static int resolveProperties(List<String> argv) throws LifecycleException {
    final int split = argv.indexOf("--");
    final Map<String, String> options = options(split < 0 ? argv : argv.subList(0, split), List.of());
    final java.util.Properties properties = PropertiesFile.read(Path.of(required(options, "")));
    properties.setProperty("grinder.script", required(options, "--script"));
    properties.setProperty("grinder.logDirectory", required(options, "--log-dir"));
    properties.setProperty("grinder.jvm.classpath", required(options, "--worker-classpath"));
    for (String line : split < 0 ? List.<String>of() : argv.subList(split + 1, argv.size())) {
      final java.util.Properties one;
      try {
        one = io.github.hbasegrindersuite.worker.PropertiesFiles.parse(line);
      } catch (java.io.IOException e) {
        throw new LifecycleException("override '" + line + "' is not a properties line: " + e.getMessage());
      }
      one.stringPropertyNames().forEach(k -> properties.setProperty(k, one.getProperty(k)));
    }
    RunPlanner.embeddedPorts(properties, EmbeddedPorts.parse(required(options, "--embedded-ports")));
    PropertiesFile.write(Path.of(required(options, "--out")), List.of("The exact properties of this run: "
        + required(options, "") + ", this machine's script, log folder and classpath, the overrides and the embedded ports (./suite)."),
        PropertiesFile.sorted(properties));
    return 0;
  }

  /** --key value pairs (and the given flags); one bare word is stored under "". */
  static Map<String, String> options(List<String> argv, List<String> flags) throws LifecycleException {
    final Map<String, String> options = new LinkedHashMap<>();
    final List<String> bare = new ArrayList<>();
    for (int i = 0; i < argv.size(); i++) {
      final String word = argv.get(i);
      if (flags.contains(word)) {
        options.put(word, "true");
      } else if (word.startsWith("--")) {
        if (i + 1 >= argv.size()) {
          throw new LifecycleException(word + " needs a value");
        }
        options.put(word, argv.get(++i));
      } else {
        bare.add(word);
      }
    }
    if (bare.size() > 1) {
      throw new LifecycleException("one scenario only, got " + String.join(" ", bare));
    }
    if (!bare.isEmpty()) {
      options.put("", bare.get(0));
    }
    return options;
  }

  static String required(Map<String, String> options, String key) {
    final String value = options.get(key);
    if (value == null) {
      throw new IllegalArgumentException("missing " + key);
    }
    return value;
  }

  private static String value(List<String> argv, int i, String option) {
    if (i >= argv.size()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return argv.get(i);
  }
}
