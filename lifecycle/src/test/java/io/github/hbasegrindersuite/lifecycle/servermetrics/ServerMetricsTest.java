package io.github.hbasegrindersuite.lifecycle.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JMX parser on answers captured from the embedded HBase 2.6.1 under load (src/test/resources/
 * servermetrics/hbase-2.6.1: two samples a and b, 1140 ms apart, times.txt), the CSV's rates against
 * hand-computed values, a server that stops answering, a restarted one, and the sampler over HTTP.
 */
class ServerMetricsTest {
  private static final String RS_IPC = "Hadoop:service=HBase,name=RegionServer,sub=IPC";
  private static final String RS_SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  private static final String JVM = "Hadoop:service=HBase,name=JvmMetrics";
  private static final String OS = "java.lang:type=OperatingSystem";
  private static final String MASTER_IPC = "Hadoop:service=HBase,name=Master,sub=IPC";
  private static final long TIME_A = 1795486132681L;
  private static final long TIME_B = 1795486133821L; // 1140 ms later

  @TempDir
  Path dir;

  static String fixture(String name) throws IOException {
    try (InputStream in = ServerMetricsTest.class.getResourceAsStream("/servermetrics/hbase-2.6.1/" + name)) {
      assertTrue(in != null, "fixture " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static JmxSnapshot regionServer(String sample, long timeMs) throws IOException {
    return new JmxSnapshot(timeMs)
        .add(Bean.IPC, RS_IPC, fixture("regionserver-ipc-" + sample + ".json"))
        .add(Bean.SERVER, RS_SERVER, fixture("regionserver-server-" + sample + ".json"))
        .add(Bean.JVM, JVM, fixture("regionserver-jvm-" + sample + ".json"))
        .add(Bean.OS, OS, fixture("regionserver-os-" + sample + ".json"));
  }

  /** The CSV as rows of column name to value. */
  static List<Map<String, String>> rows(String csv) {
    final String[] lines = csv.split("\n");
    final String[] header = lines[0].split(",", -1);
    final List<Map<String, String>> rows = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      final String[] fields = lines[i].split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
      assertEquals(header.length, fields.length, "fields in line " + i + ": " + lines[i]);
      final Map<String, String> row = new HashMap<>();
      for (int f = 0; f < header.length; f++) {
        row.put(header[f], fields[f]);
      }
      rows.add(row);
    }
    return rows;
  }

  @Test
  void theParserReadsTheCapturedBeansNumbersOnly() throws IOException {
    final JmxSnapshot a = regionServer("a", TIME_A);
    assertEquals(4.0, a.get(Bean.IPC, "numActiveHandler"));
    assertEquals(16.0, a.get(Bean.IPC, "QueueCallTime_mean"));
    assertEquals(177.0, a.get(Bean.IPC, "QueueCallTime_99th_percentile"));
    assertEquals(4604.0, a.get(Bean.IPC, "queueSize"));
    assertEquals(6748.0, a.get(Bean.SERVER, "readRequestCount"));
    assertEquals(3020198.0, a.get(Bean.SERVER, "memStoreSize"));
    assertEquals(1020.0, a.get(Bean.JVM, "GcTimeMillis"));
    assertNull(a.get(Bean.SERVER, "tag.Hostname"), "strings (tags) are not numbers");
    assertNull(a.get(Bean.SERVER, "noSuchAttribute"));
    final JmxSnapshot master = new JmxSnapshot(TIME_A).add(Bean.IPC, MASTER_IPC, fixture("master-ipc-a.json"));
    assertEquals(2.0, master.get(Bean.IPC, "QueueCallTime_mean"));
    assertTrue(!master.has(Bean.SERVER));
  }

  @Test
  void answersWithoutTheBeanOrWithoutJsonAreRefusedWithTheReason() throws IOException {
    final IllegalArgumentException wrongBean = assertThrows(IllegalArgumentException.class,
        () -> new JmxSnapshot(0).add(Bean.IPC, RS_IPC, fixture("master-ipc-a.json")));
    assertEquals("no bean " + RS_IPC + " in the /jmx answer", wrongBean.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new JmxSnapshot(0).add(Bean.IPC, RS_IPC, "{\"beans\":[]}"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new JmxSnapshot(0).add(Bean.IPC, RS_IPC, "<html>503</html>"))
        .getMessage().startsWith("the /jmx answer for " + RS_IPC + " is not JSON"));
    assertEquals("the /jmx answer for " + RS_IPC + " has no \"beans\" array",
        assertThrows(IllegalArgumentException.class, () -> new JmxSnapshot(0).add(Bean.IPC, RS_IPC, "{\"x\":1}")).getMessage());
  }

  @Test
  void ratesComeFromCounterDeltasOverTheTimeBetweenSamples() throws IOException {
    final StringWriter out = new StringWriter();
    final ServerMetricsCsv csv = new ServerMetricsCsv(out);
    final Server rs = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", 16130);
    rs.handlers = 30;
    csv.answered(rs, regionServer("a", TIME_A));
    csv.answered(rs, regionServer("b", TIME_B));
    final List<Map<String, String>> rows = rows(out.toString());
    assertEquals(2, rows.size());
    final Map<String, String> first = rows.get(0);
    assertEquals("1795486132681", first.get("time_ms"));
    assertEquals("127.0.0.1:16130", first.get("server"));
    assertEquals("regionserver", first.get("role"));
    assertEquals("ok", first.get("status"));
    assertEquals("30", first.get("handlers"));
    assertEquals("", first.get("read_requests_per_s"), "no previous sample, no rate");
    assertEquals("4", first.get("handlers_active"));
    assertEquals("0", first.get("rpc_queue_calls"));
    assertEquals("4604", first.get("rpc_queue_bytes"));
    assertEquals("16", first.get("rpc_queue_time_mean_ms"));
    assertEquals("177", first.get("rpc_queue_time_p99_ms"));
    assertEquals("3", first.get("rpc_process_time_mean_ms"));
    assertEquals("99", first.get("rpc_process_time_p99_ms"));
    assertEquals("2.88", first.get("memstore_mb"));            // 3020198 / 2^20 = 2.8803
    assertEquals("12", first.get("store_files"));
    assertEquals("10", first.get("regions"));                  // regionCount of the captured answer
    final Map<String, String> second = rows.get(1);
    assertEquals("914.912", second.get("read_requests_per_s"));  // (7791 - 6748) / 1.140 s
    assertEquals("407.895", second.get("write_requests_per_s")); // (3405 - 2940) / 1.140 s
    assertEquals("1", second.get("block_cache_hit_ratio"));      // 2138 hits, 0 misses
    assertEquals("3.342", second.get("memstore_mb"));             // 3504206 / 2^20
    assertEquals("0", second.get("gc_pause_ms_per_s"));
    assertEquals("0", second.get("updates_blocked_ms_per_s"));
    assertEquals("0", second.get("flush_queue"));
    assertEquals("0", second.get("compaction_queue"));
    // the server's own CPU and its machine's load (os-a, os-b): (20,880,000,000 - 20,660,000,000) ns / 1.140 s
    assertEquals("", first.get("process_cpu_pct"), "no previous sample, no CPU");
    assertEquals("19.298", second.get("process_cpu_pct"));
    assertEquals("5.06", second.get("host_load1"));               // SystemLoadAverage 5.0595703125
  }

  @Test
  void aServerThatStopsAnsweringHasRowsSayingSoAndItsNextRateSpansTheGap() throws IOException {
    final StringWriter out = new StringWriter();
    final ServerMetricsCsv csv = new ServerMetricsCsv(out);
    final Server rs = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", 16130);
    csv.answered(rs, regionServer("a", TIME_A));
    csv.failed(rs, TIME_A + 500, "ConnectException: Connection refused");
    csv.answered(rs, regionServer("b", TIME_B));
    final List<Map<String, String>> rows = rows(out.toString());
    assertEquals("no answer: ConnectException: Connection refused", rows.get(1).get("status"));
    for (ServerMetric m : ServerMetric.values()) {
      assertEquals("", rows.get(1).get(m.column), m.column + " of a server that did not answer");
    }
    assertEquals("914.912", rows.get(2).get("read_requests_per_s"), "against the last answered sample");
    final ServerMetricsCsv.Tally t = csv.tally(rs);
    assertEquals(3, t.samples);
    assertEquals(2, t.answered);
    assertEquals(TIME_A + 500, t.firstFailureMs);
  }

  @Test
  void aCounterThatWentDownMeansARestartAndGivesNoRate() throws IOException {
    final StringWriter out = new StringWriter();
    final ServerMetricsCsv csv = new ServerMetricsCsv(out);
    final Server rs = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", 16130);
    csv.answered(rs, regionServer("b", TIME_A));
    csv.answered(rs, regionServer("a", TIME_B)); // counters lower: the server restarted
    final Map<String, String> after = rows(out.toString()).get(1);
    assertEquals("", after.get("read_requests_per_s"));
    assertEquals("", after.get("block_cache_hit_ratio"));
    assertEquals("0", after.get("gc_pause_ms_per_s"), "GcTimeMillis did not go down: still a rate");
    assertEquals("", after.get("process_cpu_pct"), "ProcessCpuTime went down: a new JVM");
  }

  @Test
  void statusesWithCommasAreQuotedAndNumbersKeepThreeDecimals() {
    assertEquals("\"no answer: a, b \"\"c\"\"\"", ServerMetricsCsv.field("no answer: a, b \"c\""));
    assertEquals("ok", ServerMetricsCsv.field("ok"));
    assertEquals("2", ServerMetricsCsv.number(2.0));
    assertEquals("0.5", ServerMetricsCsv.number(0.5));
    assertEquals("914.912", ServerMetricsCsv.number(1043 / 1.14));
    assertEquals("", ServerMetricsCsv.number(null));
    assertEquals("", ServerMetricsCsv.number(Double.NaN));
  }

  @Test
  void theHandlerCountComesFromTheServersConf() throws IOException {
    final String conf = fixture("regionserver-conf-trimmed.json");
    assertEquals("30", JmxClient.confValue(conf, "hbase.regionserver.handler.count"));
    assertEquals("500", JmxClient.confValue(conf, "hbase.regionserver.metrics.period"));
    assertNull(JmxClient.confValue(conf, "hbase.master.handler.count"));
  }

  @Test
  void serverArgumentsAreCheckedAndNamed() {
    final Server s = Server.parse("regionserver=127.0.0.1:16130");
    assertEquals("127.0.0.1:16130", s.address());
    assertEquals("http://127.0.0.1:16130/jmx?qry=Hadoop%3Aservice%3DHBase%2Cname%3DRegionServer%2Csub%3DIPC", s.jmx(RS_IPC).toString());
    assertEquals("role 'worker' is neither master nor regionserver",
        assertThrows(IllegalArgumentException.class, () -> Server.parse("worker=h:1")).getMessage());
    assertEquals("--server 'master=h:99999': info port '99999' is not a port number",
        assertThrows(IllegalArgumentException.class, () -> Server.parse("master=h:99999")).getMessage());
    assertEquals("--server 'h:1' is not ROLE=HOST:INFO_PORT",
        assertThrows(IllegalArgumentException.class, () -> Server.parse("h:1")).getMessage());
  }

  /** Over real HTTP: an info server answering the captured JSON, then one that has gone; a port nobody listens on. */
  @Test
  void theSamplerWritesARowPerServerAndSaysWhichDidNotAnswer() throws Exception {
    final AtomicReference<String> sample = new AtomicReference<>("a");
    final HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/", exchange -> {
      final String q = java.net.URLDecoder.decode(exchange.getRequestURI().getRawQuery(), StandardCharsets.UTF_8);
      final String file = q.contains("sub=IPC") ? "regionserver-ipc" : q.contains("sub=Server") ? "regionserver-server"
          : q.contains("OperatingSystem") ? "regionserver-os" : "regionserver-jvm";
      final byte[] body = fixture(file + "-" + sample.get() + ".json").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    http.start();
    final int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    final Path csvPath = dir.resolve("server-metrics.csv");
    final Path notes = dir.resolve("server-metrics.json");
    final Server up = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", http.getAddress().getPort());
    final Server down = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", closedPort);
    try (java.io.Writer w = Files.newBufferedWriter(csvPath)) {
      final ServerMetricsSampler sampler = new ServerMetricsSampler(List.of(up, down), new ServerMetricsCsv(w),
          new JmxClient(500, 800), notes, "given", 1000);
      sampler.sampleOnce();
      sample.set("b");
      Thread.sleep(50);
      sampler.sampleOnce();
      http.stop(0);
      sampler.sampleOnce();
      sampler.writeNotes(true);
    } finally {
      http.stop(0);
    }
    final List<Map<String, String>> rows = rows(Files.readString(csvPath));
    assertEquals(6, rows.size());
    assertEquals("ok", rows.get(0).get("status"));
    assertEquals("4", rows.get(0).get("handlers_active"));
    assertTrue(rows.get(1).get("status").startsWith("no answer: ConnectException"), rows.get(1).get("status"));
    final double rate = Double.parseDouble(rows.get(2).get("read_requests_per_s"));
    final double elapsed = Long.parseLong(rows.get(2).get("time_ms")) - Long.parseLong(rows.get(0).get("time_ms"));
    assertEquals(1043 * 1000.0 / elapsed, rate, 0.001, "1043 reads over the time between the two samples");
    assertTrue(rows.get(4).get("status").startsWith("no answer: "), "the stopped server: " + rows.get(4).get("status"));
    final String json = Files.readString(notes);
    assertTrue(json.contains("\"answered\": 2"), json);
    assertTrue(json.contains("\"answered\": 0"), json);
    assertTrue(json.contains("\"server\": \"127.0.0.1:" + closedPort + "\""), json);
  }

  /**
   * An info server of ROLE in the JVM named JVM_NAME ("pid@host"): its Runtime bean, the captured
   * /conf, and the captured beans of the current SAMPLE; ASKED counts the requests by kind (conf,
   * runtime, ROLE-ipc, regionserver-server, os, jvm).
   */
  static HttpServer fakeInfoServer(String role, String jvmName, AtomicReference<String> sample,
                                   Map<String, java.util.concurrent.atomic.AtomicInteger> asked) throws IOException {
    final HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/", exchange -> {
      final String raw = exchange.getRequestURI().getRawQuery();
      final String q = raw == null ? "" : java.net.URLDecoder.decode(raw, StandardCharsets.UTF_8);
      final String what = exchange.getRequestURI().getPath().equals("/conf") ? "conf"
          : q.contains("Runtime") ? "runtime" : q.contains("sub=IPC") ? role + "-ipc" : q.contains("sub=Server") ? "regionserver-server"
          : q.contains("OperatingSystem") ? "os" : "jvm";
      asked.computeIfAbsent(what, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
      final String text = what.equals("runtime") ? "{\"beans\":[{\"name\":\"java.lang:type=Runtime\",\"Name\":\"" + jvmName
          + "\",\"StartTime\":" + (System.currentTimeMillis() - 950_000) + "}]}"
          : what.equals("conf") ? fixture("regionserver-conf-trimmed.json")
          : fixture((what.equals("os") || what.equals("jvm") ? "regionserver-" + what : what) + "-" + sample.get() + ".json");
      final byte[] body = text.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    http.start();
    return http;
  }

  /**
   * The embedded HBase's master and region server are one JVM: its JvmMetrics and OperatingSystem
   * beans are asked once per sample, through the first server, and its /conf once per run; both
   * rows carry the JVM's figures.
   */
  @Test
  void serversOfOneJvmReadItsOwnBeansOnce() throws Exception {
    final AtomicReference<String> sample = new AtomicReference<>("a");
    final Map<String, java.util.concurrent.atomic.AtomicInteger> asked = new java.util.concurrent.ConcurrentHashMap<>();
    final List<HttpServer> https = new ArrayList<>();
    for (String role : List.of("master", "regionserver")) {
      https.add(fakeInfoServer(role, "4242@h", sample, asked));
    }
    final Server master = new Server(Bean.Role.MASTER, "127.0.0.1", https.get(0).getAddress().getPort());
    final Server rs = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", https.get(1).getAddress().getPort());
    final Path csvPath = dir.resolve("server-metrics.csv");
    final Path notes = dir.resolve("server-metrics.json");
    try (java.io.Writer w = Files.newBufferedWriter(csvPath)) {
      final ServerMetricsSampler sampler = new ServerMetricsSampler(List.of(master, rs), new ServerMetricsCsv(w),
          new JmxClient(500, 800), notes, "given", 1000);
      sampler.readConfs();
      sampler.sampleOnce();
      sample.set("b");
      Thread.sleep(50);
      sampler.sampleOnce();
      sampler.writeNotes(true);
    } finally {
      https.forEach(h -> h.stop(0));
    }
    assertEquals("4242@h", master.jvm);
    assertEquals("4242@h", rs.jvm);
    assertEquals(30, rs.handlers);
    assertEquals(1, asked.get("conf").get(), "/conf once for the JVM");
    assertEquals(2, asked.get("jvm").get(), "JvmMetrics once per sample");
    assertEquals(2, asked.get("os").get(), "OperatingSystem once per sample");
    assertEquals(2, asked.get("master-ipc").get());
    assertEquals(2, asked.get("regionserver-ipc").get());
    assertEquals(2, asked.get("regionserver-server").get());
    final List<Map<String, String>> rows = rows(Files.readString(csvPath));
    assertEquals(4, rows.size());
    assertEquals("master", rows.get(2).get("role"));
    assertEquals("regionserver", rows.get(3).get("role"));
    for (String column : List.of("gc_pause_ms_per_s", "process_cpu_pct", "host_load1")) {
      assertTrue(!rows.get(3).get(column).isEmpty(), column);
      assertEquals(rows.get(3).get(column), rows.get(2).get(column), column + ": the JVM's figure on both rows");
    }
    final String json = Files.readString(notes);
    assertTrue(json.contains("\"jmx_requests\": 10"), json);
    assertTrue(json.contains("\"jvm\": \"4242@h\""), json);
  }

  /** /proc/PID/stat of a process COMM with UTIME and STIME ticks (fields 14 and 15; started at tick 5000). */
  static void writeStat(Path proc, int pid, String comm, long utime, long stime) throws IOException {
    Files.createDirectories(proc.resolve(String.valueOf(pid)));
    final StringBuilder b = new StringBuilder(pid + " (" + comm + ") S");
    for (int field = 4; field <= 44; field++) {
      b.append(' ').append(field == 14 ? utime : field == 15 ? stime : field == 22 ? 5000 : 0);
    }
    Files.writeString(proc.resolve(pid + "/stat"), b + "\n");
  }

  @Test
  void aJvmOnThisMachineIsFoundByItsRuntimeNameAndReadFromProc() throws IOException {
    final Path proc = dir.resolve("proc");
    writeStat(proc, 777, "java", 1200, 300);
    writeStat(proc, 778, "bash", 1, 1);
    Files.writeString(proc.resolve("loadavg"), "0.42 0.30 0.20 2/345 999\n");
    // booted 1,000 s ago; pid 777 started at tick 5,000 (50 s after boot): 950 s ago
    Files.writeString(proc.resolve("uptime"), "1000.00 1800.00\n");
    final long started = System.currentTimeMillis() - 950_000;
    final LocalJvms local = new LocalJvms(proc, 100, "testhost");
    assertEquals(777, local.pidOf("777@testhost", started));
    assertEquals(777, local.pidOf("777@testhost", started + 1500), "within the slack");
    assertNull(local.pidOf("777@testhost", started - 60_000), "pid 777 here is another process (a container's JVM of the same name)");
    assertNull(local.pidOf("777@testhost", null), "no start time: not known to be this machine's");
    assertNull(local.pidOf("777@otherhost", started), "another machine's JVM");
    assertNull(local.pidOf("778@testhost", started), "not a java process");
    assertNull(local.pidOf("779@testhost", started), "no such process");
    assertNull(local.pidOf(null, started));
    assertNull(local.pidOf("testhost", started));
    final Map<String, Double> os = local.osValues(777);
    assertEquals(1500 * 1e7, os.get("ProcessCpuTime"), 1e-3, "1,500 ticks of 10 ms in ns");
    assertEquals(0.42, os.get("SystemLoadAverage"));
    assertNull(local.osValues(779));
  }

  /** A server whose JVM runs here: its OperatingSystem bean is never asked; its figures come from /proc. */
  @Test
  void theProcessFiguresOfALocalJvmComeFromProcNotFromItsServer() throws Exception {
    final Path proc = dir.resolve("proc");
    writeStat(proc, 777, "java", 1000, 0);
    Files.writeString(proc.resolve("loadavg"), "1.25 0.30 0.20 2/345 999\n");
    Files.writeString(proc.resolve("uptime"), "1000.00 1800.00\n");
    final AtomicReference<String> sample = new AtomicReference<>("a");
    final Map<String, java.util.concurrent.atomic.AtomicInteger> asked = new java.util.concurrent.ConcurrentHashMap<>();
    final HttpServer http = fakeInfoServer("regionserver", "777@testhost", sample, asked);
    final Server rs = new Server(Bean.Role.REGIONSERVER, "127.0.0.1", http.getAddress().getPort());
    final Path csvPath = dir.resolve("server-metrics.csv");
    try (java.io.Writer w = Files.newBufferedWriter(csvPath)) {
      final ServerMetricsSampler sampler = new ServerMetricsSampler(List.of(rs), new ServerMetricsCsv(w), new JmxClient(500, 800),
          dir.resolve("server-metrics.json"), "given", 1000, new LocalJvms(proc, 100, "testhost"));
      sampler.readConfs();
      sampler.sampleOnce();
      sample.set("b");
      writeStat(proc, 777, "java", 1020, 10);   // 30 ticks: 0.3 s of CPU
      Thread.sleep(300);
      sampler.sampleOnce();
      sampler.writeNotes(true);
    } finally {
      http.stop(0);
    }
    assertEquals(777, rs.localPid);
    assertNull(asked.get("os"), "the OperatingSystem bean is not asked of a JVM on this machine");
    assertEquals(2, asked.get("jvm").get());
    final List<Map<String, String>> rows = rows(Files.readString(csvPath));
    assertEquals("1.25", rows.get(1).get("host_load1"));
    // 0.3 s of CPU over the 300-400 ms between the two reads of /proc: 75-100% of a core
    final double pct = Double.parseDouble(rows.get(1).get("process_cpu_pct"));
    assertTrue(pct > 70 && pct <= 100.001, "process CPU " + pct);
    assertTrue(Files.readString(dir.resolve("server-metrics.json")).contains("\"process_from_proc\": true"));
  }
}
