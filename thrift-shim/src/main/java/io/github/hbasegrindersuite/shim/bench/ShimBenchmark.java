package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import io.github.hbasegrindersuite.worker.ErrorCounter;
import io.github.hbasegrindersuite.worker.Operation;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.SettingsException;
import io.github.hbasegrindersuite.worker.TablePreparer;
import io.github.hbasegrindersuite.worker.ValuePool;
import io.github.hbasegrindersuite.worker.targets.Target;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Closed-loop get and put throughput and latency through several paths to the same HBase, in
 * one invocation: the direct HBase Java client, HBase's own thrift2 gateway, and one or more
 * shims, each thrift path driven by HBase's generated THBaseService.Client (what stock users
 * have). The load is the worker's own engine ({@link Slice}: its Settings, targets, key
 * chooser, Driver and Pacer), N threads, uniform random keys over a table that the worker's
 * TablePreparer pre-splits and loads (the suite's layout). Slices are interleaved: every round
 * runs every path for every operation, in an order rotated per round, so slow drifts of a shared
 * machine hit all paths alike. Percentiles are nearest-rank over all rounds' requests.
 *
 * <p>Then an equal-load phase: the same threads, each paced to a fixed schedule, every path at one
 * offered rate that all of them sustain ({@code --paced-fraction} of the slowest path's
 * closed-loop throughput, or {@code --paced-rate}). At saturation a closed loop's latency is only
 * its throughput seen again (Little's law: median ~ threads / throughput), so the latency a layer
 * adds is read here, at equal load. Latency is the suite's one rule, IntendedStart's: from each
 * request's intended start (no coordinated omission); {@code --uncorrected true} also prints the
 * latency from the actual start, apart and named so (wrk2's -U), never judged.
 *
 * <p>Targets (exit 1 when missed): for the checked path, closed-loop throughput at least
 * {@code --min-ratio} times the gateway's, and equal-load median at most
 * {@code --max-added-median-us} above the direct client's, for get and for put (the closed-loop
 * median difference is printed beside it). Exit 2: bad arguments or no HBase.
 *
 * <pre>
 * ShimBenchmark --zk-port 2181 --target direct=direct --target gateway=thrift:9091
 *     --target shim=thrift:9092:buffered:binary [--threads 8] [--seconds 3] [--rounds 6]
 *     [--warmup-seconds 15] [--rows 20000] [--value-size 1000] [--regions 8] [--table shim_bench]
 *     [--recreate-table false] [--check shim] [--min-ratio 1.0] [--max-added-median-us 200]
 *     [--shim-metrics-port P] [--uncorrected false]
 *     [--paced-fraction 0.5 | --paced-rate OPS_PER_S] (0 = no equal-load phase)
 * </pre>
 */
public final class ShimBenchmark {

  private static final List<Operation> OPS = List.of(Operation.GET, Operation.PUT);

  private final PrintStream out = System.out;
  private final BenchOptions options;
  private final ProcessCpu cpu;
  private final ErrorCounter errorClasses = new ErrorCounter();
  /** Closed loop, and equal load (paced), by "op path". */
  private final Map<String, Totals> totals = new LinkedHashMap<>();
  private final Map<String, Totals> paced = new LinkedHashMap<>();
  /** The offered rate of the equal-load phase, per operation. */
  private final Map<Operation, Double> pacedRates = new LinkedHashMap<>();

  private ShimBenchmark(BenchOptions options) {
    this.options = options;
    this.cpu = new ProcessCpu(options.cpuPids);
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("ShimBenchmark: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(new ShimBenchmark(options).run());
  }

  private static String key(String path, Operation op) {
    return op.label() + " " + path;
  }

  private int run() throws Exception {
    options.cpuPids.put("bench", ProcessHandle.current().pid());
    List<String> names = new ArrayList<>(options.targets.keySet());
    long total = (long) names.size() * OPS.size()
        * (options.warmupSeconds + (options.equalLoadWanted() ? 2L : 1L) * options.rounds * options.seconds);
    out.printf(Locale.ROOT, "ShimBenchmark: %d threads, %s, %d rounds x %d s per path and operation (warm-up %d s),"
            + " %d rows x %d bytes in %d regions; about %d s%n", options.threads, String.join(", ", names), options.rounds,
        options.seconds, options.warmupSeconds, options.rows, options.valueSize, options.regions, total);
    Settings table = options.tableSettings();
    try {
      prepare(new TablePreparer(table));
    } catch (Exception e) {
      String hint = e instanceof SettingsException ? " (for this benchmark's table: --recreate-table true)" : "";
      System.err.println("ShimBenchmark: cannot prepare table " + options.table + " at ZooKeeper 127.0.0.1:"
          + options.zkPort + ": " + e.getMessage() + hint);
      return 2;
    }
    ValuePool values = ValuePool.of(table, table.integer(Settings.Key.SEED));
    Slice slice = new Slice(values, errorClasses, cpu, new SplittableRandom(table.integer(Settings.Key.SEED)));
    Map<String, BenchPath> paths = new LinkedHashMap<>();
    try {
      for (String n : names) {
        Settings settings = options.settingsFor(n);
        paths.put(n, new BenchPath(n, settings, Target.open(settings, values)));
        for (Operation op : OPS) {
          totals.put(key(n, op), new Totals());
          paced.put(key(n, op), new Totals());
        }
      }
      if (options.warmupSeconds > 0) {
        for (Operation op : OPS) {
          for (String n : names) {
            SliceResult r = slice.run(paths.get(n), op, options.threads, options.warmupSeconds, 0);
            progress("warm-up", op, n, r);
          }
        }
      }
      for (int round = 0; round < options.rounds; round++) {
        for (Operation op : OPS) {
          for (String n : rotated(names, round)) {
            SliceResult r = slice.run(paths.get(n), op, options.threads, options.seconds, 0);
            totals.get(key(n, op)).add(r);
            progress(String.format(Locale.ROOT, "round %d/%d", round + 1, options.rounds), op, n, r);
          }
        }
      }
      runEqualLoad(names, paths, slice);
    } finally {
      for (BenchPath path : paths.values()) {
        path.close();
      }
    }
    return report(names);
  }

  /**
   * Loads the table unless it already holds what the options ask for. One that holds something
   * else (or was made by an older benchmark, without TablePreparer's marker) is dropped and
   * reloaded only with --recreate-table true: the table may not be the benchmark's own.
   */
  private void prepare(TablePreparer preparer) throws Exception {
    try {
      preparer.prepare(false);
    } catch (SettingsException otherContents) {
      if (!options.recreateTable) {
        throw otherContents;
      }
      preparer.prepare(true);
    }
  }

  private static List<String> rotated(List<String> names, int round) {
    List<String> order = new ArrayList<>(names);
    Collections.rotate(order, -round);
    return order;
  }

  private void progress(String what, Operation op, String path, SliceResult r) {
    out.printf(Locale.ROOT, "  %s %-3s %-16s %9.0f ops/s  p50 %7.0f us%s%n", what, op.label(), path,
        r.throughput(), r.medianMicros(), r.errors() > 0 ? "  errors " + r.errors() : "");
  }

  /** Every path at one offered rate per operation, paced, rounds interleaved as above. */
  private void runEqualLoad(List<String> names, Map<String, BenchPath> paths, Slice slice) throws Exception {
    if (!options.equalLoadWanted()) {
      return;
    }
    for (Operation op : OPS) {
      double slowest = Double.MAX_VALUE;
      for (String n : names) {
        slowest = Math.min(slowest, totals.get(key(n, op)).throughput());
      }
      pacedRates.put(op, options.pacedRate > 0 ? options.pacedRate
          : Math.max(options.threads, Math.floor(slowest * options.pacedFraction)));
    }
    out.printf(Locale.ROOT, "equal load: every path paced to get %.0f/s, put %.0f/s (%s)%n", pacedRates.get(Operation.GET),
        pacedRates.get(Operation.PUT), options.pacedRate > 0 ? "--paced-rate"
            : String.format(Locale.ROOT, "%.2f x the slowest path's closed-loop throughput", options.pacedFraction));
    for (int round = 0; round < options.rounds; round++) {
      for (Operation op : OPS) {
        for (String n : rotated(names, round)) {
          SliceResult r = slice.run(paths.get(n), op, options.threads, options.seconds, pacedRates.get(op));
          paced.get(key(n, op)).add(r);
          progress(String.format(Locale.ROOT, "paced %d/%d", round + 1, options.rounds), op, n, r);
        }
      }
    }
  }

  private int report(List<String> names) {
    boolean equalLoad = !pacedRates.isEmpty();
    out.println();
    out.println("closed loop (" + options.threads + " threads, as fast as each path goes):");
    printLatencies(names, totals, t -> t.latency);
    printCpu(names, totals);
    if (equalLoad) {
      out.println();
      out.printf(Locale.ROOT, "equal load (%d threads paced to get %.0f/s, put %.0f/s on every path;"
              + " latency from the intended start):%n", options.threads, pacedRates.get(Operation.GET),
          pacedRates.get(Operation.PUT));
      printLatencies(names, paced, t -> t.latency);
      printCpu(names, paced);
      if (options.uncorrected) {
        out.println();
        out.println("equal load, uncorrected latency (from the actual start: a request's wait behind a late one"
            + " and the timer's wake-up left out; not judged):");
        printLatencies(names, paced, t -> t.uncorrected);
      }
    }
    out.println();
    boolean ok = true;
    boolean checked = false;
    for (String n : names) {
      if (n.equals("direct") || n.equals("gateway")) {
        continue;
      }
      boolean judged = n.equals(options.check);
      for (Operation op : OPS) {
        Totals mine = totals.get(key(n, op));
        Totals gateway = totals.get(key("gateway", op));
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", op.label(), n));
        if (gateway != null) {
          double ratio = mine.throughput() / gateway.throughput();
          List<String> perRound = new ArrayList<>();
          for (int r = 0; r < mine.perRound.size(); r++) {
            perRound.add(String.format(Locale.ROOT, "%.2f", mine.perRound.get(r) / gateway.perRound.get(r)));
          }
          boolean pass = ratio >= options.minRatio;
          line.append(String.format(Locale.ROOT, " throughput / gateway = %.3f (per round %s)%s", ratio,
              String.join(" ", perRound), verdict(judged, pass, ">= " + options.minRatio)));
          if (judged) {
            ok &= pass;
            checked = true;
          }
        }
        if (totals.containsKey(key("direct", op))) {
          // judged at equal load when there was one, else in the closed loop
          double saturated = addedMedianUs(totals, n, op);
          double added = equalLoad ? addedMedianUs(paced, n, op) : saturated;
          boolean pass = added <= options.maxAddedMedianUs;
          String verdict = verdict(judged, pass, "<= " + (long) options.maxAddedMedianUs);
          line.append(equalLoad
              ? String.format(Locale.ROOT, "; median - direct at equal load = %+.0f us%s (closed loop %+.0f us)",
                  added, verdict, saturated)
              : String.format(Locale.ROOT, "; median - direct (closed loop) = %+.0f us%s", added, verdict));
          if (judged) {
            ok &= pass;
            checked = true;
          }
        }
        out.println(line);
      }
    }
    if (equalLoad && names.contains("direct")) {
      printPerRoundDifferences(names);
    }
    if (errorClasses.total() > 0) {
      out.println("errors by class: " + errorClasses.summary());
    }
    if (options.shimMetricsPort > 0) {
      printShimMetrics();
    }
    if (!checked) {
      out.println("no targets checked (needs paths named direct, gateway and " + options.check + ")");
      return ok ? 0 : 1;
    }
    out.println(ok ? "targets met" : "TARGETS MISSED");
    return ok ? 0 : 1;
  }

  /**
   * Equal load, round by round: each path's median minus the direct client's in the same round,
   * from the intended start (as judged) and uncorrected. Shown beside the judged figure (the
   * medians of all rounds' requests pooled), not judged: on a shared machine the per-round
   * differences and their spread say how far a pooled difference can be trusted.
   */
  private void printPerRoundDifferences(List<String> names) {
    out.println();
    out.println("equal load, round by round: median - direct median of the same round (median of the rounds,"
        + " nearest rank; range; not judged):");
    for (String n : names) {
      if (n.equals("direct")) {
        continue;
      }
      for (Operation op : OPS) {
        Totals mine = paced.get(key(n, op));
        Totals direct = paced.get(key("direct", op));
        out.printf(Locale.ROOT, "%-4s %-16s intended %s%n", op.label(), n,
            Totals.perRoundDifferences(mine.perRoundP50, direct.perRoundP50).describe());
        out.printf(Locale.ROOT, "%-4s %-16s uncorrected %s%n", "", "",
            Totals.perRoundDifferences(mine.perRoundUncorrectedP50, direct.perRoundUncorrectedP50).describe());
      }
    }
  }

  private static String verdict(boolean judged, boolean pass, String target) {
    return judged ? (pass ? " [ok " + target + "]" : " [MISSED: target " + target + "]") : "";
  }

  /** The path's median minus the direct client's, from the intended start. */
  private static double addedMedianUs(Map<String, Totals> phase, String path, Operation op) {
    return (phase.get(key(path, op)).latency.snapshot().percentileNanos(50)
        - phase.get(key("direct", op)).latency.snapshot().percentileNanos(50)) / 1000.0;
  }

  private void printLatencies(List<String> names, Map<String, Totals> phase, Function<Totals, Histogram> which) {
    out.printf(Locale.ROOT, "%-4s %-16s %10s %9s %9s %9s %9s %8s%n", "op", "path", "ops/s", "p50_us", "p90_us",
        "p99_us", "mean_us", "errors");
    for (Operation op : OPS) {
      for (String n : names) {
        Totals t = phase.get(key(n, op));
        Histogram.Snapshot s = which.apply(t).snapshot();
        out.printf(Locale.ROOT, "%-4s %-16s %10.0f %9.0f %9.0f %9.0f %9.0f %8d%n", op.label(), n, t.throughput(),
            s.percentileNanos(50) / 1000.0, s.percentileNanos(90) / 1000.0, s.percentileNanos(99) / 1000.0,
            s.meanNanos() / 1000.0, t.errors);
      }
    }
  }

  private void printCpu(List<String> names, Map<String, Totals> phase) {
    if (cpu.isEmpty()) {
      return;
    }
    StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", "op", "path"));
    for (String p : cpu.names()) {
      h.append(String.format(Locale.ROOT, " %12s", p));
    }
    out.println(h.append("   (CPU microseconds per request, by process)"));
    for (Operation op : OPS) {
      for (String n : names) {
        Totals t = phase.get(key(n, op));
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", op.label(), n));
        for (String p : cpu.names()) {
          Long ticks = t.cpuTicks.get(p);
          line.append(ticks == null || t.count == 0 ? String.format(Locale.ROOT, " %12s", "-")
              : String.format(Locale.ROOT, " %12.1f", ticks * 1e6 / ProcessCpu.TICKS_PER_SECOND / t.count));
        }
        out.println(line);
      }
    }
  }

  /** The checked shim's own split (whole call vs HBase call inside), warm-up included. */
  private void printShimMetrics() {
    try {
      java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + options.shimMetricsPort + "/metrics.csv"))
              .timeout(java.time.Duration.ofSeconds(10)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      out.println();
      out.println("inside " + options.check + " (its /metrics.csv, warm-up included; call = request read to response flushed,"
          + " hbase = the HBase client call within it):");
      for (String line : r.body().split("\n")) {
        if (line.startsWith("op,") || line.startsWith("get,") || line.startsWith("put,")) {
          out.println("  " + line);
        }
      }
    } catch (Exception e) {
      out.println("(could not read the shim's metrics: " + e + ")");
    }
  }
}
