package io.github.hbasegrindersuite.lifecycle.faults;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The move action: one region of the run's load table (hbaseload.table) moved from a region server
 * to the next live one by port (destination) through the HBase Admin, as ChaosMonkey's MoveRegionsOfTableAction does for
 * one region; bounded to {@value #BOUND_S} s. The client configuration is the run's own (the direct
 * target's, from plan.json's properties), so it finds the cluster the workers load.
 */
final class RegionMove {
  static final long BOUND_S = 60;

  private final Map<String, String> runProperties;

  RegionMove(Map<String, String> runProperties) {
    this.runProperties = runProperties;
  }

  /** Moves a region of the load table off the region server listening on RPC_PORT; says which and where. */
  String awayFrom(int rpcPort) throws IOException {
    final ExecutorService one = Executors.newSingleThreadExecutor(r -> {
      final Thread t = new Thread(r, "fault-move");
      t.setDaemon(true);
      return t;
    });
    try {
      final Future<String> move = one.submit(() -> move(rpcPort));
      return move.get(BOUND_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the move did not end within " + BOUND_S + " s");
    } catch (ExecutionException e) {
      throw new IOException(String.valueOf(e.getCause().getMessage()).replaceAll("\\s+", " "));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("the run ended while a region was moving");
    } finally {
      one.shutdownNow();
    }
  }

  /**
   * Where a region of the server on RPC_PORT goes: the live server next above it by port, or the
   * lowest when it is the highest (region server 1 to 2, 3 to 1). Fixed, so that a schedule knows
   * which server its move involves: the Admin lists servers in no set order, and a move to a server
   * the schedule pauses or stops a second later waits on it.
   */
  static Optional<ServerName> destination(List<ServerName> live, int rpcPort) {
    final List<ServerName> others = live.stream().filter(s -> s.getPort() != rpcPort)
        .sorted(java.util.Comparator.comparingInt(ServerName::getPort)).collect(java.util.stream.Collectors.toList());
    return others.stream().filter(s -> s.getPort() > rpcPort).findFirst().or(() -> others.stream().findFirst());
  }

  private String move(int rpcPort) throws IOException {
    final Settings settings = Settings.ofRun(runProperties);
    final Configuration conf = DirectTarget.configuration(settings);
    // the workers' deadline (hbaseload.timeout.ms, 3 s in a fault test) is for their requests: the
    // master's move waits for the region to close and open, which a loaded cluster takes longer for
    final int bound = (int) TimeUnit.SECONDS.toMillis(BOUND_S);
    for (String key : List.of("hbase.rpc.timeout", "hbase.client.operation.timeout", "hbase.client.meta.operation.timeout")) {
      conf.setInt(key, Math.max(conf.getInt(key, 0), bound));
    }
    final TableName table = TableName.valueOf(settings.text("table"));
    final long connecting = System.nanoTime();
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      final List<ServerName> live = List.copyOf(admin.getRegionServers());
      final Optional<ServerName> from = live.stream().filter(s -> s.getPort() == rpcPort).findFirst();
      if (from.isEmpty()) {
        throw new IOException("no live region server on port " + rpcPort);
      }
      final Optional<ServerName> to = destination(live, rpcPort);
      if (to.isEmpty()) {
        throw new IOException("no other live region server to move a region to");
      }
      final Optional<RegionInfo> region = admin.getRegions(from.get()).stream().filter(r -> r.getTable().equals(table)).findFirst();
      if (region.isEmpty()) {
        throw new IOException(from.get().getAddress() + " holds no region of " + table);
      }
      final long started = System.nanoTime();
      admin.move(region.get().getEncodedNameAsBytes(), to.get());
      final HRegionLocation now = connection.getRegionLocator(table).getRegionLocation(region.get().getStartKey(), true);
      return String.format(Locale.ROOT, "region %s of %s moved to %s in %.1f s (%.1f s with the client's start)%s",
          region.get().getEncodedName(), table, to.get().getAddress(), (System.nanoTime() - started) / 1e9, (System.nanoTime() - connecting) / 1e9,
          now.getServerName().equals(to.get()) ? "" : " (yet located on " + now.getServerName().getAddress() + ")");
    }
  }
}
