package io.github.hbasegrindersuite.console.warmup;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a growing cpu.csv (lifecycle's CpuSampler: time_ms, interval_s, role, side, processes,
 * cpu_s, jit_s, ...) from where it left off, and gives each finished interval's JIT share of the
 * server and the client side: what the warm-up judge needs to know whether the JVMs still compile.
 * An interval is finished at its idle row (the sampler writes it last) or when a later one starts;
 * a half-written last line waits for the next read.
 */
public final class CpuTail {

  /** One interval: the JIT seconds over the CPU seconds of each side (NaN when the side used none). */
  public static final class Interval {
    public final long timeMs;
    public final double serverJitShare;
    public final double clientJitShare;

    Interval(long timeMs, double serverJitShare, double clientJitShare) {
      this.timeMs = timeMs;
      this.serverJitShare = serverJitShare;
      this.clientJitShare = clientJitShare;
    }
  }

  private final String path;
  private long offset;
  private String partial = "";
  private Map<String, Integer> columns;
  /** The interval being read: time -> {server cpu, server jit, client cpu, client jit}. */
  private long openTime = -1;
  private final double[] open = new double[4];

  public CpuTail(String path) {
    this.path = path;
  }

  /** The intervals finished since the last call (an interval is finished when the next one starts). */
  public List<Interval> read() {
    final List<Interval> done = new ArrayList<>();
    final String text;
    try (RandomAccessFile f = new RandomAccessFile(path, "r")) {
      if (f.length() <= offset) {
        return done;
      }
      final byte[] bytes = new byte[(int) Math.min(f.length() - offset, 4 << 20)];
      f.seek(offset);
      f.readFully(bytes);
      offset += bytes.length;
      text = partial + new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return done; // not there yet
    }
    final int end = text.lastIndexOf('\n');
    partial = end < 0 ? text : text.substring(end + 1);
    if (end < 0) {
      return done;
    }
    for (String line : text.substring(0, end).split("\n")) {
      accept(line, done);
    }
    return done;
  }

  private void accept(String line, List<Interval> done) {
    final String[] f = line.split(",", -1);
    if (columns == null) {
      columns = new HashMap<>();
      for (int i = 0; i < f.length; i++) {
        columns.put(f[i].trim(), i);
      }
      return;
    }
    final Integer t = columns.get("time_ms");
    final Integer role = columns.get("role");
    final Integer side = columns.get("side");
    final Integer cpu = columns.get("cpu_s");
    final Integer jit = columns.get("jit_s");
    if (t == null || role == null || side == null || cpu == null || jit == null
        || f.length <= Math.max(Math.max(t, side), Math.max(cpu, jit))) {
      return;
    }
    final long time;
    try {
      time = Long.parseLong(f[t].trim());
    } catch (NumberFormatException e) {
      return;
    }
    if (time != openTime) {
      close(done);
      openTime = time;
    }
    final int base = "server".equals(f[side]) ? 0 : "client".equals(f[side]) ? 2 : -1;
    if (base >= 0) {
      open[base] += number(f[cpu]);
      open[base + 1] += number(f[jit]);
    }
    if ("idle".equals(f[role])) {
      close(done);
    }
  }

  private void close(List<Interval> done) {
    if (openTime >= 0) {
      done.add(new Interval(openTime, share(open[1], open[0]), share(open[3], open[2])));
    }
    openTime = -1;
    Arrays.fill(open, 0);
  }

  private static double share(double part, double whole) {
    return whole > 0 ? part / whole : Double.NaN;
  }

  private static double number(String s) {
    try {
      return s.isBlank() ? 0 : Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
