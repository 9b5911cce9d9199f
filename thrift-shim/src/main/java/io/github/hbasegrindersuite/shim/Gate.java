package io.github.hbasegrindersuite.shim;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission for calls: at most {@code shim.max.inflight} in progress; one more fails at once
 * (no queue) with an "overloaded" error the client may retry. After SIGTERM the gate drains:
 * new calls fail with "shutting down" while the ones in progress finish.
 */
public final class Gate {

  private final AtomicInteger inFlight = new AtomicInteger();
  private final int max;
  private volatile boolean draining;

  public Gate(int max) {
    this.max = max;
  }

  /** Admits a call or throws; every successful enter must be paired with {@link #exit}. */
  public void enter() throws Errors.ShimException {
    if (draining) {
      throw new Errors.ShimException(ErrorKind.SHUTTING_DOWN,
          "thrift-shim is shutting down: not taking new calls; retry on another instance or after restart");
    }
    if (inFlight.incrementAndGet() > max) {
      inFlight.decrementAndGet();
      throw new Errors.ShimException(ErrorKind.OVERLOADED, "thrift-shim overloaded: " + max
          + " calls already in progress (shim.max.inflight); retry later");
    }
  }

  public void exit() {
    inFlight.decrementAndGet();
  }

  public int inFlight() {
    return inFlight.get();
  }

  public int max() {
    return max;
  }

  public void drain() {
    draining = true;
  }

  public boolean draining() {
    return draining;
  }
}
