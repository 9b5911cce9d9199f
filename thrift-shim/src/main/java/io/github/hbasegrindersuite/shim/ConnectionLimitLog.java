package io.github.hbasegrindersuite.shim;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What happened at the connection limit, in the log at most once per interval: the first event
 * at once, then one line per interval saying how many connections were closed to make room
 * (stalled, idle) and how many new ones were refused since the last line. A flood of connections
 * thus writes a line every few seconds, not one per connection; every event is also counted on
 * /metrics, including those after the last line.
 */
final class ConnectionLimitLog {

  static final long INTERVAL_MILLIS = 10_000;

  private final String limit;
  private final long intervalNanos;
  private final Consumer<String> sink;
  private long lastLineNanos;
  private boolean logged;
  private long stalled;
  private long idle;
  private long refused;

  ConnectionLimitLog(int maxConnections, long acceptWaitMillis, long intervalMillis, Consumer<String> sink) {
    this.limit = "shim.max.connections=" + maxConnections + " (shim.accept.wait.ms=" + acceptWaitMillis + ")";
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    this.sink = sink;
  }

  synchronized void evicted(boolean wasStalled, long nowNanos) {
    if (wasStalled) {
      stalled++;
    } else {
      idle++;
    }
    maybeLog(nowNanos);
  }

  synchronized void refused(long nowNanos) {
    refused++;
    maybeLog(nowNanos);
  }

  private void maybeLog(long nowNanos) {
    if (logged && nowNanos - lastLineNanos < intervalNanos) {
      return;
    }
    sink.accept(String.format("at the connection limit %s: %d stalled and %d idle connections closed to make"
            + " room, %d new connections refused%s (logged at most every %d s; counted on /metrics)",
        limit, stalled, idle, refused, logged ? " in the last " + TimeUnit.NANOSECONDS.toSeconds(nowNanos - lastLineNanos) + " s" : "",
        TimeUnit.NANOSECONDS.toSeconds(intervalNanos)));
    logged = true;
    lastLineNanos = nowNanos;
    stalled = 0;
    idle = 0;
    refused = 0;
  }
}
