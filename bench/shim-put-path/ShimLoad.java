import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

/**
 * Diagnostic load for issue 25 part 3 (not part of the suite): a fixed number of thrift2 gets or
 * puts through one or more thrift servers (stock THBaseService.Client over TSocket + binary, a
 * connection per thread, as the worker's ThriftTarget), paced or closed loop, the servers taking
 * turns in rounds, and each named process's CPU (utime + stime from /proc/PID/stat) over exactly
 * those requests: CPU microseconds per request by process, per round.
 *
 * <pre>
 * java -cp THRIFT_SHIM_CLASSPATH ShimLoad.java --target before=PORT --target after=PORT \
 *   --cpu before=PID --cpu after=PID --cpu hbase=PID --op put --requests 20000 --rate 1400 \
 *   --threads 8 --rounds 3 [--table shim_bench] [--rows 20000] [--value-size 1000] [--warmup 5000]
 * </pre>
 */
public final class ShimLoad {

  static final Map<String, Integer> targets = new LinkedHashMap<>();
  static final Map<String, Long> cpuPids = new LinkedHashMap<>();
  static String op = "put";
  static int requests = 20000;
  static int warmup = 5000;
  static double rate = 1400;
  static int threads = 8;
  static int rounds = 3;
  static String table = "shim_bench";
  static int rows = 20000;
  static int valueSize = 1000;
  static long pauseMillis = 0;
  /** Every target in the same slice (each with --threads threads at --rate), so that the machine's drift hits all alike. */
  static boolean together = false;

