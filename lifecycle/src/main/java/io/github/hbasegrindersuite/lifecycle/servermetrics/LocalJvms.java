package io.github.hbasegrindersuite.lifecycle.servermetrics;

import io.github.hbasegrindersuite.lifecycle.cpu.ProcFs;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What the OperatingSystem bean would say of a server JVM on this machine, read from /proc instead
 * of asked of the server: its process CPU from /proc/PID/stat, the machine's load from
 * /proc/loadavg. Asking costs the server the dearest of its /jmx answers (the JDK reads a dozen
 * cgroup files for it); reading costs it nothing. A JVM is this machine's when its Runtime bean's
 * Name ("pid@host") has this JVM's host and the pid is a java process here that started when the
 * bean says (within {@link #START_SLACK_MS}): a JVM in a container of its own pid namespace may
 * share the host's name, not its pids.
 */
final class LocalJvms {
  static final long START_SLACK_MS = 2000;
  private final Path proc;
  private final ProcFs procFs;
  private final int clockTicks;
  private final String host;

  LocalJvms(Path proc, int clockTicks, String host) {
    this.proc = proc;
    this.procFs = new ProcFs(proc);
    this.clockTicks = clockTicks;
    this.host = host;
  }

  static LocalJvms here(int clockTicks) {
    final String name = ManagementFactory.getRuntimeMXBean().getName();
    return new LocalJvms(Path.of("/proc"), clockTicks, name.substring(name.indexOf('@') + 1));
  }

  /**
   * The pid of the JVM named {@code jvm} ("pid@host") that started at {@code startTimeMs} (its
   * Runtime bean's StartTime) when it runs here, else null (null when either is unknown).
   */
  Integer pidOf(String jvm, Long startTimeMs) {
    final int at = jvm == null ? -1 : jvm.indexOf('@');
    if (startTimeMs == null || at <= 0 || !jvm.substring(at + 1).equals(host) || !jvm.substring(0, at).matches("[0-9]{1,9}")) {
      return null;
    }
    final int pid = Integer.parseInt(jvm.substring(0, at));
    final ProcFs.Ticks t = procFs.process(pid);
    if (t == null || !t.comm.equals("java")) {
      return null;
    }
    try {
      // started (uptime - starttime) ticks ago
      final long startedMs = System.currentTimeMillis() - (procFs.uptimeTicks(clockTicks) - t.start) * 1000 / clockTicks;
      return Math.abs(startedMs - startTimeMs) <= START_SLACK_MS ? pid : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The OperatingSystem bean's ProcessCpuTime (ns) and SystemLoadAverage for PID, or null when it is gone. */
  Map<String, Double> osValues(int pid) {
    final ProcFs.Ticks t = procFs.process(pid);
    if (t == null) {
      return null;
    }
    final Map<String, Double> values = new HashMap<>();
    values.put("ProcessCpuTime", t.cpu * 1e9 / clockTicks);
    try {
      values.put("SystemLoadAverage", Double.valueOf(Files.readString(proc.resolve("loadavg")).trim().split("\\s+")[0]));
    } catch (IOException | RuntimeException e) {
      // no load: the column stays empty
    }
    return values;
  }
}
