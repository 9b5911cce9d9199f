package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Brings tables to the same state before a measured run: their memstores flushed and no compaction
 * running or queued. A benchmark that runs two tools one after the other on one HBase otherwise
 * measures whoever comes second against the first one's writes: a memstore that reaches its flush
 * size in the middle of a run (all regions at once with uniform keys), and the compactions the
 * flushes ask for. After a flush, every run of put starts with empty memstores; a 30 s run of puts
 * at this machine's rates writes well under a region's flush size, so none flushes inside a run.
 */
final class TableSettle {
  /** Polls between which no compaction may be seen before the tables count as settled. */
  static final int QUIET_POLLS = 3;
  static final long POLL_MILLIS = 300;

  private TableSettle() {
  }

  /**
   * Decides from successive looks at the tables' compaction states when they are settled: none
   * compacting in {@link #QUIET_POLLS} looks in a row. A region counts a compaction once one is
   * selected for it: a user's request at once, the compaction a flush asks for only when a
   * compaction thread takes it up, a moment after the flush has returned, so one quiet look is not
   * enough. The regions of one table follow each other on the compaction threads without a gap
   * the looks would fall into; one queued behind another table's compaction is not seen.
   */
  static final class Settling {
    private int quiet;
    private String busy = "";

    /** True once the tables have been seen quiet often enough in a row. */
    boolean observe(Map<String, CompactionState> states) {
      final List<String> compacting = new ArrayList<>();
      states.forEach((table, state) -> {
        if (state != CompactionState.NONE) {
          compacting.add(table + " " + state.name().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
      });
      if (compacting.isEmpty()) {
        quiet++;
      } else {
        quiet = 0;
        busy = String.join(", ", compacting);
      }
      return quiet >= QUIET_POLLS;
    }

    /** What was compacting at the last look that was not quiet ("" when none was). */
    String lastBusy() {
      return busy;
    }
  }

  /**
   * table-settle --zookeeper-port P --tables A,B --timeout S (the embedded HBase), or
   * table-settle --plan PLAN_JSON --timeout S (a run's table on the run's HBase, a real cluster's
   * hbase-site.xml included): flushes each table that exists, then waits until none compacts; one
   * line per table. Exit 1 with the reason in one line on stderr when HBase cannot be reached or the
   * compactions do not end within S seconds.
   */
  static int main(Map<String, String> options) throws LifecycleException {
    final int timeoutSeconds = RunArguments.positive("--timeout", Main.required(options, "--timeout"));
    final Settings settings;
    final List<String> names;
    if (options.containsKey("--plan")) {
      settings = PlanJson.settings(Json.read(Path.of(options.get("--plan"))));
      names = List.of(settings.text(Settings.Key.TABLE));
    } else {
      settings = Settings.ofRun(Map.of("hbaseload.zookeeper.port", Main.required(options, "--zookeeper-port")));
      names = SweepPlanner.split(Main.required(options, "--tables"), ",");
    }
    // Each call is bounded as the run's own are (hbaseload.timeout.ms): the flush is a procedure the
    // client polls, so no call lasts as long as the flush; waiting for it is bounded by --timeout.
    final Configuration conf = DirectTarget.configuration(settings);
    conf.setLong("hbase.client.sync.wait.timeout.msec", timeoutSeconds * 1000L);
    final long started = System.nanoTime();
    final long deadline = started + timeoutSeconds * 1_000_000_000L;
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin()) {
      final List<TableName> tables = new ArrayList<>();
      for (String name : names) {
        final TableName table = TableName.valueOf(name);
        if (!admin.tableExists(table)) {
          System.out.println("  " + name + ": no such table, nothing to settle");
          continue;
        }
        final long t = System.nanoTime();
        admin.flush(table); // synchronous: returns once the memstores are written out
        System.out.printf(Locale.ROOT, "  %s: flushed in %.1f s%n", name, (System.nanoTime() - t) / 1e9);
        tables.add(table);
      }
      final long waitStarted = System.nanoTime();
      final Settling settling = new Settling();
      while (true) {
        final Map<String, CompactionState> states = new LinkedHashMap<>();
        for (TableName table : tables) {
          states.put(table.getNameAsString(), admin.getCompactionState(table));
        }
        if (settling.observe(states)) {
          break;
        }
        if (System.nanoTime() > deadline) {
          System.err.printf(Locale.ROOT, "table-settle: still compacting after %d s: %s%n", timeoutSeconds, settling.lastBusy());
          return 1;
        }
        Thread.sleep(POLL_MILLIS);
      }
      System.out.printf(Locale.ROOT, "  settled in %.1f s (compactions waited for: %.1f s%s)%n", (System.nanoTime() - started) / 1e9,
          (System.nanoTime() - waitStarted) / 1e9, settling.lastBusy().isEmpty() ? "" : ", last seen: " + settling.lastBusy());
      return 0;
    } catch (IOException e) {
      System.err.println("table-settle: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      System.err.println("table-settle: interrupted");
      return 1;
    }
  }
}