  public static void main(String[] args) throws Exception {
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--target" -> targets.put(v.split("=")[0], Integer.parseInt(v.split("=")[1]));
        case "--cpu" -> cpuPids.put(v.split("=")[0], Long.parseLong(v.split("=")[1]));
        case "--op" -> op = v;
        case "--requests" -> requests = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--rate" -> rate = Double.parseDouble(v);
        case "--threads" -> threads = Integer.parseInt(v);
        case "--rounds" -> rounds = Integer.parseInt(v);
        case "--table" -> table = v;
        case "--rows" -> rows = Integer.parseInt(v);
        case "--value-size" -> valueSize = Integer.parseInt(v);
        case "--pause-ms" -> pauseMillis = Long.parseLong(v);
        case "--together" -> together = Boolean.parseBoolean(v);
        default -> throw new IllegalArgumentException(args[i]);
      }
    }
    String[] ops = op.split(",");
    // the table's column: the first cell of row 0, read through the first target
    ByteBuffer family;
    ByteBuffer qualifier;
    try (Conn c = new Conn(targets.values().iterator().next())) {
      TResult r = c.client.get(ByteBuffer.wrap(table.getBytes(StandardCharsets.UTF_8)), new TGet(row(0)));
      if (r.getColumnValuesSize() == 0) {
        throw new IllegalStateException("row " + new String(row(0).array()) + " of " + table + " is empty: load the table first");
      }
      family = r.getColumnValues().get(0).bufferForFamily();
      qualifier = r.getColumnValues().get(0).bufferForQualifier();
    }
    System.out.printf(Locale.ROOT, "ShimLoad: %s, %d requests per slice (warm-up %d), %s, %d threads, %d rounds; load average %s%n",
        String.join(",", ops), requests, warmup, rate > 0 ? String.format(Locale.ROOT, "paced %.0f/s", rate) : "closed loop",
        threads, rounds, loadAverage());
    Map<String, List<Double>> perTarget = new LinkedHashMap<>();
    for (String o : ops) {
      for (String name : targets.keySet()) {
        run(name, targets.get(name), o, warmup, family, qualifier); // warm-up, unmeasured
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (String o : ops) {
        List<String> order = new ArrayList<>(targets.keySet());
        java.util.Collections.rotate(order, -round);
        Map<String, java.util.concurrent.Future<Result>> concurrent = new LinkedHashMap<>();
        if (together) {
          java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newCachedThreadPool();
          for (String name : order) {
            final String fo = o;
            concurrent.put(name, ex.submit(() -> run(name, targets.get(name), fo, requests, family, qualifier)));
          }
          ex.shutdown();
        }
        for (String name : order) {
          String profile = System.getenv("PROFILE_LIB");
          String profileFile = System.getenv("PROFILE_DIR") + "/" + o + "-" + name + "-" + (round + 1) + ".collapsed";
          if (profile != null && !together) {
            jcmd(cpuPids.get(name), profile, "start,event=cpu,interval=" + System.getenv().getOrDefault("PROFILE_INTERVAL", "1ms") + ",threads");
          }
          Result res = together ? concurrent.get(name).get() : run(name, targets.get(name), o, requests, family, qualifier);
          if (profile != null && !together) {
            jcmd(cpuPids.get(name), profile, "stop,file=" + profileFile + ",collapsed");
          }
          StringBuilder cpu = new StringBuilder();
          for (Map.Entry<String, Long> e : cpuPids.entrySet()) {
            double us = res.cpuTicks.get(e.getKey()) * 10_000.0 / res.count;
            double sw = res.switches.get(e.getKey()) / (double) res.count;
            cpu.append(String.format(Locale.ROOT, " %s=%.1f(%.2f sw)", e.getKey(), us, sw));
            perTarget.computeIfAbsent(o + " " + name + " switches:" + e.getKey(), k -> new ArrayList<>()).add(sw);
            perTarget.computeIfAbsent(o + " " + name + " cpu:" + e.getKey(), k -> new ArrayList<>()).add(us);
          }
          perTarget.computeIfAbsent(o + " " + name + " p50", k -> new ArrayList<>()).add((double) res.p50Actual);
          System.out.printf(Locale.ROOT, "round %d %-4s %-10s %6d req %7.0f/s  p50 %5d us (intended %5d) p90 %5d  errors %d  cpu us/req (switches/req):%s  load %s%n",
              round + 1, o, name, res.count, res.count / res.seconds, res.p50Actual, res.p50Intended, res.p90Actual,
              res.errors, cpu, loadAverage());
        }
      }
    }
    System.out.println("medians over rounds (min-max):");
    for (Map.Entry<String, List<Double>> e : perTarget.entrySet()) {
      List<Double> v = new ArrayList<>(e.getValue());
      v.sort(null);
      System.out.printf(Locale.ROOT, "  %-34s %8.1f (%.1f-%.1f)  %s%n", e.getKey(), v.get(v.size() / 2), v.get(0),
          v.get(v.size() - 1), e.getValue());
    }
  }

  /** Starts or stops async-profiler in a shim (the options quoted: jcmd would split them at '='). */
  static void jcmd(long pid, String lib, String options) throws Exception {
    Process p = new ProcessBuilder("jcmd", Long.toString(pid), "JVMTI.agent_load", lib, "\"" + options + "\"")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("jcmd " + pid + " JVMTI.agent_load " + options + " failed");
    }
  }

  static String loadAverage() {
    try {
      String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg"))).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "?";
    }
  }

  static ByteBuffer row(long i) {
    return ByteBuffer.wrap(String.format(Locale.ROOT, "%010d", i).getBytes(StandardCharsets.US_ASCII));
  }

  static final class Conn implements AutoCloseable {
    final TSocket socket;
    final THBaseService.Client client;

    Conn(int port) throws Exception {
      socket = new TSocket(new TConfiguration(), "127.0.0.1", port, 30_000);
      socket.open();
      client = new THBaseService.Client(new TBinaryProtocol(socket));
    }

    @Override
    public void close() {
      socket.close();
    }
  }

  static final class Result {
    int count;
    int errors;
    double seconds;
    long p50Actual;
    long p50Intended;
    long p90Actual;
    Map<String, Long> cpuTicks = new LinkedHashMap<>();
    Map<String, Long> switches = new LinkedHashMap<>();
  }

  static Result run(String name, int port, String o, int total, ByteBuffer family, ByteBuffer qualifier) throws Exception {
    if (pauseMillis > 0) {
      Thread.sleep(pauseMillis);
    }
    ByteBuffer tableName = ByteBuffer.wrap(table.getBytes(StandardCharsets.UTF_8));
    int perThread = total / threads;
    long[] actual = new long[perThread * threads];
    long[] intended = new long[perThread * threads];
    AtomicLong errors = new AtomicLong();
    List<Conn> conns = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      conns.add(new Conn(port));
    }
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    final long[] startNanos = new long[1];
    for (int t = 0; t < threads; t++) {
      final int ti = t;
      Thread th = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(ti * 7919L + port);
        Conn c = conns.get(ti);
        byte[] value = new byte[valueSize];
        double period = rate > 0 ? 1e9 * threads / rate : 0;
        ready.countDown();
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        long base = startNanos[0] + (long) (period * rnd.nextDouble());
        for (int i = 0; i < perThread; i++) {
          long due = base + (long) (i * period);
          long now;
          while (period > 0 && (now = System.nanoTime()) < due) {
            long left = due - now;
            if (left > 50_000) {
              java.util.concurrent.locks.LockSupport.parkNanos(left - 20_000);
            } else {
              Thread.onSpinWait();
            }
          }
          long s = System.nanoTime();
          ByteBuffer r = row(rnd.nextInt(rows));
          try {
            if (o.equals("put")) {
              rnd.nextBytes(value);
              c.client.put(tableName, new TPut(r, List.of(new TColumnValue(family, qualifier, ByteBuffer.wrap(value)))));
            } else {
              c.client.get(tableName, new TGet(r));
            }
          } catch (Exception e) {
            errors.incrementAndGet();
          }
          long e = System.nanoTime();
          actual[ti * perThread + i] = e - s;
          intended[ti * perThread + i] = period > 0 ? e - due : e - s;
        }
      });
      th.start();
      ts.add(th);
    }
    ready.await();
    Map<String, Long> before = new LinkedHashMap<>();
    Map<String, Long> switchesBefore = new LinkedHashMap<>();
    cpuPids.forEach((k, pid) -> switchesBefore.put(k, switches(pid)));
    cpuPids.forEach((k, pid) -> before.put(k, ticks(pid)));
    startNanos[0] = System.nanoTime();
    go.countDown();
    for (Thread th : ts) {
      th.join();
    }
    long end = System.nanoTime();
    Result res = new Result();
    cpuPids.forEach((k, pid) -> res.cpuTicks.put(k, ticks(pid) - before.get(k)));
    cpuPids.forEach((k, pid) -> res.switches.put(k, switches(pid) - switchesBefore.get(k)));
    for (Conn c : conns) {
      c.close();
    }
    res.count = actual.length;
    res.errors = (int) errors.get();
    res.seconds = (end - startNanos[0]) / 1e9;
    Arrays.sort(actual);
    Arrays.sort(intended);
    res.p50Actual = actual[(int) Math.ceil(0.5 * actual.length) - 1] / 1000;
    res.p90Actual = actual[(int) Math.ceil(0.9 * actual.length) - 1] / 1000;
    res.p50Intended = intended[(int) Math.ceil(0.5 * intended.length) - 1] / 1000;
    return res;
  }

  /** Context switches (voluntary + involuntary) of every thread of a process so far. */
  static long switches(long pid) {
    long n = 0;
    java.io.File[] tasks = new java.io.File("/proc/" + pid + "/task").listFiles();
    if (tasks == null) {
      return -1;
    }
    for (java.io.File t : tasks) {
      try {
        for (String line : Files.readAllLines(t.toPath().resolve("status"))) {
          if (line.startsWith("voluntary_ctxt_switches") || line.startsWith("nonvoluntary_ctxt_switches")) {
            n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
          }
        }
      } catch (Exception e) {
        // a thread that ended meanwhile
      }
    }
    return n;
  }

  static long ticks(long pid) {
    try {
      String stat = new String(Files.readAllBytes(Paths.get("/proc/" + pid + "/stat")), StandardCharsets.US_ASCII);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (Exception e) {
      return -1;
    }
  }
}
