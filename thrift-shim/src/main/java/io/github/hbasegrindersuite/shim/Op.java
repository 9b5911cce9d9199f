package io.github.hbasegrindersuite.shim;

import java.util.HashMap;
import java.util.Map;

/**
 * Every method of HBase's thrift2 service (THBaseService, hbase-thrift 2.6.1), by its Thrift
 * name, with what the shim does with it: serve it (the data path), refuse it unless
 * {@code shim.admin.enabled} (the Admin API), or answer it locally.
 */
public enum Op {
  EXISTS("exists", Kind.DATA),
  EXISTS_ALL("existsAll", Kind.DATA),
  GET("get", Kind.DATA),
  GET_MULTIPLE("getMultiple", Kind.DATA),
  PUT("put", Kind.DATA),
  CHECK_AND_PUT("checkAndPut", Kind.DATA),
  PUT_MULTIPLE("putMultiple", Kind.DATA),
  DELETE_SINGLE("deleteSingle", Kind.DATA),
  DELETE_MULTIPLE("deleteMultiple", Kind.DATA),
  CHECK_AND_DELETE("checkAndDelete", Kind.DATA),
  INCREMENT("increment", Kind.DATA),
  APPEND("append", Kind.DATA),
  OPEN_SCANNER("openScanner", Kind.DATA),
  GET_SCANNER_ROWS("getScannerRows", Kind.DATA),
  CLOSE_SCANNER("closeScanner", Kind.DATA),
  MUTATE_ROW("mutateRow", Kind.DATA),
  GET_SCANNER_RESULTS("getScannerResults", Kind.DATA),
  GET_REGION_LOCATION("getRegionLocation", Kind.DATA),
  GET_ALL_REGION_LOCATIONS("getAllRegionLocations", Kind.DATA),
  CHECK_AND_MUTATE("checkAndMutate", Kind.DATA),
  GET_TABLE_DESCRIPTOR("getTableDescriptor", Kind.ADMIN),
  GET_TABLE_DESCRIPTORS("getTableDescriptors", Kind.ADMIN),
  TABLE_EXISTS("tableExists", Kind.ADMIN),
  GET_TABLE_DESCRIPTORS_BY_PATTERN("getTableDescriptorsByPattern", Kind.ADMIN),
  GET_TABLE_DESCRIPTORS_BY_NAMESPACE("getTableDescriptorsByNamespace", Kind.ADMIN),
  GET_TABLE_NAMES_BY_PATTERN("getTableNamesByPattern", Kind.ADMIN),
  GET_TABLE_NAMES_BY_NAMESPACE("getTableNamesByNamespace", Kind.ADMIN),
  CREATE_TABLE("createTable", Kind.ADMIN),
  DELETE_TABLE("deleteTable", Kind.ADMIN),
  TRUNCATE_TABLE("truncateTable", Kind.ADMIN),
  ENABLE_TABLE("enableTable", Kind.ADMIN),
  DISABLE_TABLE("disableTable", Kind.ADMIN),
  IS_TABLE_ENABLED("isTableEnabled", Kind.ADMIN),
  IS_TABLE_DISABLED("isTableDisabled", Kind.ADMIN),
  IS_TABLE_AVAILABLE("isTableAvailable", Kind.ADMIN),
  IS_TABLE_AVAILABLE_WITH_SPLIT("isTableAvailableWithSplit", Kind.ADMIN),
  ADD_COLUMN_FAMILY("addColumnFamily", Kind.ADMIN),
  DELETE_COLUMN_FAMILY("deleteColumnFamily", Kind.ADMIN),
  MODIFY_COLUMN_FAMILY("modifyColumnFamily", Kind.ADMIN),
  MODIFY_TABLE("modifyTable", Kind.ADMIN),
  CREATE_NAMESPACE("createNamespace", Kind.ADMIN),
  MODIFY_NAMESPACE("modifyNamespace", Kind.ADMIN),
  DELETE_NAMESPACE("deleteNamespace", Kind.ADMIN),
  GET_NAMESPACE_DESCRIPTOR("getNamespaceDescriptor", Kind.ADMIN),
  LIST_NAMESPACE_DESCRIPTORS("listNamespaceDescriptors", Kind.ADMIN),
  LIST_NAMESPACES("listNamespaces", Kind.ADMIN),
  GET_SLOW_LOG_RESPONSES("getSlowLogResponses", Kind.ADMIN),
  CLEAR_SLOW_LOG_RESPONSES("clearSlowLogResponses", Kind.ADMIN),
  GET_THRIFT_SERVER_TYPE("getThriftServerType", Kind.LOCAL),
  GET_CLUSTER_ID("getClusterId", Kind.LOCAL);

  /** What the shim does with a method. */
  public enum Kind {
    /** Served over the HBase client, timed, bounded by shim.max.inflight. */
    DATA,
    /** Admin API: refused with a TIOError unless shim.admin.enabled=true. */
    ADMIN,
    /** Answered by the shim itself (declares no TIOError, so it cannot be refused). */
    LOCAL
  }

  private static final Map<String, Op> BY_NAME = new HashMap<>();

  static {
    for (Op op : values()) {
      BY_NAME.put(op.thriftName, op);
    }
  }

  public final String thriftName;
  public final Kind kind;

  Op(String thriftName, Kind kind) {
    this.thriftName = thriftName;
    this.kind = kind;
  }

  /** The op for a Thrift method name, or null when the service has no such method. */
  public static Op byThriftName(String name) {
    return name == null ? null : BY_NAME.get(name);
  }
}
