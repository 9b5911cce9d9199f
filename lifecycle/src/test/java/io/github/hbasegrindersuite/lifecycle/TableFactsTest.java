package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import io.github.hbasegrindersuite.lifecycle.servermetrics.JmxClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableFactsTest {
  @TempDir
  Path dir;

  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stopServers() {
    servers.forEach(s -> s.stop(0));
  }

  @Test
  void aFaultRunIsFiledUnderTheClusterItStartedWith() {
    assertEquals(3, TableFacts.sizeAtStart(JsonParser.parseString(
        "{\"faults\": {\"schedule\": \"at=10s kill regionserver=2\", \"regionservers\": 3, \"regionservers_down\": []}}").getAsJsonObject()));
    assertEquals(2, TableFacts.sizeAtStart(JsonParser.parseString(
        "{\"faults\": {\"schedule\": \"at=1s start regionserver=2\", \"regionservers\": 3, \"regionservers_down\": [2]}}").getAsJsonObject()));
    assertNull(TableFacts.sizeAtStart(JsonParser.parseString("{\"faults\": null}").getAsJsonObject()), "no schedule: as HBase counts at the end");
    assertNull(TableFacts.sizeAtStart(JsonParser.parseString("{}").getAsJsonObject()));
  }

  @Test
  void theTablesFactsAreSummedOverTheRegionServersMetrics() throws Exception {
    final String master = master(2);
    final String rs1 = regionServer(Map.of("Namespace_default_table_demo_metric_regionCount", 9,
        "Namespace_default_table_demo_metric_storeFileSize", 31_457_280L, // 30 MiB
        "Namespace_default_table_other_metric_regionCount", 40, "Namespace_hbase_table_meta_metric_regionCount", 1));
    final String rs2 = regionServer(Map.of("Namespace_default_table_demo_metric_regionCount", 7,
        "Namespace_default_table_demo_metric_storeFileSize", 5_347_738L)); // 5.1 MiB
    final Map<String, Object> facts = asMap(TableFacts.fromInfoServers(plan("demo", null), notes(master, rs1, rs2), http()));
    // 30 MiB + 5,347,738 B = 36,805,018 B = 35.1 MiB; the other table's 40 regions and meta's are not the run's
    assertEquals(Map.of("table.regions", 16L, "table.store_mb", 35.1, "table.source", "hbase", "table.via", "jmx",
        "cluster.region_servers", 2), facts);
  }

  @Test
  void aNamespacedTableAndAFaultRunsClusterSize() throws Exception {
    final String master = master(2);
    final String rs = regionServer(Map.of("Namespace_bench_table_t1_metric_regionCount", 4,
        "Namespace_bench_table_t1_metric_storeFileSize", 0L));
    final String rs2 = regionServer(Map.of("Namespace_bench_table_t1_metric_regionCount", 0,
        "Namespace_bench_table_t1_metric_storeFileSize", 0L));
    final Map<String, Object> facts = asMap(TableFacts.fromInfoServers(plan("bench:t1",
        "{\"regionservers\": 3, \"regionservers_down\": []}"), notes(master, rs, rs2), http()));
    assertEquals(4L, facts.get("table.regions"));
    assertEquals(0.0, facts.get("table.store_mb"));
    assertEquals(3, facts.get("cluster.region_servers"), "a fault run is filed under the size it started with");
    assertEquals(2, facts.get("cluster.region_servers_at_end"));
  }

  /** Whenever the servers' metrics may not cover the table, the finaliser asks the HBase client (null here). */
  @Test
  void theClientIsAskedWhenTheMetricsMayNotCoverTheTable() throws Exception {
    final Map<String, Object> demo = Map.of("Namespace_default_table_demo_metric_regionCount", 3,
        "Namespace_default_table_demo_metric_storeFileSize", 10L);
    final String rs = regionServer(demo);
    assertNull(TableFacts.fromInfoServers(plan("demo", null), notes(master(2), rs), http()),
        "the master counts a region server the sampler did not sample");
    assertNull(TableFacts.fromInfoServers(plan("demo", null), notes(master(2), rs, "127.0.0.1:" + closedPort()), http()),
        "a region server does not answer");
    assertNull(TableFacts.fromInfoServers(plan("demo", null), notes(master(1), regionServer(Map.of("x", 1))), http()),
        "no region server holds the table");
    assertNull(TableFacts.fromInfoServers(plan("demo", null), notes(master(1)), http()), "no region server sampled");
    assertNull(TableFacts.fromInfoServers(plan("demo", null), dir.resolve("absent.json"), http()), "no sampler ran");
    final Path garbled = dir.resolve("garbled.json");
    Files.writeString(garbled, "{\"servers\": 3}");
    assertNull(TableFacts.fromInfoServers(plan("demo", null), garbled, http()));
    assertEquals(Map.of("table.regions", 3L, "table.store_mb", 0.0, "table.source", "hbase", "table.via", "jmx",
        "cluster.region_servers", 1), asMap(TableFacts.fromInfoServers(plan("demo", null), notes(master(1), rs), http())),
        "the same region server, counted alone by its master, answers");
  }

  private static JmxClient http() {
    return new JmxClient(500, 800);
  }

  private static JsonObject plan(String table, String faults) {
    return JsonParser.parseString("{\"properties\": {\"hbaseload.table\": \"" + table + "\"}, \"faults\": " + faults + "}").getAsJsonObject();
  }

  private Path notes(String master, String... regionServers) throws IOException {
    final StringBuilder json = new StringBuilder("{\"servers\": [{\"server\": \"" + master + "\", \"role\": \"master\"}");
    for (String rs : regionServers) {
      json.append(", {\"server\": \"").append(rs).append("\", \"role\": \"regionserver\"}");
    }
    final Path file = Files.createTempFile(dir, "server-metrics", ".json");
    Files.writeString(file, json.append("]}").toString());
    return file;
  }

  private String master(int live) throws IOException {
    return serve("Hadoop:service=HBase,name=Master,sub=Server", "{\"beans\":[{\"name\":\"Hadoop:service=HBase,name=Master,sub=Server\","
        + "\"numRegionServers\":" + live + ",\"numDeadRegionServers\":0}]}");
  }

  private String regionServer(Map<String, ?> attributes) throws IOException {
    final StringBuilder bean = new StringBuilder("{\"beans\":[{\"name\":\"" + TableFacts.TABLES_BEAN + "\"");
    attributes.forEach((k, v) -> bean.append(",\"").append(k).append("\":").append(v));
    return serve(TableFacts.TABLES_BEAN, bean.append("}]}").toString());
  }

  /** An info server that answers /jmx?qry=BEAN with the given body and anything else with no bean. */
  private String serve(String bean, String body) throws IOException {
    final HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/jmx", exchange -> {
      final String q = java.net.URLDecoder.decode(String.valueOf(exchange.getRequestURI().getRawQuery()), StandardCharsets.UTF_8);
      final byte[] bytes = (q.equals("qry=" + bean) ? body : "{\"beans\":[]}").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    http.start();
    servers.add(http);
    return "127.0.0.1:" + http.getAddress().getPort();
  }

  private static int closedPort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static Map<String, Object> asMap(List<TableFacts.Fact> facts) {
    if (facts == null) {
      return null;
    }
    final Map<String, Object> m = new LinkedHashMap<>();
    facts.forEach(f -> m.put(f.object() + "." + f.key(), f.value()));
    return m;
  }
}
