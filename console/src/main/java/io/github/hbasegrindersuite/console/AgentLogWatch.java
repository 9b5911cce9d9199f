package io.github.hbasegrindersuite.console;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One agent's log ({@code agent.out}) read as it grows, for the one thing Grinder's process reports
 * cannot say: a worker JVM that exited before it reached the console (a bad option in
 * {@code grinder.jvm.arguments}, a missing class, no memory). The agent keeps reporting RUNNING
 * either way. Its log says "Worker process command line: ..." and "worker NAME started", then,
 * once all its workers have exited, "finished, waiting for console signal" (or the agent itself
 * fails: "Failed to send initialisation message", when the JVM was gone before the agent could
 * write to it). Lines after the command line that are not log lines or stack frames are the
 * worker JVM's own output, e.g. "Unrecognized VM option 'Bogus'".
 * A log that is not on this machine (an agent reached by ssh) is never read: its run waits for the
 * worker-start timeout as before.
 */
final class AgentLogWatch {

  /** Grinder's log lines: "2026-11-26 14:02:40,094 INFO  agent: ..." (a worker's: "... INFO  inj1-0: ..."). */
  private static final Pattern LOG_LINE = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} [A-Z]+ +\\S.*");
  private static final String COMMAND_LINE = " agent: Worker process command line: ";
  private static final Pattern WORKERS_GONE = Pattern.compile(
      ".* agent: (finished, waiting for console signal|Failed to send initialisation message)$");
  private static final int OUTPUT_LINES_KEPT = 2;
  private static final int OUTPUT_LINE_CHARS = 200;

  private final String agent;
  private final File file;
  private long offset;
  private final StringBuilder partialLine = new StringBuilder();
  private boolean starting;
  private final List<String> output = new ArrayList<>();
  private long finishedAtMs = -1;

  AgentLogWatch(String agent, File file, long offset) {
    this.agent = agent;
    this.file = file;
    this.offset = offset;
  }

  /**
   * Where AGENT's log of this run is: in a session, the session's agent log from the offset the
   * run's submission noted ({@code injectors/AGENT/.agent-out-offset}, suite.d/session.sh); else
   * the run's own {@code injectors/AGENT/agent.out}.
   */
  static AgentLogWatch of(String agent, File runDirectory, File sessionDirectory) {
    final File host = new File(new File(runDirectory, "injectors"), agent);
    if (sessionDirectory == null) {
      return new AgentLogWatch(agent, new File(host, "agent.out"), 0);
    }
    long offset = 0;
    try {
      offset = Long.parseLong(new String(java.nio.file.Files.readAllBytes(new File(host, ".agent-out-offset").toPath()),
          StandardCharsets.UTF_8).trim());
    } catch (IOException | NumberFormatException e) {
      // no offset noted: the whole log, whose earlier runs' workers all reached the console
    }
    return new AgentLogWatch(agent, new File(new File(new File(sessionDirectory, "hosts"), agent), "agent.out"), offset);
  }

  String agent() {
    return agent;
  }

  /** Read what the log gained since the last call (nothing when it is absent). */
  void poll(long nowMs) {
    if (!file.isFile() || file.length() <= offset) {
      return;
    }
    try (RandomAccessFile in = new RandomAccessFile(file, "r")) {
      in.seek(offset);
      final byte[] bytes = new byte[(int) Math.min(in.length() - offset, 1 << 20)];
      in.readFully(bytes);
      offset += bytes.length;
      partialLine.append(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return;
    }
    int end;
    while ((end = partialLine.indexOf("\n")) >= 0) {
      line(partialLine.substring(0, end), nowMs);
      partialLine.delete(0, end + 1);
    }
  }

  /** One complete line of the log. */
  void line(String line, long nowMs) {
    if (line.contains(COMMAND_LINE)) {
      starting = true;
      finishedAtMs = -1;
      return;
    }
    if (!starting || finishedAtMs >= 0) {
      return; // before any worker, or after its agent gave up (its own stack trace follows)
    }
    if (WORKERS_GONE.matcher(line).matches()) {
      finishedAtMs = nowMs;
      return;
    }
    // the JVM's own words, not a stack trace's frames
    final String kept = LOG_LINE.matcher(line).matches() || line.isEmpty() || Character.isWhitespace(line.charAt(0))
        ? null : line.trim();
    if (kept != null && output.size() < OUTPUT_LINES_KEPT) {
      output.add(kept.length() > OUTPUT_LINE_CHARS ? kept.substring(0, OUTPUT_LINE_CHARS) + "..." : kept);
    }
  }

  /**
   * The agent's workers all exited at least {@code graceMs} ago: then a worker the console never
   * heard from exited at its start (the grace lets a report still in flight arrive).
   */
  boolean workersExited(long nowMs, long graceMs) {
    return finishedAtMs >= 0 && nowMs - finishedAtMs >= graceMs;
  }

  /**
   * One sentence for the agents whose workers exited at their start, those whose JVMs said the same
   * together: "the workers of inj1, inj2 exited at their start: Unrecognized VM option 'Bogus' / ...
   * (their agents' logs: injectors/HOST/agent.out)".
   */
  static String exitedAtStart(List<AgentLogWatch> exited) {
    final Map<String, List<String>> agentsBySaying = new LinkedHashMap<>();
    for (AgentLogWatch log : exited) {
      agentsBySaying.computeIfAbsent(String.join(" / ", log.output), k -> new ArrayList<>()).add(log.agent);
    }
    final List<String> sentences = new ArrayList<>();
    agentsBySaying.forEach((saying, agents) -> {
      final boolean one = agents.size() == 1;
      sentences.add((one ? "the worker of " : "the workers of ") + String.join(", ", agents)
          + (one ? " exited at its start" : " exited at their start") + (saying.isEmpty() ? " without a word" : ": " + saying)
          + (one ? " (its agent's log: injectors/" + agents.get(0) + "/agent.out)" : " (their agents' logs: injectors/HOST/agent.out)"));
    });
    return String.join("; ", sentences);
  }
}
