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
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
        Admin admin = connection.getAdmin()) {
      System.out.println("READY='" + await(admin, wanted, deadline) + "'");
      return 0;
    } catch (NotReady e) {
      System.out.println("WAIT_FAILURE='" + wanted + " region servers not ready for regions after " + timeoutSeconds + " s: "
          + e.getMessage().replace("'", "") + "'");
      return 1;
    } catch (IOException e) {
      System.out.println("WAIT_FAILURE='" + wanted + " region servers not ready for regions after " + timeoutSeconds + " s: no connection to the cluster: "
          + String.valueOf(e.getMessage()).replaceAll("\\s+", " ").replace("'", "") + "'");
      return 1;
    }
  }

  /** The cluster not ready by the deadline; the message says what the master saw last. */
  static final class NotReady extends IOException {
    NotReady(String last) {
      super(last);
    }
  }

  /** Waits until WANTED region servers are live and have reported; the view's text then. */
  static String await(Admin admin, int wanted, long deadline) throws NotReady {
    String last = "the master not read yet";
    while (System.nanoTime() < deadline) {
      try {
        final ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
        final View view = view(metrics.getLiveServerMetrics());
        last = view.text();
        if (view.ready(wanted)) {
          return last;
        }
      } catch (IOException e) {
        last = "the master: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new NotReady(last);
  }
}
