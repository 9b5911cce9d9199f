package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Command lines as /proc/PID/cmdline gave them on this machine (classpaths shortened). */
class RoleClassifierTest {

  private static Role of(String line) {
    return RoleClassifier.of(Arrays.asList(line.split(" ")));
  }

  @Test
  void everyProcessTheSuiteStartsHasItsRole() {
    assertEquals(Role.HBASE, of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Xms4g -Xmx4g -XX:+UseG1GC "
        + "-Dhbase.local.dir=/work/main/hbase-local/data -cp /work/main/hbase-local/conf:/work/main/lib/jars/hbase-server-2.6.1.jar "
        + "org.apache.hadoop.hbase.master.HMaster start"));
    assertEquals(Role.GATEWAY, of("java -Xms1g -cp conf:x.jar org.apache.hadoop.hbase.thrift2.ThriftServer -b 127.0.0.1 -p 9091 --infoport 9096 start"));
    assertEquals(Role.SHIM, of("java -Xms1g -cp lib/thrift-shim.jar io.github.hbasegrindersuite.shim.ShimMain --config c.properties"));
    assertEquals(Role.CONSOLE, of("java -Xms16m -Xmx512m -cp a.jar -Dgrinder.console.consoleHost=127.0.0.1 net.grinder.Console -headless"));
    assertEquals(Role.AGENT, of("java -Xms16m -Xmx256m -XX:TieredStopAtLevel=1 -cp a.jar net.grinder.Grinder agent.properties"));
    assertEquals(Role.WORKER, of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java -javaagent:/work/main/lib/jars/grinder-dcr-agent-3.11.jar "
        + "-Xms512m -classpath a.jar:b.jar net.grinder.engine.process.WorkerProcessEntryPoint"));
    assertEquals(Role.PEER, of("java -cp pe.jar org.apache.hadoop.hbase.PerformanceEvaluation --nomapred randomRead 8"));
    assertEquals(Role.SAMPLER, of("java -Xmx32m -cp l.jar io.github.hbasegrindersuite.lifecycle.cpu.CpuSampler --out cpu.csv"));
    assertEquals(Role.SAMPLER, of("java -Xmx48m -cp l.jar io.github.hbasegrindersuite.lifecycle.servermetrics.ServerMetricsSampler --out x"));
    assertEquals(Role.SAMPLER, of("java -Xmx48m -cp l.jar io.github.hbasegrindersuite.lifecycle.RunSamplers cpu --out c --- server-metrics --out x"));
    assertEquals(Role.SAMPLER, of("bash /work/main/injectors/host-metrics.sh /work/main/runs/run-6/hbase/metrics.csv 300"));
    assertEquals(Role.LIFECYCLE, of("java -XX:TieredStopAtLevel=1 -cp l.jar io.github.hbasegrindersuite.lifecycle.Main finalise runs/run-6"));
    assertEquals(Role.LIFECYCLE, of("bash /work/main/libexec/suite-run --threads 8"));
    assertEquals(Role.LIFECYCLE, of("java -cp w.jar io.github.hbasegrindersuite.worker.TablePreparer p.properties"));
  }

  @Test
  void hbaseCommandsThatAreClientsAreTheSuitesOwn() {
    // ./suite hbase stop asks the master to shut down through a short client JVM of the same class
    assertEquals(Role.LIFECYCLE, of("java -Xms256m -cp conf:x.jar org.apache.hadoop.hbase.master.HMaster stop --shutDownCluster"));
  }

  @Test
  void otherProcessesHaveNoRole() {
    assertNull(of("/usr/lib/R/bin/exec/R --no-echo --file=report.R"));
    assertNull(of("sleep 1"));
    assertNull(RoleClassifier.of(List.of()));
    assertNull(of("java -jar something-else.jar"));
  }

  @Test
  void labelsAreMainClassesOrScriptNames() {
    assertEquals("HMaster", Snapshot.label(Arrays.asList("java -cp a.jar org.apache.hadoop.hbase.master.HMaster start".split(" ")), "java"));
    assertEquals("WorkerProcessEntryPoint", Snapshot.label(Arrays.asList(
        "java -classpath a.jar:b.jar net.grinder.engine.process.WorkerProcessEntryPoint".split(" ")), "java"));
    assertEquals("host-metrics.sh", Snapshot.label(Arrays.asList("bash /x/injectors/host-metrics.sh out.csv 30".split(" ")), "bash"));
    assertEquals("sleep", Snapshot.label(Arrays.asList("sleep 1".split(" ")), "sleep"));
  }
}
