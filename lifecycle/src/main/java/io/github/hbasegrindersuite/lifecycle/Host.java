package io.github.hbasegrindersuite.lifecycle;

import java.util.Locale;

/**
 * One injector host of a run. Kinds: {@code loopback} (an agent on this machine at 127.0.0.1),
 * {@code netns} (an agent in network namespace number {@code index} of the local lab, which
 * bash builds and names), {@code local} (a hosts-file line "local": this machine, its own work
 * dir) and {@code ssh} (a real host reached by ssh).
 */
public final class Host {
  public enum Kind { LOOPBACK, NETNS, LOCAL, SSH }

  final String id;
  final Kind kind;
  final int index;
  final String destination;
  final String java;
  /** The run folder's injectors/ID for lab hosts (set once the folder exists), else WORK_DIR. */
  String workDir;
  int threads;

  Host(String id, Kind kind, int index, String destination, String java, String workDir) {
    this.id = id;
    this.kind = kind;
    this.index = index;
    this.destination = destination;
    this.java = java;
    this.workDir = workDir;
  }

  /** Where this host keeps the run's logs: the run folder itself here, WORK_DIR/runs/RUN_ID on a hosts-file host. */
  String runDirOnHost(String runId) {
    return kind == Kind.LOOPBACK || kind == Kind.NETNS ? workDir : workDir + "/runs/" + runId;
  }

  boolean remote() {
    return kind == Kind.SSH;
  }

  String kindName() {
    return kind.name().toLowerCase(Locale.ROOT);
  }
}
