package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * manifest.json, the run's record (README, "Runs and data logs"): written with status
 * {@code running} by the planner, and once more with the outcome by the finaliser. Field names
 * and order are the contract the report and the tests read.
 */
final class Manifest {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  private Manifest() {
  }

  /** The first manifest: everything planned, nothing yet known of the outcome. */
  static Manifest running(RunPlan plan) throws LifecycleException {
    return from(Json.read(plan.runDir.resolve("plan.json")), "running", "the run has not ended", null);
  }

  static Manifest from(JsonObject plan, String status, String reason, String endTime) {
    final Manifest m = new Manifest();
    final Map<String, Object> f = m.fields;
    f.put("run_id", Json.text(plan, "run_id"));
    f.put("status", status);
    f.put("reason", Text.oneLine(reason));
    f.put("start_time", Json.text(plan, "start_time"));
    f.put("end_time", endTime);
    f.put("target", Json.text(plan, "target"));
    f.put("threads_total", Json.integer(plan, "threads_total", 0));
    final List<JsonObject> hosts = PlanJson.hosts(plan);
    f.put("hosts", hosts.stream().map(h -> Json.text(h, "id")).toArray(String[]::new));
    f.put("injector_mode", Json.text(plan, "injector_mode"));
    f.put("injector_note", Json.text(plan, "injector_note"));
    final int processes = Json.integer(plan, "processes", 1);
    final Map<String, Integer> perHost = new LinkedHashMap<>();
    hosts.forEach(h -> perHost.put(Json.text(h, "id"), Json.integer(h, "threads", 0) * processes));
    f.put("threads_per_host", perHost);
    f.put("processes_per_host", processes);
    f.put("duration_s", Json.integer(plan, "duration_s", 0));
    final JsonObject properties = plan.getAsJsonObject("properties");
    f.put("properties", properties);
    f.put("tests", new LinkedHashMap<String, String>());
    f.put("pacing", paced(properties));
    f.put("sweep_id", Json.text(plan, "sweep_id"));
    f.put("warmup_run", plan.has("warmup_run") && plan.get("warmup_run").getAsBoolean());
    f.put("versions", plan.get("versions"));
    f.put("git_rev", Json.text(plan, "git_rev"));
    f.put("git_dirty", plan.get("git_dirty").getAsBoolean());
    // The machine that ran ./suite run (console; the embedded HBase and loopback/namespace injectors too):
    // a study's "how ours differs" line compares it with the published hardware.
    final Map<String, Object> machine = new LinkedHashMap<>();
    // The machine's CPUs, not this JVM's: the lab may have placed this JVM on the client CPUs only.
    final JsonObject lab = plan.getAsJsonObject("lab");
    machine.put("cores", lab == null ? Runtime.getRuntime().availableProcessors() : cpuCount(Json.text(lab, "online_cpus")));
    f.put("machine", machine);
    f.put("lab", lab);
    final Map<String, Object> table = new LinkedHashMap<>();
    table.put("name", property(properties, "hbaseload.table", "hbaseload"));
    table.put("regions", number(property(properties, "hbaseload.regions", "")));
    table.put("rows", number(property(properties, "hbaseload.rows", "")));
    table.put("store_mb", null);
    table.put("source", "declared");
    f.put("table", table);
    final Map<String, Object> cluster = new LinkedHashMap<>();
    cluster.put("region_servers", null); // live region servers, asked of HBase at finalise
    f.put("cluster", cluster);
    f.put("load_start_time", null);
    f.put("load_end_time", null);
    final JsonObject console = plan.getAsJsonObject("console");
    final Map<String, Object> c = new LinkedHashMap<>();
    c.put("port", Json.integer(console, "port", 0));
    c.put("host", Json.text(console, "host"));
    c.put("exit_code", null);
    c.put("requests", null);
    f.put("console", c);
    f.put("datalog_requests", null);
    f.put("hbase_metrics", null);
    return m;
  }

  Manifest set(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  @SuppressWarnings("unchecked")
  Manifest setIn(String object, String key, Object value) {
    ((Map<String, Object>) fields.get(object)).put(key, value);
    return this;
  }

  Object get(String key) {
    return fields.get(key);
  }

  void write(Path file) throws LifecycleException {
    Json.write(file, fields);
  }

  /** How many CPUs a Linux CPU list names ("0-3,6": 5). */
  static int cpuCount(String list) {
    int n = 0;
    for (String part : (list == null ? "" : list.trim()).split(",")) {
      if (part.matches("[0-9]+")) {
        n++;
      } else if (part.matches("[0-9]+-[0-9]+")) {
        final String[] ends = part.split("-");
        n += Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
      }
    }
    return Math.max(n, 1);
  }

  /** Paced: an open model (hbaseload.rate.per.thread) or think time between requests. */
  static boolean paced(JsonObject properties) {
    final Number rate = number(property(properties, "hbaseload.rate.per.thread", "0"));
    final Number sleep = number(property(properties, "grinder.sleepTime", "0"));
    return rate != null && rate.doubleValue() > 0 || sleep != null && sleep.doubleValue() > 0;
  }

  static String property(JsonObject properties, String key, String fallback) {
    final JsonElement e = properties == null ? null : properties.get(key);
    return e == null || e.isJsonNull() ? fallback : e.getAsString().trim();
  }

  /** A whole or decimal number, or null when the text is none. */
  static Number number(String text) {
    if (text == null || !text.matches("-?[0-9]+(\\.[0-9]+)?")) {
      return null;
    }
    return text.contains(".") ? (Number) Double.parseDouble(text) : (Number) Long.parseLong(text);
  }
}
