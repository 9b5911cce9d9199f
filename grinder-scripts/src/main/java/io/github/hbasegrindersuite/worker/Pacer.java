package io.github.hbasegrindersuite.worker;

import java.util.concurrent.locks.LockSupport;

/**
 * Open-model pacing for one thread: request k is intended to start at start + k / rate, where
 * start is the first call plus the thread's phase. The thread sleeps until then (outside the
 * timed call); when it is already late it goes at once, and the schedule never slips, so a
 * stall shows as lag in every request behind it ({@link IntendedStart} reads the times).
 * Rate 0 = closed loop: no pacing, no lag.
 */
public final class Pacer {
  private final long intervalNanos;
  private final long phaseNanos;
  private boolean started;
  private long nextIntended;

  public Pacer(double ratePerSecond) {
    this(ratePerSecond, 0);
  }

  /**
   * @param phase where in its first interval the schedule starts, 0 (at once) up to 1: threads
   *     that start together and are given spread phases do not send in bursts
   */
  public Pacer(double ratePerSecond, double phase) {
    if (!(phase >= 0 && phase <= 1)) {
      throw new IllegalArgumentException("phase " + phase + " is outside 0..1");
    }
    this.intervalNanos = ratePerSecond > 0 ? Math.round(1e9 / ratePerSecond) : 0;
    this.phaseNanos = Math.round(intervalNanos * phase);
  }

  public boolean enabled() {
    return intervalNanos > 0;
  }

  /**
   * The intended start of the next request (System.nanoTime scale), without waiting: a paced
   * loop that must end by a deadline stops when this is past it. The schedule starts at the
   * first call of this or {@link #awaitNext}. Unpaced: now.
   */
  public long nextIntendedStart() {
    if (intervalNanos == 0) {
      return System.nanoTime();
    }
    if (!started) {
      nextIntended = System.nanoTime() + phaseNanos;
      started = true;
    }
    return nextIntended;
  }

  /** Waits for the next intended start and returns it; unpaced, returns at once with now. */
  public long awaitNext() {
    long intended = nextIntendedStart();
    if (intervalNanos == 0) {
      return intended;
    }
    nextIntended += intervalNanos;
    long now = System.nanoTime();
    while (now < intended) {
      LockSupport.parkNanos(intended - now);
      now = System.nanoTime();
    }
    return intended;
  }
}
