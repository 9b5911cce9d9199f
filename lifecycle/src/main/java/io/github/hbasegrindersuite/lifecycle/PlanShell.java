package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.worker.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * plan.json as the shell assignments libexec/suite-run (and ./suite collect) start a run's
 * processes with, in one piece: the run, its hosts (the HOST_* arrays of injectors/lib.sh), its
 * console's address, the bounds of bash's own waits and the lab (suite.d/lab.sh's LAB_*). The plan
 * stays the one record (the console reads it itself: RunSettings); this is its view for bash, so no
 * script reads a field of it on its own.
 */
final class PlanShell {

  private PlanShell() {
  }

  static String of(JsonObject plan) {
    final Settings settings = PlanJson.settings(plan);
    final ShellAssignments sh = new ShellAssignments()
        .scalar("RUN_ID", Json.text(plan, "run_id"))
        .scalar("RUN_DIR", Json.text(plan, "run_dir"))
        .scalar("PLAN", Path.of(Json.text(plan, "run_dir")).resolve("plan.json").toString())
        .scalar("INJECTOR_MODE", Json.text(plan, "injector_mode"))
        .scalar("INJECTOR_NOTE", Json.text(plan, "injector_note"))
        .scalar("PROCESSES", Json.text(plan, "processes"))
        .scalar("THREADS_TOTAL", Json.text(plan, "threads_total"))
        .scalar("DURATION_S", Json.text(plan, "duration_s"))
        .scalar("TARGET", Json.text(plan, "target"))
        .scalar("EMBEDDED_HBASE", Json.text(plan, "embedded_hbase"))
        .scalar("HBASE_SSH", Json.text(plan, "hbase_ssh"))
        .scalar("SLO", Json.text(plan, "slo"))
        .scalar("WARMUP_BEFORE_S", Json.integer(plan, "warmup_before_s", 0))
        .scalar("WARMUP_SETTLE_S", Json.integer(plan, "warmup_settle_s", 0))
        .scalar("AUDIT", String.valueOf(settings.flag(Settings.Key.AUDIT)))
        .scalar("SETTLE", String.valueOf(settings.flag(Settings.Key.SETTLE)));
    // the fault schedule: bash starts its executor (suite.d/faults.sh) when there are actions
    final JsonObject faults = plan.has("faults") && plan.get("faults").isJsonObject() ? plan.getAsJsonObject("faults") : null;
    sh.scalar("FAULTS_SCHEDULE", faults == null ? "" : Json.text(faults, "schedule"))
        .scalar("FAULTS_COUNT", faults == null ? 0 : faults.getAsJsonArray("actions").size());
    final JsonObject console = plan.getAsJsonObject("console");
    sh.scalar("CONSOLE_HOST", Json.text(console, "host"))
        .scalar("UI", Json.text(console, "ui"))
        .scalar("METRICS_PORT", Json.text(console, "metrics_port"));
    final JsonObject timeouts = plan.getAsJsonObject("timeouts");
    sh.scalar("AGENT_TIMEOUT", Json.text(timeouts, "agent_s"))
        .scalar("RUN_TIMEOUT", Json.text(timeouts, "run_s"));
    final List<JsonObject> hosts = PlanJson.hosts(plan);
    sh.array("HOST_IDS", field(hosts, h -> Json.text(h, "id")))
        .array("HOST_KIND", field(hosts, h -> Json.text(h, "kind")))
        .array("HOST_INDEX", field(hosts, h -> Json.text(h, "index")))
        .array("HOST_DEST", field(hosts, h -> Json.text(h, "destination")))
        .array("HOST_JAVA", field(hosts, h -> Json.text(h, "java")))
        .array("HOST_WORK", field(hosts, h -> Json.text(h, "work_dir")))
        .array("HOST_RUN_DIR", field(hosts, h -> Json.text(h, "run_dir_on_host")))
        .array("HOST_THREADS", field(hosts, h -> Json.text(h, "threads")));
    final JsonObject workers = plan.has("workers") && plan.get("workers").isJsonObject() ? plan.getAsJsonObject("workers") : null;
    sh.scalar("WORKERS", workers == null ? "fresh" : Json.text(workers, "mode"))
        .scalar("WORKER_JVM_ARGUMENTS", workers == null ? "" : Json.text(workers, "jvm_arguments"))
        .scalar("WARM_RUNS_PER_AGENT", workers == null ? 0 : Json.integer(workers, "runs_per_agent", 0));
    final JsonObject lab = plan.getAsJsonObject("lab");
    if (lab != null) {
      sh.scalar("LAB_SPEC", Json.text(lab, "cpus"))
          .scalar("LAB_SERVER_CPUS", Json.text(lab, "server_cpus"))
          .scalar("LAB_CLIENT_CPUS", Json.text(lab, "client_cpus"))
          .scalar("LAB_ISOLATED", Json.text(lab, "isolated"))
          .scalar("LAB_NOTE", Json.text(lab, "note"))
          .scalar("LAB_WARMUP_SERVER_CPUS", Json.text(lab, "warmup_server_cpus"));
    }
    return sh.toString();
  }

  private static List<String> field(List<JsonObject> hosts, Function<JsonObject, String> f) {
    final List<String> out = new ArrayList<>();
    hosts.forEach(h -> out.add(f.apply(h)));
    return out;
  }
}
