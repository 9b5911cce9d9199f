package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.worker.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * plan.json: what bash needs to start a run's processes (hosts, console, timeouts) and what the
 * finaliser needs to judge it, written by the planner into the run folder. Fields: see
 * lifecycle/README.md. Schema 1.
 */
final class PlanJson {

  private PlanJson() {
  }

  static void write(RunPlan plan) throws LifecycleException {
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("schema", 1);
    doc.put("run_id", plan.runId);
    doc.put("run_dir", plan.runDir.toString());
    doc.put("run_key", plan.runKey);
    doc.put("start_time", Text.iso(plan.start));
    doc.put("injector_mode", plan.injectorMode);
    doc.put("injector_note", plan.injectorNote);
    final List<Map<String, Object>> hosts = new java.util.ArrayList<>();
    for (Host h : plan.hosts) {
      final Map<String, Object> host = new LinkedHashMap<>();
      host.put("id", h.id);
      host.put("kind", h.kindName());
      host.put("index", h.index);
      host.put("destination", h.destination);
      host.put("java", h.java);
      host.put("work_dir", h.workDir);
      host.put("run_dir_on_host", h.runDirOnHost(plan.runKey));
      host.put("threads", h.threads);
      host.put("agent_properties", plan.runDir.resolve("injectors").resolve(h.id).resolve("agent.properties").toString());
      hosts.add(host);
    }
    doc.put("hosts", hosts);
    doc.put("processes", plan.processes);
    doc.put("threads_total", plan.threadsTotal());
    doc.put("duration_s", plan.durationSeconds);
    doc.put("target", plan.target());
    doc.put("embedded_hbase", plan.embeddedHBase());
    doc.put("lab", lab(plan));
    final Map<String, Object> workers = new LinkedHashMap<>();
    workers.put("mode", plan.workers.word());
    // warm: the arguments the agent's JVM starts with (a warm session's runs must all have them)
    workers.put("jvm_arguments", plan.properties.getProperty("grinder.jvm.arguments", "").trim());
    workers.put("runs_per_agent", plan.warmRunsPerAgent);
    doc.put("workers", workers);
    doc.put("faults", faults(plan));
    // a warm-up (warmup-N) is no measurement: it runs until its load is steady and the JIT quiet
    doc.put("warmup_run", plan.arguments.warmupOnlySeconds > 0);
    doc.put("warmup_max_s", plan.arguments.warmupOnlySeconds > 0 ? plan.arguments.warmupOnlySeconds : 0);
    doc.put("warmup_before_s", plan.arguments.warmupSeconds);
    // --warmup's warm-up is settled as a sweep's is
    doc.put("warmup_settle_s", SweepSteps.settleSeconds(plan.arguments.warmupSeconds));
    final Map<String, Object> console = new LinkedHashMap<>();
    console.put("host", plan.arguments.consoleHost);
    console.put("port", plan.machine.consolePort);
    console.put("ui", plan.arguments.ui.name().toLowerCase(java.util.Locale.ROOT));
    // only the Swing console stays up for a person to look at it; the headless one ends with its run
    console.put("linger_s", plan.arguments.ui == RunArguments.Ui.SWING ? plan.arguments.lingerSeconds : 0);
    // the live endpoint's port: --metrics-port, else this offset's (0: none)
    console.put("metrics_port", plan.arguments.metricsPort != null ? plan.arguments.metricsPort : plan.machine.metricsPort);
    console.put("properties", plan.runDir.resolve("distribution").resolve("grinder.properties").toString());
    doc.put("console", console);
    final Map<String, Object> timeouts = new LinkedHashMap<>();
    timeouts.put("agent_s", plan.arguments.agentTimeoutSeconds);
    timeouts.put("worker_start_s", plan.arguments.workerStartTimeoutSeconds);
    timeouts.put("run_s", plan.runTimeoutSeconds);
    doc.put("timeouts", timeouts);
    doc.put("sweep_id", plan.arguments.sweepId);
    doc.put("sweep_point", plan.arguments.sweepPoint);
    doc.put("slo", plan.arguments.slo);
    doc.put("hbase_ssh", plan.arguments.hbaseSsh);
    doc.put("port_offset", plan.machine.portOffset);
    if (plan.machine.ownerPid > 0) {
      doc.put("owner", StaleRuns.owner(plan.machine.ownerPid));
    }
    doc.put("git_rev", plan.machine.gitRev);
    doc.put("git_dirty", plan.machine.gitDirty);
    doc.put("versions", versions(plan.machine));
    final TreeMap<String, String> manifestProperties = new TreeMap<>(plan.consoleProperties);
    manifestProperties.put("grinder.threads", plan.threadsPerProcess());
    doc.put("properties", manifestProperties);
    Json.write(plan.runDir.resolve("plan.json"), doc);
  }

