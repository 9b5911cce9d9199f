package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two readings of a hand-made /proc (100 ticks a second) and what the interval between them charges to whom. */
class CpuAccountingTest {
  private static final double EPS = 1e-9;
  private static final String HBASE = "java -cp x org.apache.hadoop.hbase.master.HMaster start";
  private static final String WORKER = "java -javaagent:dcr.jar -classpath a.jar net.grinder.engine.process.WorkerProcessEntryPoint";

  @TempDir
  Path dir;

  private static CpuAccounting.RoleSeconds row(List<CpuAccounting.RoleSeconds> rows, Role role) {
    return rows.stream().filter(r -> r.role == role).findFirst().orElseThrow();
  }

  @Test
  void processesAndThreadsByCommandLine() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(1000, 200, 5000, 0, 0, 0, 0, 2).uptime(100.00)
        .process(300, "java", 80, 20, 500, HBASE, "0").thread(300, 300, "java", 40, 0, 500).thread(300, 301, "C2 CompilerThre", 60, 0, 501)
        .process(350, "java", 5, 5, 600, "java -jar not-ours.jar", "0-1")
        .process(360, "java", 500, 0, 700, WORKER, "1"); // a worker that was there before the first reading: counted from then on
    final SnapshotReader reader = new SnapshotReader(new ProcFs(fake.root), null, 100, null);
    final Snapshot first = reader.read(1_000);
    // one second later: HBase +50 ticks (C2 +30, main +20); a new worker born in the interval with 30 ticks
    fake.machine(1100, 220, 5078, 2, 0, 0, 0, 2).uptime(101.00)
        .process(300, "java", 120, 30, 500, HBASE, "0").thread(300, 300, "java", 60, 0, 500).thread(300, 301, "C2 CompilerThre", 90, 0, 501)
        .process(360, "java", 510, 0, 700, WORKER, "1")
        .process(400, "java", 25, 5, 10_050, WORKER, "1").thread(400, 400, "thread 0", 20, 0, 10_060).thread(400, 401, "C1 CompilerThre", 10, 0, 10_051);
    final Snapshot second = reader.read(2_000);
    final List<CpuAccounting.RoleSeconds> rows = CpuAccounting.between(first, second, 100);

