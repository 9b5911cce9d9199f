package io.github.hbasegrindersuite.shim;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.TableName;

/**
 * Table names from requests, mapped to HBase TableNames once and remembered. Bounded, because
 * HBase itself never forgets: {@code TableName.valueOf} keeps every name it has ever made in a
 * static set (hbase-common 2.6.1), so a client sending ever new names would grow the heap for
 * ever, and each new name costs a scan of that set. So the shim makes at most
 * {@code shim.max.table.names} distinct names (a request naming one more gets a TIOError; names
 * already seen keep working), none longer than {@link #MAX_NAME_BYTES}.
 */
final class TableNames {

  /**
   * Longer than any table HBase can store: namespace and table are each a directory, at most
   * 255 bytes on HDFS and on local file systems.
   */
  static final int MAX_NAME_BYTES = 512;

  private final Map<ByteBuffer, TableName> known = new ConcurrentHashMap<>();
  private final int max;

  TableNames(int max) {
    this.max = max;
  }

  /** The TableName for a request's table; IllegalArgumentException (an invalid request) when it cannot be one. */
  TableName of(ByteBuffer name) throws Errors.ShimException {
    TableName tn = name == null ? null : known.get(name);
    if (tn != null) {
      return tn;
    }
    if (name != null && name.remaining() > MAX_NAME_BYTES) {
      throw new IllegalArgumentException("table name of " + name.remaining() + " bytes: longer than any table can have ("
          + MAX_NAME_BYTES + ")");
    }
    if (known.size() >= max) {
      throw new Errors.ShimException(ErrorKind.TOO_MANY_TABLE_NAMES, "thrift-shim has already seen " + max
          + " distinct table names (shim.max.table.names) and keeps no more: HBase's client never forgets a table"
          + " name; restart the shim or raise the limit");
    }
    tn = Mapping.tableName(name);
    TableName before = known.putIfAbsent(ByteBuffer.wrap(tn.getName()), tn);
    return before == null ? tn : before;
  }

  int size() {
    return known.size();
  }
}
