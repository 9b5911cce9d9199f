package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.thrift2.ThriftUtilities;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.TBase;

/**
 * get and put through HBase's asynchronous client, for the event-loop server: the call is sent
 * from the thread that read the request and its answer completes on the thread that reads HBase's
 * response, which is the same one when the shim's connections and the HBase client share one event
 * loop. Admission ({@link Gate}), the HBase stage's timer and the error mapping are the handler's
 * ({@link ShimHandler}), so a call answers exactly as on the other servers.
 */
final class AsyncDataPath {

  private final AsyncConnection connection;
  private final Gate gate;
  private final ShimMetrics metrics;
  private final TableNames tableNames;
  /** HBase's raw AsyncTable: its futures complete on the RPC client's event loop, not in a pool. */
  private final Map<TableName, AsyncTable<AdvancedScanResultConsumer>> tables = new ConcurrentHashMap<>();

  AsyncDataPath(AsyncConnection connection, Gate gate, ShimMetrics metrics, int maxTableNames) {
    this.connection = connection;
    this.gate = gate;
    this.metrics = metrics;
    this.tableNames = new TableNames(maxTableNames);
  }

  /** The empty arguments of a method served here, or null for one the blocking handler serves. */
  static TBase<?, ?> emptyArgs(String method) {
    switch (method) {
      case "get":
        return new THBaseService.get_args();
      case "put":
        return new THBaseService.put_args();
      default:
        return null;
    }
  }

  /** Starts the call; the future completes with its result struct (success or a TIOError in it). */
  CompletableFuture<TBase<?, ?>> call(TBase<?, ?> args) {
    if (args instanceof THBaseService.get_args) {
      THBaseService.get_args a = (THBaseService.get_args) args;
      THBaseService.get_result r = new THBaseService.get_result();
      return run(Op.GET, a.table, t -> t.get(ThriftUtilities.getFromThrift(a.tget)).thenApply(result -> {
        r.success = Mapping.resultFromHBase(result);
        return r;
      }), e -> {
        r.io = e;
        return r;
      });
    }
    THBaseService.put_args a = (THBaseService.put_args) args;
    THBaseService.put_result r = new THBaseService.put_result();
    return run(Op.PUT, a.table, t -> {
      Put put = ThriftUtilities.putFromThrift(a.tput);
      return t.put(put).thenApply(v -> r);
    }, e -> {
      r.io = e;
      return r;
    });
  }

  @FunctionalInterface
  private interface TableCall {
    CompletableFuture<TBase<?, ?>> start(AsyncTable<AdvancedScanResultConsumer> t) throws IOException;
  }

  @FunctionalInterface
  private interface Failed {
    TBase<?, ?> answer(TIOError e);
  }

  private CompletableFuture<TBase<?, ?>> run(Op op, ByteBuffer table, TableCall call, Failed failed) {
    try {
      gate.enter();
    } catch (Errors.ShimException e) {
      return CompletableFuture.completedFuture(failed.answer(fail(op, e)));
    }
    long start = System.nanoTime();
    CompletableFuture<TBase<?, ?>> f;
    try {
      f = call.start(table(table));
    } catch (Exception e) { // mapping (IllegalArgumentException), table name, or the client refusing at once
      gate.exit();
      return CompletableFuture.completedFuture(failed.answer(fail(op, e)));
    }
    return f.handle((result, e) -> {
      metrics.recordHBase(op, System.nanoTime() - start);
      gate.exit();
      return e == null ? result : failed.answer(fail(op, e instanceof CompletionException && e.getCause() != null
          ? e.getCause() : e));
    });
  }

  private AsyncTable<AdvancedScanResultConsumer> table(ByteBuffer name) throws Errors.ShimException {
    TableName tn = tableNames.of(name);
    return tables.computeIfAbsent(tn, connection::getTable);
  }

  private TIOError fail(Op op, Throwable e) {
    ErrorKind kind = Errors.classify(e);
    metrics.error(op, kind);
    return Errors.tioError(kind, e);
  }
}
