package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs whose manifest, and sweeps whose sweep.json, still say "running" although the ./suite run
 * or ./suite sweep that owns them is gone (SIGKILL, a lost terminal, a crashed machine): nothing
 * else would ever judge them. The owner is the process recorded in plan.json (sweep-plan.json)
 * with its start instant, so a PID the kernel has since given to another process does not pass
 * for the owner. Those planned before owners were recorded are never called stale: nothing
 * tells whether they are still going.
 */
final class StaleRuns {

  static final class Stale {
    final Path runDir;
    final long ownerPid;

    Stale(Path runDir, long ownerPid) {
      this.runDir = runDir;
      this.ownerPid = ownerPid;
    }
  }

  private StaleRuns() {
  }

  /** plan.json's owner: the PID and, when the OS tells, the process's start instant. */
  static Map<String, Object> owner(long pid) {
    final Map<String, Object> owner = new LinkedHashMap<>();
    owner.put("pid", pid);
    owner.put("started", startOf(pid).map(Instant::toString).orElse(null));
    return owner;
  }

  static List<Stale> find(Path runsDir) throws LifecycleException {
    final List<Stale> stale = new ArrayList<>();
    if (!Files.isDirectory(runsDir)) {
      return stale;
    }
    try (Stream<Path> dirs = Files.list(runsDir)) {
      for (Path dir : (Iterable<Path>) dirs.filter(d -> d.getFileName().toString().matches("(run|sweep)-[0-9]+")).sorted()::iterator) {
        final Optional<Long> gone = goneOwner(dir);
        gone.ifPresent(pid -> stale.add(new Stale(dir, pid)));
      }
    } catch (IOException e) {
      throw new LifecycleException("cannot list " + runsDir + ": " + e.getMessage());
    }
    return stale;
  }

  /** The owner's PID when DIR's run or sweep is "running" and its owner is gone; empty otherwise. */
  static Optional<Long> goneOwner(Path dir) {
    final boolean sweep = dir.getFileName().toString().startsWith("sweep-");
    final JsonObject manifest;
    final JsonObject plan;
    try {
      manifest = Json.read(dir.resolve(sweep ? "sweep.json" : "manifest.json"));
      plan = Json.read(dir.resolve(sweep ? "sweep-plan.json" : "plan.json"));
    } catch (LifecycleException | RuntimeException e) {
      return Optional.empty(); // no plan or manifest (yet): not a run this can judge
    }
    if (!"running".equals(Json.text(manifest, "status")) || !plan.has("owner") || !plan.get("owner").isJsonObject()) {
      return Optional.empty();
    }
    final JsonObject owner = plan.getAsJsonObject("owner");
    final long pid = owner.get("pid").getAsLong();
    final String started = Json.text(owner, "started");
    return isAlive(pid, started) ? Optional.empty() : Optional.of(pid);
  }

  /** Whether PID is alive (a zombie is not) and, when its start was recorded, the same process. */
  static boolean isAlive(long pid, String recordedStart) {
    final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive() || isZombie(pid)) {
      return false;
    }
    if (recordedStart == null || recordedStart.isEmpty()) {
      return true;
    }
    return startOf(pid).map(start -> start.toString().equals(recordedStart)).orElse(true);
  }

  /**
   * A killed process whose parent was killed with it stays a zombie until something reaps it,
   * and ProcessHandle calls it alive. Linux only; elsewhere nothing is a zombie. Read as a stream:
   * Files.readString of a procfs file can come back short (it trusts the size procfs reports).
   */
  static boolean isZombie(long pid) {
    try (java.io.BufferedReader stat = Files.newBufferedReader(Path.of("/proc", Long.toString(pid), "stat"))) {
      final String line = stat.readLine();
      final int close = line == null ? -1 : line.lastIndexOf(')');
      return close > 0 && close + 2 < line.length() && line.charAt(close + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static Optional<Instant> startOf(long pid) {
    return ProcessHandle.of(pid).flatMap(p -> p.info().startInstant());
  }
}
