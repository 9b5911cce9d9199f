package io.github.hbasegrindersuite.shim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.thrift2.ThriftUtilities;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TResult;

/**
 * Type mapping between thrift2 and the HBase client. Requests (TGet, TPut, TScan, ...) are
 * mapped by HBase's own {@link ThriftUtilities}, so the shim reads every field exactly as HBase's
 * gateway does. Results are mapped here, field for field as {@link ThriftUtilities#resultFromHBase}
 * does, but without its two copies of every family, qualifier and value: the TColumnValue fields
 * point into the cells' own arrays (client-side cells own their arrays and are not reused), and
 * the fields are assigned directly because the generated setters copy again.
 */
public final class Mapping {

  private Mapping() {
  }

  public static TResult resultFromHBase(Result in) {
    Cell[] raw = in.rawCells();
    TResult out = new TResult();
    byte[] row = in.getRow();
    if (row != null) {
      out.row = ByteBuffer.wrap(row);
    }
    List<TColumnValue> columnValues = new ArrayList<>(raw == null ? 0 : raw.length);
    if (raw != null) {
      for (Cell cell : raw) {
        columnValues.add(columnValueFromHBase(cell));
      }
    }
    out.columnValues = columnValues;
    out.setStale(in.isStale());
    out.setPartial(in.mayHaveMoreCellsInRow());
    return out;
  }

  public static List<TResult> resultsFromHBase(Result[] in) {
    List<TResult> out = new ArrayList<>(in.length);
    for (Result r : in) {
      out.add(resultFromHBase(r));
    }
    return out;
  }

  static TColumnValue columnValueFromHBase(Cell cell) {
    TColumnValue col = new TColumnValue();
    if (cell instanceof ByteBufferExtendedCell) {
      // off-heap or buffer-backed: the *Array() getters would copy anyway
      col.family = ByteBuffer.wrap(CellUtil.cloneFamily(cell));
      col.qualifier = ByteBuffer.wrap(CellUtil.cloneQualifier(cell));
      col.value = ByteBuffer.wrap(CellUtil.cloneValue(cell));
    } else {
      col.family = ByteBuffer.wrap(cell.getFamilyArray(), cell.getFamilyOffset(), cell.getFamilyLength());
      col.qualifier = ByteBuffer.wrap(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength());
      col.value = ByteBuffer.wrap(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength());
    }
    col.setTimestamp(cell.getTimestamp());
    col.setType(cell.getType().getCode());
    if (cell.getTagsLength() > 0) {
      col.tags = ByteBuffer.wrap(PrivateCellUtil.cloneTags(cell));
    }
    return col;
  }

  /** The bytes of a ByteBuffer's remaining content; the backing array itself when it is exactly that. */
  public static byte[] bytes(ByteBuffer b) {
    if (b == null) {
      return null;
    }
    if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
      return b.array();
    }
    byte[] copy = new byte[b.remaining()];
    b.duplicate().get(copy);
    return copy;
  }

  /**
   * A table name from the request's bytes; IllegalArgumentException (an invalid request) when
   * the name is empty or has characters HBase does not allow.
   */
  public static TableName tableName(ByteBuffer name) {
    if (name == null || !name.hasRemaining()) {
      throw new IllegalArgumentException("no table name given");
    }
    return TableName.valueOf(bytes(name));
  }
}
