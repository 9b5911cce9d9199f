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
    assertEquals(Compression.Algorithm.GZ, TablePreparer.compression(SettingChoices.FamilyCompression.GZ));
    assertEquals(Compression.Algorithm.NONE, TablePreparer.compression(SettingChoices.FamilyCompression.NONE));
    assertEquals(Compression.Algorithm.SNAPPY, TablePreparer.compression(SettingChoices.FamilyCompression.SNAPPY));
    assertEquals(BloomType.NONE, TablePreparer.bloomType(SettingChoices.Bloom.NONE));
    assertEquals(BloomType.ROW, TablePreparer.bloomType(SettingChoices.Bloom.ROW));
    assertEquals(BloomType.ROWCOL, TablePreparer.bloomType(SettingChoices.Bloom.ROWCOL));
  }

  /** A table of other settings must not pass for prepared: a wide row and one family per row change the signature. */
  @Test
  void theSignatureNamesAWideRowAndOneFamilyPerRowOnlyWhenGiven() {
    String plain = new TablePreparer(Settings.load(java.util.Map.of())).signature();
    assertEquals(false, plain.contains("wide") || plain.contains("families.written"), plain);
    String wide = new TablePreparer(Settings.load(java.util.Map.of("hbaseload.wide.columns", "10000",
        "hbaseload.operations", "put:100"))).signature();
    assertEquals(true, wide.contains(" wide.columns=10000 wide.batch=1000 "), wide);
    String one = new TablePreparer(Settings.load(java.util.Map.of("hbaseload.families", "3",
        "hbaseload.families.written", "one"))).signature();
    assertEquals(true, one.contains("families=f0|f1|f2 columns=1 families.written=one "), one);
  }

  /** ./suite prepare --record: the JSON the report reads, every field present, nulls included. */
  @Test
  void theRecordIsJsonWithEveryFieldAndTheOutcome() throws Exception {
    PrepareRecord record = new PrepareRecord(Settings.load(java.util.Map.of("hbaseload.table", "dana_cf1000",
        "hbaseload.families", "1000", "hbaseload.prepare.timeout.s", "60")));
    record.set("outcome", PrepareRecord.TIMEOUT).set("reason", "not created within hbaseload.prepare.timeout.s=60");
    java.nio.file.Path file = java.nio.file.Files.createTempFile("prepare", ".json");
    record.write(file);
    org.apache.hbase.thirdparty.com.google.gson.JsonObject json = org.apache.hbase.thirdparty.com.google.gson.JsonParser.parseString(java.nio.file.Files.readString(file)).getAsJsonObject();
    java.nio.file.Files.delete(file);
    assertEquals("dana_cf1000", json.get("table").getAsString());
    assertEquals(1000, json.get("families").getAsInt());
    assertEquals("timeout", json.get("outcome").getAsString());
    assertEquals(60, json.get("timeout_s").getAsInt());
    assertEquals(true, json.get("create_s").isJsonNull());
    assertEquals(14, json.size());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> record.set("creation_s", 1.0));
  }
}
