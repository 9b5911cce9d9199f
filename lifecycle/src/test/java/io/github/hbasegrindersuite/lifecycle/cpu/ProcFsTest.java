package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {
  @TempDir
  Path dir;

  @Test
  void statFieldsAreCountedAfterTheLastParenthesis() {
    final byte[] line = FakeProc.stat(42, "a) (b c", 250, 50, 9000).getBytes(StandardCharsets.US_ASCII);
    final long[] f = ProcFs.fields(line, line.length);
    assertEquals(250, f[0]);
    assertEquals(50, f[1]);
    assertEquals(9000, f[2]);
    assertEquals("a) (b c", new String(line, (int) f[3], (int) f[4], StandardCharsets.US_ASCII));
    assertNull(ProcFs.fields(new byte[] {'4', '2'}, 2), "not a stat line");
  }

  @Test
  void aRealStatLineReadsAsTheKernelMeantIt() {
    // /proc/self/stat of a JVM on this machine (Debian 12, 6.1 kernel)
    final byte[] line = ("25011 (java) S 1 25010 25010 0 -1 1077936192 281620 0 19 0 3843 682 0 0 20 0 262 0 163020 "
        + "8179458048 313498 18446744073709551615 94568219713536 94568219714288 140727711447632 0 0 0 0 16781312 1166 0 0 0 17 0 0 0 0 0 0\n")
        .getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(new long[] {3843, 682, 163020, 7, 4, 1, 313498}, ProcFs.fields(line, line.length));
    // a line that ends before ppid's and rss's places (a thread's stat cut short): those unknown, the rest read
    final byte[] cut = "9 (x) S 5 1 1 0 -1 0 0 0 0 0 12 3 0 0 20 0 1 0 77".getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(new long[] {12, 3, 77, 3, 1, 5, -1}, ProcFs.fields(cut, cut.length));
  }

  @Test
  void machineProcessesAndThreadsAreRead() throws Exception {
    final FakeProc fake = new FakeProc(dir.resolve("proc")).machine(1000, 400, 8000, 20, 5, 30, 7, 2).uptime(123.45)
        .process(300, "java", 90, 10, 5000, "java -cp x org.apache.hadoop.hbase.master.HMaster start", "0")
        .thread(300, 300, "java", 1, 1, 5000).thread(300, 301, "C2 CompilerThre", 60, 2, 5001);
    final ProcFs proc = new ProcFs(fake.root);
    final ProcFs.MachineTicks m = proc.machine();
    assertEquals(1000 + 400 + 5 + 30, m.busy());
    assertEquals(8020, m.idleAll());
    assertEquals(7, m.steal);
    assertEquals(2, proc.cpus());
    assertEquals(12345, proc.uptimeTicks(100));
    assertEquals(List.of(300), proc.pids());
    assertEquals(100, proc.process(300).cpu);
    assertEquals("java", proc.process(300).comm);
    assertEquals(List.of(300, 301), proc.threadIds(300).stream().sorted().toList());
    assertEquals("C2 CompilerThre", proc.thread(300, 301).comm);
    assertEquals(62, proc.thread(300, 301).cpu);
    assertEquals("0", proc.cpusAllowed(300));
    assertEquals("org.apache.hadoop.hbase.master.HMaster", proc.cmdline(300).get(3));
    assertNull(proc.process(999), "gone");
    assertEquals(List.of(), proc.threadIds(999));
  }
}
