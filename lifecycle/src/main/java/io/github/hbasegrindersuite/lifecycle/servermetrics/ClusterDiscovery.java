package io.github.hbasegrindersuite.lifecycle.servermetrics;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A real cluster's servers, asked once at the start through the client's Admin with the run's own
 * client configuration (plan.json's properties, as the workers connect): the active master and its
 * info port, every live region server and its info port. Bounded to a few seconds; a cluster that
 * does not answer gives no servers and a note saying why, and the run goes on without them.
 * Servers that join during the run are not sampled.
 */
final class ClusterDiscovery {
  private static final int BOUND_MS = 5000;

  static final class Found {
    final List<Server> servers = new ArrayList<>();
    String note;
  }

  private ClusterDiscovery() {
  }

  static Found find(Path planJson) {
    final Found found = new Found();
    try {
      final JsonObject plan = JsonParser.parseString(Files.readString(planJson)).getAsJsonObject();
      final Map<String, String> properties = new java.util.LinkedHashMap<>();
      plan.getAsJsonObject("properties").entrySet().forEach(e -> properties.put(e.getKey(), e.getValue().getAsString()));
      final Configuration conf = DirectTarget.configuration(Settings.ofRun(properties));
      conf.setInt("hbase.client.retries.number", 1);
      conf.setInt("hbase.client.operation.timeout", BOUND_MS);
      conf.setInt("hbase.rpc.timeout", BOUND_MS);
      conf.setInt("zookeeper.session.timeout", BOUND_MS);
      try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
        final ClusterMetrics cluster = admin.getClusterMetrics(
            EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS, ClusterMetrics.Option.MASTER, ClusterMetrics.Option.MASTER_INFO_PORT));
        if (cluster.getMasterName() != null && cluster.getMasterInfoPort() > 0) {
          found.servers.add(new Server(Bean.Role.MASTER, cluster.getMasterName().getHostname(), cluster.getMasterInfoPort()));
        }
        for (Map.Entry<ServerName, ServerMetrics> e : cluster.getLiveServerMetrics().entrySet()) {
          if (e.getValue().getInfoServerPort() > 0) {
            found.servers.add(new Server(Bean.Role.REGIONSERVER, e.getKey().getHostname(), e.getValue().getInfoServerPort()));
          }
        }
        found.note = "discovered through the client's Admin: " + found.servers.size() + " server(s) (master and live region servers with an info port)";
      }
    } catch (Exception | LinkageError e) {
      found.note = "discovery failed, no server sampled: " + JmxSnapshot.oneLine(String.valueOf(e.getMessage()));
    }
    return found;
  }
}
