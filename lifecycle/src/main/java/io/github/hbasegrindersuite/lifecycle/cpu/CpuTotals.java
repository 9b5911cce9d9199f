package io.github.hbasegrindersuite.lifecycle.cpu;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a sampler saw over its whole life, for cpu.json: each role's seconds by thread class, the
 * CPUs its processes were allowed, its processes with their own seconds; the machine's busy, steal
 * and idle seconds; and the closure check: the roles plus the rest against /proc/stat's busy time,
 * and, with cgroups, the hierarchy root's counter (two independent counts of the same CPU).
 */
final class CpuTotals {
  private final Map<Role, double[]> roles = new EnumMap<>(Role.class);
  private final Map<Role, TreeSet<String>> cpus = new EnumMap<>(Role.class);
  /** pid@start -> role, label, seconds, pid, ppid, peak rss (kB) */
  private final Map<String, Object[]> processes = new LinkedHashMap<>();
  /** Each role's peak resident memory: the largest sum over its processes in one reading, in kB. */
  private final Map<Role, Long> rssPeakKb = new EnumMap<>(Role.class);
  private final long pageKb;
  private double busy;
  private double rootSeconds;
  private boolean rootKnown = true;
  private int samples;

  /** @param pageKb the size of a page in kB (stat's rss counts pages) */
  CpuTotals(long pageKb) {
    this.pageKb = pageKb;
  }

  void add(Snapshot prev, Snapshot now, List<CpuAccounting.RoleSeconds> rows, int hz) {
    samples++;
    for (CpuAccounting.RoleSeconds r : rows) {
      final double[] t = roles.computeIfAbsent(r.role, k -> new double[1 + r.classes.length]);
      t[0] += r.cpu;
      for (int i = 0; i < r.classes.length; i++) {
        t[i + 1] += Double.isNaN(r.classes[i]) ? 0 : r.classes[i];
      }
    }
    busy += CpuAccounting.busy(prev, now, hz);
    if (prev.rootNanos != null && now.rootNanos != null) {
      rootSeconds += Math.max(0, now.rootNanos - prev.rootNanos) / 1e9;
    } else {
      rootKnown = false;
    }
    final Map<Role, Long> rssNow = new EnumMap<>(Role.class);
    for (Snapshot.Proc p : now.processes.values()) {
      final Snapshot.Proc before = prev.processes.get(p.pid);
      final boolean same = before != null && before.ticks.start == p.ticks.start;
      final Object[] e = processes.computeIfAbsent(p.pid + "@" + p.ticks.start, k -> new Object[] {p.role, p.label, 0.0, p.pid, p.ticks.ppid, 0L});
      e[1] = p.label;
      e[2] = (Double) e[2] + CpuAccounting.delta(same ? before.ticks : null, p.ticks, prev.uptimeTicks) / (double) hz;
      final long rssKb = p.ticks.rssPages * pageKb;
      e[5] = Math.max((Long) e[5], rssKb);
      rssNow.merge(p.role, rssKb, Long::sum);
      if (p.cpusAllowed != null && !p.cpusAllowed.equals("-")) {
        cpus.computeIfAbsent(p.role, k -> new TreeSet<>()).add(p.cpusAllowed);
      }
    }
    rssNow.forEach((role, kb) -> rssPeakKb.merge(role, kb, Math::max));
  }

  Map<String, Object> document(String method, long intervalMs, int hz, int machineCpus, String started, String ended) {
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("method", method);
    doc.put("interval_ms", intervalMs);
    doc.put("clock_ticks", hz);
    doc.put("cpus", machineCpus);
    doc.put("started", started);
    doc.put("ended", ended);
    doc.put("samples", samples);
    final Map<String, Object> byRole = new LinkedHashMap<>();
    double charged = 0;
    for (Role role : Role.values()) {
      final double[] t = roles.get(role);
      if (t == null) {
        continue;
      }
      final Map<String, Object> o = new LinkedHashMap<>();
      o.put("side", role.side.word);
      o.put("cpu_s", round(t[0]));
      if (role.side != Role.Side.MACHINE) {
        charged += t[0];
        for (ThreadClass c : ThreadClass.values()) {
          if (c != ThreadClass.REST) {
            o.put(c.word + "_s", round(t[c.ordinal() + 1]));
          }
        }
        o.put("cpus_allowed", new ArrayList<>(cpus.getOrDefault(role, new TreeSet<>())));
        o.put("rss_peak_mb", mb(rssPeakKb.getOrDefault(role, 0L)));
        o.put("processes", processes(role));
      }
      byRole.put(role.word, o);
    }
    doc.put("roles", byRole);
    final Map<String, Object> closure = new LinkedHashMap<>();
    closure.put("busy_s", round(busy));
    closure.put("roles_s", round(charged));
    closure.put("cgroup_root_s", rootKnown && samples > 0 ? round(rootSeconds) : null);
    // Two counts of one thing: the kernel's tick-sampled /proc/stat and the cgroup root's exact counter.
    closure.put("root_over_busy", rootKnown && samples > 0 && busy > 0 ? round(rootSeconds / busy) : null);
    closure.put("roles_over_busy", busy > 0 ? round(charged / busy) : null);
    doc.put("closure", closure);
    return doc;
  }

  /** A role's processes of at least 0.05 CPU s each; the many brief ones (sleep, jq, ss) as one entry. */
  private List<Object> processes(Role role) {
    final List<Object> procs = new ArrayList<>();
    final TreeSet<String> briefNames = new TreeSet<>();
    int brief = 0;
    double briefSeconds = 0;
    for (Object[] e : processes.values()) {
      if (e[0] != role) {
        continue;
      }
      if ((Double) e[2] < 0.05) {
        brief++;
        briefSeconds += (Double) e[2];
        briefNames.add(String.valueOf(e[1]));
        continue;
      }
      final Map<String, Object> p = new LinkedHashMap<>();
      p.put("pid", e[3]);
      p.put("label", e[1]);
      p.put("cpu_s", round((Double) e[2]));
      p.put("ppid", e[4]);
      p.put("rss_peak_mb", mb((Long) e[5]));
      procs.add(p);
    }
    if (brief > 0) {
      final Map<String, Object> p = new LinkedHashMap<>();
      p.put("pid", null);
      p.put("label", brief + " brief process(es): " + String.join(", ", briefNames));
      p.put("cpu_s", round(briefSeconds));
      procs.add(p);
    }
    return procs;
  }

  private static double mb(long kb) {
    return Math.round(kb / 102.4) / 10.0;
  }

  private static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }
}
