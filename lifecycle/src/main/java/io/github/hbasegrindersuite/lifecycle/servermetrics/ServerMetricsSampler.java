package io.github.hbasegrindersuite.lifecycle.servermetrics;

import com.google.gson.GsonBuilder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.github.hbasegrindersuite.lifecycle.SamplerRun;

/**
 * The HBase server-metrics sampler of a run (libexec/suite-run starts it beside the host-metrics
 * sampler and stops it by PID):
 *
 * <pre>
 * ServerMetricsSampler --out CSV --notes JSON [--interval-ms 1000] [--max-seconds N] [--clock-ticks 100]
 *                      (--server ROLE=HOST:INFO_PORT ... | --discover PLAN_JSON)
 * </pre>
 *
 * Once an interval, every server's JMX servlet is asked for its beans (IPC, Server, JvmMetrics,
 * OperatingSystem; the last two once per JVM, and OperatingSystem's figures read from /proc for a
 * JVM on this machine: LocalJvms) and one CSV row per server is written (ServerMetricsCsv). A
 * server that does not answer gets a row saying why and the run goes on. --discover asks a real cluster's master, through the client's
 * Admin, for its region servers and their info ports (ClusterDiscovery). Ends at SIGTERM or after
 * --max-seconds; server-metrics.json (the notes: servers, rows answered, first and last failure)
 * is rewritten every 10 samples and at the end. A bad argument: one line on stderr, exit 2.
 */
public final class ServerMetricsSampler {
  static final String NAME = "server-metrics";
  private static final String RUNTIME = "java.lang:type=Runtime";
  private static final int NOTES_EVERY = 10;

  private final List<Server> servers;
  private final ServerMetricsCsv csv;
  private final JmxClient client;
  private final Path notes;
  private final String discovery;
  private final long intervalMs;
  private final LocalJvms local;
  private final String started = Instant.now().toString();
  /** /jmx requests made by the samples so far (the notes say how many the run cost the servers). */
  private long requests;

  ServerMetricsSampler(List<Server> servers, ServerMetricsCsv csv, JmxClient client, Path notes, String discovery, long intervalMs) {
    this(servers, csv, client, notes, discovery, intervalMs, LocalJvms.here(100));
  }

  ServerMetricsSampler(List<Server> servers, ServerMetricsCsv csv, JmxClient client, Path notes, String discovery, long intervalMs,
                       LocalJvms local) {
    this.local = local;
    this.servers = servers;
    this.csv = csv;
    this.client = client;
    this.notes = notes;
    this.discovery = discovery;
    this.intervalMs = intervalMs;
  }

  public static void main(String[] argv) {
    final SamplerRun run;
    try {
      run = prepare(argv);
    } catch (IllegalArgumentException e) {
      System.err.println(NAME + ": " + e.getMessage());
      System.exit(2);
      return;
    } catch (IOException | RuntimeException e) {
      System.err.println(NAME + ": " + JmxSnapshot.oneLine(String.valueOf(e.getMessage())));
      System.exit(1);
      return;
    }
    System.exit(SamplerRun.runUntilStopped(List.of(run)));
  }

