package io.github.hbasegrindersuite.worker.targets;

/**
 * How long a thread waits before it tries a server that refused it again: nothing the first
 * time, then 50 ms doubling to 1 s (never more than the call's own timeout). Without it a thread
 * whose server is down fails thousands of calls a second, burning the injector's CPU and
 * flooding the error count; HBase's own client pauses between retries in the same way.
 */
final class ReconnectBackoff {
  static final long FIRST_MS = 50;
  static final long MOST_MS = 1000;
  private final long capMs;
  private int failures;

  ReconnectBackoff(long timeoutMs) {
    this.capMs = Math.max(0, Math.min(MOST_MS, timeoutMs));
  }

  /** The wait before the next attempt: 0 after a success. */
  long delayMs() {
    if (failures == 0) {
      return 0;
    }
    final long delay = FIRST_MS << Math.min(failures - 1, 20);
    return Math.min(delay, capMs);
  }

  void failed() {
    failures++;
  }

  void succeeded() {
    failures = 0;
  }
}
