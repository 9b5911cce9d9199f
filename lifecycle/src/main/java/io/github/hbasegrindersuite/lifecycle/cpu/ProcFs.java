package io.github.hbasegrindersuite.lifecycle.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the kernel says of CPU time, read from a /proc tree (the real one, or a captured copy in
 * the tests): the machine's counters (/proc/stat), each process's and each thread's user + system
 * clock ticks and start time (/proc/PID/stat, /proc/PID/task/TID/stat), command lines and the CPUs
 * a process may run on. A process or thread that ends while it is read is simply absent.
 */
public final class ProcFs {
  private final Path root;

  public ProcFs(Path root) {
    this.root = root;
  }

  /** The machine's CPU counters, in clock ticks summed over every CPU. */
  public static final class MachineTicks {
    public final long user;
    public final long nice;
    public final long system;
    public final long idle;
    public final long iowait;
    public final long irq;
    public final long softirq;
    public final long steal;

    MachineTicks(long[] v) {
      this.user = v[0];
      this.nice = v[1];
      this.system = v[2];
      this.idle = v[3];
      this.iowait = v[4];
      this.irq = v[5];
      this.softirq = v[6];
      this.steal = v[7];
    }

    /** Every tick in which a CPU worked for this guest (guest time is inside user). */
    public long busy() {
      return user + nice + system + irq + softirq;
    }

    public long idleAll() {
      return idle + iowait;
    }
  }

  /** One process's or thread's counters: user + system ticks and its start, in ticks after boot. */
  public static final class Ticks {
    public final String comm;
    public final long cpu;
    public final long start;
    /** The parent's pid (0: not read). */
    public final int ppid;
    /** Resident set size in pages, as the kernel counts it in stat (0: not read). */
    public final long rssPages;

    Ticks(String comm, long cpu, long start, int ppid, long rssPages) {
      this.comm = comm;
      this.cpu = cpu;
      this.start = start;
      this.ppid = ppid;
      this.rssPages = rssPages;
    }
  }

  /** A buffer for stat files (a few hundred bytes each): read without allocating per file. */
  private final byte[] buffer = new byte[4096];

  public MachineTicks machine() throws IOException {
    for (String line : Files.readAllLines(root.resolve("stat"), StandardCharsets.US_ASCII)) {
      if (line.startsWith("cpu ")) {
        final String[] f = line.trim().split("\\s+");
        final long[] v = new long[8];
        for (int i = 0; i < v.length && i + 1 < f.length; i++) {
          v[i] = Long.parseLong(f[i + 1]);
        }
        return new MachineTicks(v);
      }
    }
    throw new IOException(root.resolve("stat") + " has no 'cpu ' line");
  }

  /** Seconds since boot (/proc/uptime), as ticks: a process that started after it is new since then. */
  public long uptimeTicks(int clockTicks) throws IOException {
    final String first = Files.readString(root.resolve("uptime"), StandardCharsets.US_ASCII).trim().split("\\s+")[0];
    return Math.round(Double.parseDouble(first) * clockTicks);
  }

  /** The number of CPUs the machine has online (/proc/stat's cpuN lines). */
  public int cpus() throws IOException {
    int n = 0;
    for (String line : Files.readAllLines(root.resolve("stat"), StandardCharsets.US_ASCII)) {
      if (line.matches("cpu[0-9]+ .*")) {
        n++;
      }
    }
    return n;
  }

