package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.worker.*;
import io.github.hbasegrindersuite.worker.keys.KeyChoosers;
import io.github.hbasegrindersuite.worker.targets.*;
import java.nio.ByteBuffer;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.hbase.thrift2.generated.*;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.*;

/** Diagnostic for bench/results/2026-11-27-shim-put.md, not part of the build (compile it against lib/, run.sh): the benchmark's engine with one factor changed per variant, interleaved. */
public final class Diag {
  static final class TimedSocket extends TSocket {
    long flushed, firstByte; boolean waiting;
    TimedSocket(String h, int p) throws TTransportException { super(new TConfiguration(), h, p, 30000); }
    @Override public void flush() throws TTransportException { super.flush(); flushed = System.nanoTime(); waiting = true; }
    @Override public int read(byte[] b, int o, int l) throws TTransportException {
      int n = super.read(b, o, l);
      if (waiting) { firstByte = System.nanoTime(); waiting = false; }
      return n;
    }
  }

  /** The minimal client: stock TSocket (stamped), fixed value, one cell. */
  static final class RawClient implements Client {
    final TimedSocket sock; final THBaseService.Client c; final ByteBuffer table; final byte[] value; final boolean fresh; final ValuePool values; final SplittableRandom random;
    long callStart;
    RawClient(int port, String table, byte[] value, boolean fresh, ValuePool values, SplittableRandom random) throws Exception {
      sock = new TimedSocket("127.0.0.1", port); sock.open(); c = new THBaseService.Client(new TBinaryProtocol(sock));
      this.table = ByteBuffer.wrap(table.getBytes()); this.value = value; this.fresh = fresh; this.values = values; this.random = random;
    }
    public byte[] get(byte[] row) throws Exception { callStart = System.nanoTime(); c.get(table, new TGet(ByteBuffer.wrap(row))); return null; }
    public void put(byte[] row) throws Exception {
      callStart = System.nanoTime();
      byte[] v = fresh ? values.valueFor(row, random) : value;
      c.put(table, new TPut(ByteBuffer.wrap(row), List.of(new TColumnValue(ByteBuffer.wrap("f".getBytes()), ByteBuffer.wrap("v".getBytes()), ByteBuffer.wrap(v)))));
    }
    public int scan(byte[] s, int r) { throw new UnsupportedOperationException(); }
    public int batchGet(byte[][] r) { throw new UnsupportedOperationException(); }
    public void batchPut(byte[][] r) { throw new UnsupportedOperationException(); }
    public void delete(byte[] r) { throw new UnsupportedOperationException(); }
    public long increment(byte[] r) { throw new UnsupportedOperationException(); }
    public void close() { sock.close(); }
  }

  static final class Rec implements RequestReport {
    final long[] lat = new long[200000], unc = new long[200000], send = new long[200000], wait = new long[200000], recv = new long[200000];
    int n; RawClient raw; long errors;
    public void request(long witness, long lag, boolean ok) {
      if (!ok) { errors++; return; }
      if (n >= lat.length) return;
      lat[n] = lag + witness; unc[n] = witness;
      if (raw != null) { long end = raw.callStart + witness * 1000; send[n] = (raw.sock.flushed - raw.callStart) / 1000; wait[n] = (raw.sock.firstByte - raw.sock.flushed) / 1000; recv[n] = witness - send[n] - wait[n]; }
      n++;
    }
  }

