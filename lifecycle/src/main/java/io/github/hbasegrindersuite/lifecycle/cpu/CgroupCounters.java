package io.github.hbasegrindersuite.lifecycle.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The lab's accounting cgroups (suite.d/lab.sh makes them): one folder per {@link Role} under the
 * lab's folder, each counting the CPU of every process ever in it, children and threads that ended
 * included. cgroup v1 {@code cpuacct.usage} (ns) or v2 {@code cpu.stat} {@code usage_usec}; the
 * hierarchy's root counts the whole machine, so the CPU outside the lab is measured, not inferred.
 */
public final class CgroupCounters {
  private final Path lab;
  private final Path root;
  private final String method;

  /**
   * @param lab  the lab's folder (…/cpuacct/hgs0 or …/hgs0 on v2)
   * @param root the hierarchy's root, or null when its usage is not to be read
   */
  public CgroupCounters(Path lab, Path root) {
    this.lab = lab;
    this.root = root;
    this.method = method(lab);
  }

  public String method() {
    return method;
  }

  /** "cgroup-v1" or "cgroup-v2": which kind of cgroup the folder is. */
  static String method(Path cgroup) {
    return Files.exists(cgroup.resolve("cpuacct.usage")) ? "cgroup-v1" : "cgroup-v2";
  }

  public Path folder(Role role) {
    return lab.resolve(role.word);
  }

  /** CPU nanoseconds the role's cgroup has counted, or null when it has none (not made, or unreadable). */
  public Long usageNanos(Role role) {
    return usage(folder(role));
  }

  /** The whole hierarchy's CPU nanoseconds (every process of the machine), or null. */
  public Long rootNanos() {
    return root == null ? null : usage(root);
  }

  public List<Integer> pids(Role role) {
    return pids(folder(role));
  }

  /** The processes in a cgroup now; none when it is gone or unreadable. */
  static List<Integer> pids(Path cgroup) {
    final List<Integer> pids = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(cgroup.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
        if (!line.isBlank()) {
          pids.add(Integer.valueOf(line.trim()));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no such cgroup: no processes
    }
    return pids;
  }

  static Long usage(Path dir) {
    try {
      final Path v1File = dir.resolve("cpuacct.usage");
      if (Files.exists(v1File)) {
        return Long.valueOf(Files.readString(v1File, StandardCharsets.US_ASCII).trim());
      }
      for (String line : Files.readAllLines(dir.resolve("cpu.stat"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("usage_usec ")) {
          return Long.parseLong(line.substring("usage_usec ".length()).trim()) * 1000L;
        }
      }
    } catch (IOException | RuntimeException e) {
      // unreadable: unknown
    }
    return null;
  }
}
