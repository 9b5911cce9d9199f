package io.github.hbasegrindersuite.lifecycle.cpu;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * From two snapshots, the CPU seconds of the interval per role, and for each role the seconds its
 * JVM threads spent compiling (JIT), collecting garbage, in event loops and making or serving the
 * load ({@link ThreadClass}). A role's total is its cgroup's counter when the lab has cgroups
 * (exact: children and ended threads included), else the sum of its processes' ticks. A process or
 * thread first seen in {@code now} counts whole when it started after {@code prev} (born in the
 * interval), else from here on. The machine's rest: busy CPU no role took is {@code other}, then
 * {@code steal} and {@code idle}, so that the rows add up to the interval times the CPUs.
 */
final class CpuAccounting {

  private CpuAccounting() {
  }

  /**
   * One row of cpu.csv: a role's seconds in one interval. Thread classes are NaN for the machine's
   * rows, and io and load for a role with a JVM too large to read every thread of every second.
   */
  static final class RoleSeconds {
    final Role role;
    final int processes;
    final double cpu;
    final double[] classes = new double[ThreadClass.values().length - 1]; // jit, gc, io, load (rest = cpu - these)

    RoleSeconds(Role role, int processes, double cpu) {
      this.role = role;
      this.processes = processes;
      this.cpu = cpu;
    }

    double of(ThreadClass c) {
      return classes[c.ordinal()];
    }
  }

  /** The interval's rows, one per role (every process role, then other, steal, idle). */
  static List<RoleSeconds> between(Snapshot prev, Snapshot now, int hz) {
    final Map<Role, double[]> classTicks = new EnumMap<>(Role.class);
    final Map<Role, Double> procTicks = new EnumMap<>(Role.class);
    final Map<Role, Integer> counts = new EnumMap<>(Role.class);
    final Map<Role, Boolean> partial = new EnumMap<>(Role.class);
    for (Snapshot.Proc p : now.processes.values()) {
      final Snapshot.Proc before = prev.processes.get(p.pid);
      final boolean same = before != null && before.ticks.start == p.ticks.start;
      procTicks.merge(p.role, (double) delta(same ? before.ticks : null, p.ticks, prev.uptimeTicks), Double::sum);
      counts.merge(p.role, 1, Integer::sum);
      partial.merge(p.role, p.partial, Boolean::logicalOr);
      final double[] c = classTicks.computeIfAbsent(p.role, r -> new double[ThreadClass.values().length]);
      for (Map.Entry<Integer, Snapshot.Thread> t : p.threads.entrySet()) {
        final Snapshot.Thread then = same ? before.threads.get(t.getKey()) : null;
        final ProcFs.Ticks now1 = t.getValue().ticks;
        c[t.getValue().kind.ordinal()] += delta(then != null && then.ticks.start == now1.start ? then.ticks : null, now1, prev.uptimeTicks);
      }
    }
    final double interval = (now.timeMs - prev.timeMs) / 1000.0;
    final List<RoleSeconds> rows = new ArrayList<>();
    double charged = 0;
    for (Role role : Role.processRoles()) {
      final double cpu;
      if (now.cgroups()) {
        final Long a = prev.roleNanos.get(role);
        final Long b = now.roleNanos.get(role);
        cpu = a == null || b == null ? 0 : Math.max(0, b - a) / 1e9;
      } else {
        cpu = procTicks.getOrDefault(role, 0.0) / hz;
      }
      final RoleSeconds row = new RoleSeconds(role, counts.getOrDefault(role, 0), cpu);
      final double[] c = classTicks.get(role);
      if (c != null) {
        for (int i = 0; i < row.classes.length; i++) {
          row.classes[i] = c[i] / hz;
        }
        if (partial.getOrDefault(role, false)) {
          // a large JVM: only its JIT and GC threads were read
          row.classes[ThreadClass.IO.ordinal()] = Double.NaN;
          row.classes[ThreadClass.LOAD.ordinal()] = Double.NaN;
        }
      }
      rows.add(row);
      charged += cpu;
    }
    final ProcFs.MachineTicks a = prev.machine;
    final ProcFs.MachineTicks b = now.machine;
    final double busy = (b.busy() - a.busy()) / (double) hz;
    rows.add(machineRow(Role.OTHER, Math.max(0, busy - charged)));
    rows.add(machineRow(Role.STEAL, (b.steal - a.steal) / (double) hz));
    rows.add(machineRow(Role.IDLE, (b.idleAll() - a.idleAll()) / (double) hz));
    assert interval >= 0;
    return rows;
  }

  /** The machine's busy seconds between two snapshots (/proc/stat). */
  static double busy(Snapshot prev, Snapshot now, int hz) {
    return (now.machine.busy() - prev.machine.busy()) / (double) hz;
  }

  private static RoleSeconds machineRow(Role role, double seconds) {
    final RoleSeconds row = new RoleSeconds(role, 0, seconds);
    java.util.Arrays.fill(row.classes, Double.NaN);
    return row;
  }

  /** Ticks since {@code then}; a thing not seen then counts whole if it started after {@code sinceTicks}. */
  static long delta(ProcFs.Ticks then, ProcFs.Ticks now, long sinceTicks) {
    if (then != null) {
      return Math.max(0, now.cpu - then.cpu);
    }
    return now.start >= sinceTicks ? now.cpu : 0;
  }
}
