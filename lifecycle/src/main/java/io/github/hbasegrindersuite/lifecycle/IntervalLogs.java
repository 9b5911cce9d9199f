package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.IntervalLog;
import io.github.hbasegrindersuite.worker.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * The workers' interval logs ({@code <host>-<n>.hlog}, written by the worker's IntervalLog) merged
 * exactly: per test, every interval of every worker added into one HdrHistogram (successes and
 * the {@code <op>-failed} tag together, as the data logs count both), and per second and test
 * the requests and errors. {@link #write} leaves what the report reads in
 * {@code report-input/}; {@link #asDataLogs} stands in for the data logs when a run wrote none
 * (hbaseload.datalog=off).
 */
final class IntervalLogs {
  static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};
  static final String SUMMARY_CSV = "hlog-summary.csv";
  static final String SECONDS_CSV = "hlog-seconds.csv";
  static final String WORKERS_CSV = "hlog-workers.csv";

  /** One worker's log: its host, its name ({@code <host>-<n>}), what it holds. */
  static final class Worker {
    final String host;
    final String name;
    long requests;
    long errors;
    String problem = "";   // a log cut short (a killed worker): what was read is kept

    Worker(String host, String name) {
      this.host = host;
      this.name = name;
    }
  }

  final Map<Integer, Histogram> perTest = new TreeMap<>();
  final Map<Integer, Long> errorsPerTest = new TreeMap<>();
  /** Second since the epoch -> test -> {requests, errors}. */
  final TreeMap<Long, Map<Integer, long[]>> perSecond = new TreeMap<>();
  final List<Worker> workers = new ArrayList<>();
  final Map<String, DataLogs> byHost = new LinkedHashMap<>();

  static Histogram emptyHistogram() {
    return new Histogram(IntervalLog.HIGHEST_MICROS, IntervalLog.SIGNIFICANT_DIGITS);
  }

  /** Every *.hlog below DIR, as host HOST's (none when DIR does not exist). */
  void addHost(String host, Path dir) throws LifecycleException {
    final DataLogs counts = new DataLogs();
    byHost.put(host, counts);
    if (!Files.isDirectory(dir)) {
      return;
    }
    final List<Path> paths;
    try (Stream<Path> walk = Files.walk(dir)) {
      paths = walk.filter(p -> p.getFileName().toString().endsWith(IntervalLog.FILE_SUFFIX) && Files.isRegularFile(p))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new LifecycleException("cannot list the interval logs below " + dir + ": " + e.getMessage());
    }
    for (Path path : paths) {
      try (InputStream in = Files.newInputStream(path)) {
        add(host, path.getFileName().toString().replaceFirst("\\.hlog$", ""), in, counts);
      } catch (IOException e) {
        throw new LifecycleException("cannot read interval log " + path + ": " + e.getMessage());
      }
    }
  }

  /** One worker's log from IN. An unknown tag is an error: the report could not say what it counted. */
  void add(String host, String name, InputStream in, DataLogs counts) throws LifecycleException {
    final Worker worker = new Worker(host, name);
    workers.add(worker);
    counts.files++;
    final HistogramLogReader reader = new HistogramLogReader(in);
    while (true) {
      final EncodableHistogram next;
      try {
        if (!reader.hasNext()) {
          break;
        }
        next = reader.nextIntervalHistogram();
      } catch (RuntimeException e) {
        worker.problem = "cut short after " + worker.requests + " requests (" + e.getClass().getSimpleName() + ")";
        break;
      }
      if (next == null) {
        break;
      }
      final Histogram interval = (Histogram) next;
      final String tag = interval.getTag() == null ? "" : interval.getTag();
      final boolean failed = tag.endsWith(IntervalLog.FAILED_SUFFIX);
      final Operation operation = Operation.byLabel(failed ? tag.substring(0, tag.length() - IntervalLog.FAILED_SUFFIX.length()) : tag);
      if (operation == null) {
        throw new LifecycleException("interval log " + name + " (host " + host + "): unknown tag '" + tag + "' (accepted: "
            + Operation.labels() + ", each also with " + IntervalLog.FAILED_SUFFIX + ")");
      }
      final int test = operation.testNumber();
      final long n = interval.getTotalCount();
      perTest.computeIfAbsent(test, t -> emptyHistogram()).add(interval);
      final long second = Math.floorDiv((interval.getStartTimeStamp() + interval.getEndTimeStamp()) / 2, 1000L);
      final long[] cell = perSecond.computeIfAbsent(second, s -> new TreeMap<>()).computeIfAbsent(test, t -> new long[2]);
      cell[0] += n;
      worker.requests += n;
      counts.total += n;
      counts.perTest.merge(test, n, Long::sum);
      if (failed) {
        cell[1] += n;
        worker.errors += n;
        counts.errors += n;
        errorsPerTest.merge(test, n, Long::sum);
      } else if (n > 0) {
        counts.perSecond.merge(second, n, Long::sum);
      }
    }
  }

  long total() {
    return workers.stream().mapToLong(w -> w.requests).sum();
  }

  /** The host's counts in the data logs' shape, for a run that wrote none. */
  DataLogs asDataLogs(String host) {
    return byHost.getOrDefault(host, new DataLogs());
  }

  /**
   * Counts against the data logs ({@code <name>-data.log} of each worker): "" when every worker's
   * interval log holds as many requests as its data log, else which differ. Workers with a data
   * log but no interval log count as 0.
   */
  String mismatch(Map<String, Long> dataLogPerWorker) {
    final Map<String, Long> hlog = new TreeMap<>();
    workers.forEach(w -> hlog.merge(w.name, w.requests, Long::sum));
    final List<String> differ = new ArrayList<>();
    final java.util.TreeSet<String> names = new java.util.TreeSet<>(hlog.keySet());
    names.addAll(dataLogPerWorker.keySet());
    for (String name : names) {
      final long h = hlog.getOrDefault(name, 0L);
      final long d = dataLogPerWorker.getOrDefault(name, 0L);
      if (h != d) {
        differ.add(name + " " + h + " against " + d);
      }
    }
    return differ.isEmpty() ? "" : "the interval logs and the data logs count different requests (hlog against data log): "
        + String.join(", ", differ);
  }

  /**
   * report-input/hlog-summary.csv (per test and a total row: count, errors, mean, sd and the
   * percentiles in µs, beside the data logs' count), hlog-seconds.csv (per second and test) and
   * hlog-workers.csv (per worker, with its data log's count; -1 when the run wrote none).
   */
  void write(Path dir, Map<Integer, Long> dataLogPerTest, Map<String, Long> dataLogPerWorker, boolean dataLogOn)
      throws LifecycleException {
    try {
      Files.createDirectories(dir);
      try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve(SUMMARY_CSV), StandardCharsets.UTF_8))) {
        out.println("test,name,count,errors,mean_us,sd_us,min_us,p50_us,p90_us,p95_us,p99_us,p999_us,max_us,datalog_count,counts_equal");
        final Histogram all = emptyHistogram();
        long allErrors = 0;
        for (Map.Entry<Integer, Histogram> e : perTest.entrySet()) {
          final long errors = errorsPerTest.getOrDefault(e.getKey(), 0L);
          all.add(e.getValue());
          allErrors += errors;
          out.println(row(String.valueOf(e.getKey()), name(e.getKey()), e.getValue(), errors,
              dataLogOn ? dataLogPerTest.getOrDefault(e.getKey(), 0L) : -1));
        }
        final long dataLogTotal = dataLogPerTest.values().stream().mapToLong(Long::longValue).sum();
        out.println(row("total", "total", all, allErrors, dataLogOn ? dataLogTotal : -1));
      }
      try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve(SECONDS_CSV), StandardCharsets.UTF_8))) {
        out.println("second,test,name,count,errors");
        perSecond.forEach((second, tests) -> tests.forEach((test, c) ->
            out.println(second + "," + test + "," + name(test) + "," + c[0] + "," + c[1])));
      }
      try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve(WORKERS_CSV), StandardCharsets.UTF_8))) {
        out.println("host,worker,count,errors,datalog_count,counts_equal,problem");
        for (Worker w : workers) {
          final long d = dataLogOn ? dataLogPerWorker.getOrDefault(w.name, 0L) : -1;
          out.println(w.host + "," + w.name + "," + w.requests + "," + w.errors + "," + d + "," + (dataLogOn ? w.requests == d : "NA")
              + "," + w.problem.replace(',', ';'));
        }
      }
    } catch (IOException e) {
      throw new LifecycleException("cannot write the interval-log summary in " + dir + ": " + e.getMessage());
    }
  }

  private static String name(int test) {
    for (Operation o : Operation.values()) {
      if (o.testNumber() == test) {
        return o.label();
      }
    }
    return "test-" + test;
  }

  private static String row(String test, String name, Histogram h, long errors, long dataLogCount) {
    final StringBuilder b = new StringBuilder();
    b.append(test).append(',').append(name).append(',').append(h.getTotalCount()).append(',').append(errors);
    final boolean any = h.getTotalCount() > 0;
    b.append(',').append(any ? String.format(Locale.ROOT, "%.3f", h.getMean()) : "NA");
    b.append(',').append(any ? String.format(Locale.ROOT, "%.3f", h.getStdDeviation()) : "NA");
    b.append(',').append(any ? String.valueOf(h.getMinValue()) : "NA");
    for (double p : PERCENTILES) {
      b.append(',').append(any ? String.valueOf(h.getValueAtPercentile(p)) : "NA");
    }
    b.append(',').append(any ? String.valueOf(h.getMaxValue()) : "NA");
    b.append(',').append(dataLogCount < 0 ? "NA" : String.valueOf(dataLogCount));
    b.append(',').append(dataLogCount < 0 ? "NA" : String.valueOf(dataLogCount == h.getTotalCount()));
    return b.toString();
  }
}
