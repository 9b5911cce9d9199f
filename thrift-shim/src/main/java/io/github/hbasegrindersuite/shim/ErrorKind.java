package io.github.hbasegrindersuite.shim;

/** Why a call failed: the label of the shim_errors_total counter, one per distinct cause. */
public enum ErrorKind {
  /** The table does not exist (TableNotFoundException). */
  TABLE_NOT_FOUND("table_not_found"),
  /** A column family the request names does not exist. */
  NO_SUCH_FAMILY("no_such_family"),
  /** The request cannot be served as sent (bad table name, empty put, bad filter, ...). */
  INVALID_REQUEST("invalid_request"),
  /** HBase refused the call and says retrying will not help. */
  HBASE_DO_NOT_RETRY("hbase_do_not_retry"),
  /** HBase failed or timed out; retrying may help. */
  HBASE_IO("hbase_io"),
  /** More than shim.max.inflight calls were in progress. */
  OVERLOADED("overloaded"),
  /** The shim is draining after SIGTERM. */
  SHUTTING_DOWN("shutting_down"),
  /** An Admin API call while shim.admin.enabled=false. */
  ADMIN_REFUSED("admin_refused"),
  /** getScannerRows/closeScanner with an id that is not open. */
  UNKNOWN_SCANNER("unknown_scanner"),
  /** openScanner while shim.scanner.max scanners are open. */
  TOO_MANY_SCANNERS("too_many_scanners"),
  /** A table name beyond the shim.max.table.names distinct names the shim keeps. */
  TOO_MANY_TABLE_NAMES("too_many_table_names"),
  /** A bug in the shim; the client gets the exception's class and message. */
  INTERNAL("internal");

  public final String label;

  ErrorKind(String label) {
    this.label = label;
  }
}