    final CpuAccounting.RoleSeconds hbase = row(rows, Role.HBASE);
    assertEquals(0.5, hbase.cpu, EPS);
    assertEquals(0.3, hbase.of(ThreadClass.JIT), EPS);
    assertEquals(1, hbase.processes);
    final CpuAccounting.RoleSeconds worker = row(rows, Role.WORKER);
    assertEquals(0.1 + 0.3, worker.cpu, EPS, "the old worker's 10 ticks and the new one's 30, whole");
    assertEquals(2, worker.processes);
    assertEquals(0.2, worker.of(ThreadClass.LOAD), EPS);
    assertEquals(0.1, worker.of(ThreadClass.JIT), EPS);
    // busy 100 + 20 = 120 ticks; the roles took 90: the rest is other
    assertEquals(1.2 - 0.9, row(rows, Role.OTHER).cpu, EPS);
    assertEquals(0.8, row(rows, Role.IDLE).cpu, EPS);
    assertEquals(0, row(rows, Role.STEAL).cpu, EPS);
    assertEquals(Role.values().length, rows.size());
    assertTrue(Double.isNaN(row(rows, Role.OTHER).of(ThreadClass.JIT)));
  }

  @Test
  void aReusedPidIsANewProcess() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(0, 0, 0, 0, 0, 0, 0, 1).uptime(100.00)
        .process(300, "java", 500, 0, 500, WORKER, "0");
    final SnapshotReader reader = new SnapshotReader(new ProcFs(fake.root), null, 100, null);
    final Snapshot first = reader.read(1_000);
    fake.uptime(101.00).process(300, "java", 20, 0, 10_020, WORKER, "0"); // another process under the old pid, born in the interval
    final Snapshot second = reader.read(2_000);
    assertEquals(0.2, row(CpuAccounting.between(first, second, 100), Role.WORKER).cpu, EPS);
  }

  @Test
  void aMarkKeepsOtherCheckoutsOut() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(0, 0, 0, 0, 0, 0, 0, 1).uptime(100.00)
        .process(300, "java", 0, 0, 500, HBASE.replace("-cp x", "-cp /work/main/lib/x.jar"), "0")
        .process(301, "java", 0, 0, 500, HBASE.replace("-cp x", "-cp /work/wt-other/lib/x.jar"), "0");
    final Snapshot s = new SnapshotReader(new ProcFs(fake.root), null, 100, "/work/main").read(1_000);
    assertEquals(List.of(300), List.copyOf(s.processes.keySet()));
  }

  @Test
  void cgroupsCountRolesExactlyAndTheRootCountsTheMachine() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(1000, 0, 0, 0, 0, 0, 0, 2).uptime(100.00)
        .process(300, "java", 100, 0, 500, HBASE, "0").thread(300, 301, "C2 CompilerThre", 10, 0, 501);
    final Path lab = dir.resolve("cg/hgs0");
    Files.createDirectories(lab.resolve("hbase"));
    Files.createDirectories(lab.resolve("worker"));
    Files.writeString(lab.resolve("cpuacct.usage"), "0\n");
    Files.writeString(lab.resolve("hbase/cpuacct.usage"), "1000000000\n");
    Files.writeString(lab.resolve("hbase/cgroup.procs"), "300\n");
    Files.writeString(lab.resolve("worker/cpuacct.usage"), "0\n");
    Files.writeString(lab.resolve("worker/cgroup.procs"), "");
    Files.writeString(dir.resolve("cg/cpuacct.usage"), "5000000000\n");
    final SnapshotReader reader = new SnapshotReader(new ProcFs(fake.root), new CgroupCounters(lab, dir.resolve("cg")), 100, null);
    final Snapshot first = reader.read(1_000);
    // the cgroup says 0.7 s for HBase (its threads' ticks say 0.4: a thread that ended is in the cgroup only)
    Files.writeString(lab.resolve("hbase/cpuacct.usage"), "1700000000\n");
    Files.writeString(lab.resolve("worker/cpuacct.usage"), "250000000\n"); // a worker that came and went
    Files.writeString(dir.resolve("cg/cpuacct.usage"), "6500000000\n");
    fake.machine(1150, 0, 50, 0, 0, 0, 0, 2).uptime(101.00).process(300, "java", 140, 0, 500, HBASE, "0").thread(300, 301, "C2 CompilerThre", 30, 0, 501);
    final Snapshot second = reader.read(2_000);
    final List<CpuAccounting.RoleSeconds> rows = CpuAccounting.between(first, second, 100);
    assertEquals(0.7, row(rows, Role.HBASE).cpu, EPS);
    assertEquals(0.2, row(rows, Role.HBASE).of(ThreadClass.JIT), EPS);
    assertEquals(0.25, row(rows, Role.WORKER).cpu, EPS);
    assertEquals(1.5 - 0.95, row(rows, Role.OTHER).cpu, EPS);

    final CpuTotals totals = new CpuTotals(4);
    totals.add(first, second, rows, 100);
    @SuppressWarnings("unchecked")
    final java.util.Map<String, Object> closure = (java.util.Map<String, Object>) totals.document("cgroup-v1", 1000, 100, 2, "a", "b").get("closure");
    assertEquals(1.5, closure.get("busy_s"));
    assertEquals(1.5, closure.get("cgroup_root_s"));
    assertEquals(1.0, closure.get("root_over_busy"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void eachRoleKeepsItsPeakMemoryAndEachProcessItsParent() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(0, 0, 0, 0, 0, 0, 0, 2).uptime(100.00)
        .process(500, "java", 0, 0, 500, "java -cp g.jar net.grinder.Grinder agent.properties", "1").memory(500, "java", 0, 0, 500, 1, 1000)
        .process(510, "java", 0, 0, 600, WORKER, "1").memory(510, "java", 0, 0, 600, 500, 2000)
        .process(520, "java", 0, 0, 700, WORKER, "1").memory(520, "java", 0, 0, 700, 500, 3000);
    final SnapshotReader reader = new SnapshotReader(new ProcFs(fake.root), null, 100, null);
    final CpuTotals totals = new CpuTotals(4);
    Snapshot prev = reader.read(1_000);
    // workers: 5000 pages together, then one grows and the other shrinks (2500 + 1000 = 3500): the role's peak is the first
    final long[][] workerPages = {{2000, 3000}, {2500, 1000}};
    for (int i = 0; i < workerPages.length; i++) {
      fake.uptime(101.00 + i).memory(510, "java", 10, 0, 600, 500, workerPages[i][0]).memory(520, "java", 10, 0, 700, 500, workerPages[i][1]);
      final Snapshot now = reader.read(2_000 + i * 1_000);
      totals.add(prev, now, CpuAccounting.between(prev, now, 100), 100);
      prev = now;
    }
    final java.util.Map<String, Object> roles = (java.util.Map<String, Object>) totals.document("proc", 1000, 100, 2, "a", "b").get("roles");
    final java.util.Map<String, Object> workers = (java.util.Map<String, Object>) roles.get("worker");
    assertEquals(19.5, workers.get("rss_peak_mb"), "(2000 + 3000) pages x 4 kB = 20,000 kB");
    assertEquals(3.9, ((java.util.Map<String, Object>) roles.get("agent")).get("rss_peak_mb"), "1000 pages x 4 kB = 4,000 kB");
    final List<java.util.Map<String, Object>> procs = (List<java.util.Map<String, Object>>) workers.get("processes");
    assertEquals(List.of(500, 500), procs.stream().map(p -> p.get("ppid")).toList(), "each worker's agent");
    final java.util.Map<Object, Object> peakByPid = new java.util.TreeMap<>();
    procs.forEach(p -> peakByPid.put(p.get("pid"), p.get("rss_peak_mb")));
    assertEquals(java.util.Map.of(510, 9.8, 520, 11.7), peakByPid, "2500 and 3000 pages, each its own peak");
  }

  @Test
  void aLargeJvmHasOnlyItsJitAndGcThreadsReadEverySecond() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(0, 0, 0, 0, 0, 0, 0, 1).uptime(100.00)
        .process(300, "java", 0, 0, 500, HBASE, "0");
    for (int t = 0; t <= SnapshotReader.FULL_SPLIT_MAX_THREADS; t++) {
      fake.thread(300, 1000 + t, t == 0 ? "C2 CompilerThre" : "RpcServer.defau", 1, 0, 501);
    }
    final SnapshotReader reader = new SnapshotReader(new ProcFs(fake.root), null, 100, null);
    final Snapshot first = reader.read(1_000);
    fake.uptime(101.00).process(300, "java", 30, 0, 500, HBASE, "0").thread(300, 1000, "C2 CompilerThre", 11, 0, 501);
    final Snapshot second = reader.read(2_000);
    assertEquals(1, second.processes.get(300).threads.size(), "only the compiler thread was read again");
    final CpuAccounting.RoleSeconds hbase = row(CpuAccounting.between(first, second, 100), Role.HBASE);
    assertEquals(0.1, hbase.of(ThreadClass.JIT), EPS);
    assertTrue(Double.isNaN(hbase.of(ThreadClass.LOAD)));
    assertEquals("1,1.000,hbase,server,1,0.300,0.100,0.000,,", CpuSampler.line(1, 1.0, hbase));
  }
}
