package io.github.hbasegrindersuite.shim.metrics;

import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.Op;
import java.io.IOException;
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

  /** Prometheus bucket bounds: two per power of two from 8.192 µs to about 17 s (exact bucket edges). */
  static final long[] PROMETHEUS_BOUNDS_NANOS;

  static {
    List<Long> bounds = new ArrayList<>();
    for (int exponent = 13; exponent <= 34; exponent++) {
      bounds.add(1L << exponent);
      bounds.add(3L << (exponent - 1));
    }
    PROMETHEUS_BOUNDS_NANOS = bounds.stream().mapToLong(Long::longValue).toArray();
  }

  private static final Op[] OPS = Op.values();
  private static final ErrorKind[] KINDS = ErrorKind.values();

  private final Histogram[] call = new Histogram[OPS.length];
  private final Histogram[] hbase = new Histogram[OPS.length];
  private final LongAdder[][] errors = new LongAdder[OPS.length][KINDS.length];

  /** Connections accepted and served. */
  public final LongAdder connectionsAccepted = new LongAdder();
  /** Connections closed at once because shim.max.connections were open. */
  public final LongAdder connectionsRejected = new LongAdder();
  /** Requests larger than shim.max.frame.bytes (frame, message, string or list). */
  public final LongAdder oversizedRequests = new LongAdder();
  /** Requests that could not be decoded (garbage, wrong protocol or transport, truncated). */
  public final LongAdder malformedRequests = new LongAdder();
  /** Calls of a method THBaseService does not have. */
  public final LongAdder unknownMethods = new LongAdder();
  /** Scanners closed by the shim after shim.scanner.timeout.ms without use. */
  public final LongAdder scannersExpired = new LongAdder();
  /** Requests that did not arrive in full within shim.request.read.timeout.ms. */
  public final LongAdder requestTimeouts = new LongAdder();
  /** Requests refused because the memory for requests being read (shim.max.request.memory.bytes) could not hold them. */
  public final LongAdder requestsRefusedForMemory = new LongAdder();

  private volatile LongSupplier inFlight = () -> 0;
  private volatile LongSupplier openConnections = () -> 0;
  private volatile LongSupplier openScanners = () -> 0;
  private volatile LongSupplier requestMemory = () -> 0;
  /** Warnings and errors the Thrift library itself raised (counted, not logged). */
  private volatile LongSupplier thriftLibraryErrors = () -> 0;
  private final long startedMillis = System.currentTimeMillis();

  public ShimMetrics() {
    for (int i = 0; i < OPS.length; i++) {
      call[i] = new Histogram();
      hbase[i] = new Histogram();
      for (int k = 0; k < KINDS.length; k++) {
        errors[i][k] = new LongAdder();
      }
    }
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

  public void openScannersGauge(LongSupplier openScanners) {
    this.openScanners = openScanners;
  }

  public void requestMemoryGauge(LongSupplier bytes) {
    this.requestMemory = bytes;
  }

  public void thriftLibraryErrors(LongSupplier count) {
    this.thriftLibraryErrors = count;
  }

  /** The Prometheus text exposition format (version 0.0.4). */
  public String prometheus() {
    StringBuilder b = new StringBuilder(16384);
    histogramFamily(b, "thrift_shim_call_seconds",
        "Whole call in the shim: request header read to response flushed.", call);
    histogramFamily(b, "thrift_shim_hbase_seconds",
        "The HBase client call inside a shim call.", hbase);

    b.append("# HELP thrift_shim_errors_total Failed calls by operation and cause.\n");
    b.append("# TYPE thrift_shim_errors_total counter\n");
    for (Op op : OPS) {
      for (ErrorKind kind : KINDS) {
        long n = errors(op, kind);
        if (n > 0) {
          b.append("thrift_shim_errors_total{op=\"").append(op.thriftName).append("\",cause=\"")
              .append(kind.label).append("\"} ").append(n).append('\n');
        }
      }
    }
    counter(b, "thrift_shim_connections_accepted_total", "Client connections accepted.", connectionsAccepted.sum());
    counter(b, "thrift_shim_connections_rejected_total",
        "Connections closed at once because shim.max.connections were open.", connectionsRejected.sum());
    counter(b, "thrift_shim_oversized_requests_total",
        "Requests above shim.max.frame.bytes; the connection was closed.", oversizedRequests.sum());
    counter(b, "thrift_shim_malformed_requests_total",
        "Requests that could not be decoded (garbage, wrong protocol or transport); the connection was closed.",
        malformedRequests.sum());
    counter(b, "thrift_shim_unknown_method_total", "Calls of a method the thrift2 service does not have.",
        unknownMethods.sum());
    counter(b, "thrift_shim_thrift_library_errors_total",
        "Warnings and errors raised inside the Thrift library (counted instead of logged).",
        thriftLibraryErrors.getAsLong());
    counter(b, "thrift_shim_scanners_expired_total", "Scanners closed after shim.scanner.timeout.ms unused.",
        scannersExpired.sum());
    counter(b, "thrift_shim_request_timeouts_total",
        "Requests not received in full within shim.request.read.timeout.ms; the connection was closed.",
        requestTimeouts.sum());
    counter(b, "thrift_shim_requests_refused_memory_total",
        "Requests refused because the memory for requests being read (shim.max.request.memory.bytes) could not hold them.",
        requestsRefusedForMemory.sum());
    gauge(b, "thrift_shim_in_flight", "Calls in progress.", inFlight.getAsLong());
    gauge(b, "thrift_shim_open_connections", "Client connections open.", openConnections.getAsLong());
    gauge(b, "thrift_shim_open_scanners", "Scanners open.", openScanners.getAsLong());
    gauge(b, "thrift_shim_request_memory_bytes",
        "Memory requests being read hold beyond each connection's free 64 KiB (bounded by shim.max.request.memory.bytes).",
        requestMemory.getAsLong());
    gauge(b, "thrift_shim_start_time_seconds", "When the shim started (Unix time).", startedMillis / 1000);
    return b.toString();
  }

  private static void histogramFamily(StringBuilder b, String name, String help, Histogram[] hs) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" histogram\n");
    for (Op op : OPS) {
      Histogram.Snapshot s = hs[op.ordinal()].snapshot();
      if (s.count() == 0) {
        continue;
      }
      String label = "op=\"" + op.thriftName + "\"";
      for (long bound : PROMETHEUS_BOUNDS_NANOS) {
        b.append(name).append("_bucket{").append(label).append(",le=\"").append(seconds(bound))
            .append("\"} ").append(s.countBelow(bound)).append('\n');
      }
      b.append(name).append("_bucket{").append(label).append(",le=\"+Inf\"} ").append(s.count()).append('\n');
      b.append(name).append("_sum{").append(label).append("} ").append(seconds(s.sumNanos())).append('\n');
      b.append(name).append("_count{").append(label).append("} ").append(s.count()).append('\n');
    }
  }

  static String seconds(long nanos) {
    return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }

  private static void counter(StringBuilder b, String name, String help, long value) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" counter\n");
    b.append(name).append(' ').append(value).append('\n');
  }

  private static void gauge(StringBuilder b, String name, String help, long value) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" gauge\n");
    b.append(name).append(' ').append(value).append('\n');
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
