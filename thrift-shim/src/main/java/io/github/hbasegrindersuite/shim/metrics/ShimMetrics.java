package io.github.hbasegrindersuite.shim.metrics;

import io.github.hbasegrindersuite.shim.CloseReason;
import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.Op;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the shim measures, kept apart from how it is exported. Per operation: the whole call in
 * the shim ({@code call}: from the moment the request's message header is read until the
 * response is flushed to the socket, so Thrift decoding and encoding are included) and the HBase
 * client call inside it ({@code hbase}). A client's own timing minus {@code call} is the
 * client-to-shim time (network, client library); {@code call} minus {@code hbase} is the shim's
 * own time. Errors are counted by operation and cause; nothing is logged per request.
 */
public final class ShimMetrics {

  /** The suite's naming scheme, shared with the console's live endpoint (hbasegrinder_console_). */
  public static final String PREFIX = "hbasegrinder_shim_";
  public static final String CALL = PREFIX + "call_seconds";
  public static final String HBASE = PREFIX + "hbase_seconds";
  public static final String CALL_QUANTILE = PREFIX + "call_quantile_seconds";
  public static final String HBASE_QUANTILE = PREFIX + "hbase_quantile_seconds";
  /** The quantiles served as gauges. */
  static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};

  /**
   * Prometheus bucket bounds: four per power of two (x1, x1.25, x1.5, x1.75) from 8.192 µs to
   * about 30 s, each an exact bucket edge of the HdrHistogram, so the counts are exact; at most
   * 25% wide, for histogram_quantile over a window in Grafana.
   */
  static final long[] PROMETHEUS_BOUNDS_NANOS;

  static {
    List<Long> bounds = new ArrayList<>();
    for (int exponent = 13; exponent <= 34; exponent++) {
      for (long quarter = 4; quarter < 8; quarter++) {
        bounds.add(quarter << (exponent - 2));
      }
    }
    PROMETHEUS_BOUNDS_NANOS = bounds.stream().mapToLong(Long::longValue).toArray();
  }

  private static final PrometheusTextFormatWriter TEXT = PrometheusTextFormatWriter.create();

  private static final Op[] OPS = Op.values();
  private static final ErrorKind[] KINDS = ErrorKind.values();
  private static final CloseReason[] CLOSE_REASONS = CloseReason.values();

  private final Histogram[] call = new Histogram[OPS.length];
  private final Histogram[] hbase = new Histogram[OPS.length];
  private final LongAdder[][] errors = new LongAdder[OPS.length][KINDS.length];

  /** Connections accepted and served. */
  public final LongAdder connectionsAccepted = new LongAdder();
  /** New connections closed at once: shim.max.connections were open and none made room in time. */
  public final LongAdder connectionsRejected = new LongAdder();
  private final LongAdder[] connectionsClosed = new LongAdder[CLOSE_REASONS.length];
  /** Requests larger than shim.max.frame.bytes (frame, message, string or list). */
  public final LongAdder oversizedRequests = new LongAdder();
  /** Requests that could not be decoded (garbage, wrong protocol or transport, truncated). */
  public final LongAdder malformedRequests = new LongAdder();
  /** Calls of a method THBaseService does not have. */
  public final LongAdder unknownMethods = new LongAdder();
  /** Scanners closed by the shim after shim.scanner.timeout.ms without use. */
  public final LongAdder scannersExpired = new LongAdder();
  /** Requests refused because the memory for requests being read (shim.max.request.memory.bytes) could not hold them. */
  public final LongAdder requestsRefusedForMemory = new LongAdder();

  private volatile LongSupplier inFlight = () -> 0;
  private volatile LongSupplier openConnections = () -> 0;
  /** The thread-pool server's connections by phase (new, reading, call, idle); none for the nonblocking server. */
  private volatile java.util.function.Supplier<java.util.Map<String, Long>> connectionPhases = java.util.Map::of;
  private volatile LongSupplier openScanners = () -> 0;
  private volatile LongSupplier requestMemory = () -> 0;
  /** Warnings and errors the Thrift library itself raised (counted, not logged). */
  private volatile LongSupplier thriftLibraryErrors = () -> 0;
  private final long startedMillis = System.currentTimeMillis();
  private final PrometheusRegistry registry;

  public ShimMetrics() {
    for (int i = 0; i < OPS.length; i++) {
      call[i] = new Histogram();
      hbase[i] = new Histogram();
      for (int k = 0; k < KINDS.length; k++) {
        errors[i][k] = new LongAdder();
      }
    }
    for (int i = 0; i < CLOSE_REASONS.length; i++) {
      connectionsClosed[i] = new LongAdder();
    }
    registry = buildRegistry();
  }

  public void recordCall(Op op, long nanos) {
    call[op.ordinal()].record(nanos);
  }

  public void recordHBase(Op op, long nanos) {
    hbase[op.ordinal()].record(nanos);
  }

  public void error(Op op, ErrorKind kind) {
    errors[op.ordinal()][kind.ordinal()].increment();
  }

  public Histogram.Snapshot callSnapshot(Op op) {
    return call[op.ordinal()].snapshot();
  }

  public Histogram.Snapshot hbaseSnapshot(Op op) {
    return hbase[op.ordinal()].snapshot();
  }

  public long errors(Op op, ErrorKind kind) {
    return errors[op.ordinal()][kind.ordinal()].sum();
  }

  /** The shim closed a connection the client had not closed. */
  public void connectionClosed(CloseReason reason) {
    connectionsClosed[reason.ordinal()].increment();
  }

  public long connectionsClosed(CloseReason reason) {
    return connectionsClosed[reason.ordinal()].sum();
  }

  public long errors(ErrorKind kind) {
    long sum = 0;
    for (Op op : OPS) {
      sum += errors(op, kind);
    }
    return sum;
  }

  public void inFlightGauge(LongSupplier inFlight) {
    this.inFlight = inFlight;
  }

  public void openConnectionsGauge(LongSupplier openConnections) {
    this.openConnections = openConnections;
  }

  public void connectionPhasesGauge(java.util.function.Supplier<java.util.Map<String, Long>> phases) {
    this.connectionPhases = phases;
  }

  public void openScannersGauge(LongSupplier openScanners) {
    this.openScanners = openScanners;
  }

  public void requestMemoryGauge(LongSupplier bytes) {
    this.requestMemory = bytes;
  }

  public void thriftLibraryErrors(LongSupplier count) {
    this.thriftLibraryErrors = count;
  }

  /** The Prometheus text exposition format (version 0.0.4), written by the Prometheus client. */
  public String prometheus() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16384);
    try {
      TEXT.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Every family /metrics serves, read from this object at scrape time. */
  private PrometheusRegistry buildRegistry() {
    PrometheusRegistry r = new PrometheusRegistry();
    r.register(histogramFamily(CALL, "Whole call in the shim: request header read to response flushed.", call));
    r.register(histogramFamily(HBASE, "The HBase client call inside a shim call.", hbase));
    r.register(quantileFamily(CALL_QUANTILE, "Whole call in the shim, nearest-rank quantiles since the shim "
        + "started (HdrHistogram, within 1%).", call));
    r.register(quantileFamily(HBASE_QUANTILE, "The HBase client call, nearest-rank quantiles since the shim "
        + "started (HdrHistogram, within 1%).", hbase));
    CounterWithCallback.builder().name(PREFIX + "errors_total").help("Failed calls by operation and cause.")
        .labelNames("operation", "cause").callback(cb -> {
          for (Op op : OPS) {
            for (ErrorKind kind : KINDS) {
              long n = errors(op, kind);
              if (n > 0) {
                cb.call(n, op.thriftName, kind.label);
              }
            }
          }
        }).register(r);
    counter(r, "connections_accepted_total", "Client connections accepted.", connectionsAccepted::sum);
    counter(r, "connections_rejected_total", "New connections closed at once: shim.max.connections were open"
        + " and none made room within shim.accept.wait.ms.", connectionsRejected::sum);
    CounterWithCallback.builder().name(PREFIX + "connections_closed_total")
        .help("Connections the shim closed, by reason: a request not arrived in full in time (request_timeout),"
            + " nothing sent in time (no_request), idle too long (idle_timeout), closed at the connection limit"
            + " to make room (evicted_stalled, evicted_idle).")
        .labelNames("reason").callback(cb -> {
          for (CloseReason reason : CLOSE_REASONS) {
            cb.call(connectionsClosed(reason), reason.label);
          }
        }).register(r);
    counter(r, "oversized_requests_total",
        "Requests above shim.max.frame.bytes; the connection was closed.", oversizedRequests::sum);
    counter(r, "malformed_requests_total",
        "Requests that could not be decoded (garbage, wrong protocol or transport); the connection was closed.",
        malformedRequests::sum);
    counter(r, "unknown_method_total", "Calls of a method the thrift2 service does not have.", unknownMethods::sum);
    counter(r, "thrift_library_errors_total",
        "Warnings and errors raised inside the Thrift library (counted instead of logged).",
        () -> thriftLibraryErrors.getAsLong());
    counter(r, "scanners_expired_total", "Scanners closed after shim.scanner.timeout.ms unused.", scannersExpired::sum);
    counter(r, "requests_refused_memory_total",
        "Requests refused because the memory for requests being read (shim.max.request.memory.bytes) could not hold them.",
        requestsRefusedForMemory::sum);
    gauge(r, "in_flight", "Calls in progress.", () -> inFlight.getAsLong());
    gauge(r, "open_connections", "Client connections open.", () -> openConnections.getAsLong());
    GaugeWithCallback.builder().name(PREFIX + "connections")
        .help("Open connections of the thread-pool server by where each is in its request cycle: no request yet (new),"
            + " a request arriving (reading), in a call (call), idle between requests (idle). A slow or hostile"
            + " client shows as new or reading.")
        .labelNames("phase").callback(cb -> connectionPhases.get().forEach((phase, n) -> cb.call(n, phase))).register(r);
    gauge(r, "open_scanners", "Scanners open.", () -> openScanners.getAsLong());
    gauge(r, "request_memory_bytes",
        "Memory requests being read hold beyond each connection's free 64 KiB (bounded by shim.max.request.memory.bytes).",
        () -> requestMemory.getAsLong());
    gauge(r, "start_time_seconds", "When the shim started (Unix time).", () -> startedMillis / 1000);
    return r;
  }

  /** A classic histogram per operation with traffic, its buckets counted from the HdrHistogram. */
  private static Collector histogramFamily(String name, String help, Histogram[] hs) {
    return () -> {
      HistogramSnapshot.Builder family = HistogramSnapshot.builder().name(name).help(help);
      for (Op op : OPS) {
        Histogram.Snapshot s = hs[op.ordinal()].snapshot();
        if (s.count() == 0) {
          continue;
        }
        double[] bounds = new double[PROMETHEUS_BOUNDS_NANOS.length + 1];
        long[] counts = new long[bounds.length];
        long below = 0;
        for (int i = 0; i < PROMETHEUS_BOUNDS_NANOS.length; i++) {
          long upTo = s.countBelow(PROMETHEUS_BOUNDS_NANOS[i]);
          bounds[i] = PROMETHEUS_BOUNDS_NANOS[i] / 1e9;
          counts[i] = upTo - below;
          below = upTo;
        }
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        counts[counts.length - 1] = s.count() - below;
        family.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
            .labels(Labels.of("operation", op.thriftName))
            .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
            .sum(s.sumNanos() / 1e9).build());
      }
      return family.build();
    };
  }

  /** Quantile gauges per operation with traffic (the Prometheus buckets are too coarse for 1%). */
  private static Collector quantileFamily(String name, String help, Histogram[] hs) {
    return () -> {
      GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help);
      for (Op op : OPS) {
        Histogram.Snapshot s = hs[op.ordinal()].snapshot();
        if (s.count() == 0) {
          continue;
        }
        for (double q : QUANTILES) {
          family.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
              .labels(Labels.of("operation", op.thriftName, "quantile", Double.toString(q)))
              .value(s.percentileNanos(q * 100) / 1e9).build());
        }
      }
      return family.build();
    };
  }

  static String seconds(long nanos) {
    return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }

  private static void counter(PrometheusRegistry r, String name, String help, LongSupplier value) {
    CounterWithCallback.builder().name(PREFIX + name).help(help).callback(cb -> cb.call(value.getAsLong())).register(r);
  }

  private static void gauge(PrometheusRegistry r, String name, String help, LongSupplier value) {
    GaugeWithCallback.builder().name(PREFIX + name).help(help).callback(cb -> cb.call(value.getAsLong())).register(r);
  }

  /**
   * One row per operation and stage (call, hbase) that saw traffic, microseconds, nearest-rank
   * percentiles, plus the errors of the operation on its call row. This is what a report reads
   * to split client-to-shim time from shim-to-HBase time.
   */
  public String summaryCsv() {
    StringBuilder b = new StringBuilder();
    b.append("op,stage,count,errors,mean_us,p50_us,p90_us,p95_us,p99_us,p999_us,max_us\n");
    for (Op op : OPS) {
      long errs = 0;
      for (ErrorKind kind : KINDS) {
        errs += errors(op, kind);
      }
      Histogram.Snapshot c = callSnapshot(op);
      Histogram.Snapshot h = hbaseSnapshot(op);
      if (c.count() > 0 || errs > 0) {
        row(b, op, "call", c, errs);
      }
      if (h.count() > 0) {
        row(b, op, "hbase", h, 0);
      }
    }
    return b.toString();
  }

  private static void row(StringBuilder b, Op op, String stage, Histogram.Snapshot s, long errors) {
    b.append(op.thriftName).append(',').append(stage).append(',').append(s.count()).append(',').append(errors);
    b.append(',').append(String.format(Locale.ROOT, "%.1f", s.meanNanos() / 1000.0));
    for (double p : new double[] {50, 90, 95, 99, 99.9}) {
      b.append(',').append(String.format(Locale.ROOT, "%.1f", s.percentileNanos(p) / 1000.0));
    }
    b.append(',').append(String.format(Locale.ROOT, "%.1f", s.maxNanos() / 1000.0)).append('\n');
  }

  /**
   * Writes the Prometheus text to {@code file} and the CSV summary beside it ({@code .csv}
   * replacing the extension), each through a temporary file and a rename.
   */
  public void writeFiles(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    writeAtomically(file, prometheus());
    writeAtomically(csvPathFor(file), summaryCsv());
  }

  public static Path csvPathFor(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String base = dot > 0 ? name.substring(0, dot) : name;
    return file.resolveSibling(base + ".csv");
  }

  private static void writeAtomically(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
