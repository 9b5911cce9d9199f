package io.github.hbasegrindersuite.lifecycle.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A /proc tree in a folder, written the way the kernel writes its files, for ProcFs and the sampler. */
final class FakeProc {
  final Path root;

  FakeProc(Path root) throws IOException {
    this.root = Files.createDirectories(root);
  }

  /** A /proc/PID/stat line: fields 14, 15 and 22 are utime, stime and starttime; ppid 1, rss 2000 pages. */
  static String stat(int pid, String comm, long utime, long stime, long start) {
    return stat(pid, comm, utime, stime, start, 1, 2000);
  }

  /** A /proc/PID/stat line with its parent (field 4) and resident pages (field 24). */
  static String stat(int pid, String comm, long utime, long stime, long start, int ppid, long rssPages) {
    return pid + " (" + comm + ") S " + ppid + " " + pid + " " + pid + " 0 -1 4194304 100 0 0 0 " + utime + " " + stime
        + " 0 0 20 0 2 0 " + start + " 8000000 " + rssPages + " 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  }

  /** PID's stat again with its parent and resident pages (after {@link #process}). */
  FakeProc memory(int pid, String comm, long utime, long stime, long start, int ppid, long rssPages) throws IOException {
    Files.writeString(root.resolve(String.valueOf(pid)).resolve("stat"), stat(pid, comm, utime, stime, start, ppid, rssPages));
    return this;
  }

  FakeProc machine(long user, long system, long idle, long iowait, long irq, long softirq, long steal, int cpus) throws IOException {
    final StringBuilder b = new StringBuilder(String.format("cpu  %d 0 %d %d %d %d %d %d 0 0%n", user, system, idle, iowait, irq, softirq, steal));
    for (int i = 0; i < cpus; i++) {
      b.append(String.format("cpu%d 0 0 0 0 0 0 0 0 0 0%n", i));
    }
    b.append("intr 1 2 3\nctxt 12345\n");
    Files.writeString(root.resolve("stat"), b.toString());
    return this;
  }

  FakeProc uptime(double seconds) throws IOException {
    Files.writeString(root.resolve("uptime"), String.format(java.util.Locale.ROOT, "%.2f 1234.56%n", seconds));
    return this;
  }

  FakeProc process(int pid, String comm, long utime, long stime, long start, String cmdline, String cpus) throws IOException {
    final Path dir = Files.createDirectories(root.resolve(String.valueOf(pid)));
    Files.writeString(dir.resolve("stat"), stat(pid, comm, utime, stime, start));
    Files.write(dir.resolve("cmdline"), (cmdline.replace(' ', '\0') + "\0").getBytes(StandardCharsets.UTF_8));
    Files.writeString(dir.resolve("status"), "Name:\t" + comm + "\nState:\tS (sleeping)\nCpus_allowed:\t3\nCpus_allowed_list:\t" + cpus
        + "\nMems_allowed_list:\t0\n");
    Files.createDirectories(dir.resolve("task"));
    return this;
  }

  FakeProc thread(int pid, int tid, String comm, long utime, long stime, long start) throws IOException {
    final Path dir = Files.createDirectories(root.resolve(String.valueOf(pid)).resolve("task").resolve(String.valueOf(tid)));
    Files.writeString(dir.resolve("stat"), stat(tid, comm, utime, stime, start));
    return this;
  }

  void remove(int pid) throws IOException {
    try (var walk = Files.walk(root.resolve(String.valueOf(pid)))) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
