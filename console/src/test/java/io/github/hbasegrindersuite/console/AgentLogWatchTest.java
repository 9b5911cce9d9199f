package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentLogWatchTest {

  // An agent's log when its worker JVM refused an option (captured from a run, trimmed; a fourth
  // line of the JVM's added).
  private static final String EXITED = String.join("\n",
      "2026-11-26 17:16:58,000 INFO  agent: waiting for console signal",
      "2026-11-26 17:16:58,004 INFO  agent: received a start message",
      "2026-11-26 17:16:58,266 INFO  agent: Worker process command line: /work/main/injectors/lab-java.sh '-XX:+Bogus'",
      "Unrecognized VM option 'Bogus'",
      "Error: Could not create the Java Virtual Machine.",
      "Error: A fatal exception has occurred. Program will exit.",
      "Never kept: a fourth line",
      "2026-11-26 17:16:58,337 INFO  agent: worker inj1-0 started",
      "2026-11-26 17:16:58,340 INFO  agent: finished, waiting for console signal", "");

  // The same, when the JVM was gone before its agent wrote to it: the agent fails and exits.
  private static final String AGENT_FAILED = String.join("\n",
      "2026-11-26 17:16:58,278 INFO  agent: Worker process command line: /work/main/injectors/lab-java.sh '-XX:+Bogus'",
      "Unrecognized VM option 'Bogus'",
      "2026-11-26 17:16:58,448 INFO  agent: communication shut down",
      "2026-11-26 17:16:58,451 ERROR agent: Failed to send initialisation message",
      "net.grinder.engine.common.EngineException: Failed to send initialisation message",
      "\tat net.grinder.engine.agent.AbstractWorkerFactory.create(AbstractWorkerFactory.java:92) ~[grinder-core-3.11.jar:na]",
      "Caused by: java.io.IOException: Stream closed", "");

  // A worker that ran: its own log lines pass through the agent's log, then the agent finishes.
  private static final String RAN = String.join("\n",
      "2026-11-26 15:02:57,248 INFO  agent: Worker process command line: /work/main/injectors/lab-java.sh",
      "2026-11-26 15:02:57,268 INFO  agent: worker inj1-3 started",
      "2026-11-26 15:03:05,414 INFO  inj1-3: starting threads",
      "2026-11-26 15:03:25,521 INFO  inj1-3: finished",
      "2026-11-26 15:03:25,940 INFO  agent: finished, waiting for console signal", "");

  private static File write(File dir, String name, String text) throws IOException {
    final File file = new File(dir, name);
    file.getParentFile().mkdirs();
    Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  @Test
  void aWorkerThatExitedAtItsStartIsNamedWithWhatItsJvmSaid(@TempDir File dir) throws IOException {
    final AgentLogWatch log = new AgentLogWatch("inj1", write(dir, "agent.out", EXITED), 0);
    log.poll(10_000);
    assertFalse(log.workersExited(11_999, 2000), "within the grace a report may still arrive");
    assertTrue(log.workersExited(12_000, 2000));
    assertEquals("the worker of inj1 exited at its start: Unrecognized VM option 'Bogus' / Error: Could not create the Java"
        + " Virtual Machine. (its agent's log: injectors/inj1/agent.out)", AgentLogWatch.exitedAtStart(Arrays.asList(log)));
  }

  @Test
  void anAgentThatFailsOnItsDeadWorkerCountsAsItsWorkersGoneWithoutItsStackTrace(@TempDir File dir) throws IOException {
    final AgentLogWatch log = new AgentLogWatch("inj2", write(dir, "agent.out", AGENT_FAILED), 0);
    log.poll(0);
    assertTrue(log.workersExited(2_000, 2000));
    assertEquals("the worker of inj2 exited at its start: Unrecognized VM option 'Bogus'"
        + " (its agent's log: injectors/inj2/agent.out)", AgentLogWatch.exitedAtStart(Arrays.asList(log)));
  }

  @Test
  void agentsWhoseWorkersSaidTheSameAreNamedInOneSentence(@TempDir File dir) throws IOException {
    final AgentLogWatch one = new AgentLogWatch("inj1", write(dir, "1.out", EXITED), 0);
    final AgentLogWatch two = new AgentLogWatch("inj2", write(dir, "2.out", EXITED), 0);
    final AgentLogWatch three = new AgentLogWatch("inj3", write(dir, "3.out", AGENT_FAILED), 0);
    for (AgentLogWatch log : Arrays.asList(one, two, three)) {
      log.poll(0);
    }
    assertEquals("the workers of inj1, inj2 exited at their start: Unrecognized VM option 'Bogus' / Error: Could not create"
        + " the Java Virtual Machine. (their agents' logs: injectors/HOST/agent.out); the worker of inj3 exited at its start:"
        + " Unrecognized VM option 'Bogus' (its agent's log: injectors/inj3/agent.out)",
        AgentLogWatch.exitedAtStart(Arrays.asList(one, two, three)));
  }

  @Test
  void theLogIsReadAsItGrowsAndAHalfWrittenLineWaitsForItsEnd(@TempDir File dir) throws IOException {
    final int cut = EXITED.indexOf("finished, waiting");
    final File file = write(dir, "agent.out", EXITED.substring(0, cut));
    final AgentLogWatch log = new AgentLogWatch("inj1", file, 0);
    log.poll(0);
    assertFalse(log.workersExited(60_000, 2000));
    Files.write(file.toPath(), EXITED.substring(cut).getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    log.poll(1_000);
    assertTrue(log.workersExited(3_000, 2000));
  }

  @Test
  void aLogWithoutAStartedWorkerOrStillRunningSaysNothing(@TempDir File dir) throws IOException {
    final AgentLogWatch idle = new AgentLogWatch("inj1", write(dir, "idle.out",
        "2026-11-26 14:02:39,123 INFO  agent: finished, waiting for console signal\n"), 0);
    idle.poll(0);
    assertFalse(idle.workersExited(60_000, 2000), "a finish before any worker was started is an earlier run's");
    final AgentLogWatch again = new AgentLogWatch("inj1", write(dir, "again.out",
        EXITED + EXITED.substring(EXITED.indexOf("2026-11-26 17:16:58,266"), EXITED.indexOf("2026-11-26 17:16:58,340"))), 0);
    again.poll(0);
    assertFalse(again.workersExited(60_000, 2000), "a second worker started after the first exited");
    final AgentLogWatch running = new AgentLogWatch("inj1", write(dir, "running.out", RAN.substring(0, RAN.indexOf("2026-11-26 15:03:25,940"))), 0);
    running.poll(0);
    assertFalse(running.workersExited(60_000, 2000));
    final AgentLogWatch absent = new AgentLogWatch("inj9", new File(dir, "absent.out"), 0);
    absent.poll(0);
    assertFalse(absent.workersExited(60_000, 2000), "an agent's log on another host is not read");
  }

  @Test
  void aWorkerThatRanSaysNoWordOfItsOwnLogLines(@TempDir File dir) throws IOException {
    // The console heard from this worker, so it is never asked; were it asked, no log line is "output".
    final AgentLogWatch log = new AgentLogWatch("inj1", write(dir, "agent.out", RAN), 0);
    log.poll(0);
    assertTrue(log.workersExited(2_000, 2000));
    assertEquals("the worker of inj1 exited at its start without a word (its agent's log: injectors/inj1/agent.out)",
        AgentLogWatch.exitedAtStart(Arrays.asList(log)));
  }

  @Test
  void inASessionOnlyThisRunsPartOfTheSessionsAgentLogCounts(@TempDir File dir) throws IOException {
    final File runDir = new File(dir, "run-7");
    final File session = new File(dir, "session");
    // An earlier run's worker exited at its start too; this run's part begins after it.
    write(session, "hosts/inj2/agent.out", EXITED + RAN.substring(0, RAN.indexOf("2026-11-26 15:03:25,940")));
    write(runDir, "injectors/inj2/.agent-out-offset", EXITED.getBytes(StandardCharsets.UTF_8).length + "\n");
    final AgentLogWatch log = AgentLogWatch.of("inj2", runDir, session);
    log.poll(0);
    assertFalse(log.workersExited(60_000, 2000));
    final AgentLogWatch own = AgentLogWatch.of("inj1", runDir, null);
    write(runDir, "injectors/inj1/agent.out", EXITED);
    own.poll(0);
    assertTrue(own.workersExited(2_000, 2000));
  }
}
