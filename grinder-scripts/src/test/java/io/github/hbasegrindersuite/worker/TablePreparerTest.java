package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.junit.jupiter.api.Test;

class TablePreparerTest {

  private static String splits(long rows, int regions, int width) {
    return Arrays.toString(Arrays.stream(TablePreparer.splitKeys(rows, regions, width))
        .map(b -> new String(b, StandardCharsets.US_ASCII)).toArray());
  }

  @Test
  void splitKeysCutEqualRanges() {
    assertEquals("[025, 050, 075]", splits(100, 4, 3));
    assertEquals("[]", splits(100, 1, 3));
    assertEquals("[1, 2]", splits(3, 3, 1));
    assertEquals("[1]", splits(2, 5, 1)); // more regions than rows: no empty ones
  }

  /** hbaseload.compression and bloom: each accepted value is a codec and a BloomType of HBase's. */
  @Test
  void layoutChoicesAreHBasesOwn() {
    assertEquals(Compression.Algorithm.GZ, TablePreparer.compression(TablePreparer.FamilyCompression.GZ));
    assertEquals(Compression.Algorithm.NONE, TablePreparer.compression(TablePreparer.FamilyCompression.NONE));
    assertEquals(Compression.Algorithm.SNAPPY, TablePreparer.compression(TablePreparer.FamilyCompression.SNAPPY));
    assertEquals(BloomType.NONE, TablePreparer.bloomType(TablePreparer.Bloom.NONE));
    assertEquals(BloomType.ROW, TablePreparer.bloomType(TablePreparer.Bloom.ROW));
    assertEquals(BloomType.ROWCOL, TablePreparer.bloomType(TablePreparer.Bloom.ROWCOL));
  }
}
