package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which "running" runs have lost their ./suite run, from hand-made run folders. */
class StaleRunsTest {
  @TempDir
  Path runs;

  private void run(String id, String status, String owner) throws Exception {
    final Path dir = Files.createDirectories(runs.resolve(id));
    Files.writeString(dir.resolve("manifest.json"), "{\"run_id\":\"" + id + "\",\"status\":\"" + status + "\"}");
    Files.writeString(dir.resolve("plan.json"), "{\"run_id\":\"" + id + "\"" + (owner == null ? "" : ",\"owner\":" + owner) + "}");
  }

  private static String owner(long pid, String started) {
    return "{\"pid\":" + pid + ",\"started\":" + (started == null ? "null" : "\"" + started + "\"") + "}";
  }

  /** The PID of a process that has ended (reading /proc/sys/kernel/pid_max with Files.readString gave "3"). */
  private static long deadPid() throws Exception {
    final Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    return gone.pid();
  }

  @Test
  void aRunningRunWhoseOwnerIsGoneIsStaleAndNothingElseIs() throws Exception {
    final long me = ProcessHandle.current().pid();
    final String myStart = ProcessHandle.current().info().startInstant().orElseThrow().toString();
    run("run-1", "running", owner(deadPid(), "2026-11-23T10:00:00Z"));            // owner gone
    run("run-2", "running", owner(me, myStart));                                 // owner alive: still going
    run("run-3", "running", owner(me, "2001-01-01T00:00:00Z"));                  // PID reused by another process
    run("run-4", "complete", owner(deadPid(), null));                            // already judged
    run("run-5", "running", null);                                               // planned before owners were recorded
    run("run-6", "running", owner(me, null));                                    // start unknown: alive is enough
    Files.createDirectories(runs.resolve("run-7"));                              // allocated, nothing written yet
    Files.writeString(runs.resolve("run-8"), "not a folder");
    final List<StaleRuns.Stale> stale = StaleRuns.find(runs);
    assertEquals(List.of("run-1", "run-3"), stale.stream().map(s -> s.runDir.getFileName().toString()).collect(Collectors.toList()));
    assertEquals(me, stale.get(1).ownerPid);
  }

  @Test
  void aRunningSweepWhoseOwnerIsGoneIsStaleToo() throws Exception {
    final long me = ProcessHandle.current().pid();
    final String myStart = ProcessHandle.current().info().startInstant().orElseThrow().toString();
    sweep("sweep-1", "running", owner(deadPid(), null));
    sweep("sweep-2", "running", owner(me, myStart));
    sweep("sweep-3", "interrupted", owner(deadPid(), null));
    run("run-1", "running", owner(deadPid(), null));
    assertEquals(List.of("run-1", "sweep-1"),
        StaleRuns.find(runs).stream().map(s -> s.runDir.getFileName().toString()).collect(Collectors.toList()));
  }

  private void sweep(String id, String status, String owner) throws Exception {
    final Path dir = Files.createDirectories(runs.resolve(id));
    Files.writeString(dir.resolve("sweep.json"), "{\"sweep_id\":\"" + id + "\",\"status\":\"" + status + "\"}");
    Files.writeString(dir.resolve("sweep-plan.json"), "{\"sweep_id\":\"" + id + "\",\"owner\":" + owner + "}");
  }

  @Test
  void aZombieIsNotAnOwner() throws Exception {
    // The child (sleep 0.1) of a parent that never reaps it (exec sleep 5) is a zombie once it ends.
    final Process parent = new ProcessBuilder("bash", "-c", "sleep 0.1 & echo $!; exec sleep 5").start();
    try {
      final long child = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream())).readLine().trim());
      final long until = System.nanoTime() + 3_000_000_000L;
      while (!StaleRuns.isZombie(child) && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertTrue(StaleRuns.isZombie(child));
      assertTrue(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false)); // what ProcessHandle says
      assertEquals(false, StaleRuns.isAlive(child, null));
      assertEquals(false, StaleRuns.isZombie(ProcessHandle.current().pid()));
    } finally {
      parent.destroyForcibly().waitFor();
    }
  }

  @Test
  void theOwnerRecordedForThisProcessIsAliveWithItsOwnStart() {
    final long me = ProcessHandle.current().pid();
    final var owner = StaleRuns.owner(me);
    assertEquals(me, owner.get("pid"));
    assertTrue(StaleRuns.isAlive(me, (String) owner.get("started")));
  }

  @Test
  void noRunsFolderMeansNoStaleRuns() throws Exception {
    assertTrue(StaleRuns.find(runs.resolve("absent")).isEmpty());
  }
}
