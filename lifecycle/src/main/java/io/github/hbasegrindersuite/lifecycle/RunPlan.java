package io.github.hbasegrindersuite.lifecycle;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** A planned run: what the planner decided, read back by the finaliser from plan.json. */
final class RunPlan {
  final Path runDir;
  final String runId;
  /** The run's key on remote hosts: runs/RUN_ID-START_MS, so a checkout's earlier run-N never comes back. */
  final String runKey;
  final List<Host> hosts;
  final String injectorMode;
  final String injectorNote;
  final int processes;
  final int durationSeconds;
  final int runTimeoutSeconds;
  final Instant start;
  RunArguments arguments;
  RunPlanner.Machine machine;
  Properties properties;
  Map<String, String> consoleProperties;
  boolean uniformThreads;

  /** The fault schedule (faults.schedule, --faults), or null. */
  io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule faults;

  /** The lab's CPUs: which side runs where (lab.cpus). */
  io.github.hbasegrindersuite.lifecycle.cpu.LabCpus lab;
  /** Where the workers run: a JVM of their own per run, or threads of the session's agent (session.workers). */
  WarmWorkers.Mode workers = WarmWorkers.Mode.FRESH;
  /** Warm: runs an agent serves before the session starts its agents afresh (session.workers.runs). */
  int warmRunsPerAgent = WarmWorkers.DEFAULT_RUNS;

  RunPlan(Path runDir, List<Host> hosts, String injectorMode, String injectorNote, int processes,
          int durationSeconds, int runTimeoutSeconds, Instant start) {
    this.runDir = runDir;
    this.runId = runDir.getFileName().toString();
    this.runKey = runId + "-" + start.toEpochMilli();
    this.hosts = hosts;
    this.injectorMode = injectorMode;
    this.injectorNote = injectorNote;
    this.processes = processes;
    this.durationSeconds = durationSeconds;
    this.runTimeoutSeconds = runTimeoutSeconds;
    this.start = start;
  }

  int threadsTotal() {
    return hosts.stream().mapToInt(h -> h.threads * processes).sum();
  }

  /** "8" when every host runs the same threads per process, else "3,2". */
  String threadsPerProcess() {
    return uniformThreads ? String.valueOf(hosts.get(0).threads)
        : String.join(",", hosts.stream().map(h -> String.valueOf(h.threads)).toArray(String[]::new));
  }

  String target() {
    return properties.getProperty("hbaseload.target", "direct").trim();
  }

  boolean embeddedHBase() {
    return properties.getProperty("hbaseload.hbase.site", "").trim().isEmpty();
  }
}
