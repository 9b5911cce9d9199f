package io.github.hbasegrindersuite.lifecycle.cpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Who a CPU second is charged to: every process the suite starts has a role, and each role a side
 * of the lab (the server CPUs or the client CPUs). {@code other}, {@code steal} and {@code idle}
 * are the machine's rest, so that the rows of one sample add up to its whole capacity. The one
 * list of roles: bash names the cgroups after {@link #word} (suite.d/lab.sh), the report reads the
 * same words from cpu.csv.
 */
public enum Role {
  HBASE("hbase", Side.SERVER, "the embedded HBase: master, region server and ZooKeeper"),
  GATEWAY("gateway", Side.SERVER, "HBase's own thrift2 gateway"),
  SHIM("shim", Side.SERVER, "the thrift-shim"),
  CONSOLE("console", Side.CLIENT, "the Grinder console and its run controller"),
  AGENT("agent", Side.CLIENT, "the Grinder agents"),
  WORKER("worker", Side.CLIENT, "the Grinder worker JVMs: the load itself"),
  PEER("peer", Side.CLIENT, "another load tool run beside the suite (a benchmark's PerformanceEvaluation)"),
  SAMPLER("sampler", Side.CLIENT, "the run's samplers: CPU, host and HBase server metrics"),
  LIFECYCLE("lifecycle", Side.CLIENT, "./suite itself: its bash, the plan, prepare and finalise JVMs"),
  OTHER("other", Side.MACHINE, "busy CPU no role was charged: processes the suite did not start, interrupts"),
  STEAL("steal", Side.MACHINE, "time the hypervisor gave to other guests"),
  IDLE("idle", Side.MACHINE, "idle, including waiting for I/O");

  /** Where a role runs in the isolated lab; the machine's rest belongs to neither side. */
  public enum Side {
    SERVER("server"),
    CLIENT("client"),
    MACHINE("machine");

    public final String word;

    Side(String word) {
      this.word = word;
    }
  }

  public final String word;
  public final Side side;
  public final String meaning;

  Role(String word, Side side, String meaning) {
    this.word = word;
    this.side = side;
    this.meaning = meaning;
  }

  /** The roles of processes (those a cgroup can hold), in the order of cpu.csv. */
  public static List<Role> processRoles() {
    final List<Role> roles = new ArrayList<>();
    for (Role r : values()) {
      if (r.side != Side.MACHINE) {
        roles.add(r);
      }
    }
    return roles;
  }

  public static Role of(String word) {
    for (Role r : values()) {
      if (r.word.equals(word)) {
        return r;
      }
    }
    throw new IllegalArgumentException("role '" + word + "' is none of " + words());
  }

  static String words() {
    final List<String> w = new ArrayList<>();
    for (Role r : values()) {
      w.add(r.word);
    }
    return String.join(", ", w);
  }
}
