package io.github.hbasegrindersuite.shim;

import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * An HBase Connection without HBase, for unit tests of the server side: every table's get
 * returns an empty result (optionally after waiting on a latch), put succeeds, a scan returns
 * {@link #SCAN_ROWS} rows ("row0".."row2") through a scanner whose {@code next(n)} is HBase's own
 * (it allocates n slots at once, as the real one does), table "missing" does not exist. Anything
 * else is unsupported.
 */
final class StubHBase {

  static final int SCAN_ROWS = 3;

  /** While set, get() waits on it: calls stay in flight until the test releases them. */
  volatile CountDownLatch hold;
  final AtomicInteger gets = new AtomicInteger();
  final AtomicInteger puts = new AtomicInteger();
  final AtomicInteger waiting = new AtomicInteger();
  /** Tables made by getTable, and closed. */
  final AtomicInteger tablesMade = new AtomicInteger();
  final AtomicInteger tablesClosed = new AtomicInteger();

  Connection connection() {
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getTable":
              tablesMade.incrementAndGet();
              return table((TableName) args[0]);
            case "getRegionLocator":
              return regionLocator();
            case "getClusterId":
              return "stub-cluster";
            case "getConfiguration":
              return new org.apache.hadoop.conf.Configuration(false);
            case "isClosed":
              return false;
            case "close":
            case "abort":
              return null;
            case "isAborted":
              return false;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  private Table table(TableName name) {
    java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    return (Table) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Table.class},
        (proxy, method, args) -> {
          if (method.getName().equals("close")) {
            if (closed.compareAndSet(false, true)) {
              tablesClosed.incrementAndGet();
            }
            return null;
          }
          if (closed.get()) {
            throw new IllegalStateException("stub table " + name + " used after close()");
          }
          if (name.getNameAsString().equals("missing")) {
            throw new TableNotFoundException(name);
          }
          switch (method.getName()) {
            case "get":
              gets.incrementAndGet();
              CountDownLatch h = hold;
              if (h != null) {
                waiting.incrementAndGet();
                try {
                  if (!h.await(30, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("test latch never released");
                  }
                } finally {
                  waiting.decrementAndGet();
                }
              }
              return Result.EMPTY_RESULT;
            case "put":
              puts.incrementAndGet();
              return null;
            case "getScanner":
              return new Scanner();
            case "close":
              return null;
            case "getName":
              return name;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  private RegionLocator regionLocator() {
    return (RegionLocator) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {RegionLocator.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getRegionLocation":
            case "close":
              return null;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  /** SCAN_ROWS one-cell rows; next(int) is ResultScanner's default, as in HBase's scanners. */
  static final class Scanner implements ResultScanner {
    private int next;

    @Override
    public Result next() {
      if (next >= SCAN_ROWS) {
        return null;
      }
      byte[] row = Bytes.toBytes("row" + next++);
      return Result.create(new Cell[] {new KeyValue(row, Bytes.toBytes("f"), Bytes.toBytes("q"), 1L, Bytes.toBytes("v"))});
    }

    @Override
    public void close() {
    }

    @Override
    public boolean renewLease() {
      return true;
    }

    @Override
    public ScanMetrics getScanMetrics() {
      return null;
    }
  }
}
