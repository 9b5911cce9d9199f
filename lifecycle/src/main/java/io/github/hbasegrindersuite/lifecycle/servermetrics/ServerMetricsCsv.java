package io.github.hbasegrindersuite.lifecycle.servermetrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * server-metrics.csv: one row per server per sample. Fixed columns {@code time_ms, server, role,
 * status, handlers}, then every {@link ServerMetric} in order. A server that did not answer gets a
 * row with the reason as its status and empty metrics, so the file says when and which; its next
 * answered row computes rates against its last answered one. Keeps a tally per server for the notes.
 */
final class ServerMetricsCsv {
  static final List<String> FIXED = List.of("time_ms", "server", "role", "status", "handlers");
  static final String OK = "ok";

  private final Writer out;
  private final Map<Server, JmxSnapshot> lastAnswered = new HashMap<>();
  private final Map<Server, Tally> tallies = new LinkedHashMap<>();

  /** What one server gave over the run: for server-metrics.json. */
  static final class Tally {
    int samples;
    int answered;
    String firstFailure;
    String lastFailure;
    Long firstFailureMs;
  }

  ServerMetricsCsv(Writer out) {
    this.out = out;
    final List<String> header = new ArrayList<>(FIXED);
    for (ServerMetric m : ServerMetric.values()) {
      header.add(m.column);
    }
    line(header);
  }

  void answered(Server server, JmxSnapshot now) {
    final List<String> row = start(server, now.timeMs, OK);
    final JmxSnapshot prev = lastAnswered.get(server);
    for (ServerMetric m : ServerMetric.values()) {
      row.add(number(m.compute(prev, now)));
    }
    line(row);
    lastAnswered.put(server, now);
    tally(server).answered++;
  }

  void failed(Server server, long timeMs, String reason) {
    final String status = "no answer: " + JmxSnapshot.oneLine(reason);
    final List<String> row = start(server, timeMs, status);
    for (int i = 0; i < ServerMetric.values().length; i++) {
      row.add("");
    }
    line(row);
    final Tally t = tally(server);
    if (t.firstFailure == null) {
      t.firstFailure = status;
      t.firstFailureMs = timeMs;
    }
    t.lastFailure = status;
  }

  void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Map<Server, Tally> tallies() {
    return tallies;
  }

  Tally tally(Server server) {
    return tallies.computeIfAbsent(server, s -> new Tally());
  }

  private List<String> start(Server server, long timeMs, String status) {
    tally(server).samples++;
    final List<String> row = new ArrayList<>();
    row.add(Long.toString(timeMs));
    row.add(server.address());
    row.add(server.role.word);
    row.add(status);
    row.add(server.handlers == null ? "" : server.handlers.toString());
    return row;
  }

  /** Whole numbers as such, others to 3 decimals without trailing zeros; null as empty. */
  static String number(Double v) {
    if (v == null || v.isNaN() || v.isInfinite()) {
      return "";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString(v.longValue());
    }
    final String s = String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  /** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
  static String field(String s) {
    return s.matches("[^,\"\r\n]*") ? s : "\"" + s.replace("\"", "\"\"") + "\"";
  }

  private void line(List<String> fields) {
    try {
      final StringBuilder b = new StringBuilder();
      for (int i = 0; i < fields.size(); i++) {
        b.append(i == 0 ? "" : ",").append(field(fields.get(i)));
      }
      out.write(b.append('\n').toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
