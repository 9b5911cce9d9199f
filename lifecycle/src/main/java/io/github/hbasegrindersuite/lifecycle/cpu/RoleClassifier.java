package io.github.hbasegrindersuite.lifecycle.cpu;

import java.util.List;

/**
 * A process's role from its command line, for machines where no cgroup can be made (there, each
 * role's cgroup says it exactly): a JVM by its main class, a script by its file name. A process
 * the suite did not start has no role (null) and its CPU is {@link Role#OTHER}.
 */
public final class RoleClassifier {

  private RoleClassifier() {
  }

  public static Role of(List<String> argv) {
    if (argv.isEmpty()) {
      return null;
    }
    for (int i = 0; i < argv.size(); i++) {
      final Role role = ofWord(argv.get(i), argv.subList(i + 1, argv.size()));
      if (role != null) {
        return role;
      }
    }
    return null;
  }

  private static Role ofWord(String word, List<String> after) {
    switch (word) {
      case "org.apache.hadoop.hbase.master.HMaster":
        // "HMaster start" is the server; "HMaster stop --shutDownCluster" is ./suite hbase stop's client
        return after.contains("start") ? Role.HBASE : Role.LIFECYCLE;
      case "org.apache.hadoop.hbase.regionserver.HRegionServer":
      case "org.apache.hadoop.hbase.zookeeper.HQuorumPeer":
        return after.contains("start") ? Role.HBASE : Role.LIFECYCLE;
      case "org.apache.hadoop.hbase.thrift2.ThriftServer":
      case "org.apache.hadoop.hbase.thrift.ThriftServer":
        return Role.GATEWAY;
      case "io.github.hbasegrindersuite.shim.ShimMain":
        return Role.SHIM;
      case "net.grinder.Console":
        return Role.CONSOLE;
      case "net.grinder.Grinder":
        return Role.AGENT;
      case "net.grinder.engine.process.WorkerProcessEntryPoint":
        return Role.WORKER;
      case "org.apache.hadoop.hbase.PerformanceEvaluation":
        return Role.PEER;
      case "io.github.hbasegrindersuite.lifecycle.RunSamplers":
      case "io.github.hbasegrindersuite.lifecycle.servermetrics.ServerMetricsSampler":
      case "io.github.hbasegrindersuite.lifecycle.cpu.CpuSampler":
        return Role.SAMPLER;
      case "io.github.hbasegrindersuite.lifecycle.Main":
      case "io.github.hbasegrindersuite.worker.TablePreparer":
        return Role.LIFECYCLE;
      default:
        break;
    }
    if (word.endsWith("/host-metrics.sh") || word.equals("host-metrics.sh")) {
      return Role.SAMPLER;
    }
    if (word.endsWith("/suite") || word.matches(".*/libexec/suite-[a-z]+")) {
      return Role.LIFECYCLE;
    }
    return null;
  }
}
