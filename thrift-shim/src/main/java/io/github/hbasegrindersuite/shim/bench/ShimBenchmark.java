package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * Closed-loop get and put throughput and latency through several paths to the same HBase, in
 * one invocation: the direct HBase Java client, HBase's own thrift2 gateway, and one or more
 * shims, each thrift path driven by HBase's generated THBaseService.Client (what stock users
 * have). N threads, uniform random keys over a pre-split, pre-loaded table (the suite's layout:
 * zero-padded decimal keys, family f, qualifier v). Slices are interleaved: every round runs
 * every path for every operation, in an order rotated per round, so slow drifts of a shared
 * machine hit all paths alike. Percentiles are nearest-rank over all rounds' requests.
 *
 * <p>Then an equal-load phase: the same threads, each paced to a fixed schedule, every path at one
 * offered rate that all of them sustain ({@code --paced-fraction} of the slowest path's
 * closed-loop throughput, or {@code --paced-rate}). At saturation a closed loop's latency is only
 * its throughput seen again (Little's law: median ~ threads / throughput), so the latency a layer
 * adds is read here, at equal load. Latency is measured from the scheduled start when a thread is
 * behind schedule (no coordinated omission), from the actual start when it woke on time.
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
 *     [--check shim] [--min-ratio 1.0] [--max-added-median-us 200] [--shim-metrics-port P]
 *     [--paced-fraction 0.5 | --paced-rate OPS_PER_S] (0 = no equal-load phase)
 * </pre>
 */
public final class ShimBenchmark {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("v");
  private static final int KEY_WIDTH = 10;
  private static final String[] OPS = {"get", "put"};

  private final PrintStream out = System.out;
  private final Map<String, String> targets = new LinkedHashMap<>();
  private int zkPort = 2181;
  private int threads = 8;
  private int seconds = 3;
  private int rounds = 6;
  private int warmupSeconds = 15;
  private int rows = 20_000;
  private int valueSize = 1000;
  private int regions = 8;
  private String table = "shim_bench";
  private String check = "shim";
  private double minRatio = 1.0;
  private double maxAddedMedianUs = 200;
  private int shimMetricsPort = -1;
  private double pacedFraction = 0.5;
  private double pacedRate = -1;
  /** Processes whose CPU time is sampled around every slice (name = pid); "bench" is added. */
  private final Map<String, Long> cpuPids = new LinkedHashMap<>();

  private ShimBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    ShimBenchmark b = new ShimBenchmark();
    try {
      b.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("ShimBenchmark: " + e.getMessage());
      System.exit(2);
    }
    System.exit(b.run());
  }

  private void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--zk-port": zkPort = Integer.parseInt(v); break;
        case "--target":
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--target NAME=direct|thrift:PORT[:buffered|framed[:binary|compact]]");
          }
          targets.put(v.substring(0, eq), v.substring(eq + 1));
          break;
        case "--threads": threads = Integer.parseInt(v); break;
        case "--seconds": seconds = Integer.parseInt(v); break;
        case "--rounds": rounds = Integer.parseInt(v); break;
        case "--warmup-seconds": warmupSeconds = Integer.parseInt(v); break;
        case "--rows": rows = Integer.parseInt(v); break;
        case "--value-size": valueSize = Integer.parseInt(v); break;
        case "--regions": regions = Integer.parseInt(v); break;
        case "--table": table = v; break;
        case "--check": check = v; break;
        case "--min-ratio": minRatio = Double.parseDouble(v); break;
        case "--max-added-median-us": maxAddedMedianUs = Double.parseDouble(v); break;
        case "--shim-metrics-port": shimMetricsPort = Integer.parseInt(v); break;
        case "--paced-fraction": pacedFraction = Double.parseDouble(v); break;
        case "--paced-rate": pacedRate = Double.parseDouble(v); break;
        case "--cpu":
          int at = v.indexOf('=');
          if (at <= 0) {
            throw new IllegalArgumentException("--cpu NAME=PID");
          }
          cpuPids.put(v.substring(0, at), Long.parseLong(v.substring(at + 1)));
          break;
        default: throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("no --target given");
    }
    if (threads < 1 || seconds < 1 || rounds < 1 || rows < regions || regions < 1 || valueSize < 1
        || seconds > 600 || rounds > 50 || threads > 256 || warmupSeconds < 0 || warmupSeconds > 600
        || pacedFraction < 0 || pacedFraction > 1 || pacedRate > 1_000_000) {
      throw new IllegalArgumentException("out of range: threads 1..256, seconds 1..600, rounds 1..50, warm-up 0..600,"
          + " rows >= regions >= 1, paced fraction 0..1, paced rate <= 1000000");
    }
  }

  // ------------------------------------------------------------------ clients

  /** One thread's connection to a path. */
  private interface Client extends AutoCloseable {
    void get(byte[] row) throws Exception;

    void put(byte[] row, byte[] value) throws Exception;

    @Override
    void close();
  }

  private static final class DirectClient implements Client {
    private final Table t;

    DirectClient(Connection c, TableName name) throws IOException {
      t = c.getTable(name);
    }

    @Override
    public void get(byte[] row) throws IOException {
      t.get(new Get(row));
    }

    @Override
    public void put(byte[] row, byte[] value) throws IOException {
      t.put(new Put(row).addColumn(FAMILY, QUALIFIER, value));
    }

    @Override
    public void close() {
      try {
        t.close();
      } catch (IOException ignored) {
        // done
      }
    }
  }

  /** HBase's generated thrift2 client, as a stock user would set it up. */
  private static final class ThriftClient implements Client {
    private final TTransport transport;
    private final THBaseService.Client api;
    private final ByteBuffer table;

    ThriftClient(String spec, String tableName) throws Exception {
      String[] p = spec.split(":");
      int port = Integer.parseInt(p[1]);
      boolean framed = p.length > 2 && p[2].equals("framed");
      boolean compact = p.length > 3 && p[3].equals("compact");
      TSocket socket = new TSocket(new TConfiguration(), "127.0.0.1", port, 30_000);
      transport = framed ? new TFramedTransport(socket) : socket;
      transport.open();
      TProtocol protocol = compact ? new TCompactProtocol(transport) : new TBinaryProtocol(transport);
      api = new THBaseService.Client(protocol);
      table = ByteBuffer.wrap(tableName.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void get(byte[] row) throws Exception {
      api.get(table, new TGet(ByteBuffer.wrap(row)));
    }

    @Override
    public void put(byte[] row, byte[] value) throws Exception {
      api.put(table, new TPut(ByteBuffer.wrap(row), Collections.singletonList(
          new TColumnValue(ByteBuffer.wrap(FAMILY), ByteBuffer.wrap(QUALIFIER), ByteBuffer.wrap(value)))));
    }

    @Override
    public void close() {
      transport.close();
    }
  }

  /** The HBase async client, blocking on each call (to compare the two client implementations). */
  private static final class AsyncClient implements Client {
    private final org.apache.hadoop.hbase.client.AsyncTable<?> t;

    AsyncClient(org.apache.hadoop.hbase.client.AsyncConnection c, TableName name) {
      t = c.getTable(name);
    }

    @Override
    public void get(byte[] row) throws Exception {
      t.get(new Get(row)).get();
    }

    @Override
    public void put(byte[] row, byte[] value) throws Exception {
      t.put(new Put(row).addColumn(FAMILY, QUALIFIER, value)).get();
    }

    @Override
    public void close() {
    }
  }

  private volatile org.apache.hadoop.hbase.client.AsyncConnection asyncConnection;
  private Configuration hbaseConf;

  private synchronized org.apache.hadoop.hbase.client.AsyncConnection asyncConnection() throws Exception {
    if (asyncConnection == null) {
      asyncConnection = ConnectionFactory.createAsyncConnection(hbaseConf).get();
    }
    return asyncConnection;
  }

  private Client open(String spec, Connection direct) throws Exception {
    if (spec.equals("direct")) {
      return new DirectClient(direct, TableName.valueOf(table));
    }
    if (spec.equals("direct-async")) {
      return new AsyncClient(asyncConnection(), TableName.valueOf(table));
    }
    if (spec.startsWith("thrift:")) {
      return new ThriftClient(spec, table);
    }
    throw new IllegalArgumentException("target spec '" + spec + "': direct | thrift:PORT[:transport[:protocol]]");
  }

  static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format("%0" + KEY_WIDTH + "d", i));
  }

  // ------------------------------------------------------------------ measurement

  /** What one path did for one operation, over all rounds. */
  private static final class Totals {
    final Histogram latency = new Histogram();
    long count;
    long errors;
    double seconds;
    final List<Double> perRound = new ArrayList<>();
    final Map<String, Long> cpuTicks = new LinkedHashMap<>();
  }

  /** utime + stime of a process in clock ticks (1/100 s on Linux), or -1 when unreadable. */
  static long cpuTicks(long pid) {
    try {
      String stat = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/" + pid + "/stat")),
          StandardCharsets.US_ASCII);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private Map<String, Long> sampleCpu() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : cpuPids.entrySet()) {
      m.put(e.getKey(), cpuTicks(e.getValue()));
    }
    return m;
  }

  /** Closed loop, and equal load (paced), by "op path". */
  private final Map<String, Totals> totals = new LinkedHashMap<>();
  private final Map<String, Totals> paced = new LinkedHashMap<>();
  /** The offered rate of the equal-load phase, per operation. */
  private final Map<String, Double> pacedRates = new LinkedHashMap<>();

  private static String key(String target, String op) {
    return op + " " + target;
  }

  /**
   * Runs one slice: all threads on one path and operation for the given time, in a closed loop
   * ({@code rate} 0) or each thread paced to rate / threads requests per second.
   */
  private double[] slice(String name, String op, int durationSeconds, double rate, Connection direct, Totals into)
      throws Exception {
    String spec = targets.get(name);
    Client[] clients = new Client[threads];
    for (int i = 0; i < threads; i++) {
      clients[i] = open(spec, direct);
    }
    Histogram[] hs = new Histogram[threads];
    long[] counts = new long[threads];
    long[] errors = new long[threads];
    CyclicBarrier start = new CyclicBarrier(threads + 1);
    AtomicLong lastEnd = new AtomicLong();
    Thread[] workers = new Thread[threads];
    long durationNanos = TimeUnit.SECONDS.toNanos(durationSeconds);
    long seed = System.nanoTime();
    long intervalNanos = rate > 0 ? (long) (1e9 * threads / rate) : 0;
    for (int i = 0; i < threads; i++) {
      final int t = i;
      hs[t] = new Histogram();
      workers[t] = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(seed * 31 + t);
        byte[] value = new byte[valueSize];
        for (int j = 0; j < valueSize; j++) {
          value[j] = (byte) random.nextInt(256);
        }
        Client c = clients[t];
        try {
          start.await();
        } catch (Exception e) {
          return;
        }
        long begin = System.nanoTime();
        long end = begin + durationNanos;
        long now = begin;
        long next = intervalNanos > 0 ? begin + random.nextLong(intervalNanos) : 0; // spread the threads
        boolean get = op.equals("get");
        while (now < end) {
          byte[] row = rowKey(random.nextInt(rows));
          long before;
          if (intervalNanos > 0) {
            if (next >= end) {
              break;
            }
            long early = next - System.nanoTime();
            if (early > 0) {
              LockSupport.parkNanos(early);
              before = System.nanoTime(); // woke on time: the timer's overshoot is not the path's
            } else {
              before = next; // behind schedule: the wait counts
            }
            next += intervalNanos;
          } else {
            before = System.nanoTime();
          }
          try {
            if (get) {
              c.get(row);
            } else {
              c.put(row, value);
            }
            now = System.nanoTime();
            hs[t].record(now - before);
            counts[t]++;
          } catch (Exception e) {
            errors[t]++;
            now = System.nanoTime();
            if (spec.startsWith("thrift:")) {
              c.close();
              try {
                c = open(spec, null);
                clients[t] = c;
              } catch (Exception reopen) {
                break;
              }
            }
          }
        }
        lastEnd.accumulateAndGet(System.nanoTime(), Math::max);
      }, "bench-" + name + "-" + t);
      workers[t].start();
    }
    Map<String, Long> cpuBefore = sampleCpu();
    start.await();
    long begin = System.nanoTime();
    for (Thread w : workers) {
      w.join(TimeUnit.SECONDS.toMillis(durationSeconds) + 60_000);
    }
    Map<String, Long> cpuAfter = sampleCpu();
    double elapsed = (Math.max(lastEnd.get(), begin) - begin) / 1e9;
    for (Client c : clients) {
      c.close();
    }
    long count = 0;
    long errs = 0;
    Histogram merged = new Histogram();
    for (int i = 0; i < threads; i++) {
      count += counts[i];
      errs += errors[i];
      merged.add(hs[i]);
    }
    if (into != null) {
      into.latency.add(merged);
      into.count += count;
      into.errors += errs;
      into.seconds += elapsed;
      into.perRound.add(count / elapsed);
      for (Map.Entry<String, Long> e : cpuBefore.entrySet()) {
        long after = cpuAfter.get(e.getKey());
        if (e.getValue() >= 0 && after >= 0) {
          into.cpuTicks.merge(e.getKey(), after - e.getValue(), Long::sum);
        }
      }
    }
    Histogram.Snapshot s = merged.snapshot();
    return new double[] {count / elapsed, s.percentileNanos(50) / 1000.0, errs};
  }

  // ------------------------------------------------------------------ table

  private void prepareTable(Connection c) throws IOException {
    TableName name = TableName.valueOf(table);
    try (Admin admin = c.getAdmin()) {
      if (!admin.tableExists(name)) {
        byte[][] splits = new byte[regions - 1][];
        for (int i = 1; i < regions; i++) {
          splits[i - 1] = rowKey((int) ((long) rows * i / regions));
        }
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splits);
        out.printf("created table %s (%d regions)%n", table, regions);
      }
    }
    try (Table t = c.getTable(name)) {
      Result last = t.get(new Get(rowKey(rows - 1)));
      Result first = t.get(new Get(rowKey(0)));
      if (!last.isEmpty() && !first.isEmpty() && last.getValue(FAMILY, QUALIFIER).length == valueSize) {
        out.printf("table %s already holds %d rows of %d bytes%n", table, rows, valueSize);
        return;
      }
    }
    long started = System.nanoTime();
    SplittableRandom random = new SplittableRandom(42);
    try (BufferedMutator m = c.getBufferedMutator(name)) {
      byte[] value = new byte[valueSize];
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < valueSize; j++) {
          value[j] = (byte) random.nextInt(256);
        }
        m.mutate(new Put(rowKey(i)).addColumn(FAMILY, QUALIFIER, value.clone()));
        if ((i + 1) % 20_000 == 0) {
          out.printf("  ... loading %s: %d of %d rows (%.0fs)%n", table, i + 1, rows, (System.nanoTime() - started) / 1e9);
        }
      }
    }
    out.printf("loaded %d rows of %d bytes into %s in %.1fs%n", rows, valueSize, table, (System.nanoTime() - started) / 1e9);
  }

  // ------------------------------------------------------------------ run

  private int run() throws Exception {
    cpuPids.put("bench", ProcessHandle.current().pid());
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.setLong("hbase.client.operation.timeout", 30_000);
    hbaseConf = conf;
    List<String> names = new ArrayList<>(targets.keySet());
    long total = (long) names.size() * OPS.length * (warmupSeconds + (equalLoadWanted() ? 2L : 1L) * rounds * seconds);
    out.printf(Locale.ROOT, "ShimBenchmark: %d threads, %s, %d rounds x %d s per path and operation (warm-up %d s),"
            + " %d rows x %d bytes in %d regions; about %d s%n", threads, String.join(", ", names), rounds, seconds,
        warmupSeconds, rows, valueSize, regions, total);
    try (Connection direct = ConnectionFactory.createConnection(conf)) {
      try {
        prepareTable(direct);
      } catch (IOException e) {
        System.err.println("ShimBenchmark: cannot prepare table " + table + " at ZooKeeper 127.0.0.1:" + zkPort + ": " + e);
        return 2;
      }
      for (String n : names) {
        for (String op : OPS) {
          totals.put(key(n, op), new Totals());
          paced.put(key(n, op), new Totals());
        }
      }
      if (warmupSeconds > 0) {
        for (String op : OPS) {
          for (String n : names) {
            double[] r = slice(n, op, warmupSeconds, 0, direct, null);
            out.printf(Locale.ROOT, "  warm-up %-3s %-16s %9.0f ops/s  p50 %7.0f us%s%n", op, n, r[0], r[1],
                r[2] > 0 ? "  errors " + (long) r[2] : "");
          }
        }
      }
      for (int round = 0; round < rounds; round++) {
        for (String op : OPS) {
          List<String> order = new ArrayList<>(names);
          Collections.rotate(order, -round);
          for (String n : order) {
            double[] r = slice(n, op, seconds, 0, direct, totals.get(key(n, op)));
            out.printf(Locale.ROOT, "  round %d/%d %-3s %-16s %9.0f ops/s  p50 %7.0f us%s%n", round + 1, rounds, op, n,
                r[0], r[1], r[2] > 0 ? "  errors " + (long) r[2] : "");
          }
        }
      }
      runEqualLoad(names, direct);
    }
    return report(names);
  }

  /** --paced-rate N, or (unset) a non-zero --paced-fraction. */
  private boolean equalLoadWanted() {
    return pacedRate > 0 || (pacedRate < 0 && pacedFraction > 0);
  }

  /** Every path at one offered rate per operation, paced, rounds interleaved as above. */
  private void runEqualLoad(List<String> names, Connection direct) throws Exception {
    if (!equalLoadWanted()) {
      return;
    }
    for (String op : OPS) {
      double slowest = Double.MAX_VALUE;
      for (String n : names) {
        Totals t = totals.get(key(n, op));
        slowest = Math.min(slowest, t.count / t.seconds);
      }
      pacedRates.put(op, pacedRate > 0 ? pacedRate : Math.max(threads, Math.floor(slowest * pacedFraction)));
    }
    out.printf(Locale.ROOT, "equal load: every path paced to get %.0f/s, put %.0f/s (%s)%n", pacedRates.get("get"),
        pacedRates.get("put"), pacedRate > 0 ? "--paced-rate"
            : String.format(Locale.ROOT, "%.2f x the slowest path's closed-loop throughput", pacedFraction));
    for (int round = 0; round < rounds; round++) {
      for (String op : OPS) {
        List<String> order = new ArrayList<>(names);
        Collections.rotate(order, -round);
        for (String n : order) {
          double[] r = slice(n, op, seconds, pacedRates.get(op), direct, paced.get(key(n, op)));
          out.printf(Locale.ROOT, "  paced %d/%d %-3s %-16s %9.0f ops/s  p50 %7.0f us%s%n", round + 1, rounds, op, n,
              r[0], r[1], r[2] > 0 ? "  errors " + (long) r[2] : "");
        }
      }
    }
  }

  private int report(List<String> names) {
    boolean equalLoad = !pacedRates.isEmpty();
    out.println();
    out.println("closed loop (" + threads + " threads, as fast as each path goes):");
    printLatencies(names, totals);
    printCpu(names, totals);
    if (equalLoad) {
      out.println();
      out.printf(Locale.ROOT, "equal load (%d threads paced to get %.0f/s, put %.0f/s on every path):%n", threads,
          pacedRates.get("get"), pacedRates.get("put"));
      printLatencies(names, paced);
      printCpu(names, paced);
    }
    out.println();
    boolean ok = true;
    boolean checked = false;
    for (String n : names) {
      if (n.equals("direct") || n.equals("gateway") || n.equals("direct-async")) {
        continue;
      }
      boolean judged = n.equals(check);
      for (String op : OPS) {
        Totals mine = totals.get(key(n, op));
        Totals gateway = totals.get(key("gateway", op));
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", op, n));
        if (gateway != null) {
          double ratio = (mine.count / mine.seconds) / (gateway.count / gateway.seconds);
          List<String> perRound = new ArrayList<>();
          for (int r = 0; r < mine.perRound.size(); r++) {
            perRound.add(String.format(Locale.ROOT, "%.2f", mine.perRound.get(r) / gateway.perRound.get(r)));
          }
          boolean pass = ratio >= minRatio;
          line.append(String.format(Locale.ROOT, " throughput / gateway = %.3f (per round %s)%s", ratio,
              String.join(" ", perRound), verdict(judged, pass, ">= " + minRatio)));
          if (judged) {
            ok &= pass;
            checked = true;
          }
        }
        if (totals.containsKey(key("direct", op))) {
          // judged at equal load when there was one, else in the closed loop
          double saturated = addedMedianUs(totals, n, op);
          double added = equalLoad ? addedMedianUs(paced, n, op) : saturated;
          boolean pass = added <= maxAddedMedianUs;
          String verdict = verdict(judged, pass, "<= " + (long) maxAddedMedianUs);
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
    if (shimMetricsPort > 0) {
      printShimMetrics();
    }
    if (!checked) {
      out.println("no targets checked (needs paths named direct, gateway and " + check + ")");
      return ok ? 0 : 1;
    }
    out.println(ok ? "targets met" : "TARGETS MISSED");
    return ok ? 0 : 1;
  }

  private static String verdict(boolean judged, boolean pass, String target) {
    return judged ? (pass ? " [ok " + target + "]" : " [MISSED: target " + target + "]") : "";
  }

  private static double addedMedianUs(Map<String, Totals> phase, String path, String op) {
    return (phase.get(key(path, op)).latency.snapshot().percentileNanos(50)
        - phase.get(key("direct", op)).latency.snapshot().percentileNanos(50)) / 1000.0;
  }

  private void printLatencies(List<String> names, Map<String, Totals> phase) {
    out.printf(Locale.ROOT, "%-4s %-16s %10s %9s %9s %9s %9s %8s%n", "op", "path", "ops/s", "p50_us", "p90_us",
        "p99_us", "mean_us", "errors");
    for (String op : OPS) {
      for (String n : names) {
        Totals t = phase.get(key(n, op));
        Histogram.Snapshot s = t.latency.snapshot();
        out.printf(Locale.ROOT, "%-4s %-16s %10.0f %9.0f %9.0f %9.0f %9.0f %8d%n", op, n, t.count / t.seconds,
            s.percentileNanos(50) / 1000.0, s.percentileNanos(90) / 1000.0, s.percentileNanos(99) / 1000.0,
            s.meanNanos() / 1000.0, t.errors);
      }
    }
  }

  private void printCpu(List<String> names, Map<String, Totals> phase) {
    if (cpuPids.isEmpty()) {
      return;
    }
    StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", "op", "path"));
    for (String p : cpuPids.keySet()) {
      h.append(String.format(Locale.ROOT, " %12s", p));
    }
    out.println(h.append("   (CPU microseconds per request, by process)"));
    for (String op : OPS) {
      for (String n : names) {
        Totals t = phase.get(key(n, op));
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-4s %-16s", op, n));
        for (String p : cpuPids.keySet()) {
          Long ticks = t.cpuTicks.get(p);
          line.append(ticks == null || t.count == 0 ? String.format(Locale.ROOT, " %12s", "-")
              : String.format(Locale.ROOT, " %12.1f", ticks * 10_000.0 / t.count));
        }
        out.println(line);
      }
    }
  }

  /** The checked shim's own split (whole call vs HBase call inside), warm-up included. */
  private void printShimMetrics() {
    try {
      java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + shimMetricsPort + "/metrics.csv"))
              .timeout(java.time.Duration.ofSeconds(10)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      out.println();
      out.println("inside " + check + " (its /metrics.csv, warm-up included; call = request read to response flushed,"
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
