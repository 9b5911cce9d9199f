package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.thrift2.ThriftUtilities;
import org.apache.hadoop.hbase.thrift2.generated.TAppend;
import org.apache.hadoop.hbase.thrift2.generated.TColumnFamilyDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TCompareOp;
import org.apache.hadoop.hbase.thrift2.generated.TDelete;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.THRegionLocation;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TIllegalArgument;
import org.apache.hadoop.hbase.thrift2.generated.TIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TLogQueryFilter;
import org.apache.hadoop.hbase.thrift2.generated.TNamespaceDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TOnlineLogRecord;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TRowMutations;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.hadoop.hbase.thrift2.generated.TServerName;
import org.apache.hadoop.hbase.thrift2.generated.TTableDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;
import org.apache.hadoop.hbase.thrift2.generated.TThriftServerType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's thrift2 service over one shared HBase {@link Connection}. Every data-path call is
 * admitted by the {@link Gate}, times its HBase client call into {@link ShimMetrics}, and turns
 * any failure into a counted {@link TIOError} (or the {@link TIllegalArgument} the IDL declares
 * for unknown scanner ids). Admin API calls are refused unless {@code shim.admin.enabled}.
 * Behaviour follows HBase's own ThriftHBaseServiceHandler, except that closeScanner of an unknown
 * id is an error (as the IDL says) rather than silently ignored.
 */
public final class ShimHandler implements THBaseService.Iface {

  /** Request body run inside the gate; anything it throws is mapped by {@link Errors}. */
  @FunctionalInterface
  private interface Call<T> {
    T run() throws Exception;
  }

  /** The HBase client call itself, timed separately. */
  @FunctionalInterface
  private interface HBaseCall<T> {
    T run() throws IOException;
  }

  /** An HBase client call on an open table. */
  @FunctionalInterface
  private interface TableCall<T> {
    T run(Table t) throws IOException;
  }

  /** An HBase client call on an open table that returns nothing. */
  @FunctionalInterface
  private interface TableAction {
    void run(Table t) throws IOException;
  }

  private final Connection connection;
  private final ShimMetrics metrics;
  private final Gate gate;
  private final Scanners scanners;
  private final boolean adminEnabled;
  private final TableNames tableNames;
  /** Tables by name, one each, made on first use (see {@link #table}). */
  private final Map<TableName, Table> tables = new ConcurrentHashMap<>();
  private final int maxScanRows;

  public ShimHandler(Connection connection, ShimConfig config, ShimMetrics metrics, Gate gate) {
    this.connection = connection;
    this.metrics = metrics;
    this.gate = gate;
    this.scanners = new Scanners(config.intValue(ShimConfig.Key.SCANNER_MAX),
        config.longValue(ShimConfig.Key.SCANNER_TIMEOUT_MS));
    this.adminEnabled = config.bool(ShimConfig.Key.ADMIN_ENABLED);
    this.tableNames = new TableNames(config.intValue(ShimConfig.Key.MAX_TABLE_NAMES));
    this.maxScanRows = config.intValue(ShimConfig.Key.MAX_SCAN_ROWS);
  }

  /** Closes idle scanners; the server's reaper calls this periodically. */
  public void expireScanners() {
    int n = scanners.expire();
    if (n > 0) {
      metrics.scannersExpired.add(n);
    }
  }

  public int openScanners() {
    return scanners.size();
  }

  public void closeAllScanners() {
    scanners.closeAll();
  }

  // ------------------------------------------------------------------ plumbing

  private <T> T call(Op op, Call<T> body) throws TIOError {
    try {
      gate.enter();
    } catch (Errors.ShimException e) {
      throw fail(op, e);
    }
    try {
      return body.run();
    } catch (Exception e) {
      throw fail(op, e);
    } finally {
      gate.exit();
    }
  }

  /** For the scanner calls, whose IDL declares TIllegalArgument for an unknown id. */
  private <T> T scannerCall(Op op, Call<T> body) throws TIOError, TIllegalArgument {
    try {
      return call(op, body);
    } catch (UnknownScanner e) {
      throw e.illegalArgument;
    }
  }

  private <T> T admin(Op op, Call<T> body) throws TIOError {
    if (!adminEnabled) {
      throw fail(op, new Errors.ShimException(ErrorKind.ADMIN_REFUSED, "thrift-shim does not allow "
          + op.thriftName + ": administrative calls are disabled (shim.admin.enabled=false); use the "
          + "HBase shell or Admin API, or start the shim with shim.admin.enabled=true"));
    }
    return call(op, body);
  }

