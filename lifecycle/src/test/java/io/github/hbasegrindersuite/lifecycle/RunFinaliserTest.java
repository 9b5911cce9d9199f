package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.github.hbasegrindersuite.worker.IntervalLog;
import io.github.hbasegrindersuite.worker.Operation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each outcome from a hand-made run folder: two hosts, 8 threads, get and put. */
class RunFinaliserTest {
  private static final String HEADER = "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)";
  @TempDir
  Path run;
  RunFinaliser.Observed seen;
  String output;

  @BeforeEach
  void folder() throws Exception {
    Files.writeString(run.resolve("plan.json"), "{\"schema\":1,\"run_id\":\"run-5\",\"run_dir\":\"" + run + "\",\"start_time\":\"2026-11-23T10:00:00.000Z\","
        + "\"injector_mode\":\"namespaces\",\"injector_note\":\"two\",\"hosts\":[{\"id\":\"inj1\",\"threads\":4},{\"id\":\"inj2\",\"threads\":4}],"
        + "\"processes\":1,\"threads_total\":8,\"duration_s\":30,\"target\":\"direct\",\"console\":{\"host\":\"127.0.0.1\",\"port\":6372},"
        + "\"sweep_id\":null,\"git_rev\":\"abc\",\"git_dirty\":false,\"versions\":{\"grinder\":\"3.11\"},"
        + "\"properties\":{\"hbaseload.operations\":\"get:50,put:50\",\"hbaseload.table\":\"t\",\"hbaseload.rows\":\"2000\",\"hbaseload.regions\":\"4\"}}");
    Files.createDirectories(run.resolve("console"));
    outcome("status=complete", "reason=all 2 workers finished", "requests=6", "load_start_ms=1795000000000", "load_end_ms=1795000030000");
    Files.writeString(run.resolve("console/statistics.csv"), "test,name,count,errors,mean_ms,sd_ms,tps\n1,get,3,0,0.5,0.1,0.1\n2,put,3,0,0.7,0.2,0.07\n");
    dataLog("inj1", "0, 0, 1, 1795000000000, 1, 0, 500", "0, 1, 2, 1795000000002, 1, 0, 700", "1, 0, 1, 1795000000001, 0, 0, 300");
    dataLog("inj2", "0, 0, 1, 1795000000000, 1, 0, 400", "0, 1, 2, 1795000000003, 2, 0, 900", "1, 0, 2, 1795000000001, 1, 0, 600");
    seen = new RunFinaliser.Observed();
    seen.consoleExit = 0;
    seen.tableInfo = false;
  }

  private void outcome(String... lines) throws Exception {
    Files.write(run.resolve("console/outcome.properties"), List.of(lines));
  }

  private void dataLog(String host, String... lines) throws Exception {
    final List<String> all = new ArrayList<>(List.of(HEADER));
    all.addAll(List.of(lines));
    Files.createDirectories(run.resolve("injectors").resolve(host));
    Files.write(run.resolve("injectors").resolve(host).resolve(host + "-0-data.log"), all);
  }

  /** HOST-0.hlog as the worker writes it: one interval; each request "test:witness" or "test:witness:failed". */
  private void hlog(String host, String... requests) throws Exception {
    Files.createDirectories(run.resolve("injectors").resolve(host));
    try (IntervalLog log = IntervalLog.open(run.resolve("injectors").resolve(host).resolve(host + "-0.hlog"),
        List.of(Operation.GET, Operation.PUT), 0)) {
      for (String r : requests) {
        final String[] f = r.split(":");
        log.record(Integer.parseInt(f[0]), Long.parseLong(f[1]), f.length < 3);
      }
    }
  }

  private void matchingHlogs() throws Exception {
    hlog("inj1", "1:500", "2:700", "1:300");
    hlog("inj2", "1:400", "2:900", "2:600");
  }

  private JsonObject finalise(int expectedExit) throws Exception {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(expectedExit, RunFinaliser.finalise(run, seen, new PrintStream(out, true, StandardCharsets.UTF_8)));
    output = out.toString(StandardCharsets.UTF_8);
    return Json.read(run.resolve("manifest.json"));
  }

