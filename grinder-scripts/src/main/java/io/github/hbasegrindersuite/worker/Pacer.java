package io.github.hbasegrindersuite.worker;

import java.util.concurrent.locks.LockSupport;

/**
 * Open-model pacing for one thread: request k is intended to start at start + k / rate. The
 * thread sleeps until then (outside the timed call); when it is already late it goes at once,
 * and the lag (actual minus intended start) is reported so that latency can be measured from
 * the intended start (no coordinated omission). Rate 0 = closed loop: no pacing, lag 0.
 */
public final class Pacer {
  private final long intervalNanos;
  private long nextIntended;

  public Pacer(double ratePerSecond) {
    this.intervalNanos = ratePerSecond > 0 ? Math.round(1e9 / ratePerSecond) : 0;
  }

  public boolean enabled() {
    return intervalNanos > 0;
  }

  /** Waits for the next intended start; returns that intended start (System.nanoTime scale). */
  public long awaitNext() {
    if (intervalNanos == 0) {
      return 0;
    }
    long now = System.nanoTime();
    if (nextIntended == 0) {
      nextIntended = now;
    }
    long intended = nextIntended;
    nextIntended += intervalNanos;
    while (now < intended) {
      LockSupport.parkNanos(intended - now);
      now = System.nanoTime();
    }
    return intended;
  }
}
