package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.Collections;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Every failure reaches a stock client as a TIOError with a readable message and a true canRetry. */
class ErrorsTest {

  private static TIOError map(Throwable t) {
    return Errors.tioError(Errors.classify(t), t);
  }

  @Test
  void missingTable() {
    TableNotFoundException e = new TableNotFoundException(TableName.valueOf("nope"));
    assertEquals(ErrorKind.TABLE_NOT_FOUND, Errors.classify(e));
    TIOError t = map(e);
    assertEquals("table does not exist: nope", t.getMessage());
    assertTrue(t.isSetCanRetry());
    assertFalse(t.isCanRetry());
  }

  @Test
  void missingTableInsideABatchFailure() {
    RetriesExhaustedWithDetailsException e = new RetriesExhaustedWithDetailsException(
        Collections.singletonList(new TableNotFoundException("t9")),
        Collections.<Row>singletonList(new Put(Bytes.toBytes("r"))), Collections.singletonList("host:1"));
    assertEquals(ErrorKind.TABLE_NOT_FOUND, Errors.classify(e));
    assertEquals("table does not exist: t9", map(e).getMessage());
  }

  @Test
  void missingFamily() {
    NoSuchColumnFamilyException e = new NoSuchColumnFamilyException("Column family x does not exist in region t,,1");
    assertEquals(ErrorKind.NO_SUCH_FAMILY, Errors.classify(e));
    assertTrue(map(e).getMessage().startsWith("column family does not exist: Column family x"));
    assertFalse(map(e).isCanRetry());
    IOException wrapped = new IOException("wrapper", e);
    assertEquals(ErrorKind.NO_SUCH_FAMILY, Errors.classify(wrapped));
  }

  @Test
  void invalidRequests() {
    IllegalArgumentException e = new IllegalArgumentException("No columns to insert");
    assertEquals(ErrorKind.INVALID_REQUEST, Errors.classify(e));
    assertEquals("invalid request: No columns to insert", map(e).getMessage());
    assertFalse(map(e).isCanRetry());
    DoNotRetryIOException wrapped = new DoNotRetryIOException("x", new IllegalArgumentException("Row length is 0"));
    assertEquals(ErrorKind.INVALID_REQUEST, Errors.classify(wrapped));
    assertEquals("invalid request: Row length is 0", map(wrapped).getMessage());
  }

  @Test
  void hbaseFailuresSayWhetherToRetry() {
    DoNotRetryIOException dnr = new DoNotRetryIOException("region too busy to care");
    assertEquals(ErrorKind.HBASE_DO_NOT_RETRY, Errors.classify(dnr));
    assertFalse(map(dnr).isCanRetry());
    assertEquals("DoNotRetryIOException: region too busy to care", map(dnr).getMessage());
    IOException io = new SocketTimeoutException("callTimeout=10000");
    assertEquals(ErrorKind.HBASE_IO, Errors.classify(io));
    assertTrue(map(io).isCanRetry());
    assertEquals("SocketTimeoutException: callTimeout=10000", map(io).getMessage());
  }

  @Test
  void shimDecisions() {
    for (ErrorKind k : Arrays.asList(ErrorKind.OVERLOADED, ErrorKind.SHUTTING_DOWN, ErrorKind.TOO_MANY_SCANNERS)) {
      Errors.ShimException e = new Errors.ShimException(k, "because");
      assertEquals(k, Errors.classify(e));
      assertTrue(map(e).isCanRetry(), k.label);
      assertEquals("because", map(e).getMessage());
    }
    Errors.ShimException refused = new Errors.ShimException(ErrorKind.ADMIN_REFUSED, "no");
    assertFalse(map(refused).isCanRetry());
    assertEquals(ErrorKind.UNKNOWN_SCANNER, Errors.classify(new Errors.ShimException(ErrorKind.UNKNOWN_SCANNER, "x")));
  }

  @Test
  void bugsAreNamedNotHidden() {
    NullPointerException npe = new NullPointerException("boom");
    assertEquals(ErrorKind.INTERNAL, Errors.classify(npe));
    assertEquals("thrift-shim internal error: java.lang.NullPointerException: boom", map(npe).getMessage());
    assertFalse(map(npe).isCanRetry());
  }

  @Test
  void messagesAreOneBoundedLine() {
    IOException multi = new IOException("first line\n  at some.Stack(Trace.java:1)\nmore");
    assertEquals("IOException: first line", map(multi).getMessage());
    IOException huge = new IOException("x".repeat(5000));
    String m = map(huge).getMessage();
    assertEquals(Errors.MAX_MESSAGE, m.length());
    assertTrue(m.endsWith("..."));
    IOException none = new IOException((String) null);
    assertEquals("IOException: IOException", map(none).getMessage());
  }
}