  /** The fault schedule in its canonical spelling and its actions in time order; null without one. */
  static Map<String, Object> faults(RunPlan plan) {
    if (plan.faults == null) {
      return null;
    }
    final Map<String, Object> faults = new LinkedHashMap<>();
    faults.put("schedule", plan.faults.text);
    faults.put("regionservers", plan.machine.localRegionServers);
    faults.put("regionservers_down", new java.util.ArrayList<>(plan.machine.regionServersDown));
    final List<Map<String, Object>> actions = new java.util.ArrayList<>();
    for (io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Fault f : plan.faults.faults) {
      final Map<String, Object> a = new LinkedHashMap<>();
      a.put("at_s", f.atSeconds);
      a.put("action", f.action.word());
      a.put("regionserver", f.regionServer);
      a.put("for_s", f.forSeconds);
      actions.add(a);
    }
    faults.put("actions", actions);
    return faults;
  }

  /** The lab's split of the CPUs (LabCpus), and the machine's online CPUs. */
  static Map<String, Object> lab(RunPlan plan) {
    final Map<String, Object> lab = new LinkedHashMap<>();
    lab.put("cpus", plan.lab.spec);
    lab.put("server_cpus", io.github.hbasegrindersuite.lifecycle.cpu.LabCpus.format(plan.lab.server));
    lab.put("client_cpus", io.github.hbasegrindersuite.lifecycle.cpu.LabCpus.format(plan.lab.client));
    lab.put("isolated", plan.lab.isolated);
    lab.put("note", plan.lab.note);
    lab.put("online_cpus", plan.machine.onlineCpus);
    // A warm-up measures nothing: it is there for the servers' JIT to compile their hot code. Confined
    // to the server CPUs, HBase's one C2 thread got a third of a CPU beside its handlers and a new
    // HBase took 57 s to go quiet; on every CPU 36 s (bench/results/2026-11-28-warmup-placement.md).
    // Its run puts the servers back on the server CPUs when it ends, as every measured run does.
    if (plan.arguments.warmupOnlySeconds > 0 && plan.lab.isolated && plan.embeddedHBase()) {
      lab.put("warmup_server_cpus", plan.machine.onlineCpus);
    }
    return lab;
  }

  /** Versions from the jars on the classpaths (what the processes really load) and this JVM. */
  static Map<String, Object> versions(RunPlanner.Machine machine) {
    final Map<String, Object> v = new LinkedHashMap<>();
    v.put("grinder", jarVersion(machine.grinderClasspath, "grinder-core"));
    v.put("jython", jarVersion(machine.grinderClasspath, "jython-standalone"));
    v.put("java", System.getProperty("java.version"));
    v.put("hbase", jarVersion(machine.workerClasspath, "hbase-client"));
    return v;
  }

  static String jarVersion(String classpath, String artifact) {
    final Matcher m = Pattern.compile("(?:^|[/:])" + Pattern.quote(artifact) + "-([0-9][^/:]*?)\\.jar(?::|$)").matcher(classpath == null ? "" : classpath);
    return m.find() ? m.group(1) : "";
  }

  /** The run's settings: plan.json's properties, resolved as the workers resolve them. */
  static Settings settings(JsonObject plan) {
    final Map<String, String> properties = new LinkedHashMap<>();
    if (plan.has("properties") && plan.get("properties").isJsonObject()) {
      plan.getAsJsonObject("properties").entrySet().forEach(e -> properties.put(e.getKey(), e.getValue().getAsString()));
    }
    return Settings.ofRun(properties);
  }

  static List<JsonObject> hosts(JsonObject plan) {
    final List<JsonObject> hosts = new java.util.ArrayList<>();
    final JsonArray array = plan.getAsJsonArray("hosts");
    for (JsonElement e : array) {
      hosts.add(e.getAsJsonObject());
    }
    return hosts;
  }
}
