package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.thrift2.ThriftUtilities;
import org.apache.hadoop.hbase.thrift2.generated.TColumn;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TTimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.Test;

/** The shim's result mapping must give stock clients exactly what HBase's own gateway gives. */
class MappingTest {

  private static KeyValue kv(String row, String family, String qualifier, long ts, String value) {
    return new KeyValue(Bytes.toBytes(row), Bytes.toBytes(family), Bytes.toBytes(qualifier), ts, Bytes.toBytes(value));
  }

  private static void assertSameAsHBase(Result r) throws Exception {
    TResult ours = Mapping.resultFromHBase(r);
    TResult theirs = ThriftUtilities.resultFromHBase(r);
    assertEquals(theirs, ours);
    // and identical on the wire, in both protocols
    for (TSerializer ser : new TSerializer[] {new TSerializer(new TBinaryProtocol.Factory()),
        new TSerializer(new TCompactProtocol.Factory())}) {
      assertArrayEquals(ser.serialize(theirs), ser.serialize(ours));
    }
  }

  @Test
  void emptyResultMapsLikeHBase() throws Exception {
    assertSameAsHBase(Result.create(new Cell[0]));
    // Result.EMPTY_RESULT has no cell array at all (HBase's mapping throws on it); ours copes
    for (Result empty : new Result[] {Result.EMPTY_RESULT, Result.create(new Cell[0])}) {
      TResult t = Mapping.resultFromHBase(empty);
      assertFalse(t.isSetRow(), "a row that does not exist has no row");
      assertTrue(t.getColumnValues().isEmpty());
    }
  }

  @Test
  void cellsMapLikeHBase() throws Exception {
    List<Cell> cells = new ArrayList<>();
    cells.add(kv("r1", "f", "a", 10, "value-a"));
    cells.add(kv("r1", "f", "b", 11, ""));
    cells.add(kv("r1", "g", "", 12, "v"));
    cells.add(new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("g"), Bytes.toBytes("d"), 13,
        KeyValue.Type.DeleteColumn));
    Collections.sort(cells, org.apache.hadoop.hbase.CellComparator.getInstance());
    assertSameAsHBase(Result.create(cells));
    assertSameAsHBase(Result.create(cells, null, true, true)); // stale, partial
  }

  @Test
  void cellsInsideLargerArraysMapToTheirOwnBytes() throws Exception {
    // a KeyValue's family/qualifier/value live at offsets inside one array
    KeyValue kv = kv("row-0000000042", "f", "v", 99, "0123456789");
    TResult t = Mapping.resultFromHBase(Result.create(new Cell[] {kv}));
    TColumnValue cv = t.getColumnValues().get(0);
    assertArrayEquals(Bytes.toBytes("0123456789"), Mapping.bytes(cv.value));
    assertArrayEquals(Bytes.toBytes("f"), Mapping.bytes(cv.family));
    assertSame(kv.getValueArray(), cv.value.array(), "no copy of the value");
    // a round trip through the wire gives the same bytes
    TResult back = new TResult();
    new TDeserializer(new TBinaryProtocol.Factory()).deserialize(back,
        new TSerializer(new TBinaryProtocol.Factory()).serialize(t));
    assertEquals(ThriftUtilities.resultFromHBase(Result.create(new Cell[] {kv})), back);
  }

  @Test
  void tagsAndBufferBackedCellsMapLikeHBase() throws Exception {
    KeyValue tagged = new KeyValue(Bytes.toBytes("r"), Bytes.toBytes("f"), Bytes.toBytes("q"), 5L,
        Bytes.toBytes("v"), new Tag[] {new ArrayBackedTag((byte) 1, "tag")});
    assertSameAsHBase(Result.create(new Cell[] {tagged}));
    KeyValue plain = kv("r", "f", "q", 6, "buffered");
    Cell bb = new ByteBufferKeyValue(ByteBuffer.wrap(plain.getBuffer()), plain.getOffset(), plain.getLength());
    assertSameAsHBase(Result.create(new Cell[] {bb}));
  }

  @Test
  void requestsMapThroughHBaseUtilities() throws Exception {
    TGet tget = new TGet(ByteBuffer.wrap(Bytes.toBytes("row")));
    tget.setColumns(Arrays.asList(new TColumn(ByteBuffer.wrap(Bytes.toBytes("f"))).setQualifier(Bytes.toBytes("q"))));
    tget.setTimeRange(new TTimeRange(1, 5));
    tget.setMaxVersions(3);
    Get get = ThriftUtilities.getFromThrift(tget);
    assertArrayEquals(Bytes.toBytes("row"), get.getRow());
    assertEquals(3, get.getMaxVersions());
    assertEquals(1, get.getTimeRange().getMin());
    assertTrue(get.getFamilyMap().get(Bytes.toBytes("f")).contains(Bytes.toBytes("q")) || get.familySet().size() == 1);

    TPut tput = new TPut(ByteBuffer.wrap(Bytes.toBytes("row")), Arrays.asList(
        new TColumnValue(ByteBuffer.wrap(Bytes.toBytes("f")), ByteBuffer.wrap(Bytes.toBytes("q")),
            ByteBuffer.wrap(Bytes.toBytes("value")))));
    Put put = ThriftUtilities.putFromThrift(tput);
    Cell c = put.get(Bytes.toBytes("f"), Bytes.toBytes("q")).get(0);
    assertEquals("value", Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength()));
  }

  @Test
  void bytesAvoidsCopiesOnlyWhenSafe() {
    byte[] whole = Bytes.toBytes("abc");
    assertSame(whole, Mapping.bytes(ByteBuffer.wrap(whole)));
    ByteBuffer slice = ByteBuffer.wrap(Bytes.toBytes("xabcx"), 1, 3);
    byte[] copy = Mapping.bytes(slice);
    assertArrayEquals(whole, copy);
    assertEquals(1, slice.position(), "position untouched");
    ByteBuffer direct = ByteBuffer.allocateDirect(3).put(whole);
    direct.flip();
    assertArrayEquals(whole, Mapping.bytes(direct));
    assertEquals(null, Mapping.bytes(null));
    ByteBuffer offset = ByteBuffer.wrap(Bytes.toBytes("abc"));
    offset.get();
    assertNotSame(offset.array(), Mapping.bytes(offset));
  }

  @Test
  void tableNamesAreValidated() {
    assertEquals("t1", Mapping.tableName(ByteBuffer.wrap(Bytes.toBytes("t1"))).getNameAsString());
    assertEquals("ns:t", Mapping.tableName(ByteBuffer.wrap(Bytes.toBytes("ns:t"))).getNameAsString());
    assertThrows(IllegalArgumentException.class, () -> Mapping.tableName(ByteBuffer.wrap(Bytes.toBytes("bad name!"))));
    assertThrows(IllegalArgumentException.class, () -> Mapping.tableName(ByteBuffer.allocate(0)));
    assertThrows(IllegalArgumentException.class, () -> Mapping.tableName(null));
  }
}
