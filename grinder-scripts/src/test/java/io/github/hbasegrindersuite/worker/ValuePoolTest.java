package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class ValuePoolTest {

  private static double gzipRatio(ValuePool pool) throws Exception {
    SplittableRandom random = new SplittableRandom(1);
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    for (int i = 0; i < 200; i++) {
      raw.write(pool.valueFor(KeyFormat.rowKey(i, 10), random));
    }
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(packed)) {
      gz.write(raw.toByteArray());
    }
    return raw.size() / (double) packed.size();
  }

  @Test
  void valuesAreStampedWithTheirRowAndVerify() {
    ValuePool pool = new ValuePool(100, false, 1);
    byte[] key = KeyFormat.rowKey(42, 10);
    byte[] value = pool.valueFor(key, new SplittableRandom(2));
    assertEquals(100, value.length);
    assertArrayEquals(key, Arrays.copyOf(value, 10));
    assertTrue(pool.belongsTo(value, key));
    assertFalse(pool.belongsTo(value, KeyFormat.rowKey(43, 10)));
    assertFalse(pool.belongsTo(Arrays.copyOf(value, 99), key));
    assertFalse(pool.belongsTo(null, key));
  }

  @Test
  void neighbouringValuesDifferAndShortValuesHoldAKeyPrefix() {
    ValuePool pool = new ValuePool(1000, false, 1);
    SplittableRandom random = new SplittableRandom(3);
    byte[] a = pool.valueFor(KeyFormat.rowKey(1, 10), random);
    byte[] b = pool.valueFor(KeyFormat.rowKey(1, 10), random);
    assertFalse(Arrays.equals(a, b));
    assertEquals("00000", new String(new ValuePool(5, false, 1).valueFor(KeyFormat.rowKey(7, 10), random)));
  }

  @Test
  void randomIsIncompressibleAndCompressibleCompressesAboutFourToOne() throws Exception {
    double random = gzipRatio(new ValuePool(1000, false, 1));
    double text = gzipRatio(new ValuePool(1000, true, 1));
    assertTrue(random < 1.1, "random values gzip " + random + ":1");
    assertTrue(text > 3.0 && text < 8.0, "compressible values gzip " + text + ":1");
  }
}
