package io.github.hbasegrindersuite.shim;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TIllegalArgument;

/**
 * Maps whatever a call threw to the Thrift error a stock thrift2 client receives: a
 * {@link TIOError} (the exception every data-path method declares) with a one-line message
 * naming the cause and {@code canRetry} telling whether retrying can help. The cause's kind
 * labels the error counter. Nothing here logs.
 */
public final class Errors {

  /** Longest message sent back; HBase's retry summaries can run to kilobytes. */
  static final int MAX_MESSAGE = 1000;

  private Errors() {
  }

  /** The kind of failure a throwable stands for (looking through wrappers). */
  public static ErrorKind classify(Throwable t) {
    for (Throwable c = t; c != null; c = next(c)) {
      if (c instanceof ShimException) {
        return ((ShimException) c).kind;
      }
      if (c instanceof TableNotFoundException) {
        return ErrorKind.TABLE_NOT_FOUND;
      }
      if (c instanceof NoSuchColumnFamilyException) {
        return ErrorKind.NO_SUCH_FAMILY;
      }
    }
    if (t instanceof IllegalArgumentException) {
      return ErrorKind.INVALID_REQUEST;
    }
    if (t instanceof DoNotRetryIOException) {
      // HBase wraps client-side validation failures (no columns in a Put, ...) this way
      Throwable cause = t.getCause();
      return cause instanceof IllegalArgumentException ? ErrorKind.INVALID_REQUEST : ErrorKind.HBASE_DO_NOT_RETRY;
    }
    if (t instanceof RetriesExhaustedWithDetailsException) {
      RetriesExhaustedWithDetailsException r = (RetriesExhaustedWithDetailsException) t;
      return r.mayHaveClusterIssues() ? ErrorKind.HBASE_IO : ErrorKind.HBASE_DO_NOT_RETRY;
    }
    if (t instanceof java.io.IOException) {
      return ErrorKind.HBASE_IO;
    }
    return ErrorKind.INTERNAL;
  }

  /** Walks causes, including the per-action causes of a batch failure. */
  private static Throwable next(Throwable c) {
    if (c instanceof RetriesExhaustedWithDetailsException) {
      RetriesExhaustedWithDetailsException r = (RetriesExhaustedWithDetailsException) c;
      if (r.getNumExceptions() > 0) {
        return r.getCause(0);
      }
    }
    Throwable next = c.getCause();
    return next == c ? null : next;
  }

  /** Whether a client may usefully retry after this kind of failure. */
  public static boolean canRetry(ErrorKind kind) {
    switch (kind) {
      case HBASE_IO:
      case OVERLOADED:
      case SHUTTING_DOWN:
      case TOO_MANY_SCANNERS:
        return true;
      default:
        return false;
    }
  }

  /** The TIOError for a failure of the given kind. */
  public static TIOError tioError(ErrorKind kind, Throwable t) {
    TIOError e = new TIOError();
    e.setMessage(message(kind, t));
    e.setCanRetry(canRetry(kind));
    return e;
  }

  public static TIllegalArgument illegalArgument(String message) {
    TIllegalArgument e = new TIllegalArgument();
    e.setMessage(message);
    return e;
  }

  /** A one-line message: what went wrong, in the shim's words where it knows them. */
  static String message(ErrorKind kind, Throwable t) {
    if (t instanceof ShimException) {
      return truncate(t.getMessage());
    }
    Throwable specific = find(t, kind);
    String detail = firstLine(specific);
    switch (kind) {
      case TABLE_NOT_FOUND:
        return truncate("table does not exist: " + detail);
      case NO_SUCH_FAMILY:
        return truncate("column family does not exist: " + detail);
      case INVALID_REQUEST:
        return truncate("invalid request: " + detail);
      case INTERNAL:
        return truncate("thrift-shim internal error: " + specific.getClass().getName() + ": " + detail);
      default:
        return truncate(specific.getClass().getSimpleName() + ": " + detail);
    }
  }

  private static Throwable find(Throwable t, ErrorKind kind) {
    for (Throwable c = t; c != null; c = next(c)) {
      if ((kind == ErrorKind.TABLE_NOT_FOUND && c instanceof TableNotFoundException)
          || (kind == ErrorKind.NO_SUCH_FAMILY && c instanceof NoSuchColumnFamilyException)) {
        return c;
      }
    }
    if (kind == ErrorKind.INVALID_REQUEST && t instanceof DoNotRetryIOException && t.getCause() != null) {
      return t.getCause();
    }
    return t;
  }

  static String firstLine(Throwable t) {
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t.getClass().getSimpleName();
    }
    m = m.strip();
    int nl = m.indexOf('\n');
    return nl >= 0 ? m.substring(0, nl).strip() : m;
  }

  static String truncate(String s) {
    return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE - 3) + "...";
  }

  /** A failure the shim itself decides (overload, refusal, unknown scanner, ...). */
  public static final class ShimException extends Exception {
    private static final long serialVersionUID = 1L;
    final ErrorKind kind;

    public ShimException(ErrorKind kind, String message) {
      super(message, null, false, false);
      this.kind = kind;
    }

    public ErrorKind kind() {
      return kind;
    }
  }
}