  private <T> T hbase(Op op, HBaseCall<T> c) throws IOException {
    long start = System.nanoTime();
    try {
      return c.run();
    } finally {
      metrics.recordHBase(op, System.nanoTime() - start);
    }
  }

  private TIOError fail(Op op, Exception e) {
    if (e instanceof TIOError) {
      return (TIOError) e;
    }
    ErrorKind kind = Errors.classify(e);
    metrics.error(op, kind);
    if (kind == ErrorKind.UNKNOWN_SCANNER) {
      throw new UnknownScanner(Errors.illegalArgument(e.getMessage()));
    }
    return Errors.tioError(kind, e);
  }

  /** Carries a TIllegalArgument out of {@link #call} for the two methods that declare it. */
  private static final class UnknownScanner extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient TIllegalArgument illegalArgument;

    UnknownScanner(TIllegalArgument illegalArgument) {
      super(null, null, false, false);
      this.illegalArgument = illegalArgument;
    }
  }

  private TableName tableName(ByteBuffer name) throws Errors.ShimException {
    return tableNames.of(name);
  }

  /**
   * The rows one scanner call may return, checked before anything is sized by it: HBase's
   * {@code ResultScanner.next(n)} allocates a list of n slots at once, so 2^31-1 would be an
   * OutOfMemoryError, not a long scan.
   */
  private int rowsAsked(int numRows) {
    if (numRows < 0) {
      throw new IllegalArgumentException("numRows must not be negative: " + numRows);
    }
    if (numRows > maxScanRows) {
      throw new IllegalArgumentException("numRows=" + numRows + " exceeds shim.max.scan.rows=" + maxScanRows
          + ": ask for at most that many rows per call");
    }
    return numRows;
  }

  /**
   * The HBase Table for a request's table name, made on first use and kept. HBase's Table
   * (HTable) has been thread safe since 2.0 when none of its setters is used (the shim uses
   * none), and holds nothing of its own: the connection's thread pool, region cache and RPC
   * client do the work, and its close() only marks it closed. So one Table per name serves every
   * request, instead of one built and closed per request (about 1.5-2.5 us of the shim's CPU per
   * call, 2026-11-27). As many as {@link TableNames} lets the shim know, closed with the handler.
   */
  private Table table(ByteBuffer name) throws IOException, Errors.ShimException {
    TableName tn = tableName(name);
    Table t = tables.get(tn);
    if (t == null) {
      Table made = connection.getTable(tn);
      t = tables.putIfAbsent(tn, made);
      if (t == null) {
        t = made;
      } else {
        made.close(); // another request made it first
      }
    }
    return t;
  }

  /** Closes the Tables made so far (at shutdown, before the connection). */
  public void closeTables() {
    for (Table t : tables.values()) {
      try {
        t.close();
      } catch (IOException | RuntimeException ignored) {
        // shutting down
      }
    }
    tables.clear();
  }

  /** Runs the call on the request's table, timed as the operation's HBase stage. */
  private <T> T onTable(Op op, ByteBuffer name, TableCall<T> c) throws IOException, Errors.ShimException {
    Table t = table(name);
    return hbase(op, () -> c.run(t));
  }

  private void runOnTable(Op op, ByteBuffer name, TableAction a) throws IOException, Errors.ShimException {
    onTable(op, name, t -> {
      a.run(t);
      return null;
    });
  }

  /** checkAndPut's and checkAndDelete's condition: the cell absent (value null) or equal to value. */
  private static CheckAndMutate.Builder ifAbsentOrEqual(ByteBuffer row, ByteBuffer family, ByteBuffer qualifier,
      ByteBuffer value) {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(bytes(row));
    return value == null
        ? b.ifNotExists(bytes(family), bytes(qualifier))
        : b.ifEquals(bytes(family), bytes(qualifier), bytes(value));
  }

  private static byte[] bytes(ByteBuffer b) {
    return Mapping.bytes(b);
  }

  // ------------------------------------------------------------------ data path

  @Override
  public boolean exists(ByteBuffer table, TGet tget) throws TIOError {
    return call(Op.EXISTS, () -> {
      Get get = ThriftUtilities.getFromThrift(tget);
      return onTable(Op.EXISTS, table, t -> t.exists(get));
    });
  }

  @Override
  public List<Boolean> existsAll(ByteBuffer table, List<TGet> tgets) throws TIOError {
    return call(Op.EXISTS_ALL, () -> {
      List<Get> gets = ThriftUtilities.getsFromThrift(tgets);
      boolean[] found = onTable(Op.EXISTS_ALL, table, t -> t.exists(gets));
      List<Boolean> out = new ArrayList<>(found.length);
      for (boolean f : found) {
        out.add(f);
      }
      return out;
    });
  }

  @Override
  public TResult get(ByteBuffer table, TGet tget) throws TIOError {
    return call(Op.GET, () -> {
      Get get = ThriftUtilities.getFromThrift(tget);
      return Mapping.resultFromHBase(onTable(Op.GET, table, t -> t.get(get)));
    });
  }

  @Override
  public List<TResult> getMultiple(ByteBuffer table, List<TGet> tgets) throws TIOError {
    return call(Op.GET_MULTIPLE, () -> {
      List<Get> gets = ThriftUtilities.getsFromThrift(tgets);
      return Mapping.resultsFromHBase(onTable(Op.GET_MULTIPLE, table, t -> t.get(gets)));
    });
  }

  @Override
  public void put(ByteBuffer table, TPut tput) throws TIOError {
    call(Op.PUT, () -> {
      var put = ThriftUtilities.putFromThrift(tput);
      runOnTable(Op.PUT, table, t -> t.put(put));
      return null;
    });
  }

  @Override
  public boolean checkAndPut(ByteBuffer table, ByteBuffer row, ByteBuffer family, ByteBuffer qualifier,
      ByteBuffer value, TPut tput) throws TIOError {
    return call(Op.CHECK_AND_PUT, () -> {
      CheckAndMutate cam = ifAbsentOrEqual(row, family, qualifier, value).build(ThriftUtilities.putFromThrift(tput));
      return onTable(Op.CHECK_AND_PUT, table, t -> t.checkAndMutate(cam).isSuccess());
    });
  }

  @Override
  public void putMultiple(ByteBuffer table, List<TPut> tputs) throws TIOError {
    call(Op.PUT_MULTIPLE, () -> {
      var puts = ThriftUtilities.putsFromThrift(tputs);
      runOnTable(Op.PUT_MULTIPLE, table, t -> t.put(puts));
      return null;
    });
  }

  @Override
  public void deleteSingle(ByteBuffer table, TDelete tdelete) throws TIOError {
    call(Op.DELETE_SINGLE, () -> {
      var delete = ThriftUtilities.deleteFromThrift(tdelete);
      runOnTable(Op.DELETE_SINGLE, table, t -> t.delete(delete));
      return null;
    });
  }

  /** Like HBase's gateway: a TIOError if any delete fails, else the empty list the IDL promises. */
  @Override
  public List<TDelete> deleteMultiple(ByteBuffer table, List<TDelete> tdeletes) throws TIOError {
    return call(Op.DELETE_MULTIPLE, () -> {
      var deletes = ThriftUtilities.deletesFromThrift(tdeletes);
      runOnTable(Op.DELETE_MULTIPLE, table, t -> t.delete(deletes));
      return Collections.emptyList();
    });
  }

  @Override
  public boolean checkAndDelete(ByteBuffer table, ByteBuffer row, ByteBuffer family, ByteBuffer qualifier,
      ByteBuffer value, TDelete tdelete) throws TIOError {
    return call(Op.CHECK_AND_DELETE, () -> {
      CheckAndMutate cam = ifAbsentOrEqual(row, family, qualifier, value).build(ThriftUtilities.deleteFromThrift(tdelete));
      return onTable(Op.CHECK_AND_DELETE, table, t -> t.checkAndMutate(cam).isSuccess());
    });
  }

  @Override
  public TResult increment(ByteBuffer table, TIncrement tincrement) throws TIOError {
    return call(Op.INCREMENT, () -> {
      var increment = ThriftUtilities.incrementFromThrift(tincrement);
      return Mapping.resultFromHBase(onTable(Op.INCREMENT, table, t -> t.increment(increment)));
    });
  }

  @Override
  public TResult append(ByteBuffer table, TAppend tappend) throws TIOError {
    return call(Op.APPEND, () -> {
      var append = ThriftUtilities.appendFromThrift(tappend);
      return Mapping.resultFromHBase(onTable(Op.APPEND, table, t -> t.append(append)));
    });
  }

  @Override
  public int openScanner(ByteBuffer table, TScan tscan) throws TIOError {
    return call(Op.OPEN_SCANNER, () -> {
      var scan = ThriftUtilities.scanFromThrift(tscan);
      TableName tn = tableName(table);
      ResultScanner scanner;
      try (Table t = connection.getTable(tn); RegionLocator locator = connection.getRegionLocator(tn)) {
        scanner = hbase(Op.OPEN_SCANNER, () -> {
          // HBase opens scanners lazily: locate the first region now (from the client's cache
          // after the first time) so that a missing table fails here, not at the first read
          locator.getRegionLocation(scan.getStartRow());
          return t.getScanner(scan);
        });
      }
      return scanners.add(scanner);
    });
  }

  @Override
  public List<TResult> getScannerRows(int scannerId, int numRows) throws TIOError, TIllegalArgument {
    return scannerCall(Op.GET_SCANNER_ROWS, () -> {
      int rows = rowsAsked(numRows);
      Scanners.Entry entry = scanners.get(scannerId);
      Result[] results;
      synchronized (entry) {
        results = hbase(Op.GET_SCANNER_ROWS, () -> entry.scanner.next(rows));
      }
      return Mapping.resultsFromHBase(results);
    });
  }

  @Override
  public void closeScanner(int scannerId) throws TIOError, TIllegalArgument {
    scannerCall(Op.CLOSE_SCANNER, () -> {
      scanners.close(scannerId);
      return null;
    });
  }

  @Override
  public void mutateRow(ByteBuffer table, TRowMutations trowMutations) throws TIOError {
    call(Op.MUTATE_ROW, () -> {
      var mutations = ThriftUtilities.rowMutationsFromThrift(trowMutations);
      return onTable(Op.MUTATE_ROW, table, t -> t.mutateRow(mutations));
    });
  }

  @Override
  public List<TResult> getScannerResults(ByteBuffer table, TScan tscan, int numRows) throws TIOError {
    return call(Op.GET_SCANNER_RESULTS, () -> {
      int wanted = rowsAsked(numRows);
      var scan = ThriftUtilities.scanFromThrift(tscan);
      Result[] rows = onTable(Op.GET_SCANNER_RESULTS, table, t -> {
        try (ResultScanner scanner = t.getScanner(scan)) {
          return scanner.next(wanted);
        }
      });
      return Mapping.resultsFromHBase(rows);
    });
  }

  @Override
  public THRegionLocation getRegionLocation(ByteBuffer table, ByteBuffer row, boolean reload) throws TIOError {
    return call(Op.GET_REGION_LOCATION, () -> {
      TableName tn = tableName(table);
      try (RegionLocator locator = connection.getRegionLocator(tn)) {
        HRegionLocation location = hbase(Op.GET_REGION_LOCATION, () -> locator.getRegionLocation(bytes(row), reload));
        return ThriftUtilities.regionLocationFromHBase(location);
      }
    });
  }

  @Override
  public List<THRegionLocation> getAllRegionLocations(ByteBuffer table) throws TIOError {
    return call(Op.GET_ALL_REGION_LOCATIONS, () -> {
      TableName tn = tableName(table);
      try (RegionLocator locator = connection.getRegionLocator(tn)) {
        return ThriftUtilities.regionLocationsFromHBase(
            hbase(Op.GET_ALL_REGION_LOCATIONS, locator::getAllRegionLocations));
      }
    });
  }

  @Override
  public boolean checkAndMutate(ByteBuffer table, ByteBuffer row, ByteBuffer family, ByteBuffer qualifier,
      TCompareOp compareOp, ByteBuffer value, TRowMutations trowMutations) throws TIOError {
    return call(Op.CHECK_AND_MUTATE, () -> {
      if (compareOp == null) {
        throw new IllegalArgumentException("compareOp is required");
      }
      CheckAndMutate cam = CheckAndMutate.newBuilder(bytes(row))
          .ifMatches(bytes(family), bytes(qualifier), ThriftUtilities.compareOpFromThrift(compareOp), bytes(value))
          .build(ThriftUtilities.rowMutationsFromThrift(trowMutations));
      return onTable(Op.CHECK_AND_MUTATE, table, t -> t.checkAndMutate(cam).isSuccess());
    });
  }

  // ------------------------------------------------------------------ answered locally

  @Override
  public TThriftServerType getThriftServerType() {
    return TThriftServerType.TWO;
  }

  @Override
  public String getClusterId() {
    return connection.getClusterId();
  }

  // ------------------------------------------------------------------ Admin API (off by default)

  /** Runs an Admin call (timed as the HBase call) on a short-lived Admin. */
  private <T> T withAdmin(Op op, AdminCall<T> c) throws TIOError {
    return admin(op, () -> {
      try (Admin a = connection.getAdmin()) {
        return hbase(op, () -> c.run(a));
      }
    });
  }

  @FunctionalInterface
  private interface AdminCall<T> {
    T run(Admin admin) throws IOException;
  }

  private static TableName tn(TTableName t) {
    if (t == null) {
      throw new IllegalArgumentException("no table name given");
    }
    return ThriftUtilities.tableNameFromThrift(t);
  }

  @Override
  public TTableDescriptor getTableDescriptor(TTableName table) throws TIOError {
    return withAdmin(Op.GET_TABLE_DESCRIPTOR, a -> ThriftUtilities.tableDescriptorFromHBase(a.getDescriptor(tn(table))));
  }

  @Override
  public List<TTableDescriptor> getTableDescriptors(List<TTableName> tables) throws TIOError {
    return withAdmin(Op.GET_TABLE_DESCRIPTORS, a -> ThriftUtilities.tableDescriptorsFromHBase(
        a.listTableDescriptors(ThriftUtilities.tableNamesFromThrift(tables))));
  }

  @Override
  public boolean tableExists(TTableName table) throws TIOError {
    return withAdmin(Op.TABLE_EXISTS, a -> a.tableExists(tn(table)));
  }

  @Override
  public List<TTableDescriptor> getTableDescriptorsByPattern(String regex, boolean includeSysTables) throws TIOError {
    return withAdmin(Op.GET_TABLE_DESCRIPTORS_BY_PATTERN, a -> ThriftUtilities.tableDescriptorsFromHBase(
        a.listTableDescriptors(regex == null ? null : Pattern.compile(regex), includeSysTables)));
  }

  @Override
  public List<TTableDescriptor> getTableDescriptorsByNamespace(String name) throws TIOError {
    return withAdmin(Op.GET_TABLE_DESCRIPTORS_BY_NAMESPACE, a -> ThriftUtilities.tableDescriptorsFromHBase(
        a.listTableDescriptorsByNamespace(Bytes.toBytes(name))));
  }

  @Override
  public List<TTableName> getTableNamesByPattern(String regex, boolean includeSysTables) throws TIOError {
    return withAdmin(Op.GET_TABLE_NAMES_BY_PATTERN, a -> ThriftUtilities.tableNamesFromHBase(
        a.listTableNames(regex == null ? null : Pattern.compile(regex), includeSysTables)));
  }

  @Override
  public List<TTableName> getTableNamesByNamespace(String name) throws TIOError {
    return withAdmin(Op.GET_TABLE_NAMES_BY_NAMESPACE, a -> ThriftUtilities.tableNamesFromHBase(
        a.listTableNamesByNamespace(name)));
  }

  @Override
  public void createTable(TTableDescriptor desc, List<ByteBuffer> splitKeys) throws TIOError {
    withAdmin(Op.CREATE_TABLE, a -> {
      a.createTable(ThriftUtilities.tableDescriptorFromThrift(desc), ThriftUtilities.splitKeyFromThrift(splitKeys));
      return null;
    });
  }

  @Override
  public void deleteTable(TTableName table) throws TIOError {
    withAdmin(Op.DELETE_TABLE, a -> {
      a.deleteTable(tn(table));
      return null;
    });
  }

  @Override
  public void truncateTable(TTableName table, boolean preserveSplits) throws TIOError {
    withAdmin(Op.TRUNCATE_TABLE, a -> {
      a.truncateTable(tn(table), preserveSplits);
      return null;
    });
  }

  @Override
  public void enableTable(TTableName table) throws TIOError {
    withAdmin(Op.ENABLE_TABLE, a -> {
      a.enableTable(tn(table));
      return null;
    });
  }

  @Override
  public void disableTable(TTableName table) throws TIOError {
    withAdmin(Op.DISABLE_TABLE, a -> {
      a.disableTable(tn(table));
      return null;
    });
  }

  @Override
  public boolean isTableEnabled(TTableName table) throws TIOError {
    return withAdmin(Op.IS_TABLE_ENABLED, a -> a.isTableEnabled(tn(table)));
  }

  @Override
  public boolean isTableDisabled(TTableName table) throws TIOError {
    return withAdmin(Op.IS_TABLE_DISABLED, a -> a.isTableDisabled(tn(table)));
  }

  @Override
  public boolean isTableAvailable(TTableName table) throws TIOError {
    return withAdmin(Op.IS_TABLE_AVAILABLE, a -> a.isTableAvailable(tn(table)));
  }

  @Override
  @SuppressWarnings("deprecation")
  public boolean isTableAvailableWithSplit(TTableName table, List<ByteBuffer> splitKeys) throws TIOError {
    return withAdmin(Op.IS_TABLE_AVAILABLE_WITH_SPLIT,
        a -> a.isTableAvailable(tn(table), ThriftUtilities.splitKeyFromThrift(splitKeys)));
  }

  @Override
  public void addColumnFamily(TTableName table, TColumnFamilyDescriptor column) throws TIOError {
    withAdmin(Op.ADD_COLUMN_FAMILY, a -> {
      a.addColumnFamily(tn(table), ThriftUtilities.columnFamilyDescriptorFromThrift(column));
      return null;
    });
  }

  @Override
  public void deleteColumnFamily(TTableName table, ByteBuffer column) throws TIOError {
    withAdmin(Op.DELETE_COLUMN_FAMILY, a -> {
      a.deleteColumnFamily(tn(table), bytes(column));
      return null;
    });
  }

  @Override
  public void modifyColumnFamily(TTableName table, TColumnFamilyDescriptor column) throws TIOError {
    withAdmin(Op.MODIFY_COLUMN_FAMILY, a -> {
      a.modifyColumnFamily(tn(table), ThriftUtilities.columnFamilyDescriptorFromThrift(column));
      return null;
    });
  }

  @Override
  public void modifyTable(TTableDescriptor desc) throws TIOError {
    withAdmin(Op.MODIFY_TABLE, a -> {
      a.modifyTable(ThriftUtilities.tableDescriptorFromThrift(desc));
      return null;
    });
  }

  @Override
  public void createNamespace(TNamespaceDescriptor desc) throws TIOError {
    withAdmin(Op.CREATE_NAMESPACE, a -> {
      a.createNamespace(ThriftUtilities.namespaceDescriptorFromThrift(desc));
      return null;
    });
  }

  @Override
  public void modifyNamespace(TNamespaceDescriptor desc) throws TIOError {
    withAdmin(Op.MODIFY_NAMESPACE, a -> {
      a.modifyNamespace(ThriftUtilities.namespaceDescriptorFromThrift(desc));
      return null;
    });
  }

  @Override
  public void deleteNamespace(String name) throws TIOError {
    withAdmin(Op.DELETE_NAMESPACE, a -> {
      a.deleteNamespace(name);
      return null;
    });
  }

  @Override
  public TNamespaceDescriptor getNamespaceDescriptor(String name) throws TIOError {
    return withAdmin(Op.GET_NAMESPACE_DESCRIPTOR,
        a -> ThriftUtilities.namespaceDescriptorFromHBase(a.getNamespaceDescriptor(name)));
  }

  @Override
  public List<TNamespaceDescriptor> listNamespaceDescriptors() throws TIOError {
    return withAdmin(Op.LIST_NAMESPACE_DESCRIPTORS,
        a -> ThriftUtilities.namespaceDescriptorsFromHBase(a.listNamespaceDescriptors()));
  }

  @Override
  public List<String> listNamespaces() throws TIOError {
    return withAdmin(Op.LIST_NAMESPACES, a -> Arrays.asList(a.listNamespaces()));
  }

  @Override
  public List<TOnlineLogRecord> getSlowLogResponses(Set<TServerName> serverNames, TLogQueryFilter filter)
      throws TIOError {
    return withAdmin(Op.GET_SLOW_LOG_RESPONSES, a -> ThriftUtilities.getSlowLogRecordsFromHBase(
        a.getSlowLogResponses(ThriftUtilities.getServerNamesFromThrift(serverNames),
            ThriftUtilities.getSlowLogQueryFromThrift(filter))));
  }

  @Override
  public List<Boolean> clearSlowLogResponses(Set<TServerName> serverNames) throws TIOError {
    return withAdmin(Op.CLEAR_SLOW_LOG_RESPONSES,
        a -> a.clearSlowLogResponses(ThriftUtilities.getServerNamesFromThrift(serverNames)));
  }
}
