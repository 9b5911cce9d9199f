package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Waits until the master would give regions to N region servers: each live and each with at least
 * one report to the master behind it. A region server the master has only registered is live in its
 * count ({@link ClusterLive}) but gets no region until its first report (HBASE-25032: the master
 * leaves it out of every assignment before that): a table made a second after a region server was
 * started again had its regions on the others only, and the kill of that server in the next run hit
 * nothing. Reads the master's view through the Admin (ClusterMetrics: each live server's last report).
 */
final class ClusterReady {
  private ClusterReady() {
  }

  /** The live servers as "host:port" and how many of them have reported; an exception when the master cannot be read. */
  record View(List<String> live, List<String> reported) {
    boolean ready(int wanted) {
      return live.size() >= wanted && reported.size() >= wanted;
    }

    String text() {
      final List<String> waiting = new ArrayList<>(live);
      waiting.removeAll(reported);
      return live.size() + " live, " + reported.size() + " reported" + (waiting.isEmpty() ? "" : " (not yet: " + String.join(", ", waiting) + ")");
    }
  }

  static View view(Map<ServerName, ServerMetrics> live) {
    final List<String> names = new ArrayList<>();
    final List<String> reported = new ArrayList<>();
    live.forEach((server, metrics) -> {
      names.add(server.getAddress().toString());
      if (metrics.getLastReportTimestamp() > 0) {
        reported.add(server.getAddress().toString());
      }
    });
    names.sort(null);
    reported.sort(null);
    return new View(names, reported);
  }

  /** cluster-ready --zookeeper-port P --wait N --timeout S: exit 0 once ready, 1 when time runs out. */
  static int main(Map<String, String> options) throws LifecycleException {
    final int wanted = RunArguments.positive("--wait", Main.required(options, "--wait"));
    final int timeoutSeconds = RunArguments.positive("--timeout", Main.required(options, "--timeout"));
    final Settings settings = Settings.ofRun(Map.of("hbaseload.zookeeper.port", Main.required(options, "--zookeeper-port"),
        "hbaseload.timeout.ms", "5000"));
    final long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    String last = "the master not read yet";
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
        Admin admin = connection.getAdmin()) {
      while (System.nanoTime() < deadline) {
        try {
          final ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
          final View view = view(metrics.getLiveServerMetrics());
          last = view.text();
          if (view.ready(wanted)) {
            System.out.println("READY='" + last + "'");
            return 0;
          }
        } catch (IOException e) {
          last = "the master: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
        }
        Thread.sleep(500);
      }
    } catch (IOException e) {
      last = "no connection to the cluster: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.out.println("WAIT_FAILURE='" + wanted + " region servers not ready for regions after " + timeoutSeconds + " s: " + last.replace("'", "") + "'");
    return 1;
  }
}
