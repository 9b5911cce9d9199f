package io.github.hbasegrindersuite.shim;

import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * An HBase Connection without HBase, for unit tests of the server side: every table's get
 * returns an empty result (optionally after waiting on a latch), put succeeds, table "missing"
 * does not exist. Anything else is unsupported.
 */
final class StubHBase {

  /** While set, get() waits on it: calls stay in flight until the test releases them. */
  volatile CountDownLatch hold;
  final AtomicInteger gets = new AtomicInteger();
  final AtomicInteger puts = new AtomicInteger();
  final AtomicInteger waiting = new AtomicInteger();

  Connection connection() {
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getTable":
              return table((TableName) args[0]);
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
    return (Table) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Table.class},
        (proxy, method, args) -> {
          if (name.getNameAsString().equals("missing") && !method.getName().equals("close")) {
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
            case "close":
              return null;
            case "getName":
              return name;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }
}
