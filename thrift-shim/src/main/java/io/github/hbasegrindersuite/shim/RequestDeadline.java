package io.github.hbasegrindersuite.shim;

import org.apache.thrift.transport.TTransportException;

/**
 * When a connection's socket reads must give up. Between requests a read may wait
 * {@code shim.idle.timeout.ms}; once a request's first byte has arrived, the whole request must
 * arrive within {@code shim.request.read.timeout.ms} of it, however the bytes trickle in (the
 * idle timeout alone is per read, so one byte a minute would hold a thread for ever). A new
 * connection's first request must arrive within the same time of the connection being accepted,
 * so connections opened and left unused do not hold their slots for the idle timeout.
 */
final class RequestDeadline {

  private final long requestNanos;
  private final long requestMillis;
  private final int idleMillis;
  private boolean armed;
  private long deadlineNanos;

  /** Armed from {@code acceptedNanos}: the first request counts from the connection's start. */
  RequestDeadline(long requestMillis, int idleMillis, long acceptedNanos) {
    this.requestMillis = requestMillis;
    this.requestNanos = requestMillis * 1_000_000L;
    this.idleMillis = idleMillis;
    this.armed = true;
    this.deadlineNanos = acceptedNanos + requestNanos;
  }

  /** Bytes of a request arrived: the first of them starts the request's clock. */
  void bytesArrived() {
    if (!armed) {
      armed = true;
      deadlineNanos = System.nanoTime() + requestNanos;
    }
  }

  /** The request has been answered: until the next one starts, only the idle timeout applies. */
  void requestEnded() {
    armed = false;
  }

  /** SO_TIMEOUT for the next socket read (0 = wait for ever); throws when the request's time is up. */
  int nextReadTimeoutMillis() throws TimedOut {
    if (!armed) {
      return idleMillis;
    }
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0) {
      throw timedOut();
    }
    long leftMillis = Math.max(1, (left + 999_999) / 1_000_000);
    return (int) (idleMillis == 0 ? leftMillis : Math.min(idleMillis, leftMillis));
  }

  /** Whether a read that timed out did so because the request's time was up (not the idle timeout). */
  boolean expired() {
    return armed && deadlineNanos - System.nanoTime() <= 0;
  }

  TimedOut timedOut() {
    return new TimedOut("thrift-shim: the request did not arrive in full within shim.request.read.timeout.ms="
        + requestMillis + " ms; closing the connection");
  }

  /** The request took longer than shim.request.read.timeout.ms to arrive. */
  static final class TimedOut extends TTransportException {
    private static final long serialVersionUID = 1L;

    TimedOut(String message) {
      super(TTransportException.TIMED_OUT, message);
    }
  }
}
