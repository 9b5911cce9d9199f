package io.github.hbasegrindersuite.console.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuTailTest {
  @TempDir
  Path dir;

  @Test
  void finishedIntervalsGiveEachSidesJitShareAndHalfLinesWait() throws Exception {
    final Path csv = dir.resolve("cpu.csv");
    Files.writeString(csv, "time_ms,interval_s,role,side,processes,cpu_s,jit_s,gc_s,io_s,load_s\n"
        + "1000,1.000,hbase,server,1,0.800,0.200,0.010,,\n"
        + "1000,1.000,shim,server,1,0.200,0.000,0.000,0.000,0.000\n"
        + "1000,1.000,worker,client,1,0.500,0.250,0.000,0.010,0.100\n"
        + "1000,1.000,other,machine,,0.100,,,,\n"
        + "1000,1.000,idle,machine,,0.400,,,,\n"
        + "2000,1.000,hbase,server,1,0.90");
    final CpuTail tail = new CpuTail(csv.toString());
    final List<CpuTail.Interval> first = tail.read();
    assertEquals(1, first.size(), "the 1000 interval is finished at its idle row");
    assertEquals(1000, first.get(0).timeMs);
    assertEquals(0.2, first.get(0).serverJitShare, 1e-9);
    assertEquals(0.5, first.get(0).clientJitShare, 1e-9);
    Files.writeString(csv, "0,0.090,,,\n2000,1.000,worker,client,1,0.000,0.000,0,0,0\n3000,1.000,hbase,server,1,0.1,0,,,\n",
        // the 2000 interval has no idle row (a sampler killed mid-write): the next time closes it
        StandardOpenOption.APPEND);
    final List<CpuTail.Interval> second = tail.read();
    assertEquals(1, second.size());
    assertEquals(0.1, second.get(0).serverJitShare, 1e-9);
    assertTrue(Double.isNaN(second.get(0).clientJitShare), "no client CPU: no share");
    assertEquals(0, new CpuTail(dir.resolve("missing.csv").toString()).read().size());
  }
}