  static Map<String, long[]> scrape(int port) {
    Map<String, long[]> m = new HashMap<>();
    if (port <= 0) return m;
    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(new java.net.URL("http://127.0.0.1:" + port + "/metrics").openStream()))) {
      List<Long> les = new ArrayList<>();
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.contains("_seconds_bucket")) continue;
        String stage = line.contains("shim_call_") ? "call" : "hbase";
        String op = line.substring(line.indexOf("operation=\"") + 11); op = op.substring(0, op.indexOf('"'));
        String le = line.substring(line.indexOf("le=\"") + 4); le = le.substring(0, le.indexOf('"'));
        long cnt = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        String key = stage + " " + op;
        long[] cur = m.get(key);
        long leUs = le.equals("+Inf") ? Long.MAX_VALUE : Math.round(Double.parseDouble(le) * 1e6);
        long[] n = cur == null ? new long[] {leUs, cnt} : Arrays.copyOf(cur, cur.length + 2);
        if (cur != null) { n[cur.length] = leUs; n[cur.length + 1] = cnt; }
        m.put(key, n);
      }
    } catch (Exception e) { System.out.println("scrape: " + e); }
    return m;
  }

  /** upper bound (us) of the bucket holding the median of the requests between two scrapes */
  static long deltaP50(Map<String, long[]> b, Map<String, long[]> a, String stage, String op) {
    long[] x = a.get(stage + " " + op), y = b.get(stage + " " + op);
    if (x == null || y == null) return -1;
    long total = 0; for (int i = 1; i < x.length; i += 2) total = Math.max(total, x[i] - y[i]);
    if (total == 0) return -1;
    for (int i = 1; i < x.length; i += 2) if ((x[i] - y[i]) * 2 >= total) return x[i - 1];
    return -1;
  }

  static long p50(long[] a, int n) { if (n == 0) return -1; long[] s = Arrays.copyOf(a, n); Arrays.sort(s); return s[(int) Math.max(0, Math.ceil(0.5 * n) - 1)]; }

  public static void main(String[] a) throws Exception {
    int zk = Integer.parseInt(a[0]); int shimPort = Integer.parseInt(a[1]); int gwPort = Integer.parseInt(a[2]);
    double rate = Double.parseDouble(a[3]); int seconds = Integer.parseInt(a[4]); int rounds = Integer.parseInt(a[5]);
    List<String> ops = Arrays.asList(a[6].split(","));
    List<String> variants = Arrays.asList(a[7].split(","));
    int threads = 8;
    BenchOptions o = BenchOptions.parse(new String[] {"--zk-port", String.valueOf(zk), "--target", "direct=direct",
        "--target", "shim=thrift:" + shimPort, "--target", "gw=thrift:" + gwPort, "--target", "shimc=thrift:" + (a.length > 8 ? a[8] : String.valueOf(shimPort))});
    Settings table = o.tableSettings();
    ValuePool values = ValuePool.of(table, table.integer(Settings.Key.SEED));
    Map<String, Target> targets = new HashMap<>();
    targets.put("direct", Target.open(o.settingsFor("direct"), values));
    targets.put("shim", Target.open(o.settingsFor("shim"), values));
    targets.put("gw", Target.open(o.settingsFor("gw"), values));
    targets.put("shimc", Target.open(o.settingsFor("shimc"), values));
    byte[] fixed = new byte[1000]; new Random(1).nextBytes(fixed);
    SplittableRandom random = new SplittableRandom(7);
    // per variant/op: per-round p50 lists
    Map<String, List<long[]>> perRound = new TreeMap<>();
    for (int round = -1; round < rounds; round++) {
      for (String op : ops) {
        List<String> order = new ArrayList<>(variants);
        Collections.rotate(order, -Math.max(round, 0));
        for (String vv : order) {
          String[] parts = vv.split("\\+");
          Map<String, long[]> mb = scrape(a.length > 9 ? Integer.parseInt(a[9]) : 0);
          Rec[] all = slice(parts, Operation.valueOf(op.toUpperCase()), targets, o, values, fixed, random, threads, rate, round < 0 ? 4 : seconds, shimPort, gwPort);
          Map<String, long[]> ma = scrape(a.length > 9 ? Integer.parseInt(a[9]) : 0);
          long callP50 = deltaP50(mb, ma, "call", op), hbaseP50 = deltaP50(mb, ma, "hbase", op);
          if (round < 0) continue;
          for (int part = 0; part < parts.length; part++) {
          String v = parts.length > 1 ? vv + ":" + parts[part] : vv;
          List<Rec> sel = new ArrayList<>();
          for (int t = part; t < all.length; t += parts.length) sel.add(all[t]);
          Rec[] recs = sel.toArray(new Rec[0]);
          int tot = 0; for (Rec r : recs) tot += r.n;
          long[] lat = new long[tot], unc = new long[tot], send = new long[tot], wait = new long[tot], recv = new long[tot];
          int k = 0; long errs = 0;
          for (Rec r : recs) { System.arraycopy(r.lat, 0, lat, k, r.n); System.arraycopy(r.unc, 0, unc, k, r.n); System.arraycopy(r.send, 0, send, k, r.n); System.arraycopy(r.wait, 0, wait, k, r.n); System.arraycopy(r.recv, 0, recv, k, r.n); k += r.n; errs += r.errors; }
          long[] m = {p50(lat, tot), p50(unc, tot), p50(send, tot), p50(wait, tot), p50(recv, tot), tot, errs, callP50, hbaseP50};
          perRound.computeIfAbsent(op + " " + v, x -> new ArrayList<>()).add(m);
          System.out.printf(Locale.ROOT, "round %d %-4s %-14s n=%6d p50 %6d us (uncorr %6d) send %4d wait %6d recv %4d err %d shim call %d hbase %d%n", round + 1, op, v, tot, m[0], m[1], m[2], m[3], m[4], errs, callP50, hbaseP50);
          }
        }
      }
    }
    System.out.println();
    System.out.println("op   variant        med p50  med unc | per-round diff vs direct (intended): median [min..max]   | uncorrected: median [min..max] | stages med send/wait/recv");
    for (String key : perRound.keySet()) {
      String op = key.split(" ")[0];
      List<long[]> mine = perRound.get(key);
      String vname = key.substring(op.length() + 1);
      String ref = vname.contains(":") ? op + " " + vname.substring(0, vname.indexOf(':')) + ":" + vname.substring(0, vname.indexOf('+')) : op + " direct";
      List<long[]> dir = perRound.get(ref);
      long[] p = mine.stream().mapToLong(x -> x[0]).toArray(), u = mine.stream().mapToLong(x -> x[1]).toArray();
      String diff = "", diffU = "";
      if (dir != null) {
        long[] d = new long[p.length], du = new long[p.length];
        for (int i = 0; i < p.length; i++) { d[i] = p[i] - dir.get(i)[0]; du[i] = u[i] - dir.get(i)[1]; }
        long[] ds = d.clone(); Arrays.sort(ds); long[] dus = du.clone(); Arrays.sort(dus);
        diff = String.format(Locale.ROOT, "%+5d [%+d..%+d] %s", p50(d, d.length), ds[0], ds[ds.length - 1], Arrays.toString(d));
        diffU = String.format(Locale.ROOT, "%+5d [%+d..%+d]", p50(du, du.length), dus[0], dus[dus.length - 1]);
      }
      System.out.printf(Locale.ROOT, "%-4s %-14s %7d %8d | %-60s | %-22s | %d/%d/%d%n", op, key.substring(op.length() + 1), p50(p, p.length), p50(u, u.length), diff, diffU,
          p50(mine.stream().mapToLong(x -> x[2]).toArray(), p.length), p50(mine.stream().mapToLong(x -> x[3]).toArray(), p.length), p50(mine.stream().mapToLong(x -> x[4]).toArray(), p.length));
      System.out.printf(Locale.ROOT, "      shim metrics this slice, med of per-round p50: call %d hbase %d; per-round wait-call %s%n", p50(mine.stream().mapToLong(x -> x[7]).toArray(), p.length), p50(mine.stream().mapToLong(x -> x[8]).toArray(), p.length),
          Arrays.toString(mine.stream().mapToLong(x -> x[3] - x[7]).toArray()));
    }
    for (Target t : targets.values()) t.close();
    System.exit(0);
  }

  static Rec[] slice(String[] parts, Operation op, Map<String, Target> targets, BenchOptions o, ValuePool values, byte[] fixed,
                     SplittableRandom random, int threads, double rate, int seconds, int shimPort, int gwPort) throws Exception {
    Settings settings = o.settingsFor("direct");
    boolean spin = false;
    String variant = String.join("+", parts);
    Driver[] drivers = new Driver[threads]; Pacer[] pacers = new Pacer[threads]; Rec[] recs = new Rec[threads]; Client[] clients = new Client[threads];
    for (int t = 0; t < threads; t++) {
      String base = parts[t % parts.length];
      String pathName = base.equals("raw") || base.equals("rawv") ? "shim" : base.equals("rawgw") ? "gw" : base;
      SplittableRandom r = random.split();
      pacers[t] = new Pacer(rate / threads, r.nextDouble());
      recs[t] = new Rec();
      if (base.startsWith("raw")) {
        RawClient rc = new RawClient(base.equals("rawgw") ? gwPort : shimPort, "shim_bench", fixed, base.equals("rawv"), values, r.split());
        recs[t].raw = rc; clients[t] = rc;
      } else {
        clients[t] = targets.get(pathName).client(r.split());
      }
      drivers[t] = new Driver(clients[t], KeyChoosers.create(settings, r.split(), t, threads), new OperationMix(Map.of(op, 100), r.split()),
          pacers[t], values, new ErrorCounter(), recs[t], settings);
    }
    byte[] firstRow = KeyFormat.rowKey(0, settings.integer(Settings.Key.KEY_WIDTH));
    AtomicLong begin = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads + 1, () -> begin.set(System.nanoTime()));
    long dur = TimeUnit.SECONDS.toNanos(seconds);
    Thread[] ws = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      final int t = i;
      ws[t] = new Thread(() -> {
        try { clients[t].get(firstRow); } catch (Exception e) { }
        try { start.await(); } catch (Exception e) { return; }
        long end = begin.get() + dur;
        long next;
        while ((next = pacers[t].nextIntendedStart()) < end) {
          if (spin) {
            long now;
            while ((now = System.nanoTime()) < next) { long d = next - now; if (d > 200_000) LockSupport.parkNanos(d - 100_000); }
          }
          drivers[t].next();
          drivers[t].execute();
        }
      }, "diag-" + variant + "-" + t);
      ws[t].start();
    }
    start.await();
    for (Thread w : ws) w.join();
    for (Driver d : drivers) d.close();
    return recs;
  }
}