  @Test
  void countsThatAgreeMakeACompleteRun() throws Exception {
    final JsonObject m = finalise(0);
    assertEquals("complete", Json.text(m, "status"));
    assertEquals("all 2 workers finished", Json.text(m, "reason"));
    assertEquals(6, m.get("datalog_requests").getAsInt());
    assertEquals(6, m.getAsJsonObject("console").get("requests").getAsInt());
    assertEquals(0, m.getAsJsonObject("console").get("exit_code").getAsInt());
    assertEquals("{\"1\":\"get\",\"2\":\"put\"}", m.get("tests").toString());
    assertEquals("2026-11-23T10:00:00.000Z", Json.text(m, "start_time"));
    assertEquals("2026-11-18T11:06:40.000Z", Json.text(m, "load_start_time"));
    assertEquals("{\"inj1\":4,\"inj2\":4}", m.get("threads_per_host").toString());
    assertEquals("{\"name\":\"t\",\"regions\":4,\"rows\":2000,\"store_mb\":null,\"source\":\"declared\"}", m.get("table").toString());
    assertTrue(output.startsWith("run-5 complete in "), output);
    assertTrue(output.contains("  2     put                 3       0       0.7      0.07          3"), output);
    assertTrue(output.contains("requests per host: inj1 3, inj2 3"), output);
  }

  @Test
  void intervalLogsThatAgreeWithTheDataLogsAreMergedIntoTheReportInput() throws Exception {
    matchingHlogs();
    final JsonObject m = finalise(0);
    assertEquals("complete", Json.text(m, "status"));
    assertEquals("{\"files\":2,\"requests\":6,\"datalog\":\"on\",\"check\":\"equal\"}", m.get("hlog").toString());
    assertTrue(output.contains("interval logs: 2 file(s), 6 requests; equal"), output);
    final List<String> summary = Files.readAllLines(run.resolve("report-input/hlog-summary.csv"));
    // get: 500, 300, 400 -> mean 400, population sd 81.650, p50 (rank 2 of 3) 400, p90 (rank 3) 500; put: 700, 900, 600.
    assertEquals("1,get,3,0,400.000,81.650,300,400,500,500,500,500,500,3,true", summary.get(1));
    assertEquals("2,put,3,0,733.333,124.722,600,700,900,900,900,900,900,3,true", summary.get(2));
    assertEquals("total,total,6,0,566.667,197.203,300,500,900,900,900,900,900,6,true", summary.get(3));
    final List<String> workers = Files.readAllLines(run.resolve("report-input/hlog-workers.csv"));
    assertEquals(List.of("host,worker,count,errors,datalog_count,counts_equal,problem", "inj1,inj1-0,3,0,3,true,", "inj2,inj2-0,3,0,3,true,"),
        workers);
    final long perSecond = Files.readAllLines(run.resolve("report-input/hlog-seconds.csv")).stream().skip(1)
        .mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
    assertEquals(6, perSecond);
  }

  @Test
  void anIntervalLogThatLostARequestMakesTheRunIncompleteAndSaysWhich() throws Exception {
    hlog("inj1", "1:500", "2:700", "1:300");
    hlog("inj2", "1:400", "2:900");
    final JsonObject m = finalise(1);
    assertEquals("incomplete", Json.text(m, "status"));
    assertEquals("the interval logs and the data logs count different requests (hlog against data log): inj2-0 2 against 3",
        Json.text(m, "reason"));
    assertTrue(Files.readAllLines(run.resolve("report-input/hlog-workers.csv")).contains("inj2,inj2-0,2,0,3,false,"));
  }

