package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;

/**
 * Spreads each of a sweep's tables evenly over the local cluster's region servers after the sweep
 * restarted it at another size (sweep.server.regionservers). Where a restarted master puts each
 * region is its own choice (kept on the server of the same address when there is one, else round
 * robin or at random, by version and state), and its balancer runs only every few minutes: a point
 * at N servers must not depend on that. Moves as few regions as an even spread needs, through the
 * Admin, and waits until the locations say so; a table already even moves nothing.
 */
final class ClusterSpread {
  private ClusterSpread() {
  }

  /** One region: its encoded name and the server ("host:port") holding it now (null: none). */
  record Held(String region, String server) {
  }

  /** A region to move and where. */
  record Move(String region, String from, String to) {
  }

  /**
   * The fewest moves that leave every server holding REGIONS.size() / n regions or one more (the
   * first servers in SERVERS' order get the extra ones): each server keeps its first regions up to
   * its share, in REGIONS' order; the rest, and regions held by no listed server, go to the servers
   * below their share, in order.
   */
  static List<Move> plan(List<Held> regions, List<String> servers) {
    final int n = servers.size();
    if (n == 0) {
      return List.of();
    }
    final Map<String, Integer> share = new LinkedHashMap<>();
    final Map<String, Integer> kept = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      share.put(servers.get(i), regions.size() / n + (i < regions.size() % n ? 1 : 0));
      kept.put(servers.get(i), 0);
    }
    final List<Held> away = new ArrayList<>();
    for (Held h : regions) {
      if (h.server() != null && kept.containsKey(h.server()) && kept.get(h.server()) < share.get(h.server())) {
        kept.merge(h.server(), 1, Integer::sum);
      } else {
        away.add(h);
      }
    }
    final List<Move> moves = new ArrayList<>();
    int s = 0;
    for (Held h : away) {
      while (kept.get(servers.get(s)) >= share.get(servers.get(s))) {
        s++;
      }
      kept.merge(servers.get(s), 1, Integer::sum);
      moves.add(new Move(h.region(), h.server(), servers.get(s)));
    }
    return moves;
  }

  /** "3/3/3": the regions each server holds, in SERVERS' order, after MOVES. */
  static String counts(List<Held> regions, List<Move> moves, List<String> servers) {
    final Map<String, String> at = new LinkedHashMap<>();
    regions.forEach(h -> at.put(h.region(), h.server()));
    moves.forEach(m -> at.put(m.region(), m.to()));
    final List<String> out = new ArrayList<>();
    for (String server : servers) {
      out.add(String.valueOf(at.values().stream().filter(server::equals).count()));
    }
    return String.join("/", out);
  }

  /**
   * cluster-spread --zookeeper-port P --wait N --tables A,B --timeout S: first waits until N region
   * servers are live and have reported (ClusterReady: the master gives regions to no other), then a
   * line per table (absent tables are said and skipped: the sweep makes them later, spread by their
   * creation); exit 1 when the servers are not ready or the regions not where they should be within
   * S seconds, with the reason in one line.
   */
  static int main(Map<String, String> options) throws LifecycleException {
    final int timeoutSeconds = RunArguments.positive("--timeout", Main.required(options, "--timeout"));
    final int wanted = RunArguments.positive("--wait", Main.required(options, "--wait"));
    final List<String> tables = SweepPlanner.split(Main.required(options, "--tables"), ",");
    final Settings settings = Settings.ofRun(Map.of("hbaseload.zookeeper.port", Main.required(options, "--zookeeper-port"),
        "hbaseload.timeout.ms", "10000"));
    final long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
        Admin admin = connection.getAdmin()) {
      ClusterReady.await(admin, wanted, deadline);
      final List<String> servers = new ArrayList<>();
      final Map<String, ServerName> byAddress = new LinkedHashMap<>();
      admin.getRegionServers().stream().sorted(Comparator.comparingInt(ServerName::getPort)).forEach(sn -> {
        servers.add(sn.getAddress().toString());
        byAddress.put(sn.getAddress().toString(), sn);
      });
      for (String name : tables) {
        final TableName table = TableName.valueOf(name);
        if (!admin.tableExists(table)) {
          System.out.println("  " + name + ": not made yet (its creation spreads it)");
          continue;
        }
        final long started = System.nanoTime();
        final List<Held> held = settled(connection, admin, table, deadline);
        final List<Move> moves = plan(held, servers);
        for (Move m : moves) {
          admin.move(m.region().getBytes(java.nio.charset.StandardCharsets.UTF_8), byAddress.get(m.to()));
        }
        final List<Held> now = moves.isEmpty() ? held : arrived(connection, admin, table, moves, deadline);
        System.out.printf(Locale.ROOT, "  %s: %d regions over %d region servers, %s (%d moved in %.1f s)%n", name, held.size(),
            servers.size(), counts(now, List.of(), servers), moves.size(), (System.nanoTime() - started) / 1e9);
      }
      return 0;
    } catch (ClusterReady.NotReady e) {
      System.out.println("SPREAD_FAILURE='" + wanted + " region servers not ready for regions: " + e.getMessage().replace("'", "") + "'");
      return 1;
    } catch (IOException e) {
      System.out.println("SPREAD_FAILURE='" + String.valueOf(e.getMessage()).replaceAll("\\s+", " ").replace("'", "") + "'");
      return 1;
    }
  }

  /** The table's regions in start-key order with their servers, once none of the cluster's regions is in transition. */
  private static List<Held> settled(Connection connection, Admin admin, TableName table, long deadline) throws IOException {
    String last = "";
    while (System.nanoTime() < deadline) {
      final ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION));
      final List<Held> held = locations(connection, table);
      final long unplaced = held.stream().filter(h -> h.server() == null).count();
      if (metrics.getRegionStatesInTransition().isEmpty() && unplaced == 0) {
        return held;
      }
      last = metrics.getRegionStatesInTransition().size() + " region(s) in transition, " + unplaced + " of " + table + " without a server";
      pause();
    }
    throw new IOException(table + " not settled in time: " + last);
  }

  /** Waits until every move's region is located on its target; the table's regions then. */
  private static List<Held> arrived(Connection connection, Admin admin, TableName table, List<Move> moves, long deadline) throws IOException {
    String last = "";
    while (System.nanoTime() < deadline) {
      final List<Held> now = locations(connection, table);
      final Map<String, String> at = new LinkedHashMap<>();
      now.forEach(h -> at.put(h.region(), h.server()));
      final long waiting = moves.stream().filter(m -> !m.to().equals(at.get(m.region()))).count();
      if (waiting == 0) {
        return now;
      }
      last = waiting + " of " + moves.size() + " moves of " + table + " not done";
      pause();
    }
    throw new IOException("the regions did not move in time: " + last);
  }

  private static List<Held> locations(Connection connection, TableName table) throws IOException {
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      locator.clearRegionLocationCache();
      final List<Held> out = new ArrayList<>();
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        out.add(new Held(location.getRegion().getEncodedName(),
            location.getServerName() == null ? null : location.getServerName().getAddress().toString()));
      }
      return out;
    }
  }

  private static void pause() throws IOException {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }
}
