package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.ValuePool;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;

/**
 * The wide row of hbaseload.wide.columns (the schema-stress study's "columns in one row"): one
 * row whose columns q0..qN-1 are written a batch per put, by the worker and by the preparer alike.
 */
public final class WideRow {
  private WideRow() {
  }

  /** The row every wide put and get addresses: row number 0. */
  public static final long ROW_NUMBER = 0;

  public static byte[] qualifier(int column) {
    return ("q" + column).getBytes(StandardCharsets.US_ASCII);
  }

  /** Columns first..first+count-1 of the row, in one put. */
  public static Put put(byte[] row, int first, int count, byte[] family, ValuePool values, SplittableRandom random,
                        Durability durability) {
    Put put = new Put(row);
    put.setDurability(durability);
    byte[] value = values.valueFor(row, random);
    for (int c = first; c < first + count; c++) {
      put.addColumn(family, qualifier(c), value);
    }
    return put;
  }

  /** The batches of N columns, wide.batch each (the last may be shorter). */
  public static int batches(int columns, int batch) {
    return (columns + batch - 1) / batch;
  }
}
