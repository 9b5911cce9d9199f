package io.github.hbasegrindersuite.lifecycle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep.work = rows}: every run does a fixed amount of work, as HBase's PerformanceEvaluation
 * does, and its elapsed time is the figure. The run's T threads make one request per row of the
 * table between them (a scan-only run one scan per hbaseload.scan.length rows): each thread
 * ceil(rows / T) requests as Grinder runs, so sequential keys walk each thread's own slice once.
 * The run's duration stays only as a bound.
 */
final class FixedWork {
  static final String DURATION = "duration";
  static final String ROWS = "rows";
  static final List<String> ACCEPTED = List.of(DURATION, ROWS);

  private FixedWork() {
  }

  /** Requests each of {@code threads} threads makes so that together they cover {@code rows} rows. */
  static long requestsPerThread(long rows, int threads, int rowsPerRequest) {
    final long requests = (rows + rowsPerRequest - 1) / rowsPerRequest;
    return Math.max(1, (requests + threads - 1) / threads);
  }

  /** The point with {@code --set grinder.runs=N} for its threads and rows (the base under the point's own sets). */
  static SweepPlanner.Point apply(SweepPlanner.Point point, Map<String, String> base) throws LifecycleException {
    final int at = point.args.indexOf("--threads");
    if (at < 0) {
      throw new LifecycleException("sweep.work = rows needs sweep.threads (the rows are split over each run's threads)");
    }
    final int threads = RunArguments.positive("sweep.threads", point.args.get(at + 1));
    final Map<String, String> props = new LinkedHashMap<>(base);
    props.putAll(point.sets);
    final long rows = whole(props, "hbaseload.rows", "100000");
    final boolean scansOnly = props.getOrDefault("hbaseload.operations", "").replaceAll("\\s", "").equals("scan:100");
    final int perRequest = scansOnly ? (int) whole(props, "hbaseload.scan.length", "100") : 1;
    final long runs = requestsPerThread(rows, threads, perRequest);
    final List<String> args = new ArrayList<>(point.args);
    args.addAll(List.of("--set", "grinder.runs=" + runs));
    final Map<String, String> sets = new LinkedHashMap<>(point.sets);
    sets.put("grinder.runs", String.valueOf(runs));
    return new SweepPlanner.Point(point.label + ", " + runs + " requests a thread", args, sets, point.server);
  }

  private static long whole(Map<String, String> props, String key, String otherwise) throws LifecycleException {
    final String text = props.getOrDefault(key, otherwise).trim();
    if (!text.matches("[0-9]{1,12}") || Long.parseLong(text) < 1) {
      throw new LifecycleException(key + " '" + text + "' is not a whole number > 0 (sweep.work = rows divides it)");
    }
    return Long.parseLong(text);
  }
}
