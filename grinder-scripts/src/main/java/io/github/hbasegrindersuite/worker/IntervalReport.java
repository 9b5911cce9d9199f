package io.github.hbasegrindersuite.worker;

/**
 * A RequestReport that also records each request's witness in the worker's {@link IntervalLog},
 * after the report it wraps (Grinder's statistics: the data log) has taken it, so both count the
 * same requests.
 */
final class IntervalReport implements RequestReport {
  private final RequestReport inner;
  private final IntervalLog log;

  IntervalReport(RequestReport inner, IntervalLog log) {
    this.inner = inner;
    this.log = log;
  }

  @Override
  public void request(long witnessMicros, long lagMicros, boolean success) {
    throw new IllegalStateException("IntervalReport needs the operation: call request(operation, ...)");
  }

  /** A scan's rows go to the report it wraps (the data log's Rows column); the interval log keeps only times. */
  @Override
  public void rows(long rows) {
    inner.rows(rows);
  }

  @Override
  public void request(Operation operation, long witnessMicros, long lagMicros, boolean success) {
    inner.request(operation, witnessMicros, lagMicros, success);
    log.record(operation.testNumber(), witnessMicros, success);
  }
}
