package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.Choice;
import io.github.hbasegrindersuite.worker.Settings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ShimBenchmark's command line. What the load is made of (the table, its rows and values, where
 * HBase and each path are) becomes the worker's own hbaseload.* settings, validated by
 * {@link Settings}: one Settings per path, {@link #settingsFor}. The rest says how long and how
 * hard to run, and what to judge.
 */
final class BenchOptions {
  static final String TARGET_SYNTAX = "NAME=direct|thrift:PORT[:" + choices(SettingChoices.ThriftTransport.class)
      + "[:" + choices(SettingChoices.ThriftProtocol.class) + "]]";

  /** Path name -> its spec: direct, or thrift:PORT[:transport[:protocol]]. */
  final Map<String, String> targets = new LinkedHashMap<>();
  /** Processes whose CPU time is sampled around every slice (name = pid); "bench" is added. */
  final Map<String, Long> cpuPids = new LinkedHashMap<>();
  int zkPort = 2181;
  int threads = 8;
  int seconds = 3;
  int rounds = 6;
  int warmupSeconds = 15;
  int rows = 20_000;
  int valueSize = 1000;
  int regions = 8;
  String table = "shim_bench";
  boolean recreateTable;
  String check = "shim";
  double minRatio = 1.0;
  double maxAddedMedianUs = 200;
  int shimMetricsPort = -1;
  double pacedFraction = 0.5;
  double pacedRate = -1;
  boolean uncorrected;

  /** @throws IllegalArgumentException with a one-line reason */
  static BenchOptions parse(String[] args) {
    BenchOptions o = new BenchOptions();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--zk-port" -> o.zkPort = Integer.parseInt(v);
        case "--target" -> {
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--target " + TARGET_SYNTAX);
          }
          o.targets.put(v.substring(0, eq), v.substring(eq + 1));
        }
        case "--threads" -> o.threads = Integer.parseInt(v);
        case "--seconds" -> o.seconds = Integer.parseInt(v);
        case "--rounds" -> o.rounds = Integer.parseInt(v);
        case "--warmup-seconds" -> o.warmupSeconds = Integer.parseInt(v);
        case "--rows" -> o.rows = Integer.parseInt(v);
        case "--value-size" -> o.valueSize = Integer.parseInt(v);
        case "--regions" -> o.regions = Integer.parseInt(v);
        case "--table" -> o.table = v;
        case "--recreate-table" -> o.recreateTable = bool(a, v);
        case "--check" -> o.check = v;
        case "--min-ratio" -> o.minRatio = Double.parseDouble(v);
        case "--max-added-median-us" -> o.maxAddedMedianUs = Double.parseDouble(v);
        case "--shim-metrics-port" -> o.shimMetricsPort = Integer.parseInt(v);
        case "--paced-fraction" -> o.pacedFraction = Double.parseDouble(v);
        case "--paced-rate" -> o.pacedRate = Double.parseDouble(v);
        case "--uncorrected" -> o.uncorrected = bool(a, v);
        case "--cpu" -> {
          int at = v.indexOf('=');
          if (at <= 0) {
            throw new IllegalArgumentException("--cpu NAME=PID");
          }
          o.cpuPids.put(v.substring(0, at), Long.parseLong(v.substring(at + 1)));
        }
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (o.targets.isEmpty()) {
      throw new IllegalArgumentException("no --target given");
    }
    if (o.threads < 1 || o.seconds < 1 || o.rounds < 1 || o.seconds > 600 || o.rounds > 50 || o.threads > 256
        || o.warmupSeconds < 0 || o.warmupSeconds > 600 || o.valueSize < 1
        || o.pacedFraction < 0 || o.pacedFraction > 1 || o.pacedRate > 1_000_000) {
      throw new IllegalArgumentException("out of range: threads 1..256, seconds 1..600, rounds 1..50, warm-up 0..600,"
          + " value size >= 1, paced fraction 0..1, paced rate <= 1000000");
    }
    for (String name : o.targets.keySet()) {
      o.settingsFor(name); // a bad spec or setting fails here, before anything starts
    }
    return o;
  }

  private static boolean bool(String option, String value) {
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(option + " " + value + ": true or false");
    }
    return value.equals("true");
  }

  private static <E extends Enum<E> & Choice> String choices(Class<E> type) {
    return Choice.labels(type).replace(", ", "|");
  }

  /** --paced-rate N, or (unset) a non-zero --paced-fraction. */
  boolean equalLoadWanted() {
    return pacedRate > 0 || (pacedRate < 0 && pacedFraction > 0);
  }

  /**
   * What every path shares: the table and its rows as TablePreparer makes them (the suite's
   * layout: zero-padded decimal keys, family f, qualifier v), ZooKeeper, a 30 s bound on calls.
   */
  Settings tableSettings() {
    return Settings.load(base());
  }

  private Map<String, String> base() {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("hbaseload.table", table);
    given.put("hbaseload.rows", String.valueOf(rows));
    given.put("hbaseload.value.size", String.valueOf(valueSize));
    given.put("hbaseload.regions", String.valueOf(regions));
    given.put("hbaseload.zookeeper.quorum", "127.0.0.1");
    given.put("hbaseload.zookeeper.port", String.valueOf(zkPort));
    given.put("hbaseload.timeout.ms", "30000");
    return given;
  }

  /** The settings a path's clients are made from: the table's, plus its target. */
  Settings settingsFor(String path) {
    String spec = targets.get(path);
    Map<String, String> given = base();
    if (spec.equals("direct")) {
      given.put("hbaseload.target", "direct");
    } else if (spec.startsWith("thrift:")) {
      String[] p = spec.split(":");
      if (p.length < 2 || p.length > 4) {
        throw new IllegalArgumentException("target spec '" + spec + "': " + TARGET_SYNTAX);
      }
      given.put("hbaseload.target", "thrift");
      given.put("hbaseload.thrift.port", p[1]);
      if (p.length > 2) {
        given.put("hbaseload.thrift.transport", p[2]);
      }
      if (p.length > 3) {
        given.put("hbaseload.thrift.protocol", p[3]);
      }
    } else {
      throw new IllegalArgumentException("target spec '" + spec + "': " + TARGET_SYNTAX);
    }
    return Settings.load(given);
  }
}
