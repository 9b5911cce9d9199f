package io.github.hbasegrindersuite.lifecycle.cpu;

import io.github.hbasegrindersuite.lifecycle.LifecycleException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmarks' CPU meter (bench/cpu-meter.sh): runs a command and charges it the CPU of every
 * process it starts, however they are started. A fresh cgroup holds the command, so children that
 * detach (setsid, double fork, {@code ip netns exec}) and are never reaped by their parent are
 * counted too ({@code times} would miss them).
 *
 * <p>OUT_CSV: {@code scope,label,pid,cpu_s} with one {@code total} row (the method in its label:
 * cgroup-v1, cgroup-v2, or children when no cgroup can be made: then detached processes are NOT
 * counted), one {@code process} row per process seen (sampled every interval from /proc: a breakdown,
 * short by at most an interval of each process's last CPU), and a {@code leftover} row per process
 * still in the cgroup after the command ended (then stopped by PID). Exit status: the command's.
 */
public final class CpuMeter {
  /** How long a leftover has after SIGTERM before SIGKILL, as suite.d/common.sh stop_pid gives it. */
  private static final long LEFTOVER_GRACE_MS = 5000;

  private static final Pattern TIMES_WORD = Pattern.compile("([0-9]+)m([0-9.]+)s");

  private final Path sysfs;
  private final ProcFs proc;
  private final int clockTicks;
  /** The shell the command is started through (it joins the cgroup, or counts its children). */
  private final String shell;
  private final Map<Integer, Seen> seen = new LinkedHashMap<>();

  /** A process's latest sample: its CPU ticks and its label. */
  static final class Seen {
    long ticks;
    String label;
  }

  CpuMeter(Path sysfs, ProcFs proc, int clockTicks) {
    this(sysfs, proc, clockTicks, "bash");
  }

  CpuMeter(Path sysfs, ProcFs proc, int clockTicks, String shell) {
    this.sysfs = sysfs;
    this.proc = proc;
    this.clockTicks = clockTicks;
    this.shell = shell;
  }

  /**
   * {@code cpu-meter --clock-ticks N OUT_CSV COMMAND [ARGS...]}; the sampling interval in seconds
   * from CPU_METER_INTERVAL (default 1).
   */
  public static int main(List<String> argv) throws LifecycleException {
    if (argv.size() < 4 || !argv.get(0).equals("--clock-ticks")) {
      throw new IllegalArgumentException("usage: cpu-meter --clock-ticks N OUT_CSV COMMAND [ARGS...]");
    }
    final int ticks;
    try {
      ticks = Integer.parseInt(argv.get(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--clock-ticks: not a whole number: " + argv.get(1));
    }
    final double interval = interval(System.getenv("CPU_METER_INTERVAL"));
    final CpuMeter meter = new CpuMeter(Path.of("/sys/fs/cgroup"), new ProcFs(Path.of("/proc")), ticks);
    try {
      return meter.run(Path.of(argv.get(2)), argv.subList(3, argv.size()), interval);
    } catch (IOException e) {
      throw new LifecycleException("cpu-meter: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LifecycleException("cpu-meter: interrupted");
    }
  }

  static double interval(String value) {
    if (value == null || value.isEmpty()) {
      return 1;
    }
    if (!value.matches("[0-9]+(\\.[0-9]+)?") || Double.parseDouble(value) <= 0) {
      throw new IllegalArgumentException("CPU_METER_INTERVAL '" + value + "' is not a number of seconds");
    }
    return Double.parseDouble(value);
  }

  /** A new cgroup under the first hierarchy that lets one be made: v1 cpuacct, else v2; null when none. */
  static Path makeCgroup(Path sysfs, String name) {
    for (String base : List.of("cpuacct", "cpu,cpuacct")) {
      final Path dir = sysfs.resolve(base);
      if (Files.exists(dir.resolve("cpuacct.usage")) && mkdir(dir.resolve(name))) {
        return dir.resolve(name);
      }
    }
    for (Path dir : List.of(sysfs, sysfs.resolve("unified"))) {
      if (Files.exists(dir.resolve("cgroup.procs")) && !Files.exists(dir.resolve("cpuacct.usage")) && isCgroup2(dir)
          && mkdir(dir.resolve(name))) {
        return dir.resolve(name);
      }
    }
    return null;
  }

  private static boolean isCgroup2(Path dir) {
    try {
      return Files.getFileStore(dir).type().equals("cgroup2");
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean mkdir(Path dir) {
    try {
      Files.createDirectory(dir);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** What a process is called in the file: its comm, or for a JVM "java:" and its main class. */
  static String label(String comm, List<String> cmdline) {
    String label = comm;
    if (comm.equals("java")) {
      String main = "?";
      for (int i = 1; i < cmdline.size(); i++) {
        final String word = cmdline.get(i);
        if (List.of("-cp", "-classpath", "--class-path", "-jar").contains(word)) {
          i++;   // its value is no main class
        } else if (!word.startsWith("-")) {
          main = word;
          break;
        }
      }
      label = "java:" + main;
    }
    return label.replace(',', '_').replace(' ', '_');
  }

  /** How the command's CPU is counted: a cgroup that holds it, or the `times` of the shell that runs it. */
  private interface Counting {
    /** The shell line the command is started through (its arguments follow). */
    List<String> shellLine();

    void environment(Map<String, String> env);

    /** Once per interval while the command runs. */
    void sample();

    double totalSeconds() throws IOException;

    String method();

    /** Processes still counted after the command ended. */
    List<Integer> leftovers();

    /** Removes what was made for the count (the cgroup, now empty, or the file). */
    void discard() throws IOException;

    /** What discard removes, for its error message. */
    Path made();
  }

  /** Everything the command starts is born in the cgroup: detached processes are counted too. */
  private final class CgroupCounting implements Counting {
    private final Path cgroup;

    CgroupCounting(Path cgroup) {
      this.cgroup = cgroup;
    }

    @Override public List<String> shellLine() {
      return List.of(shell, "-c", "echo $$ > \"$1/cgroup.procs\" && shift && exec \"$@\"", "cpu-meter", cgroup.toString());
    }

    @Override public void environment(Map<String, String> env) {
      // SUITE_LAB_METER: the lab (suite.d/lab.sh) then leaves its processes in this cgroup, places
      // them without moving their accounting, and its own sampler counts roles by command line.
      env.put("SUITE_LAB_METER", cgroup.toString());
    }

    @Override public void sample() {
      record(cgroup);
    }

    @Override public double totalSeconds() {
      final Long nanos = CgroupCounters.usage(cgroup);
      return nanos == null ? Double.NaN : nanos / 1e9;
    }

    @Override public String method() {
      return CgroupCounters.method(cgroup);
    }

    @Override public List<Integer> leftovers() {
      return CgroupCounters.pids(cgroup);
    }

    @Override public void discard() throws IOException {
      Files.deleteIfExists(cgroup);
    }

    @Override public Path made() {
      return cgroup;
    }
  }

  /** No cgroup could be made: the CPU of every child the shell reaped, and of theirs in turn. */
  private final class TimesCounting implements Counting {
    private final Path times;

    TimesCounting(Path times) {
      this.times = times;
    }

    @Override public List<String> shellLine() {
      return List.of(shell, "-c", "rc=0; shift; \"$@\" || rc=$?; times > \"$TIMES\"; exit $rc", "cpu-meter", "-");
    }

    @Override public void environment(Map<String, String> env) {
      env.put("TIMES", times.toString());
    }

    @Override public void sample() {
      // nothing to sample: processes are not seen one by one
    }

    @Override public double totalSeconds() throws IOException {
      // empty (or gone) when the shell was stopped before it wrote them (SIGTERM): unknown, not an error
      return Files.exists(times) ? childrenSeconds(Files.readString(times, StandardCharsets.US_ASCII)) : Double.NaN;
    }

    @Override public String method() {
      return "children";
    }

    @Override public List<Integer> leftovers() {
      return List.of();
    }

    @Override public void discard() throws IOException {
      Files.deleteIfExists(times);
    }

    @Override public Path made() {
      return times;
    }
  }

  int run(Path out, List<String> command, double intervalSeconds) throws IOException, InterruptedException {
    final Path cgroup = makeCgroup(sysfs, "hgs-meter-" + ProcessHandle.current().pid() + "-" + ThreadLocalRandom.current().nextInt(1 << 15));
    final Counting counting = cgroup != null ? new CgroupCounting(cgroup) : new TimesCounting(Files.createTempFile("cpu-meter", ".times"));
    final List<String> argv = new ArrayList<>(counting.shellLine());
    argv.addAll(command);
    final ProcessBuilder builder = new ProcessBuilder(argv).inheritIO();
    counting.environment(builder.environment());
    final Process child;
    try {
      child = builder.start();
    } catch (IOException e) {
      counting.discard();   // nothing started
      throw new IOException("cannot start " + String.join(" ", command) + ": " + e.getMessage(), e);
    }
    // Interrupted (SIGINT, SIGTERM): the command gets SIGTERM, its file is still written, its cgroup removed.
    final CountDownLatch done = new CountDownLatch(1);
    final Thread forward = new Thread(() -> {
      child.destroy();
      try {
        done.await(LEFTOVER_GRACE_MS * 3, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "cpu-meter-forward");
    Runtime.getRuntime().addShutdownHook(forward);
    final long intervalMs = Math.max(10, Math.round(intervalSeconds * 1000));
    do {
      counting.sample();
    } while (!child.waitFor(intervalMs, TimeUnit.MILLISECONDS));
    final int status = child.exitValue();
    // The shutdown hook waits for all of this, not just the file: the JVM halts when the hook
    // returns, and a hook that let go after the file left the cgroup behind (seen in a full test).
    try {
      final List<Integer> leftovers = counting.leftovers();
      Files.writeString(out, csv(counting.method(), counting.totalSeconds(), leftovers), StandardCharsets.UTF_8);
      // What the command left behind is stopped by PID, then what was made for the count goes.
      for (int pid : leftovers) {
        stop(pid);
      }
      try {
        counting.discard();
      } catch (IOException e) {
        System.err.println("cpu-meter: could not remove " + counting.made() + " (" + e.getMessage() + ")");
      }
    } finally {
      done.countDown();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(forward);
    } catch (IllegalStateException e) {
      // shutting down already: the hook was waiting for this, which is done
    }
    return status;
  }

  /** The latest ticks of every process in the cgroup; a JVM that is exiting keeps the name it had. */
  void record(Path cgroup) {
    for (int pid : CgroupCounters.pids(cgroup)) {
      final ProcFs.Ticks ticks = proc.process(pid);
      if (ticks == null) {
        continue;
      }
      final Seen s = seen.computeIfAbsent(pid, p -> new Seen());
      s.ticks = ticks.cpu;
      final String label = label(ticks.comm, proc.cmdline(pid));
      if (!(label.equals("java:?") && s.label != null)) {
        s.label = label;
      }
    }
  }

  /** CPU seconds of the children from bash's `times` (line 2: "0m1.234s 0m0.567s"). */
  static double childrenSeconds(String times) {
    final String[] lines = times.split("\n");
    if (lines.length < 2) {
      return Double.NaN;
    }
    double sum = 0;
    for (String word : lines[1].trim().split("\\s+")) {
      final Matcher m = TIMES_WORD.matcher(word);
      if (!m.matches()) {
        return Double.NaN;
      }
      sum += Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2));
    }
    return sum;
  }

  String csv(String method, double total, List<Integer> leftovers) {
    final StringBuilder b = new StringBuilder("scope,label,pid,cpu_s\n");
    b.append("total,").append(method).append(",,").append(Double.isNaN(total) ? "" : seconds(total)).append('\n');
    for (Map.Entry<Integer, Seen> e : seen.entrySet()) {
      b.append("process,").append(e.getValue().label).append(',').append(e.getKey()).append(',')
          .append(seconds((double) e.getValue().ticks / clockTicks)).append('\n');
    }
    for (int pid : leftovers) {
      final Seen s = seen.get(pid);
      b.append("leftover,").append(s == null ? "?" : s.label).append(',').append(pid).append(",\n");
    }
    return b.toString();
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, "%.3f", s);
  }

  private static void stop(int pid) throws InterruptedException {
    final ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
    if (handle == null) {
      return;
    }
    System.err.println("cpu-meter: stopping leftover process " + pid + " (" + handle.info().command().orElse("?") + ")");
    handle.destroy();
    final long end = System.currentTimeMillis() + LEFTOVER_GRACE_MS;
    while (handle.isAlive() && System.currentTimeMillis() < end) {
      Thread.sleep(100);
    }
    if (handle.isAlive()) {
      handle.destroyForcibly();
    }
  }
}
