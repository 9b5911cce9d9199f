package io.github.hbasegrindersuite.lifecycle.cpu;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes {@link Snapshot}s: the machine's counters, then the processes of every role with their
 * threads. With the lab's cgroups a process's role is the cgroup it is in; without them, its
 * command line tells ({@link RoleClassifier}), and every process of the machine is looked at.
 */
final class SnapshotReader {
  private final ProcFs proc;
  private final CgroupCounters cgroups;
  private final int hz;
  /** What is known of a process (pid and start): its label, the CPUs it may use, its role when told by command line. */
  private final Map<String, Known> known = new HashMap<>();

  /**
   * A JVM of more threads than this (HBase: about 260) has only its JIT and GC threads read every
   * second: a thread's stat file costs the kernel about 10 us, and every thread's would cost the
   * lab's client CPUs several ms a second. Its io and load seconds are then not split out.
   */
  static final int FULL_SPLIT_MAX_THREADS = 100;

  private static final class Known {
    final Role role;
    final String label;
    final String cpus;
    /** Each thread's class, known from its name once read (tid to class). */
    final Map<Integer, ThreadClass> classes = new HashMap<>();

    Known(Role role, String label, String cpus) {
      this.role = role;
      this.label = label;
      this.cpus = cpus;
    }
  }

  /** Without cgroups, only processes whose command line holds it (another checkout's are not ours); null: all. */
  private final String mark;

  SnapshotReader(ProcFs proc, CgroupCounters cgroups, int hz, String mark) {
    this.proc = proc;
    this.cgroups = cgroups;
    this.hz = hz;
    this.mark = mark;
  }

  String method() {
    return cgroups == null ? "proc" : cgroups.method();
  }

  Snapshot read(long timeMs) throws IOException {
    final Snapshot s = new Snapshot(timeMs, proc.uptimeTicks(hz), proc.machine());
    if (cgroups != null) {
      s.rootNanos = cgroups.rootNanos();
      for (Role role : Role.processRoles()) {
        final Long usage = cgroups.usageNanos(role);
        if (usage != null) {
          s.roleNanos.put(role, usage);
        }
        for (int pid : cgroups.pids(role)) {
          add(s, pid, role);
        }
      }
    } else {
      for (int pid : proc.pids()) {
        add(s, pid, null);
      }
    }
    return s;
  }

  /** Adds a process with its threads: of ROLE, or of the role its command line says (none: left out). */
  private void add(Snapshot s, int pid, Role role) {
    final ProcFs.Ticks ticks = proc.process(pid);
    if (ticks == null) {
      return;
    }
    final String key = pid + "@" + ticks.start;
    Known k = known.get(key);
    if (k == null || role != null && k.role != role || k.cpus == null) {
      final List<String> argv = proc.cmdline(pid);
      final Role told = role != null ? role : mark == null || String.join(" ", argv).contains(mark) ? RoleClassifier.of(argv) : null;
      if (told == null) {
        if (argv.isEmpty() || !argv.get(0).endsWith("bash")) {
          known.put(key, new Known(null, ticks.comm, "-")); // not ours, and it will not become ours
        }
        return;
      }
      // A lab wrapper (bash) execs java under the same pid: keep asking until the label is the JVM's.
      k = new Known(told, Snapshot.label(argv, ticks.comm), argv.isEmpty() || argv.get(0).endsWith("bash") ? null : proc.cpusAllowed(pid));
      known.put(key, k);
    }
    if (k.role == null) {
      return;
    }
    final List<Integer> ids = proc.threadIds(pid);
    final boolean partial = ids.size() > FULL_SPLIT_MAX_THREADS;
    final Map<Integer, Snapshot.Thread> threads = new HashMap<>();
    for (int tid : ids) {
      ThreadClass kind = k.classes.get(tid);
      if (kind != null && partial && kind != ThreadClass.JIT && kind != ThreadClass.GC) {
        continue;
      }
      final ProcFs.Ticks t = proc.thread(pid, tid);
      if (t == null) {
        continue;
      }
      if (kind == null) {
        kind = ThreadClass.of(t.comm);
        k.classes.put(tid, kind);
      }
      threads.put(tid, new Snapshot.Thread(kind, t));
    }
    if (k.classes.size() > ids.size() * 2 + 64) {
      k.classes.keySet().retainAll(new java.util.HashSet<>(ids)); // forget threads long gone
    }
    s.processes.put(pid, new Snapshot.Proc(pid, k.role, k.label, ticks, threads, partial, k.cpus));
  }
}
