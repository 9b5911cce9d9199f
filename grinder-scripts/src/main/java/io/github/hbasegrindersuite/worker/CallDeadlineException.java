package io.github.hbasegrindersuite.worker;

/** A target call the {@link CallWatchdog} cut because the client did not end it in time. */
public final class CallDeadlineException extends Exception {
  private static final long serialVersionUID = 1L;

  CallDeadlineException(long deadlineMs, long timeoutMs, Throwable cause) {
    super("no answer within " + deadlineMs + " ms (hbaseload.timeout.ms=" + timeoutMs + "): the suite interrupted the call", cause);
  }
}
