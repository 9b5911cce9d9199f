package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.lifecycle.servermetrics.JmxClient;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.ipc.NettyRpcClientConfigHelper;
import org.apache.hbase.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioSocketChannel;
import org.apache.hbase.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The load table as HBase sees it once the run is over, for the manifest: its regions and store
 * size, and the number of live region servers. Read from the servers' own metrics when the run's
 * server-metrics sampler reached every one of them ("via": "jmx": a small HTTP request per server),
 * else asked through the direct target's own client configuration ("via": "client"), with short
 * bounds: a table HBase cannot describe in a few seconds keeps its declared shape ("source": "declared").
 */
final class TableFacts {
  private static final int BOUND_MS = 5000;
  /** A region server's per-table metrics (regions, store size) for every table it serves. */
  static final String TABLES_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Tables";

  private TableFacts() {
  }

  /** One fact for the manifest: {@code key} of its object {@code object} ("table" or "cluster"). */
  record Fact(String object, String key, Object value) {
  }

  /**
   * Asks HBase on a thread of its own: a JVM's first HBase connection takes about half a second,
   * which the finaliser spends reading the logs meanwhile.
   */
  static CompletableFuture<List<Fact>> ask(JsonObject plan, Path runDir) {
    final CompletableFuture<List<Fact>> facts = new CompletableFuture<>();
    final Thread asker = new Thread(() -> {
      try {
        final List<Fact> fromServers = fromInfoServers(plan, runDir.resolve("hbase").resolve("server-metrics.json"),
            new JmxClient(BOUND_MS / 5, BOUND_MS / 5));
        facts.complete(fromServers != null ? fromServers : read(plan));
      } catch (Throwable t) { // whatever ends this thread must still answer the finaliser's join
        facts.complete(List.of(new Fact("table", "source", "declared (asking HBase failed: " + t + ")")));
      }
    }, "table-facts");
    asker.setDaemon(true);
    asker.start();
    return facts;
  }

  static void fill(Manifest manifest, List<Fact> facts) {
    facts.forEach(f -> manifest.setIn(f.object(), f.key(), f.value()));
  }

