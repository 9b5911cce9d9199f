package io.github.hbasegrindersuite.console;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a run ended: the console's exit status and a one-line reason, written to
 * {@code console/outcome.properties} for ./suite run to read.
 */
public final class Outcome {

  /** Exit statuses of the console when the controller ends it. */
  public enum Kind {
    COMPLETE(0, "complete"),
    AGENTS_MISSING(3, "agents missing"),
    WORKERS_DIED(4, "workers died"),
    TIMEOUT(5, "timeout"),
    START_FAILED(6, "start failed"),
    BAD_SETTINGS(7, "bad settings"),
    NO_TESTS(8, "no tests");

    private final int code;
    private final String label;

    Kind(int code, String label) {
      this.code = code;
      this.label = label;
    }

    public int code() {
      return code;
    }

    public String label() {
      return label;
    }
  }

  private final Kind kind;
  private final String reason;
  private final Map<String, String> details = new LinkedHashMap<>();

  public Outcome(Kind kind, String reason) {
    this.kind = kind;
    this.reason = oneLine(reason);
  }

  public Kind kind() {
    return kind;
  }

  public String reason() {
    return reason;
  }

  public boolean complete() {
    return kind == Kind.COMPLETE;
  }

  /** The same details under another kind and reason. */
  public Outcome as(Kind newKind, String newReason) {
    final Outcome copy = new Outcome(newKind, newReason);
    copy.details.putAll(details);
    return copy;
  }

  /** An extra key=value line in outcome.properties (times, agents, counts). */
  public Outcome with(String key, Object value) {
    details.put(key, oneLine(String.valueOf(value)));
    return this;
  }

  /** The lines of outcome.properties. */
  public List<String> lines() {
    final List<String> lines = new ArrayList<>();
    lines.add("status=" + (complete() ? "complete" : "incomplete"));
    lines.add("code=" + kind.code());
    lines.add("kind=" + kind.label());
    lines.add("reason=" + reason);
    for (Map.Entry<String, String> entry : details.entrySet()) {
      lines.add(entry.getKey() + "=" + entry.getValue());
    }
    return lines;
  }

  public void write(File file) throws IOException {
    Files.write(file.toPath(), lines(), StandardCharsets.UTF_8);
  }

  /** Line breaks and tabs become spaces: the reason is read as one line by bash. */
  static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("[\\r\\n\\t]+", " ").trim();
  }
}
