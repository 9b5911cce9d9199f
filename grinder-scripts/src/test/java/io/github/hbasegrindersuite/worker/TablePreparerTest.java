package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
}
