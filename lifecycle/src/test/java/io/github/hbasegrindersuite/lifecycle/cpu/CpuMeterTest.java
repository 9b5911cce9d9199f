package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuMeterTest {

  @TempDir
  Path dir;

  @Test
  void aJvmIsLabelledByItsMainClassPastItsOptionsAndClassPath() {
    assertEquals("java:net.grinder.Console", CpuMeter.label("java",
        List.of("/usr/bin/java", "-Xmx512m", "-cp", "a.jar:b.jar", "-Duser.home=/x", "net.grinder.Console", "-headless")));
    assertEquals("java:io.github.hbasegrindersuite.lifecycle.Main", CpuMeter.label("java",
        List.of("java", "--class-path", "l.jar", "io.github.hbasegrindersuite.lifecycle.Main", "plan")));
    // an exiting JVM shows no command line
    assertEquals("java:?", CpuMeter.label("java", List.of()));
    // commas and blanks would break the csv
    assertEquals("ip_netns_x", CpuMeter.label("ip netns,x", List.of()));
    assertEquals("bash", CpuMeter.label("bash", List.of("bash", "-c", "x")));
  }

  @Test
  void aCgroupIsMadeUnderTheFirstV1HierarchyThatCountsCpu() throws Exception {
    final Path sysfs = Files.createDirectories(dir.resolve("sys"));
    Files.createDirectories(sysfs.resolve("cpuacct"));   // no cpuacct.usage: not this one
    Files.createDirectories(sysfs.resolve("cpu,cpuacct"));
    Files.writeString(sysfs.resolve("cpu,cpuacct/cpuacct.usage"), "5\n");
    final Path made = CpuMeter.makeCgroup(sysfs, "hgs-meter-1");
    assertEquals(sysfs.resolve("cpu,cpuacct/hgs-meter-1"), made);
    assertTrue(Files.isDirectory(made));
    // none of the files a cgroup has: no cgroup at all (a temp folder is no cgroup2 file system)
    assertNull(CpuMeter.makeCgroup(Files.createDirectories(dir.resolve("empty")), "hgs-meter-2"));
  }

  @Test
  void bashTimesSecondLineIsTheChildrensCpu() {
    assertEquals(62.5 + 0.25, CpuMeter.childrenSeconds("0m0.010s 0m0.002s\n1m2.500s 0m0.250s\n"), 1e-9);
    assertTrue(Double.isNaN(CpuMeter.childrenSeconds("0m0.010s 0m0.002s\n")));
    assertTrue(Double.isNaN(CpuMeter.childrenSeconds("x\n1.5 2\n")));
  }

  @Test
  void theIntervalIsAPositiveNumberOfSeconds() {
    assertEquals(1.0, CpuMeter.interval(null));
    assertEquals(0.2, CpuMeter.interval("0.2"));
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuMeter.interval("fast"));
    assertEquals("CPU_METER_INTERVAL 'fast' is not a number of seconds", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CpuMeter.interval("0"));
  }

  @Test
  void samplesOfTheCgroupsProcessesBecomeProcessRowsAndLeftoversKeepTheirLabels() throws Exception {
    final FakeProc proc = new FakeProc(dir.resolve("proc"));
    proc.process(100, "java", 150, 50, 1, "/usr/bin/java -Xmx1g -cp x.jar net.grinder.Grinder agent.properties", "0-1");
    proc.process(200, "bash", 20, 5, 1, "bash -c x", "0-1");
    final Path cgroup = Files.createDirectories(dir.resolve("cg"));
    Files.writeString(cgroup.resolve("cgroup.procs"), "100\n200\n");
    final CpuMeter meter = new CpuMeter(dir, new ProcFs(proc.root), 100);
    meter.record(cgroup);
    // the JVM exits: its command line is gone, its name stays
    proc.process(100, "java", 300, 100, 1, "", "0-1");
    Files.writeString(cgroup.resolve("cgroup.procs"), "100\n");
    meter.record(cgroup);
    assertEquals("scope,label,pid,cpu_s\n"
        + "total,cgroup-v1,,7.250\n"
        + "process,java:net.grinder.Grinder,100,4.000\n"
        + "process,bash,200,0.250\n"
        + "leftover,java:net.grinder.Grinder,100,\n"
        + "leftover,?,300,\n", meter.csv("cgroup-v1", 7.25, List.of(100, 300)));
  }

  @Test
  void withoutACgroupTheCommandsReapedChildrenAreCountedAndItsStatusKept() throws Exception {
    final CpuMeter meter = new CpuMeter(Files.createDirectories(dir.resolve("nosys")), new ProcFs(dir), 100);
    final Path out = dir.resolve("out.csv");
    // a child that burns about 0.3 s of CPU, then the command's own status
    final int status = meter.run(out, List.of("bash", "-c",
        "bash -c 'end=$((SECONDS + 20)); while ((SECONDS < end)); do read -r -a s < /proc/$BASHPID/stat;"
            + " ((s[13] + s[14] >= 30)) && break; for ((j = 0; j < 2000; j++)); do :; done; done'; exit 3"), 0.05);
    assertEquals(3, status);
    final List<String> lines = Files.readAllLines(out);
    assertEquals("scope,label,pid,cpu_s", lines.get(0));
    assertTrue(lines.get(1).startsWith("total,children,,"), lines.get(1));
    final double total = Double.parseDouble(lines.get(1).substring("total,children,,".length()));
    assertTrue(total >= 0.29 && total < 5, "children's CPU " + total + " s for a 0.3 s burner");
    assertEquals(2, lines.size(), "no processes are sampled without a cgroup: " + lines);
  }

  @Test
  void withoutACgroupAShellStoppedBeforeItsTimesStillWritesTheFileWithTheTotalUnknown() throws Exception {
    final CpuMeter meter = new CpuMeter(Files.createDirectories(dir.resolve("nosys3")), new ProcFs(dir), 100);
    final Path out = dir.resolve("out3.csv");
    // the command stops the meter's shell, as a SIGTERM would: `times` is never written
    final int status = meter.run(out, List.of("bash", "-c", "kill -TERM $PPID; sleep 5"), 0.05);
    assertEquals(143, status);
    assertEquals(List.of("scope,label,pid,cpu_s", "total,children,,"), Files.readAllLines(out));
    try (java.util.stream.Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("cpu-meter") && p.toString().endsWith(".times")
          && p.toFile().lastModified() >= ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L)),
          "the file for `times` is removed");
    }
  }

  @Test
  void aCommandThatCannotStartLeavesNoCgroupBehind() throws Exception {
    final Path sysfs = Files.createDirectories(dir.resolve("sys2"));
    Files.createDirectories(sysfs.resolve("cpuacct"));
    Files.writeString(sysfs.resolve("cpuacct/cpuacct.usage"), "5\n");
    final CpuMeter meter = new CpuMeter(sysfs, new ProcFs(dir), 100, dir.resolve("no-such-shell").toString());
    final java.io.IOException e = assertThrows(java.io.IOException.class, () -> meter.run(dir.resolve("out.csv"), List.of("true"), 0.05));
    assertTrue(e.getMessage().startsWith("cannot start true: "), e.getMessage());
    try (java.util.stream.Stream<Path> left = Files.list(sysfs.resolve("cpuacct"))) {
      assertEquals(List.of("cpuacct.usage"), left.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toList()));
    }
  }
}
