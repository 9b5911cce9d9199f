package io.github.hbasegrindersuite.console.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Known statistics in, a scrape over HTTP on 127.0.0.1 out: every name, label and value checked. */
class LiveExportTest {

  /** A fixed roster: 2 of 3 agents, 4 workers expected, 1 started, 2 running, 1 finished, 1 lost. */
  static final LiveStatistics.Processes PROCESSES = new LiveStatistics.Processes() {
    @Override
    public int agentsExpected() {
      return 3;
    }

    @Override
    public int agentsConnected() {
      return 2;
    }

    @Override
    public int workersExpected() {
      return 4;
    }

    @Override
    public int workersIn(String state) {
      return Map.of("STARTED", 1, "RUNNING", 2, "FINISHED", 1).get(state);
    }

    @Override
    public int workersLost() {
      return 1;
    }

    @Override
    public int threadsRunning() {
      return 16;
    }
  };

  private LiveExport export;

  @AfterEach
  void close() {
    if (export != null) {
      export.close();
    }
  }

  /** get: 1000 requests taking 250 ms in all, witness 180,000 us; put: 10 requests, 3 errors. */
  static LiveStatistics fixture() {
    final LiveStatistics live = new LiveStatistics("run-42", PROCESSES);
    live.update(new LiveStatistics.TestFigures(1, "get", 1000, 0, 250, 0.5, 180_000, 812.5));
    live.update(new LiveStatistics.TestFigures(2, "put", 10, 3, 40, 1.25, 31_000, 4));
    live.elapsedSeconds(12.5);
    return live;
  }

  @Test
  void servesTheConsolesFiguresUnderTheirNames() throws Exception {
    export = LiveExport.start(fixture(), 0);
    final Scrape s = Scrape.get(export.port());
    final String get = "{operation=\"get\",test=\"1\"}";
    final String put = "{operation=\"put\",test=\"2\"}";
    assertEquals(1000, s.value(LiveExport.REQUESTS + get));
    assertEquals(10, s.value(LiveExport.REQUESTS + put));
    assertEquals(0, s.value(LiveExport.ERRORS + get));
    assertEquals(3, s.value(LiveExport.ERRORS + put));
    assertEquals(0.25, s.value(LiveExport.TEST_TIME + get), 1e-12);
    assertEquals(0.18, s.value(LiveExport.WITNESS + get), 1e-12);
    assertEquals(0.00025, s.value(LiveExport.TEST_TIME_MEAN + get), 1e-15, "250 ms over 1000 requests");
    assertEquals(0.004, s.value(LiveExport.TEST_TIME_MEAN + put), 1e-15);
    assertEquals(0.0005, s.value(LiveExport.TEST_TIME_SD + get), 1e-15);
    assertEquals(0.00018, s.value(LiveExport.WITNESS_MEAN + get), 1e-15, "180 us");
    assertEquals(0.0031, s.value(LiveExport.WITNESS_MEAN + put), 1e-15);
    assertEquals(812.5, s.value(LiveExport.THROUGHPUT + get));
    assertEquals(1, s.value(LiveExport.WORKERS + "{state=\"started\"}"));
    assertEquals(2, s.value(LiveExport.WORKERS + "{state=\"running\"}"));
    assertEquals(1, s.value(LiveExport.WORKERS + "{state=\"finished\"}"));
    assertEquals(1, s.value(LiveExport.WORKERS + "{state=\"lost\"}"));
    assertEquals(4, s.value(LiveExport.WORKERS_EXPECTED));
    assertEquals(2, s.value(LiveExport.AGENTS));
    assertEquals(3, s.value(LiveExport.AGENTS_EXPECTED));
    assertEquals(16, s.value(LiveExport.THREADS));
    assertEquals(12.5, s.value(LiveExport.ELAPSED));
    assertEquals(1, s.value(LiveExport.RUN + "{run=\"run-42\"}"));
    assertTrue(s.text.contains("# TYPE " + LiveExport.REQUESTS + " counter"), s.text);
    for (String name : s.names) {
      assertTrue(name.startsWith(LiveExport.PREFIX), "one naming scheme: " + name);
    }
  }

  @Test
  void aScrapeSeesTheLatestSampleAndNoTestBeforeItReports() throws Exception {
    final LiveStatistics live = new LiveStatistics("run-1", PROCESSES);
    export = LiveExport.start(live, 0);
    Scrape s = Scrape.get(export.port());
    assertFalse(s.text.contains("test=\""), "no test has reported yet: no per-test samples");
    assertEquals(4, s.value(LiveExport.WORKERS_EXPECTED));
    live.update(new LiveStatistics.TestFigures(1, "get", 5, 0, 5, 0, 900, 5));
    live.update(new LiveStatistics.TestFigures(1, "get", 25, 1, 30, 0, 4000, 20));
    s = Scrape.get(export.port());
    assertEquals(25, s.value(LiveExport.REQUESTS + "{operation=\"get\",test=\"1\"}"));
    assertEquals(1, s.value(LiveExport.ERRORS + "{operation=\"get\",test=\"1\"}"));
    assertEquals(20, s.value(LiveExport.THROUGHPUT + "{operation=\"get\",test=\"1\"}"));
  }

  @Test
  void aTakenPortIsAnIOExceptionNotACrash() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      assertThrows(IOException.class, () -> LiveExport.start(fixture(), taken.getLocalPort()));
    }
  }
}