  /**
   * The sampler of ARGV (the options above): a real cluster's servers found (--discover), its CSV
   * open. A bad argument: IllegalArgumentException.
   */
  public static SamplerRun prepare(String[] argv) throws IOException {
    final Map<String, List<String>> options = options(argv);
    final List<Server> servers = new ArrayList<>();
    for (String s : options.getOrDefault("--server", List.of())) {
      servers.add(Server.parse(s));
    }
    final long intervalMs = whole(options, "--interval-ms", 1000, 100);
    final long maxSeconds = whole(options, "--max-seconds", 24 * 3600, 1);
    if (servers.isEmpty() == !options.containsKey("--discover")) {
      throw new IllegalArgumentException("give --server ROLE=HOST:INFO_PORT (one or more) or --discover PLAN_JSON, not both");
    }
    final Path out = Path.of(one(options, "--out"));
    final Path notesPath = Path.of(one(options, "--notes"));
    final long deadline = System.currentTimeMillis() + maxSeconds * 1000;
    String discovery = "given: " + servers.size() + " server(s) named by ./suite run";
    if (options.containsKey("--discover")) {
      final ClusterDiscovery.Found found = ClusterDiscovery.find(Path.of(one(options, "--discover")));
      servers.addAll(found.servers);
      discovery = found.note;
    }
    final int clockTicks = (int) whole(options, "--clock-ticks", 100, 1);
    final JmxClient client = new JmxClient(500, (int) Math.min(2000, Math.max(200, intervalMs * 8 / 10)));
    final BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8);
    final ServerMetricsSampler sampler = new ServerMetricsSampler(servers, new ServerMetricsCsv(w), client, notesPath, discovery, intervalMs,
        LocalJvms.here(clockTicks));
    return new SamplerRun(NAME, stop -> {
      sampler.readConfs();
      sampler.loop(deadline, stop);
    }, w);
  }

  /**
   * Each server's JVM, handler count and metrics period, once (a server that does not answer keeps
   * nulls). Servers of one JVM share its configuration: its /conf (about 160 kB) is read once.
   */
  void readConfs() {
    final Map<String, String> confByJvm = new HashMap<>();
    for (Server s : servers) {
      Long startTimeMs = null;
      try {
        final String runtime = client.get(s.jmx(RUNTIME));
        s.jvm = JmxClient.stringAttribute(runtime, "Name");
        startTimeMs = JmxClient.longAttribute(runtime, "StartTime");
      } catch (IOException | RuntimeException e) {
        s.jvm = null;
      }
      s.localPid = local.pidOf(s.jvm, startTimeMs);
      try {
        String conf = s.jvm == null ? null : confByJvm.get(s.jvm);
        if (conf == null) {
          conf = client.get(s.conf());
          if (s.jvm != null) {
            confByJvm.put(s.jvm, conf);
          }
        }
        final String handlers = JmxClient.confValue(conf, s.role == Bean.Role.MASTER ? "hbase.master.handler.count" : "hbase.regionserver.handler.count");
        s.handlers = handlers != null && handlers.trim().matches("[0-9]+") ? Integer.valueOf(handlers.trim()) : null;
        final String period = JmxClient.confValue(conf, "hbase.regionserver.metrics.period");
        s.metricsPeriodMs = period != null && period.trim().matches("[0-9]+") ? Long.valueOf(period.trim()) : null;
      } catch (IOException | RuntimeException e) {
        // the rows will say that it does not answer
      }
    }
  }

  /** Samples at fixed times (start + k intervals); a sample that overruns skips the slots it missed. */
  void loop(long deadlineMs, CountDownLatch stop) throws IOException {
    long next = System.currentTimeMillis();
    int samples = 0;
    while (stop.getCount() > 0 && System.currentTimeMillis() < deadlineMs) {
      sampleOnce();
      csv.flush();
      if (++samples % NOTES_EVERY == 1) {
        writeNotes(false);
      }
      next += intervalMs;
      final long now = System.currentTimeMillis();
      if (next < now) {
        next += ((now - next) / intervalMs + 1) * intervalMs;
      }
      try {
        if (stop.await(Math.max(0, next - now), TimeUnit.MILLISECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        break;
      }
    }
    writeNotes(true);
  }

  /**
   * One row per server. A JVM's own beans (JvmMetrics, OperatingSystem) are read from the first of
   * its servers that answers and taken for the others: every request costs the server about 1.5 ms
   * of CPU when warm and more while its JIT compiles the servlet's path, on the CPU it serves the
   * load with (bench/results/2026-11-28-server-metrics-cost.md).
   */
  void sampleOnce() {
    final Map<String, JmxSnapshot> byJvm = new HashMap<>();
    for (Server s : servers) {
      JmxSnapshot snap = null;
      String failure = null;
      final JmxSnapshot sameJvm = s.jvm == null ? null : byJvm.get(s.jvm);
      // Once more when a bean is missing: HBase re-registers its metrics beans when regions change
      // (JmxCacheBuster), and a query at that moment finds none.
      for (int attempt = 0; attempt < 2 && snap == null; attempt++) {
        final JmxSnapshot reading = new JmxSnapshot(System.currentTimeMillis());
        try {
          for (Bean bean : Bean.values()) {
            final String name = bean.objectName(s.role);
            if (name == null) {
              continue;
            }
            if (sameJvm != null && bean.perJvm()) {
              reading.copy(bean, sameJvm);
              continue;
            }
            final Map<String, Double> here = bean == Bean.OS && s.localPid != null ? local.osValues(s.localPid) : null;
            if (here != null) {
              reading.put(bean, here);
            } else {
              requests++;
              reading.add(bean, name, client.get(s.jmx(name)));
            }
          }
          snap = reading;
        } catch (IOException e) {
          failure = e.getMessage();
          break;
        } catch (IllegalArgumentException e) {
          failure = e.getMessage();
        }
      }
      if (snap != null) {
        if (s.jvm != null) {
          byJvm.putIfAbsent(s.jvm, snap);
        }
        csv.answered(s, snap);
      } else {
        csv.failed(s, System.currentTimeMillis(), failure);
      }
    }
  }

  /** server-metrics.json: which servers were sampled, how many rows they answered, why not. */
  void writeNotes(boolean ended) throws IOException {
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("interval_ms", intervalMs);
    doc.put("started", started);
    doc.put("ended", ended ? Instant.now().toString() : null);
    doc.put("discovery", discovery);
    doc.put("jmx_requests", requests);
    final List<Object> list = new ArrayList<>();
    for (Server s : servers) {
      final ServerMetricsCsv.Tally t = csv.tally(s);
      final Map<String, Object> o = new LinkedHashMap<>();
      o.put("server", s.address());
      o.put("role", s.role.word);
      o.put("samples", t.samples);
      o.put("answered", t.answered);
      o.put("handlers", s.handlers);
      o.put("metrics_period_ms", s.metricsPeriodMs);
      o.put("jvm", s.jvm);
      o.put("process_from_proc", s.localPid != null);
      o.put("first_failure", t.firstFailure);
      o.put("first_failure_ms", t.firstFailureMs);
      o.put("last_failure", t.lastFailure);
      list.add(o);
    }
    doc.put("servers", list);
    final Path tmp = notes.resolveSibling(notes.getFileName() + ".tmp");
    Files.writeString(tmp, new GsonBuilder().serializeNulls().disableHtmlEscaping().setPrettyPrinting().create().toJson(doc) + "\n");
    Files.move(tmp, notes, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static Map<String, List<String>> options(String[] argv) {
    final Map<String, List<String>> options = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!List.of("--out", "--notes", "--interval-ms", "--max-seconds", "--clock-ticks", "--server", "--discover").contains(argv[i])) {
        throw new IllegalArgumentException("unknown argument '" + argv[i] + "'");
      }
      if (i + 1 >= argv.length) {
        throw new IllegalArgumentException(argv[i] + " needs a value");
      }
      options.computeIfAbsent(argv[i], k -> new ArrayList<>()).add(argv[++i]);
    }
    return options;
  }

  private static String one(Map<String, List<String>> options, String key) {
    final List<String> values = options.get(key);
    if (values == null || values.size() != 1) {
      throw new IllegalArgumentException(key + " is needed once");
    }
    return values.get(0);
  }

  private static long whole(Map<String, List<String>> options, String key, long fallback, long min) {
    if (!options.containsKey(key)) {
      return fallback;
    }
    final String v = one(options, key);
    if (!v.matches("[0-9]{1,9}") || Long.parseLong(v) < min) {
      throw new IllegalArgumentException(key + " '" + v + "' is not a whole number >= " + min);
    }
    return Long.parseLong(v);
  }
}
