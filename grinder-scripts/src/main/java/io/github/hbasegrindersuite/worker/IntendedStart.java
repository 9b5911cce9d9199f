package io.github.hbasegrindersuite.worker;

/**
 * The suite's one rule for latency under paced load, wrk2's (src/wrk.c): a request's latency
 * counts from its intended start -- when the {@link Pacer}'s schedule said it should begin --
 * to its end, so a stall that delays the requests behind it is counted in each of them (no
 * coordinated omission). The time from the actual start is kept apart and called uncorrected
 * wherever it is shown for paced load (wrk2's -U).
 *
 * <p>With times on the System.nanoTime scale: the intended start (the schedule's; when
 * unpaced, the actual start), the actual start (where the witness begins) and the end.
 * <ul>
 * <li>lag = actual start - intended start: the data log's 'Lag (us)' ({@link Driver})</li>
 * <li>uncorrected latency = end - actual start: the witness, 'Witness (us)'</li>
 * <li>latency from the intended start = end - intended start = lag + witness; in a Grinder
 *   data log, Lag + Test time (r-analysis's intended_us)</li>
 * </ul>
 * Closed loop (unpaced), the lag is 0 and both latencies are the witness.
 */
public final class IntendedStart {

  private IntendedStart() {
  }

  /** How late a request started against its schedule, in whole microseconds. */
  public static long lagMicros(long intendedStartNanos, long actualStartNanos) {
    return (actualStartNanos - intendedStartNanos) / 1000;
  }

  /** Latency from the intended start, from what a {@link RequestReport} is given. */
  public static long latencyMicros(long lagMicros, long witnessMicros) {
    return lagMicros + witnessMicros;
  }
}