  static List<Fact> read(JsonObject plan) {
    final List<Fact> facts = new ArrayList<>();
    try {
      final Settings settings = settings(plan);
      final Configuration conf = DirectTarget.configuration(settings);
      conf.setInt("hbase.client.retries.number", 1);
      conf.setInt("hbase.client.operation.timeout", BOUND_MS);
      conf.setInt("hbase.client.meta.operation.timeout", BOUND_MS);
      conf.setInt("hbase.rpc.timeout", BOUND_MS);
      conf.setInt("zookeeper.session.timeout", BOUND_MS);
      final TableName name = TableName.valueOf(settings.text("table"));
      // An event loop of its own, ended with the connection: HBase's shared one stays in epoll_wait,
      // and the JVM's exit waits 300 ms for any thread still in native code.
      final NioEventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory("table-facts-rpc", true));
      NettyRpcClientConfigHelper.setEventLoopConfig(conf, loop, NioSocketChannel.class);
      try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
        if (!admin.tableExists(name)) {
          return List.of(new Fact("table", "source", "declared (HBase has no such table)"));
        }
        final List<HRegionLocation> locations = connection.getRegionLocator(name).getAllRegionLocations();
        final Set<ServerName> servers = new HashSet<>();
        locations.forEach(l -> servers.add(l.getServerName()));
        double store = 0;
        for (ServerName server : servers) {
          for (RegionMetrics metrics : admin.getRegionMetrics(server, name)) {
            store += metrics.getStoreFileSize().get(Size.Unit.MEGABYTE);
          }
        }
        facts.add(new Fact("table", "regions", locations.size()));
        facts.add(new Fact("table", "store_mb", Math.round(store * 10) / 10.0));
        facts.add(new Fact("table", "source", "hbase"));
        facts.add(new Fact("table", "via", "client"));
        addClusterSize(facts, plan, admin.getRegionServers().size());
      } finally {
        loop.shutdownGracefully(0, BOUND_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(BOUND_MS);
      }
      return facts;
    } catch (Exception | LinkageError e) {
      return List.of(new Fact("table", "source", "declared (HBase did not answer: " + Text.oneLine(String.valueOf(e.getMessage())) + ")"));
    }
  }

  /**
   * The cluster size the run met: the capacity model over region servers reads it. A fault run's
   * is the size it started with: a kill mid-run is its experiment, not a smaller cluster.
   */
  private static void addClusterSize(List<Fact> facts, JsonObject plan, int live) {
    final Integer atStart = sizeAtStart(plan);
    facts.add(new Fact("cluster", "region_servers", atStart == null ? live : atStart));
    if (atStart != null) {
      facts.add(new Fact("cluster", "region_servers_at_end", live));
    }
  }

  /**
   * The facts from the info servers the run's sampler found (its server-metrics.json): the master's
   * live region server count and each region server's table metrics (bean {@value #TABLES_BEAN},
   * {@code Namespace_<ns>_table_<name>_metric_regionCount} and {@code _storeFileSize} in bytes,
   * refreshed every metrics period). An HBase client connection costs this JVM 0.6-0.8 s of CPU
   * and wall time at every run's end; these requests take milliseconds. Null, so that the client
   * is asked, when there is no such file, a server does not answer, the master counts region
   * servers the sampler did not sample, or none of them holds the table.
   */
  static List<Fact> fromInfoServers(JsonObject plan, Path serverMetricsJson, JmxClient http) {
    if (!Files.isRegularFile(serverMetricsJson)) {
      return null;
    }
    try {
      final JsonElement servers = Json.read(serverMetricsJson).get("servers");
      if (servers == null || !servers.isJsonArray()) {
        return null;
      }
      String master = null;
      final List<String> regionServers = new ArrayList<>();
      for (JsonElement s : servers.getAsJsonArray()) {
        final JsonObject server = s.getAsJsonObject();
        if ("master".equals(Json.text(server, "role"))) {
          master = Json.text(server, "server");
        } else if ("regionserver".equals(Json.text(server, "role"))) {
          regionServers.add(Json.text(server, "server"));
        }
      }
      if (master == null || regionServers.isEmpty()) {
        return null;
      }
      final ClusterLive.MasterView view = ClusterLive.parseMaster(http.get(jmx(master, ClusterLive.MASTER_BEAN)));
      if (view.live != regionServers.size()) {
        return null;
      }
      final String prefix = tableMetricPrefix(plan);
      long regions = 0;
      long storeBytes = 0;
      boolean found = false;
      for (String server : regionServers) {
        final JsonObject bean = ClusterLive.bean(http.get(jmx(server, TABLES_BEAN)));
        if (bean == null) {
          return null;
        }
        final JsonElement count = bean.get(prefix + "regionCount");
        final JsonElement size = bean.get(prefix + "storeFileSize");
        if (count != null && size != null) {
          found = true;
          regions += count.getAsLong();
          storeBytes += size.getAsLong();
        }
      }
      if (!found) {
        return null;
      }
      final List<Fact> facts = new ArrayList<>();
      facts.add(new Fact("table", "regions", regions));
      facts.add(new Fact("table", "store_mb", Math.round(storeBytes / (1024.0 * 1024.0) * 10) / 10.0));
      facts.add(new Fact("table", "source", "hbase"));
      facts.add(new Fact("table", "via", "jmx"));
      addClusterSize(facts, plan, view.live);
      return facts;
    } catch (IOException | RuntimeException | LifecycleException e) {
      return null;
    }
  }

  private static Settings settings(JsonObject plan) {
    final Map<String, String> properties = new java.util.LinkedHashMap<>();
    plan.getAsJsonObject("properties").entrySet().forEach(e -> properties.put(e.getKey(), e.getValue().getAsString()));
    return Settings.ofRun(properties);
  }

  private static URI jmx(String server, String bean) {
    return URI.create("http://" + server + "/jmx?qry=" + bean);
  }

  /** HBase's metric name prefix for the run's table: {@code Namespace_default_table_demo_metric_} for "demo". */
  static String tableMetricPrefix(JsonObject plan) {
    final TableName name = TableName.valueOf(settings(plan).text("table"));
    return "Namespace_" + name.getNamespaceAsString() + "_table_" + name.getQualifierAsString() + "_metric_";
  }

  /** A fault run's local cluster at its start (plan.json's faults: N less those down then); null for any other run. */
  static Integer sizeAtStart(JsonObject plan) {
    final com.google.gson.JsonElement faults = plan.get("faults");
    if (faults == null || !faults.isJsonObject() || !faults.getAsJsonObject().has("regionservers")) {
      return null;
    }
    final JsonObject f = faults.getAsJsonObject();
    final int down = f.has("regionservers_down") && f.get("regionservers_down").isJsonArray() ? f.getAsJsonArray("regionservers_down").size() : 0;
    return f.get("regionservers").getAsInt() - down;
  }

  static Map<String, Object> table(Manifest manifest) {
    @SuppressWarnings("unchecked")
    final Map<String, Object> table = (Map<String, Object>) manifest.get("table");
    return table;
  }
}
