package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSamplersTest {
  @Test
  void sectionsAreCutAtTheSeparator() {
    assertEquals(List.of(List.of("cpu", "--out", "c"), List.of("server-metrics", "--out", "s")),
        RunSamplers.sections(new String[] {"cpu", "--out", "c", "---", "server-metrics", "--out", "s"}));
    assertEquals(List.of(List.of("cpu", "--out", "c")), RunSamplers.sections(new String[] {"cpu", "--out", "c"}));
    assertEquals(List.of(), RunSamplers.sections(new String[0]));
    assertThrows(IllegalArgumentException.class, () -> RunSamplers.sections(new String[] {"cpu", "---"}));
    assertThrows(IllegalArgumentException.class, () -> RunSamplers.sections(new String[] {"---", "cpu"}));
  }

  @Test
  void aBadSectionIsNamedAndNothingRuns(@TempDir Path dir) {
    final String csv = dir.resolve("cpu.csv").toString();
    final String notes = dir.resolve("cpu.json").toString();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunSamplers.prepare(new String[] {"disk", "--out", "x"}));
    assertEquals("unknown sampler 'disk' (accepted: cpu, server-metrics)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> RunSamplers.prepare(new String[] {"cpu", "--out", csv, "--notes", notes, "--max-seconds", "x"}));
    assertEquals("cpu: --max-seconds 'x' is not a whole number >= 1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> RunSamplers.prepare(new String[] {"server-metrics", "--out", csv, "--notes", notes}));
    assertTrue(e.getMessage().startsWith("server-metrics: give --server"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> RunSamplers.prepare(new String[0]));
    assertTrue(e.getMessage().startsWith("no sampler given"), e.getMessage());
  }

  @Test
  void bothSamplersRunInOneJvmAndEachWritesItsFiles(@TempDir Path dir) throws Exception {
    // a real CpuSampler over this JVM's /proc, and a server-metrics sampler whose only server refuses:
    // each writes its CSV and its notes, and the one whose server never answers does not stop the other
    final Path cpuCsv = dir.resolve("cpu.csv");
    final Path cpuNotes = dir.resolve("cpu.json");
    final Path smCsv = dir.resolve("server-metrics.csv");
    final Path smNotes = dir.resolve("server-metrics.json");
    final int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    final List<SamplerRun> samplers = RunSamplers.prepare(new String[] {
        "cpu", "--out", cpuCsv.toString(), "--notes", cpuNotes.toString(), "--interval-ms", "100", "--max-seconds", "1", "--mark", "no-such-mark",
        "---", "server-metrics", "--out", smCsv.toString(), "--notes", smNotes.toString(), "--interval-ms", "200", "--max-seconds", "1",
        "--server", "regionserver=127.0.0.1:" + closed});
    assertEquals(2, samplers.size());
    assertEquals(0, SamplerRun.runUntilStopped(samplers));
    // 1 s at 100 ms: about 10 samples, each a row per role; at 200 ms about 5 rows of the one server
    final long cpuRows = Files.readAllLines(cpuCsv).stream().filter(l -> l.contains(",worker,")).count();
    assertTrue(cpuRows >= 5 && cpuRows <= 11, "cpu.csv worker rows: " + cpuRows);
    final long smRows = Files.readAllLines(smCsv).stream().filter(l -> l.contains("no answer")).count();
    assertTrue(smRows >= 2 && smRows <= 6, "server-metrics.csv rows: " + smRows);
    assertTrue(Files.readString(cpuNotes).contains("\"ended\""));
    assertTrue(Files.readString(smNotes).contains("\"answered\": 0"));
  }

  @Test
  void aFailingSamplerLeavesTheOtherRunningAndTheExitSaysSo() {
    final AtomicInteger laps = new AtomicInteger();
    final SamplerRun failing = new SamplerRun("bad", stop -> {
      throw new java.io.IOException("disk\nfull");
    }, () -> { });
    final SamplerRun good = new SamplerRun("good", stop -> {
      try {
        while (laps.incrementAndGet() < 5 && !stop.await(20, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          // a few laps
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, () -> { });
    assertEquals(1, SamplerRun.runUntilStopped(List.of(failing, good)));
    assertEquals(5, laps.get());
  }
}
