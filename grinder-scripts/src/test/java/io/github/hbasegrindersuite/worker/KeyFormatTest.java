package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyFormatTest {

  private static String key(long index, int width) {
    return new String(KeyFormat.rowKey(index, width), StandardCharsets.US_ASCII);
  }

  @Test
  void zeroPaddedToTheWidth() {
    assertEquals("0000000042", key(42, 10));
    assertEquals("0000000000", key(0, 10));
    assertEquals("99999", key(99999, 5));
  }

  @Test
  void refusesWhatDoesNotFit() {
    assertThrows(IllegalArgumentException.class, () -> KeyFormat.rowKey(100000, 5));
    assertThrows(IllegalArgumentException.class, () -> KeyFormat.rowKey(-1, 5));
  }
}