  @Test
  void withTheDataLogOffTheIntervalLogsCountTheRequests() throws Exception {
    Files.writeString(run.resolve("plan.json"), Files.readString(run.resolve("plan.json"))
        .replace("\"hbaseload.table\"", "\"hbaseload.datalog\":\"off\",\"hbaseload.table\""));
    for (String host : List.of("inj1", "inj2")) {
      Files.writeString(run.resolve("injectors").resolve(host).resolve(host + "-0-data.log"), "");
    }
    hlog("inj1", "1:500", "2:700", "1:300");
    hlog("inj2", "1:400", "2:900", "2:600:failed");
    final JsonObject m = finalise(1);
    // The failed put makes it degraded, counted from the interval logs alone.
    assertEquals("degraded", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").startsWith("1 of 6 requests failed"), Json.text(m, "reason"));
    assertEquals(6, m.get("datalog_requests").getAsInt());
    assertEquals("no data logs to compare with", m.getAsJsonObject("hlog").get("check").getAsString());
    assertTrue(Files.readAllLines(run.resolve("report-input/hlog-summary.csv")).contains("2,put,3,1,733.333,124.722,600,700,900,900,900,900,900,NA,NA"));
  }

  @Test
  void requestsInFlightAtTheStopAreNotedNotFailed() throws Exception {
    outcome("status=complete", "reason=all 2 workers finished", "requests=4");
    final JsonObject m = finalise(0);
    assertEquals("complete", Json.text(m, "status"));
    assertEquals("all 2 workers finished; the data logs hold 2 more requests than the console counted (6 against 4):"
        + " requests in flight when the workers stopped", Json.text(m, "reason"));
  }

  @Test
  void moreMissingThanThreadsIsLostStatistics() throws Exception {
    outcome("status=complete", "reason=all 2 workers finished", "requests=60");
    final JsonObject m = finalise(1);
    assertEquals("incomplete", Json.text(m, "status"));
    assertEquals("the console counted 60 requests, the data logs hold 6", Json.text(m, "reason"));
  }

  @Test
  void aWorkerErrorIsTheReason() throws Exception {
    Files.write(run.resolve("injectors/inj2/inj2-0.log"), List.of("2026-11-23 10:00:01,000 INFO  inj2-0 : starting",
        "2026-11-23 10:00:02,000 ERROR inj2-0 : hbaseload: unknown key hbaseload.rowz"));
    final JsonObject m = finalise(1);
    assertEquals("incomplete", Json.text(m, "status"));
    assertEquals("worker error: hbaseload: unknown key hbaseload.rowz", Json.text(m, "reason"));
    assertTrue(output.contains("  incomplete: worker error: hbaseload: unknown key hbaseload.rowz"), output);
  }

  @Test
  void aHostWithoutADataLogFailsTheRun() throws Exception {
    Files.delete(run.resolve("injectors/inj2/inj2-0-data.log"));
    outcome("status=complete", "reason=all 2 workers finished", "requests=3");
    assertEquals("no data log from inj2", Json.text(finalise(1), "reason"));
  }

  @Test
  void logsCollectedLaterAreJudgedAgainWithTheFirstObservations() throws Exception {
    final Path inj2 = run.resolve("injectors/inj2/inj2-0-data.log");
    final byte[] log = Files.readAllBytes(inj2);
    Files.delete(inj2);
    seen.consoleExit = 3;
    assertEquals("no data log from inj2", Json.text(finalise(1), "reason"));
    final String endTime = Json.text(Json.read(run.resolve("manifest.json")), "end_time");
    Files.write(inj2, log);                      // ./suite collect brought it in
    seen = new RunFinaliser.Observed();
    seen.collected = "logs of inj2 collected by ./suite collect";
    final JsonObject m = finalise(0);
    assertEquals("complete", Json.text(m, "status"));
    assertEquals("all 2 workers finished; logs of inj2 collected by ./suite collect", Json.text(m, "reason"));
    assertEquals(6, m.get("datalog_requests").getAsInt());
    assertEquals(3, m.getAsJsonObject("console").get("exit_code").getAsInt(), "the console's exit as seen at the run");
    assertEquals(endTime, Json.text(m, "end_time"), "the run ended when it ended, not at the collection");
    assertEquals(1, m.getAsJsonArray("collections").size());
    assertEquals("logs of inj2 collected by ./suite collect", Json.text(m.getAsJsonArray("collections").get(0).getAsJsonObject(), "note"));
  }

  @Test
  void aCollectionKeepsWhatWasSeenThenAndAddsToTheList() throws Exception {
    seen.aborted = "./suite run (pid 42) ended without judging this run (killed?)";
    seen.agentsExited.add("inj1");
    assertEquals("incomplete", Json.text(finalise(1), "status"));
    for (int i = 1; i <= 2; i++) {
      seen = new RunFinaliser.Observed();
      seen.collected = "collection " + i;
      final JsonObject m = finalise(1);
      assertEquals("incomplete", Json.text(m, "status"));
      assertTrue(Json.text(m, "reason").startsWith("./suite run (pid 42) ended without judging this run (killed?); agent inj1 had exited"),
          Json.text(m, "reason"));
      assertTrue(Json.text(m, "reason").endsWith("; collection " + i), Json.text(m, "reason"));
      assertEquals(i, m.getAsJsonArray("collections").size());
      assertEquals("[\"inj1\"]", m.getAsJsonObject("observed").get("agents_exited").toString());
    }
  }

  @Test
  void aRunStillRunningCannotBeJudgedByACollection() throws Exception {
    Files.writeString(run.resolve("manifest.json"), "{\"status\":\"running\"}");
    seen.collected = "too early";
    final LifecycleException e = org.junit.jupiter.api.Assertions.assertThrows(LifecycleException.class,
        () -> RunFinaliser.finalise(run, seen, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    assertEquals("run-5 has not been judged yet (its manifest says running)", e.getMessage());
  }

  @Test
  void noOutcomeMeansTheConsoleDiedAndItsLastErrorIsShown() throws Exception {
    Files.delete(run.resolve("console/outcome.properties"));
    Files.write(run.resolve("console/console.out"), List.of("starting", "java.lang.IndexOutOfBoundsException: Index 3 out of bounds"));
    seen.consoleExit = 1;
    assertEquals("the console exited (status 1) without an outcome: java.lang.IndexOutOfBoundsException: Index 3 out of bounds",
        Json.text(finalise(1), "reason"));
  }

  @Test
  void failedReportsAreExplainedByTheIdleDropOnlyWhileTheConsoleStayedUp() throws Exception {
    Files.write(run.resolve("injectors/inj1/agent.out"), List.of("12:00:01 WARN  agent: Report to console failed"));
    outcome("status=incomplete", "reason=worker inj1-0 stopped reporting without finishing", "requests=6");
    assertTrue(Json.text(finalise(1), "reason").contains("the console drops a connection silent for 30s"));
    Files.delete(run.resolve("console/outcome.properties"));
    seen.consoleExit = 137;
    assertEquals("the console exited (status 137) without an outcome", Json.text(finalise(1), "reason"));
    seen.consoleExit = 0;
    seen.aborted = "the runs folder's filesystem (/r) had 212 KB free of 8192 KB, under the floor of 409 KB: the run was stopped there";
    assertEquals(seen.aborted, Json.text(finalise(1), "reason"));
  }

  @Test
  void anAbortOrAnInterruptIsSaidAsSuch() throws Exception {
    seen.aborted = "the console did not end the run within 300s: stopped it";
    assertEquals("the console did not end the run within 300s: stopped it", Json.text(finalise(1), "reason"));
    seen.aborted = null;
    seen.interrupted = true;
    final JsonObject m = finalise(1);
    assertEquals("interrupted", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").startsWith("interrupted (Ctrl-C or a signal)"), Json.text(m, "reason"));
  }

  @Test
  void anAgentThatLeftEarlyIsNamedWithItsLastWords() throws Exception {
    outcome("status=incomplete", "reason=agent inj2 disconnected during the run", "requests=6");
    Files.write(run.resolve("injectors/inj2/agent.out"), List.of("2026-11-23 10:00:00,000 INFO agent: started",
        "2026-11-23 10:00:05,000 ERROR agent: java.net.ConnectException: Connection refused"));
    seen.agentsExited.add("inj2");
    assertEquals("agent inj2 disconnected during the run; agent inj2 had exited: 2026-11-23 10:00:05,000 ERROR agent:"
        + " java.net.ConnectException: Connection refused; its workers stopped with it", Json.text(finalise(1), "reason"));
  }

  @Test
  void aWorkersCommandLineIsNotAnAgentsLastWordsThoughItsFlagsSayError() throws Exception {
    // the console's own account says the dead agent's worker "ran to the end": the reason must correct it
    outcome("status=incomplete", "reason=worker inj1-0 (last RUNNING) stopped reporting without finishing (killed or crashed);"
        + " the other 2 worker(s) ran to the end", "requests=6");
    Files.write(run.resolve("injectors/inj2/agent.out"), List.of("2026-11-28 03:38:58,101 INFO  agent: connected",
        "2026-11-28 03:39:02,033 INFO  agent: Worker process command line: injectors/lab-java.sh '-XX:TieredStopAtLevel=1'"
        + " '-XX:+ExitOnOutOfMemoryError' -cp grinder.jar net.grinder.engine.process.WorkerProcessEntryPoint"));
    seen.agentsExited.add("inj2");
    assertEquals("worker inj1-0 (last RUNNING) stopped reporting without finishing (killed or crashed); the other 2 worker(s) ran to"
        + " the end; agent inj2 had exited without a last word (killed?); its workers stopped with it", Json.text(finalise(1), "reason"));
  }

  @Test
  void anAgentsLastWordsAreItsLastFailureLineNotItsLastLine() {
    assertEquals("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space", RunFinaliser.lastWords(List.of(
        "12:00:01 WARN  agent: slow", "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        "12:00:02 INFO  agent: Worker process command line: java '-XX:+HeapDumpOnOutOfMemoryError'")));
    assertEquals("12:00:03 ERROR agent: No such file: grinder.properties", RunFinaliser.lastWords(List.of(
        "12:00:03 ERROR agent: No such file: grinder.properties", "12:00:04 DEBUG agent: Error handler installed")));
    assertEquals("", RunFinaliser.lastWords(List.of("2026-11-28 03:39:02,033 INFO  agent: -XX:+ExitOnOutOfMemoryError")));
  }

  @Test
  void anAgentLostMidRunMakesItIncompleteEvenWhenTheConsoleSawItsWorkerFinish() throws Exception {
    outcome("status=complete", "reason=all 2 workers finished", "requests=6");
    Files.write(run.resolve("injectors/inj2/agent.out"), List.of("2026-11-23 10:00:00,000 INFO agent: started"));
    seen.agentsExited.add("inj2");
    final JsonObject m = finalise(1);
    assertEquals("incomplete", Json.text(m, "status"));
    assertEquals("agent inj2 exited before the run ended: its workers stopped with it (the console, which saw them finish, said:"
        + " all 2 workers finished); agent inj2 had exited without a last word (killed?)", Json.text(m, "reason"));
  }

  @Test
  void failedRequestsMakeADegradedRunThatSaysHowManyAndWhy() throws Exception {
    dataLog("inj2", "0, 0, 1, 1795000000000, 1, 0, 400", "0, 1, 2, 1795000000003, 2, 1, 900", "1, 0, 2, 1795000000001, 1, 1, 600");
    Files.write(run.resolve("injectors/inj2/inj2-0.log"), List.of(
        "2026-11-23 10:00:31,000 INFO  inj2-0 thread-1: hbaseload: errors by class: RetriesExhaustedException=1, CallDeadlineException=2"));
    Files.write(run.resolve("injectors/inj1/inj1-0.log"), List.of(
        "2026-11-23 10:00:31,000 INFO  inj1-0 thread-0: hbaseload: errors by class: none",
        "2026-11-23 10:00:31,000 INFO  inj1-0 thread-0: hbaseload: errors by class: RetriesExhaustedException=1"));
    final JsonObject m = finalise(1);
    assertEquals("degraded", Json.text(m, "status"));
    // Classes summed over the workers' logs; the status is not repeated at the reason's start.
    assertEquals("2 of 6 requests failed (33.333%): CallDeadlineException=2, RetriesExhaustedException=2; all 2 workers finished",
        Json.text(m, "reason"));
  }

  @Test
  void secondsWithoutACompletedRequestAreAnOutage() throws Exception {
    // Successes at +0 s and +1 s, a failure at +2 s, then nothing until +4 s: seconds +2 and +3
    // got nothing done (a failure completes, it does not count).
    dataLog("inj1", "0, 0, 1, 1795000000000, 1, 0, 500", "0, 1, 2, 1795000001000, 1, 0, 700", "1, 0, 1, 1795000004000, 0, 0, 300",
        "1, 1, 1, 1795000002000, 10, 1, 10000");
    final JsonObject m = finalise(1);
    assertEquals("degraded", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").startsWith("1 of 7 requests failed (14.286%); 2 second(s) without a successful request,"
        + " from 2 s after the first; all 2 workers finished"), Json.text(m, "reason"));
  }

  /** plan.json with a fault schedule of ACTIONS actions, and faults.csv with ROWS. */
  private void faults(String schedule, int actions, String... rows) throws Exception {
    final JsonObject plan = Json.read(run.resolve("plan.json"));
    final JsonObject faults = new JsonObject();
    faults.addProperty("schedule", schedule);
    final com.google.gson.JsonArray list = new com.google.gson.JsonArray();
    for (int k = 0; k < actions; k++) {
      list.add(new JsonObject());
    }
    faults.add("actions", list);
    plan.add("faults", faults);
    Files.writeString(run.resolve("plan.json"), plan.toString());
    final List<String> csv = new ArrayList<>(List.of(io.github.hbasegrindersuite.lifecycle.faults.FaultExecutor.HEADER));
    csv.addAll(List.of(rows));
    Files.write(run.resolve("faults.csv"), csv);
  }

  @Test
  void aRunDegradedByTheFaultsItAskedForIsTheExpectedResult() throws Exception {
    matchingHlogs();
    dataLog("inj2", "0, 0, 1, 1795000000000, 1, 0, 400", "0, 1, 2, 1795000000003, 2, 1, 900", "1, 0, 2, 1795000000001, 1, 0, 600");
    faults("at=5s kill regionserver=2", 1, "5,1795000005000,kill,2,,4242,done,1795000000000,\"SIGKILL; gone 0.1 s later\"");
    final JsonObject m = finalise(0);
    assertEquals("degraded", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").startsWith("degraded by its fault schedule (at=5s kill regionserver=2), as asked: 1 of 6 requests failed"),
        Json.text(m, "reason"));
    final JsonObject f = m.getAsJsonObject("faults");
    assertEquals("at=5s kill regionserver=2", Json.text(f, "schedule"));
    assertEquals(1, f.get("done").getAsInt());
    assertEquals(0, f.get("failed").getAsInt());
    assertEquals(0, f.get("not_done").getAsInt());
  }

  @Test
  void aFaultThatDidNotHappenLeavesTheRunIncomplete() throws Exception {
    matchingHlogs();
    faults("at=5s kill regionserver=2; at=20s start regionserver=2", 2,
        "5,1795000005000,kill,2,,,failed,1795000000000,\"regionserver-2 is not running, says the pid file\"",
        "20,,start,2,,,not done,1795000000000,\"the run ended first\"");
    final JsonObject m = finalise(1);
    assertEquals("incomplete", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").startsWith("the fault schedule (at=5s kill regionserver=2; at=20s start regionserver=2) did not run"
        + " as planned: 2 row(s) of faults.csv not done as planned, the first: at=5s kill regionserver=2 failed"
        + " (regionserver-2 is not running, says the pid file)"), Json.text(m, "reason"));
    assertEquals(1, m.getAsJsonObject("faults").get("failed").getAsInt());
    assertEquals(1, m.getAsJsonObject("faults").get("not_done").getAsInt());
  }

  @Test
  void faultsThatHurtNobodyLeaveTheRunComplete() throws Exception {
    matchingHlogs();
    faults("at=1s pause regionserver=1 for=1s", 1, "1,1795000001000,pause,1,1,4242,done,1795000000000,\"SIGSTOP for 1 s\"",
        "2,1795000002000,resume,1,1,4242,done,1795000000000,\"SIGCONT at its time\"");
    final JsonObject m = finalise(0);
    assertEquals("complete", Json.text(m, "status"));
    assertTrue(Json.text(m, "reason").endsWith("its fault schedule (at=1s pause regionserver=1 for=1s) ran, and no request failed"));
  }
}
