package io.github.hbasegrindersuite.lifecycle.cpu;

import com.google.gson.GsonBuilder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.github.hbasegrindersuite.lifecycle.SamplerRun;

/**
 * A run's CPU accounting (libexec/suite-run starts it with the other samplers and stops it by PID):
 *
 * <pre>
 * CpuSampler --out CSV --notes JSON [--interval-ms 1000] [--max-seconds N] [--clock-ticks 100]
 *            [--cgroups LAB_DIR [--cgroup-root DIR] | --mark TEXT] [--proc /proc]
 * </pre>
 *
 * Once an interval, one row per role into cpu.csv ({@link #HEADER}): the CPU seconds of every
 * process role (from the lab's cgroups when --cgroups names them, else from the processes' command
 * lines, of processes whose command line holds --mark: this checkout's), the seconds their JVM threads spent by {@link ThreadClass}, and the machine's rest
 * (other, steal, idle), so that the rows of an interval add up to its length times the CPUs.
 * cpu.json ({@link CpuTotals}) is rewritten every 10 samples and at the end. Ends at SIGTERM or
 * after --max-seconds. A bad argument: one line on stderr, exit 2.
 */
public final class CpuSampler {
  static final String NAME = "cpu-sampler";
  public static final String HEADER = "time_ms,interval_s,role,side,processes,cpu_s,jit_s,gc_s,io_s,load_s";
  private static final int NOTES_EVERY = 10;
  private static final List<String> OPTIONS = List.of("--out", "--notes", "--interval-ms", "--max-seconds", "--clock-ticks",
      "--cgroups", "--cgroup-root", "--proc", "--mark");

  private final SnapshotReader reader;
  private final BufferedWriter csv;
  private final Path notes;
  private final long intervalMs;
  private final int hz;
  private final int cpus;
  private final CpuTotals totals;
  private final String started = Instant.now().toString();

  CpuSampler(SnapshotReader reader, BufferedWriter csv, Path notes, long intervalMs, int hz, int cpus, long pageKb) {
    this.reader = reader;
    this.totals = new CpuTotals(pageKb);
    this.csv = csv;
    this.notes = notes;
    this.intervalMs = intervalMs;
    this.hz = hz;
    this.cpus = cpus;
  }

  public static void main(String[] argv) {
    final SamplerRun run;
    try {
      run = prepare(argv);
    } catch (IllegalArgumentException | IOException e) {
      System.err.println(NAME + ": " + e.getMessage());
      System.exit(e instanceof IllegalArgumentException ? 2 : 1);
      return;
    }
    System.exit(SamplerRun.runUntilStopped(List.of(run)));
  }

  /** The sampler of ARGV (the options above), its CSV open. A bad argument: IllegalArgumentException. */
  public static SamplerRun prepare(String[] argv) throws IOException {
    final Map<String, String> o = options(argv);
    for (String needed : List.of("--out", "--notes")) {
      if (!o.containsKey(needed)) {
        throw new IllegalArgumentException(needed + " is needed");
      }
    }
    final long intervalMs = whole(o, "--interval-ms", 1000, 100);
    final long maxSeconds = whole(o, "--max-seconds", 24 * 3600, 1);
    final int hz = (int) whole(o, "--clock-ticks", 100, 1);
    final ProcFs proc = new ProcFs(Path.of(o.getOrDefault("--proc", "/proc")));
    final CgroupCounters cgroups = o.containsKey("--cgroups")
        ? new CgroupCounters(Path.of(o.get("--cgroups")), o.containsKey("--cgroup-root") ? Path.of(o.get("--cgroup-root")) : null)
        : null;
    final BufferedWriter w = Files.newBufferedWriter(Path.of(o.get("--out")), StandardCharsets.UTF_8);
    final CpuSampler sampler = new CpuSampler(new SnapshotReader(proc, cgroups, hz, o.get("--mark")), w, Path.of(o.get("--notes")), intervalMs, hz,
        proc.cpus(), proc.pageKb());
    final long deadline = System.currentTimeMillis() + maxSeconds * 1000;
    return new SamplerRun(NAME, stop -> sampler.loop(deadline, stop), w);
  }

  /** Samples at fixed times (start + k intervals); an overrun skips the slots it missed. */
  void loop(long deadlineMs, CountDownLatch stop) throws IOException {
    csv.write(HEADER);
    csv.newLine();
    Snapshot prev = reader.read(System.currentTimeMillis());
    long next = prev.timeMs;
    int samples = 0;
    while (stop.getCount() > 0 && System.currentTimeMillis() < deadlineMs) {
      next += intervalMs;
      final long now = System.currentTimeMillis();
      if (next < now) {
        next += ((now - next) / intervalMs + 1) * intervalMs;
      }
      boolean stopping;
      try {
        stopping = stop.await(Math.max(0, next - now), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        stopping = true;
      }
      final Snapshot snap = reader.read(System.currentTimeMillis());
      write(prev, snap);
      prev = snap;
      if (++samples % NOTES_EVERY == 1) {
        writeNotes(false);
      }
      if (stopping) {
        break;
      }
    }
    writeNotes(true);
  }

  private void write(Snapshot prev, Snapshot now) throws IOException {
    final List<CpuAccounting.RoleSeconds> rows = CpuAccounting.between(prev, now, hz);
    totals.add(prev, now, rows, hz);
    final double interval = (now.timeMs - prev.timeMs) / 1000.0;
    for (CpuAccounting.RoleSeconds r : rows) {
      csv.write(line(now.timeMs, interval, r));
      csv.newLine();
    }
    csv.flush();
  }

  static String line(long timeMs, double interval, CpuAccounting.RoleSeconds r) {
    final List<String> f = new ArrayList<>();
    f.add(String.valueOf(timeMs));
    f.add(number(interval));
    f.add(r.role.word);
    f.add(r.role.side.word);
    f.add(r.role.side == Role.Side.MACHINE ? "" : String.valueOf(r.processes));
    f.add(number(r.cpu));
    for (double c : r.classes) {
      f.add(Double.isNaN(c) ? "" : number(c));
    }
    return String.join(",", f);
  }

  private static String number(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private void writeNotes(boolean ended) throws IOException {
    final Map<String, Object> doc = totals.document(reader.method(), intervalMs, hz, cpus, started, ended ? Instant.now().toString() : null);
    final Path tmp = notes.resolveSibling(notes.getFileName() + ".tmp");
    Files.writeString(tmp, new GsonBuilder().serializeNulls().disableHtmlEscaping().setPrettyPrinting().create().toJson(doc) + "\n");
    Files.move(tmp, notes, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static Map<String, String> options(String[] argv) {
    final Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i += 2) {
      if (!OPTIONS.contains(argv[i])) {
        throw new IllegalArgumentException("unknown argument '" + argv[i] + "' (accepted: " + String.join(" ", OPTIONS) + ")");
      }
      if (i + 1 >= argv.length) {
        throw new IllegalArgumentException(argv[i] + " needs a value");
      }
      if (o.put(argv[i], argv[i + 1]) != null) {
        throw new IllegalArgumentException(argv[i] + " is given twice");
      }
    }
    return o;
  }

  private static long whole(Map<String, String> o, String key, long fallback, long min) {
    final String v = o.get(key);
    if (v == null) {
      return fallback;
    }
    if (!v.matches("[0-9]{1,9}") || Long.parseLong(v) < min) {
      throw new IllegalArgumentException(key + " '" + v + "' is not a whole number >= " + min);
    }
    return Long.parseLong(v);
  }
}