  public List<Integer> pids() throws IOException {
    final List<Integer> pids = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(root, "[0-9]*")) {
      for (Path p : dir) {
        pids.add(Integer.valueOf(p.getFileName().toString()));
      }
    }
    return pids;
  }

  /** The process's counters, or null when it is gone. */
  public Ticks process(int pid) {
    final int n = readInto(root.resolve(String.valueOf(pid)).resolve("stat"));
    final long[] f = n > 0 ? fields(buffer, n) : null;
    return f == null ? null : ticks(f);
  }

  private Ticks ticks(long[] f) {
    return new Ticks(new String(buffer, (int) f[3], (int) f[4], StandardCharsets.UTF_8), f[0] + f[1], f[2], (int) Math.max(0, f[5]), Math.max(0, f[6]));
  }

  /** RandomAccessFile: one open and one read, cheaper than a channel stream (hundreds of files a second). */
  private int readInto(Path file) {
    try (java.io.RandomAccessFile in = new java.io.RandomAccessFile(file.toString(), "r")) {
      return in.read(buffer, 0, buffer.length);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * utime, stime, starttime, where comm starts and how long it is, then ppid and rss (-1 when the
   * line ends before them), from the bytes of a stat file ("pid (comm) state ppid ... f14 f15 ...
   * f22 vsize rss ..."); fields counted after the LAST ')', since comm may hold blanks and
   * parentheses. Null when the text is not a stat line.
   */
  static long[] fields(byte[] b, int n) {
    int open = -1;
    int close = -1;
    for (int i = 0; i < n; i++) {
      if (b[i] == '(' && open < 0) {
        open = i;
      } else if (b[i] == ')') {
        close = i;
      }
    }
    if (open < 0 || close < open) {
      return null;
    }
    final long[] out = {-1, -1, -1, open + 1, close - open - 1, -1, -1};
    int field = 2; // the ')' ends field 2
    long value = 0;
    boolean inNumber = false;
    for (int i = close + 1; i <= n && field <= 24; i++) {
      final byte c = i < n ? b[i] : (byte) '\n';
      if (c == ' ' || c == '\n') {
        if (inNumber) {
          keep(out, field, value);
        }
        inNumber = false;
        value = 0;
        if (c == ' ') {
          field++;
        }
      } else if (c >= '0' && c <= '9') {
        value = value * 10 + (c - '0');
        inNumber = true;
      } else {
        inNumber = false;
      }
    }
    return out[0] < 0 || out[1] < 0 || out[2] < 0 ? null : out;
  }

  /** Stat field number FIELD (1-based, as in proc(5)) into its place in {@link #fields}'s answer. */
  private static void keep(long[] out, int field, long value) {
    switch (field) {
      case 4 -> out[5] = value;
      case 14 -> out[0] = value;
      case 15 -> out[1] = value;
      case 22 -> out[2] = value;
      case 24 -> out[6] = value;
      default -> {
      }
    }
  }

  /** The thread ids of a process (one directory listing, no file read); empty when it is gone. */
  public List<Integer> threadIds(int pid) {
    final List<Integer> ids = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(root.resolve(String.valueOf(pid)).resolve("task"))) {
      for (Path task : dir) {
        ids.add(Integer.valueOf(task.getFileName().toString()));
      }
    } catch (IOException | RuntimeException e) {
      // gone while we looked: no threads
    }
    return ids;
  }

  /** One thread's counters with its name, or null when it is gone. */
  public Ticks thread(int pid, int tid) {
    final int n = readInto(root.resolve(String.valueOf(pid)).resolve("task").resolve(String.valueOf(tid)).resolve("stat"));
    final long[] f = n > 0 ? fields(buffer, n) : null;
    return f == null ? null : ticks(f);
  }

  /**
   * The size of a page in kB, for stat's rss: the first KernelPageSize of this process's smaps
   * (4 on x86-64, 4, 16 or 64 on arm64); 4 where that file cannot be read (a test's fake /proc).
   */
  public long pageKb() {
    try (java.io.BufferedReader in = Files.newBufferedReader(root.resolve("self").resolve("smaps"), StandardCharsets.US_ASCII)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("KernelPageSize:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no smaps: the common page
    }
    return 4;
  }

  /** The command line's words; empty for a kernel thread or a process that is gone. */
  public List<String> cmdline(int pid) {
    final String raw = read(root.resolve(String.valueOf(pid)).resolve("cmdline"));
    if (raw == null || raw.isEmpty()) {
      return List.of();
    }
    return Arrays.asList(raw.split("\0"));
  }

  /** Cpus_allowed_list of /proc/PID/status ("0-1", "1"): where the scheduler may run it; null when gone. */
  public String cpusAllowed(int pid) {
    final String status = read(root.resolve(String.valueOf(pid)).resolve("status"));
    if (status == null) {
      return null;
    }
    for (String line : status.split("\n")) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring("Cpus_allowed_list:".length()).trim();
      }
    }
    return null;
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
