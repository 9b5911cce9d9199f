package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupCountersTest {
  @TempDir
  Path dir;

  @Test
  void version1CountsNanosecondsInCpuacctUsage() throws Exception {
    final Path lab = Files.createDirectories(dir.resolve("cpuacct/hgs0/hbase"));
    Files.writeString(lab.resolve("cpuacct.usage"), "9518371482\n");
    Files.writeString(lab.resolve("cgroup.procs"), "25011\n25600\n");
    Files.writeString(dir.resolve("cpuacct/hgs0/cpuacct.usage"), "1\n");
    Files.writeString(dir.resolve("cpuacct/cpuacct.usage"), "123000000000\n");
    final CgroupCounters c = new CgroupCounters(dir.resolve("cpuacct/hgs0"), dir.resolve("cpuacct"));
    assertEquals("cgroup-v1", c.method());
    assertEquals(9518371482L, c.usageNanos(Role.HBASE));
    assertEquals(123000000000L, c.rootNanos());
    assertEquals(List.of(25011, 25600), c.pids(Role.HBASE));
    assertNull(c.usageNanos(Role.SHIM), "no such cgroup");
    assertEquals(List.of(), c.pids(Role.SHIM));
  }

  @Test
  void version2CountsMicrosecondsInCpuStat() throws Exception {
    final Path lab = Files.createDirectories(dir.resolve("hgs5/worker"));
    Files.writeString(lab.resolve("cpu.stat"), "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n");
    Files.writeString(lab.resolve("cgroup.procs"), "");
    Files.writeString(dir.resolve("cpu.stat"), "usage_usec 77000000\n");
    final CgroupCounters c = new CgroupCounters(dir.resolve("hgs5"), dir);
    assertEquals("cgroup-v2", c.method());
    assertEquals(2_500_000_000L, c.usageNanos(Role.WORKER));
    assertEquals(77_000_000_000L, c.rootNanos());
    assertEquals(List.of(), c.pids(Role.WORKER));
  }
}
