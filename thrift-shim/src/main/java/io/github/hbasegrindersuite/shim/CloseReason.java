package io.github.hbasegrindersuite.shim;

/**
 * Why the thread-pool server closed a connection the client had not closed: the label of
 * {@code hbasegrinder_shim_connections_closed_total}. Refusals of new connections are counted
 * apart ({@code connections_rejected_total}); bad requests by their own counters.
 */
public enum CloseReason {
  /** A request's first byte arrived, the rest did not within shim.request.read.timeout.ms. */
  REQUEST_TIMEOUT("request_timeout"),
  /** A new connection sent no byte within shim.request.read.timeout.ms. */
  NO_REQUEST("no_request"),
  /** No request for shim.idle.timeout.ms after the last answer. */
  IDLE_TIMEOUT("idle_timeout"),
  /** Closed at the connection limit to make room: it was waiting for a request's bytes. */
  EVICTED_STALLED("evicted_stalled"),
  /** Closed at the connection limit to make room: it was idle between requests. */
  EVICTED_IDLE("evicted_idle");

  public final String label;

  CloseReason(String label) {
    this.label = label;
  }
}
