package io.github.hbasegrindersuite.lifecycle.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultExecutorTest {
  @TempDir
  Path dir;

  /** Region servers 1 and 2 as PIDs 101 and 102; a start gives 201, 202, ... */
  static final class FakeServers implements FaultExecutor.Servers {
    final Map<Integer, Long> pids = new ConcurrentHashMap<>(Map.of(1, 101L, 2, 102L));
    final List<String> signals = new CopyOnWriteArrayList<>();
    long nextPid = 201;

    @Override
    public long pid(int regionServer) {
      return pids.getOrDefault(regionServer, 0L);
    }

    @Override
    public void signal(long pid, String signal) throws IOException {
      signals.add(signal + " " + pid);
      if (signal.equals("KILL") || signal.equals("TERM")) {
        pids.values().remove(pid);
      }
    }

    @Override
    public boolean alive(long pid) {
      return pids.containsValue(pid);
    }

    @Override
    public String moveRegion(int regionServer) {
      signals.add("MOVE " + pids.get(regionServer));
      return "region abc of hbaseload moved to 127.0.0.1:16021 in 0.4 s";
    }

    @Override
    public long start(int regionServer) {
      pids.put(regionServer, nextPid);
      return nextPid++;
    }
  }

  private List<String[]> rows(Path csv) throws IOException {
    final List<String> lines = Files.readAllLines(csv);
    assertEquals(FaultExecutor.HEADER, lines.get(0));
    return lines.subList(1, lines.size()).stream().map(l -> l.split(",", 9)).toList();
  }

  @Test
  void everyActionHappensAtItsTimeAndIsRecorded() throws Exception {
    final FakeServers servers = new FakeServers();
    final Path csv = dir.resolve("faults.csv");
    final FaultExecutor ex = new FaultExecutor(FaultSchedule.parse(
        "at=0s kill regionserver=2; at=0s pause regionserver=1 for=1s; at=1s start regionserver=2; at=1s stop regionserver=2"),
        servers, csv, System::currentTimeMillis);
    final long start = System.currentTimeMillis();
    ex.run(start, 10_000);
    assertTrue(System.currentTimeMillis() - start < 5_000, "ended once every action had");
    assertEquals(List.of("KILL 102", "STOP 101", "CONT 101", "TERM 201"),
        servers.signals.stream().sorted((a, b) -> Integer.compare(order(a), order(b))).toList());
    final List<String[]> rows = rows(csv);
    assertEquals(5, rows.size());
    for (String[] r : rows) {
      assertEquals("done", r[6], String.join(",", r));
      assertEquals(String.valueOf(start), r[7]);
    }
    final String[] kill = rows.stream().filter(r -> r[2].equals("kill")).findFirst().orElseThrow();
    assertEquals("0", kill[0]);
    assertEquals("2", kill[3]);
    assertEquals("102", kill[5]);
    assertTrue(kill[8].startsWith("\"SIGKILL; gone"), kill[8]);
    final String[] resume = rows.stream().filter(r -> r[2].equals("resume")).findFirst().orElseThrow();
    assertEquals("1", resume[0], "planned at the pause's end");
    assertEquals("1", resume[4]);
    final long paused = Long.parseLong(rows.stream().filter(r -> r[2].equals("pause")).findFirst().orElseThrow()[1]);
    assertTrue(Long.parseLong(resume[1]) - paused >= 1000, "SIGCONT a second after SIGSTOP");
    final String[] started = rows.stream().filter(r -> r[2].equals("start")).findFirst().orElseThrow();
    assertEquals("201", started[5]);
    assertTrue(Long.parseLong(started[1]) - start >= 1000);
  }

  private static int order(String signal) {
    return List.of("KILL 102", "STOP 101", "CONT 101", "TERM 201").indexOf(signal);
  }

  @Test
  void anActionOnAServerThatIsNotRunningFailsAndIsRecorded() throws Exception {
    final FakeServers servers = new FakeServers();
    servers.pids.remove(2);
    final Path csv = dir.resolve("faults.csv");
    new FaultExecutor(FaultSchedule.parse("at=0s kill regionserver=2"), servers, csv, System::currentTimeMillis)
        .run(System.currentTimeMillis(), 5_000);
    final String[] row = rows(csv).get(0);
    assertEquals("failed", row[6]);
    assertTrue(row[8].contains("regionserver-2 is not running"), row[8]);
    assertEquals(List.of(), servers.signals);
  }

  @Test
  void aPausedServerIsResumedWhenTheRunEndsFirst() throws Exception {
    final FakeServers servers = new FakeServers();
    final Path csv = dir.resolve("faults.csv");
    final FaultExecutor ex = new FaultExecutor(FaultSchedule.parse("at=0s pause regionserver=1 for=60s; at=30s kill regionserver=2"),
        servers, csv, System::currentTimeMillis);
    final Thread runner = new Thread(() -> {
      try {
        ex.run(System.currentTimeMillis(), 120_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    runner.start();
    final long bound = System.currentTimeMillis() + 5_000;
    while (!servers.signals.contains("STOP 101") && System.currentTimeMillis() < bound) {
      Thread.sleep(20);
    }
    ex.shutdown("the run ended first");
    runner.join(5_000);
    assertEquals(List.of("STOP 101", "CONT 101"), servers.signals);
    final List<String[]> rows = rows(csv);
    final String[] resume = rows.stream().filter(r -> r[2].equals("resume")).findFirst().orElseThrow();
    assertEquals("done", resume[6]);
    assertTrue(resume[8].contains("early: the run ended first"), resume[8]);
    final String[] kill = rows.stream().filter(r -> r[2].equals("kill")).findFirst().orElseThrow();
    assertEquals("not done", kill[6]);
    assertEquals("", kill[1], "no time: it did not happen");
  }

  @Test
  void aMoveIsRecordedWithWhatMovedWhere() throws Exception {
    final FakeServers servers = new FakeServers();
    final Path csv = dir.resolve("faults.csv");
    new FaultExecutor(FaultSchedule.parse("at=0s move regionserver=1"), servers, csv, System::currentTimeMillis)
        .run(System.currentTimeMillis(), 5_000);
    final String[] row = rows(csv).get(0);
    assertEquals("move", row[2]);
    assertEquals("101", row[5]);
    assertEquals("done", row[6]);
    assertEquals("\"region abc of hbaseload moved to 127.0.0.1:16021 in 0.4 s\"", row[8]);
    assertEquals(List.of("MOVE 101"), servers.signals);
  }

  @Test
  void detailsAreQuotedCsvFields() {
    assertEquals("\"a, \"\"b\"\" c\"", FaultExecutor.quoted("a, \"b\"\nc"));
  }
}
