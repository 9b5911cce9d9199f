package io.github.hbasegrindersuite.shim;

import org.apache.thrift.transport.TTransportException;

/**
 * Where one connection of the thread-pool server is in its request cycle, and since when: waiting
 * for its first request ({@link Phase#NEW}), reading a request ({@link Phase#READING}), in a call
 * ({@link Phase#CALL}: the request has arrived in full and is being served and answered), or idle
 * between requests ({@link Phase#IDLE}). Two things follow from it:
 * <ul>
 * <li>how long the connection's next socket read may wait. Between requests:
 *     {@code shim.idle.timeout.ms}. Once a request's first byte has arrived, the whole request
 *     must arrive within {@code shim.request.read.timeout.ms} of it, however the bytes trickle in
 *     (the idle timeout alone is per read, so one byte a minute would hold a thread for ever). A
 *     new connection's first request counts from the connection's start, so connections opened
 *     and left unused do not hold their slots for the idle timeout;</li>
 * <li>whether it may be closed to make room at the connection limit ({@link ConnectionSlots}):
 *     only while it waits for bytes (new, reading, idle), never in a call.</li>
 * </ul>
 * The connection's own thread moves it along; the acceptor only reads it and may evict it. A
 * transition and an eviction exclude each other (both synchronized), so a request that has just
 * arrived in full is either served or its connection was evicted first, never both.
 */
final class RequestCycle {

  enum Phase {
    /** Accepted; no byte of a request yet. */
    NEW,
    /** A request's bytes are arriving. */
    READING,
    /** The request arrived in full: it is being served and answered. */
    CALL,
    /** Answered; waiting for the next request. */
    IDLE,
    /** Closed by the acceptor to make room for a new connection. */
    EVICTED;

    /** Waiting for a request's bytes that have not come: the first to make room. */
    boolean stalled() {
      return this == NEW || this == READING;
    }
  }

  private final long requestNanos;
  private final long requestMillis;
  private final int idleMillis;
  private volatile Phase phase = Phase.NEW;
  /** NEW, READING: when the request's clock started; IDLE: when the last answer went out. */
  private volatile long sinceNanos;

  /** A connection accepted at {@code acceptedNanos}: its first request counts from then. */
  RequestCycle(long requestMillis, int idleMillis, long acceptedNanos) {
    this.requestMillis = requestMillis;
    this.requestNanos = requestMillis * 1_000_000L;
    this.idleMillis = idleMillis;
    this.sinceNanos = acceptedNanos;
  }

  Phase phase() {
    return phase;
  }

  long sinceNanos() {
    return sinceNanos;
  }

  /** Bytes arrived: after an idle spell they start a request, and its clock. */
  void bytesArrived() {
    Phase p = phase;
    if (p == Phase.READING || p == Phase.CALL || p == Phase.EVICTED) {
      return; // the common case costs one volatile read
    }
    synchronized (this) {
      if (phase == Phase.IDLE) {
        sinceNanos = System.nanoTime();
        phase = Phase.READING;
      } else if (phase == Phase.NEW) {
        phase = Phase.READING; // the first request's clock started at the accept
      }
    }
  }

  /** The request has arrived in full: it is served, unless the connection was evicted just before. */
  synchronized void requestRead() throws Evicted {
    if (phase == Phase.EVICTED) {
      throw new Evicted();
    }
    phase = Phase.CALL;
  }

  /**
   * The request has been answered (or refused): until the next one starts, only the idle timeout
   * applies. Bytes already buffered belong to the next request, whose clock starts now.
   */
  synchronized void requestEnded(boolean nextRequestStarted, long nowNanos) {
    if (phase == Phase.EVICTED) {
      return; // its next read fails: the socket is closed
    }
    sinceNanos = nowNanos;
    phase = nextRequestStarted ? Phase.READING : Phase.IDLE;
  }

  /**
   * For the acceptor: closes nothing itself, but marks the connection evicted when it may make
   * room, that is when it has waited at least {@code minWaitNanos} for bytes (a new or partial
   * request, or idle between requests). Returns the phase it was evicted from, or null.
   */
  synchronized Phase tryEvict(long nowNanos, long minWaitNanos) {
    Phase p = phase;
    if (p == Phase.CALL || p == Phase.EVICTED || nowNanos - sinceNanos < minWaitNanos) {
      return null;
    }
    phase = Phase.EVICTED;
    return p;
  }

  /** SO_TIMEOUT for the next socket read (0 = wait for ever); throws when the request's time is up. */
  int nextReadTimeoutMillis(long nowNanos) throws TTransportException {
    Phase p = phase;
    if (p == Phase.EVICTED) {
      throw new Evicted();
    }
    if (!p.stalled()) {
      return idleMillis;
    }
    long left = sinceNanos + requestNanos - nowNanos;
    if (left <= 0) {
      throw timedOut();
    }
    long leftMillis = Math.max(1, (left + 999_999) / 1_000_000);
    return (int) (idleMillis == 0 ? leftMillis : Math.min(idleMillis, leftMillis));
  }

  /** Whether a read that timed out did so because the request's time was up (not the idle timeout). */
  boolean expired(long nowNanos) {
    return phase.stalled() && sinceNanos + requestNanos - nowNanos <= 0;
  }

  TimedOut timedOut() {
    return new TimedOut("thrift-shim: the request did not arrive in full within shim.request.read.timeout.ms="
        + requestMillis + " ms; closing the connection", phase == Phase.NEW);
  }

  IdleTimedOut idleTimedOut() {
    return new IdleTimedOut("idle connection closed after shim.idle.timeout.ms=" + idleMillis + " ms");
  }

  /** The request took longer than shim.request.read.timeout.ms to arrive. */
  static final class TimedOut extends TTransportException {
    private static final long serialVersionUID = 1L;
    /** Not one byte of a request had arrived (a connection opened and left unused). */
    final boolean nothingArrived;

    TimedOut(String message, boolean nothingArrived) {
      super(TTransportException.TIMED_OUT, message);
      this.nothingArrived = nothingArrived;
    }
  }

  /** No request for shim.idle.timeout.ms after the last answer. */
  static final class IdleTimedOut extends TTransportException {
    private static final long serialVersionUID = 1L;

    IdleTimedOut(String message) {
      super(TTransportException.TIMED_OUT, message);
    }
  }

  /** The acceptor closed the connection to make room for a new one. */
  static final class Evicted extends TTransportException {
    private static final long serialVersionUID = 1L;

    Evicted() {
      super(TTransportException.END_OF_FILE, "connection closed to make room at shim.max.connections");
    }
  }
}
