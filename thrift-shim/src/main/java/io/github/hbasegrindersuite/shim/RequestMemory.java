package io.github.hbasegrindersuite.shim;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.transport.TTransportException;

/**
 * The memory that requests being read and decoded may hold, all connections together
 * ({@code shim.max.request.memory.bytes}). A connection charges its {@link Account} as its
 * request's buffers grow with the bytes that arrive and as decoding creates objects; the account
 * is emptied when the request has been answered. Each connection's first
 * {@link #FREE_PER_CONNECTION} bytes are free, so a small request never waits on what large ones
 * hold; the rest comes from the shared budget, and a request that cannot get it is refused
 * rather than queued (a queue would let slow clients hold everyone else).
 */
final class RequestMemory {

  /**
   * What a connection may hold without asking the shared budget: 512 connections (the default
   * shim.max.connections) x 64 KiB = 32 MiB, which the budget's default leaves room for.
   */
  static final long FREE_PER_CONNECTION = 64 * 1024;

  private final long limit;
  private final AtomicLong used = new AtomicLong();

  RequestMemory(long limit) {
    this.limit = limit;
  }

  long limit() {
    return limit;
  }

  /** Bytes taken from the shared budget now (what the free allowances hold is not counted). */
  long used() {
    return used.get();
  }

  Account account() {
    return new Account();
  }

  private boolean tryTake(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > limit) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /**
   * One connection's charges for its current request. Used by one thread at a time (the
   * connection's), so it needs no locking of its own.
   */
  final class Account {
    private long charged;
    private long taken;

    /** Charges bytes the request is about to hold; throws {@link Exhausted} instead of exceeding the budget. */
    void charge(long bytes) throws Exhausted {
      long total = charged + bytes;
      long needed = Math.max(0, total - FREE_PER_CONNECTION);
      if (needed > taken) {
        if (needed > limit) {
          throw new Exhausted(false, "thrift-shim: the request needs more than shim.max.request.memory.bytes="
              + limit + " bytes to be read and decoded");
        }
        if (!tryTake(needed - taken)) {
          throw new Exhausted(true, "thrift-shim busy: requests being read already hold " + used.get() + " of "
              + limit + " bytes (shim.max.request.memory.bytes); retry later");
        }
        taken = needed;
      }
      charged = total;
    }

    /** What this connection's request holds now, free allowance included. */
    long charged() {
      return charged;
    }

    /** The request has been answered (or the connection ends): its memory goes back. */
    void endRequest() {
      if (taken > 0) {
        used.addAndGet(-taken);
      }
      taken = 0;
      charged = 0;
    }
  }

  /**
   * A request refused for memory: {@code retryable} when other requests hold the budget (the
   * same request may pass later), not when this request alone needs more than all of it.
   */
  static final class Exhausted extends TTransportException {
    private static final long serialVersionUID = 1L;
    final boolean retryable;

    Exhausted(boolean retryable, String message) {
      super(TTransportException.UNKNOWN, message);
      this.retryable = retryable;
    }
  }
}
