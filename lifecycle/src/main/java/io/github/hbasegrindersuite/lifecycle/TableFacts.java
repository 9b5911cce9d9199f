package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The load table as HBase sees it once the run is over, for the manifest: its regions and store
 * size, and the number of live region servers. Asked through the direct target's own client configuration, with short bounds: a table
 * HBase cannot describe in a few seconds keeps its declared shape ("source": "declared").
 */
final class TableFacts {
  private static final int BOUND_MS = 5000;

  private TableFacts() {
  }

  static void fill(Manifest manifest, JsonObject plan) {
    try {
      final Map<String, String> properties = new java.util.LinkedHashMap<>();
      plan.getAsJsonObject("properties").entrySet().forEach(e -> properties.put(e.getKey(), e.getValue().getAsString()));
      final Settings settings = Settings.ofRun(properties);
      final Configuration conf = DirectTarget.configuration(settings);
      conf.setInt("hbase.client.retries.number", 1);
      conf.setInt("hbase.client.operation.timeout", BOUND_MS);
      conf.setInt("hbase.client.meta.operation.timeout", BOUND_MS);
      conf.setInt("hbase.rpc.timeout", BOUND_MS);
      conf.setInt("zookeeper.session.timeout", BOUND_MS);
      final TableName name = TableName.valueOf(settings.text("table"));
      try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
        if (!admin.tableExists(name)) {
          manifest.setIn("table", "source", "declared (HBase has no such table)");
          return;
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
        manifest.setIn("table", "regions", locations.size());
        manifest.setIn("table", "store_mb", Math.round(store * 10) / 10.0);
        manifest.setIn("table", "source", "hbase");
        // The cluster size the run met: the capacity model over region servers reads it. A fault run's
        // is the size it started with: a kill mid-run is its experiment, not a smaller cluster.
        final int live = admin.getRegionServers().size();
        final Integer atStart = sizeAtStart(plan);
        manifest.setIn("cluster", "region_servers", atStart == null ? live : atStart);
        if (atStart != null) {
          manifest.setIn("cluster", "region_servers_at_end", live);
        }
      }
    } catch (Exception | LinkageError e) {
      manifest.setIn("table", "source", "declared (HBase did not answer: " + Text.oneLine(String.valueOf(e.getMessage())) + ")");
    }
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
