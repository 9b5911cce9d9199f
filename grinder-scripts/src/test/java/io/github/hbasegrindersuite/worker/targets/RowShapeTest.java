package io.github.hbasegrindersuite.worker.targets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.KeyFormat;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RowShapeTest {
  private static Settings settings(String... pairs) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      given.put("hbaseload." + pairs[i], pairs[i + 1]);
    }
    return Settings.load(given);
  }

  @Test
  void adobeRowsHoldOneToFiveColumnsOf128To256BytesInTotalTheSameOnEveryWrite() {
    Settings s = settings("row.columns", "1-5", "row.bytes", "128-256");
    RowShape shape = new RowShape(s);
    ValuePool values = ValuePool.of(s, 7);
    SplittableRandom random = new SplittableRandom(3);
    assertEquals(5, shape.qualifiers.length);
    assertEquals("q4", new String(shape.qualifiers[4]));
    Map<Integer, Integer> byColumns = new TreeMap<>();
    int smallest = Integer.MAX_VALUE;
    int largest = 0;
    for (long r = 0; r < 5000; r++) {
      byte[] row = KeyFormat.rowKey(r, 10);
      int columns = shape.columnsOf(row);
      byColumns.merge(columns, 1, Integer::sum);
      int total = 0;
      int[] sizes = new int[columns];
      for (int c = 0; c < columns; c++) {
        byte[] value = shape.value(values, row, c, columns, random);
        sizes[c] = value.length;
        total += value.length;
        // every value still starts with its row key, as the verifying reader expects
        assertArrayEquals(Arrays.copyOf(row, 10), Arrays.copyOf(value, 10));
      }
      assertEquals(shape.bytesOf(row), total, "row " + r);
      assertTrue(sizes[0] - sizes[columns - 1] <= 1, "split evenly: " + Arrays.toString(sizes));
      smallest = Math.min(smallest, total);
      largest = Math.max(largest, total);
      // the same row gets the same shape on every write (prepare, then puts)
      assertEquals(columns, new RowShape(s).columnsOf(row));
      assertEquals(total, new RowShape(s).bytesOf(row));
    }
    assertEquals(Map.of(1, byColumns.get(1), 2, byColumns.get(2), 3, byColumns.get(3), 4, byColumns.get(4), 5, byColumns.get(5)), byColumns);
    for (int n : byColumns.values()) {
      assertTrue(n > 800 && n < 1200, "about a fifth of 5000 rows each: " + byColumns);
    }
    assertEquals(128, smallest);
    assertEquals(256, largest);
  }

  @Test
  void withoutARangeEveryRowHasTheFixedShape() {
    Settings s = settings("columns", "3", "value.size", "40");
    RowShape shape = new RowShape(s);
    ValuePool values = ValuePool.of(s, 7);
    byte[] row = KeyFormat.rowKey(42, 10);
    assertEquals(3, shape.columnsOf(row));
    assertEquals(-1, shape.bytesOf(row));
    assertEquals(40, shape.value(values, row, 2, 3, new SplittableRandom(1)).length);
  }

  @Test
  void oneFamilyWrittenPicksEachRowsOwnFamilySpreadOverAllOfThem() {
    RowShape all = new RowShape(settings("families", "1000"));
    assertEquals(1000, all.familiesOf(KeyFormat.rowKey(3, 10)).length);
    RowShape one = new RowShape(settings("families", "1000", "families.written", "one"));
    Map<String, Integer> used = new TreeMap<>();
    for (long r = 0; r < 20000; r++) {
      byte[] row = KeyFormat.rowKey(r, 10);
      byte[][] families = one.familiesOf(row);
      assertEquals(1, families.length);
      assertArrayEquals(families[0], one.familiesOf(KeyFormat.rowKey(r, 10))[0], "the same family on every write");
      used.merge(new String(families[0]), 1, Integer::sum);
    }
    // 20000 rows over 1000 families: all of them used, none more than 3x its share
    assertEquals(1000, used.size());
    assertTrue(used.values().stream().allMatch(n -> n < 60), used.toString());
  }
}
