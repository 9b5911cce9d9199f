package io.github.hbasegrindersuite.lifecycle;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Requests per test, failed requests and successes per second in Grinder data logs ({@code <host>-<n>-data.log}, header
 * "Thread, Run, Test, ..."): the finaliser compares them with the console's counts. Columns are
 * found by header name; a line that is not a request (a repeated header, a truncated last line)
 * is not counted.
 */
final class DataLogs {
  // A data log has a line per request (245k in a 30 s run at 8 threads), read by a C1-only JVM:
  // fields are split and checked by hand, not by regular expressions (a third of finalise's CPU).
  final Map<Integer, Long> perTest = new TreeMap<>();
  /** Requests per test that ended without an error (the audit compares the puts with its acknowledged ones). */
  final Map<Integer, Long> okPerTest = new TreeMap<>();
  /**
   * Successful completions per second since the epoch (start + Test time), over every file read:
   * during an outage failures still complete, every timeout, but nothing gets done.
   */
  final TreeMap<Long, Long> perSecond = new TreeMap<>();
  /** Requests per worker ({@code <host>-<n>}, the file's name without "-data.log"): the interval logs' cross-check. */
  final Map<String, Long> perWorker = new TreeMap<>();
  /** The latest start of any request, ms since the epoch (Long.MIN_VALUE: none read). */
  long lastStartMillis = Long.MIN_VALUE;
  long total;
  long errors;
  int files;

  /** Every *-data.log below DIR (none when DIR does not exist). */
  static DataLogs below(Path dir) throws LifecycleException {
    final DataLogs logs = new DataLogs();
    if (!Files.isDirectory(dir)) {
      return logs;
    }
    final List<Path> paths = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(p -> p.getFileName().toString().endsWith("-data.log") && Files.isRegularFile(p)).forEach(paths::add);
    } catch (IOException e) {
      throw new LifecycleException("cannot list the data logs below " + dir + ": " + e.getMessage());
    }
    for (Path path : paths) {
      logs.add(path);
    }
    return logs;
  }

  /**
   * Whole seconds between the first and the last success in which nothing succeeded, up to the
   * second in which the last request started: after it the run only drains what is in flight
   * (a buffered writer's final flush, alone at the end of a short run, takes seconds and is timed
   * as its request's latency, not an outage: no request was waiting to start).
   */
  static List<Long> silentSeconds(Map<Long, Long> perSecond, long lastStartSecond) {
    final List<Long> silent = new ArrayList<>();
    if (perSecond.isEmpty()) {
      return silent;
    }
    final long first = ((TreeMap<Long, Long>) perSecond).firstKey();
    final long last = Math.min(((TreeMap<Long, Long>) perSecond).lastKey(), lastStartSecond + 1);
    for (long second = first + 1; second < last; second++) {
      if (!perSecond.containsKey(second)) {
        silent.add(second);
      }
    }
    return silent;
  }

  private void add(Path path) throws LifecycleException {
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.ISO_8859_1)) {
      final String header = in.readLine();
      if (header == null) {
        return;
      }
      files++;
      final List<String> columns = List.of(fields(header));
      final int testColumn = columns.indexOf("Test");
      final int startColumn = columns.indexOf("Start time (ms since Epoch)");
      final int timeColumn = columns.indexOf("Test time");
      final int errorsColumn = columns.indexOf("Errors");
      if (testColumn < 0) {
        return;
      }
      final long before = total;
      String line;
      while ((line = in.readLine()) != null) {
        final String[] fields = fields(line);
        if (fields.length <= testColumn || !digits(fields[0], 1, Integer.MAX_VALUE) || !digits(fields[testColumn], 1, 9)) {
          continue;
        }
        perTest.merge(Integer.parseInt(fields[testColumn]), 1L, Long::sum);
        total++;
        final boolean failed = errorsColumn >= 0 && errorsColumn < fields.length && positive(fields[errorsColumn]);
        if (failed) {
          errors++;
        } else {
          okPerTest.merge(Integer.parseInt(fields[testColumn]), 1L, Long::sum);
        }
        final boolean started = startColumn >= 0 && startColumn < fields.length && digits(fields[startColumn], 1, 15);
        if (started) {
          lastStartMillis = Math.max(lastStartMillis, Long.parseLong(fields[startColumn]));
        }
        if (!failed && started && timeColumn >= 0 && timeColumn < fields.length && digits(fields[timeColumn], 1, 9)) {
          perSecond.merge((Long.parseLong(fields[startColumn]) + Long.parseLong(fields[timeColumn])) / 1000, 1L, Long::sum);
        }
      }
      perWorker.merge(path.getFileName().toString().replaceFirst("-data\\.log$", ""), total - before, Long::sum);
    } catch (IOException e) {
      throw new LifecycleException("cannot read data log " + path + ": " + e.getMessage());
    }
  }

  /** The fields of a line split at each comma and the whitespace after it, as {@code line.split(",\\s*")} gives them (trailing empty ones dropped). */
  static String[] fields(String line) {
    final List<String> out = new ArrayList<>(16);
    int from = 0;
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == ',') {
        out.add(line.substring(from, i));
        while (i + 1 < line.length() && isSpace(line.charAt(i + 1))) {
          i++;
        }
        from = i + 1;
      }
    }
    if (out.isEmpty()) {
      return new String[] {line}; // no comma: the line itself, as String.split gives it (even when empty)
    }
    out.add(line.substring(from));
    int n = out.size();
    while (n > 0 && out.get(n - 1).isEmpty()) {
      n--;
    }
    return out.subList(0, n).toArray(new String[0]);
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  /** Only ASCII digits, between MIN and MAX of them. */
  static boolean digits(String s, int min, int max) {
    if (s.length() < min || s.length() > max) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** A count above zero: digits, the first not 0 (an error count of 1 or more). */
  static boolean positive(String s) {
    return digits(s, 1, Integer.MAX_VALUE) && s.charAt(0) != '0';
  }
}
