package io.github.hbasegrindersuite.lifecycle.cpu;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading of the machine: its CPU counters, each role's cgroup counter (when the lab has
 * cgroups), and every process of a role with its threads. Two readings make a sample
 * ({@link CpuAccounting#between}).
 */
final class Snapshot {
  final long timeMs;
  final long uptimeTicks;
  final ProcFs.MachineTicks machine;
  /** Each role's cgroup counter in ns; empty when roles are told by command line (no cgroups). */
  final Map<Role, Long> roleNanos = new LinkedHashMap<>();
  /** The hierarchy root's counter: all the machine's processes; null without cgroups. */
  Long rootNanos;
  final Map<Integer, Proc> processes = new LinkedHashMap<>();

  /** A process of a role, as read in this snapshot. */
  static final class Proc {
    final int pid;
    final Role role;
    final String label;
    final ProcFs.Ticks ticks;
    /** Its threads as read: all of them, or only the JIT and GC ones of a large JVM ({@link #partial}). */
    final Map<Integer, Thread> threads;
    final boolean partial;
    final String cpusAllowed;

    Proc(int pid, Role role, String label, ProcFs.Ticks ticks, Map<Integer, Thread> threads, boolean partial, String cpusAllowed) {
      this.pid = pid;
      this.role = role;
      this.label = label;
      this.ticks = ticks;
      this.threads = threads;
      this.partial = partial;
      this.cpusAllowed = cpusAllowed;
    }
  }

  /** A thread's counters and its class. */
  static final class Thread {
    final ThreadClass kind;
    final ProcFs.Ticks ticks;

    Thread(ThreadClass kind, ProcFs.Ticks ticks) {
      this.kind = kind;
      this.ticks = ticks;
    }
  }

  Snapshot(long timeMs, long uptimeTicks, ProcFs.MachineTicks machine) {
    this.timeMs = timeMs;
    this.uptimeTicks = uptimeTicks;
    this.machine = machine;
  }

  boolean cgroups() {
    return !roleNanos.isEmpty();
  }

  /** A short name for a process: a JVM's main class without its package, else the program's file name. */
  static String label(List<String> argv, String comm) {
    for (int i = argv.size() - 1; i >= 0; i--) {
      final String w = argv.get(i);
      if (w.matches("([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*")) {
        String previous = i > 0 ? argv.get(i - 1) : "";
        if (!previous.equals("-cp") && !previous.equals("-classpath") && !previous.startsWith("--add-")) {
          return w.substring(w.lastIndexOf('.') + 1);
        }
      }
    }
    for (String w : argv) {
      if (w.endsWith(".sh")) {
        return w.substring(w.lastIndexOf('/') + 1);
      }
    }
    return comm;
  }
}
