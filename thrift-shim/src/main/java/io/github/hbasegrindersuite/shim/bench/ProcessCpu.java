package io.github.hbasegrindersuite.shim.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;

/** CPU time of named processes from /proc, sampled around every slice: CPU per request by process. */
final class ProcessCpu {
  /** Linux clock ticks per second (USER_HZ). */
  static final double TICKS_PER_SECOND = 100;

  private final Map<String, Long> pids;

  ProcessCpu(Map<String, Long> pids) {
    this.pids = pids;
  }

  Iterable<String> names() {
    return pids.keySet();
  }

  boolean isEmpty() {
    return pids.isEmpty();
  }

  /** Name -> utime + stime in clock ticks, -1 when unreadable. */
  Map<String, Long> sample() {
    Map<String, Long> m = new LinkedHashMap<>();
    pids.forEach((name, pid) -> m.put(name, ticks(pid)));
    return m;
  }

  /** utime + stime of a process in clock ticks, or -1 when unreadable. */
  static long ticks(long pid) {
    try {
      String stat = new String(Files.readAllBytes(Paths.get("/proc/" + pid + "/stat")), StandardCharsets.US_ASCII);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
