package io.github.hbasegrindersuite.worker.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.KeyFormat;
import io.github.hbasegrindersuite.worker.TablePreparer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AuditSchemeTest {

  private static byte[] w(String tag, String process) {
    return AuditScheme.writer(tag, process).getBytes(StandardCharsets.US_ASCII);
  }

  private static String s(byte[] key) {
    return new String(key, StandardCharsets.US_ASCII);
  }

  @Test
  void keyIsRowThenWriterThreadSequence() {
    assertEquals("0000042137/k3x9/inj1-0/3/17", s(AuditScheme.key(42137, 10, w("k3x9", "inj1-0"), 3, 17)));
    assertEquals("0/t/h-1/0/0", s(AuditScheme.key(0, 1, w("t", "h-1"), 0, 0)));
    assertEquals(42137, AuditScheme.rowOf("0000042137".getBytes(StandardCharsets.US_ASCII)));
  }

  /** Two hosts x two processes x three threads x 500 puts each, all on the same few rows: every key differs. */
  @Test
  void keysAreUniqueAcrossHostsProcessesThreadsAndSequence() {
    Set<String> keys = new HashSet<>();
    String tag = AuditScheme.runTag("run-7-1795240149902");
    int made = 0;
    for (String host : new String[] {"inj1", "inj2", "inj10"}) {
      for (int process = 0; process < 2; process++) {
        byte[] writer = w(tag, host + "-" + process);
        for (int thread = 0; thread < 11; thread++) {
          for (long seq = 0; seq < 500; seq++) {
            keys.add(s(AuditScheme.key(seq % 3, 10, writer, thread, seq)));
            made++;
          }
        }
      }
    }
    assertEquals(made, keys.size());
    // thread 1 seq 10 against thread 11 seq 0 and the like: the separators keep the parts apart
    assertNotEquals(s(AuditScheme.key(5, 10, w(tag, "inj1-0"), 1, 10)), s(AuditScheme.key(5, 10, w(tag, "inj1-0"), 11, 0)));
  }

  @Test
  void twoRunsNeverShareAKey() {
    String a = AuditScheme.runTag("run-7-1795240149902");
    String b = AuditScheme.runTag("run-8-1795240188000");
    assertNotEquals(a, b);
    assertNotEquals(s(AuditScheme.key(1, 10, w(a, "inj1-0"), 0, 0)), s(AuditScheme.key(1, 10, w(b, "inj1-0"), 0, 0)));
    assertEquals(a, AuditScheme.runTag("run-7-1795240149902"));
  }

  /**
   * An audited key sorts after its row and before the next row, so it lands in its row's region:
   * uniform rows over a table pre-split into 8 regions put audited keys in all 8, about evenly.
   */
  @Test
  void keysSpreadOverTheRegionsAsTheirRowsDo() {
    int rows = 100000;
    int width = 10;
    byte[][] splits = TablePreparer.splitKeys(rows, 8, width);
    assertEquals(7, splits.length);
    int[] perRegion = new int[8];
    SplittableRandom random = new SplittableRandom(1);
    byte[] writer = w(AuditScheme.runTag("r"), "inj1-0");
    for (int seq = 0; seq < 8000; seq++) {
      long row = random.nextInt(rows);
      byte[] key = AuditScheme.key(row, width, writer, 0, seq);
      byte[] rowKey = KeyFormat.rowKey(row, width);
      assertTrue(Arrays.compare(key, rowKey) > 0);
      if (row + 1 < rows) {
        assertTrue(Arrays.compare(key, KeyFormat.rowKey(row + 1, width)) < 0);
      }
      perRegion[region(key, splits)]++;
      assertEquals(region(rowKey, splits), region(key, splits));
    }
    for (int n : perRegion) {
      assertTrue(n > 800 && n < 1200, "regions got " + Arrays.toString(perRegion));
    }
  }

  private static int region(byte[] key, byte[][] splits) {
    int r = 0;
    while (r < splits.length && Arrays.compare(key, splits[r]) >= 0) {
      r++;
    }
    return r;
  }

  @Test
  void valueIsRecomputableFromTheKeyAloneAndDiffersBetweenKeys() {
    byte[] writer = w("t", "inj1-0");
    byte[] k1 = AuditScheme.key(1, 10, writer, 0, 0);
    byte[] k2 = AuditScheme.key(1, 10, writer, 0, 1);
    byte[] v1 = AuditScheme.value(k1, 1000);
    assertEquals(1000, v1.length);
    assertArrayEquals(v1, AuditScheme.value(k1.clone(), 1000));
    assertFalse(Arrays.equals(v1, AuditScheme.value(k2, 1000)));
    assertTrue(AuditScheme.intact(k1, v1, 1000));
    assertFalse(AuditScheme.intact(k2, v1, 1000), "another key's value is not intact");
    byte[] flipped = v1.clone();
    flipped[999] ^= 1;
    assertFalse(AuditScheme.intact(k1, flipped, 1000), "one flipped bit");
    assertFalse(AuditScheme.intact(k1, Arrays.copyOf(v1, 999), 1000), "a short value");
    assertFalse(AuditScheme.intact(k1, null, 1000));
    // odd sizes and none: the prefix of the longer value, so no byte is left unset
    assertArrayEquals(Arrays.copyOf(v1, 13), AuditScheme.value(k1, 13));
    assertEquals(0, AuditScheme.value(k1, 0).length);
    // the definition, byte by byte: the PRNG seeded by the key's hash, each long's bytes lowest first
    SplittableRandom random = new SplittableRandom(AuditScheme.mix(AuditScheme.hash(k1)));
    byte[] expected = new byte[13];
    for (int i = 0; i < 13; i += 8) {
      long bits = random.nextLong();
      for (int b = 0; b < 8 && i + b < 13; b++) {
        expected[i + b] = (byte) (bits >>> (8 * b));
      }
    }
    assertArrayEquals(expected, AuditScheme.value(k1, 13));
    assertTrue(AuditScheme.intact(k1, new byte[0], 0));
  }

  @Test
  void badPartsAreRefusedNamingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditScheme.writer("a/b", "inj1-0")).getMessage().contains("a/b"));
    assertThrows(IllegalArgumentException.class, () -> AuditScheme.writer("t", ""));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditScheme.key(100, 2, w("t", "p"), 0, 0)).getMessage()
        .contains("row 100 needs more than 2 digits"));
    assertThrows(IllegalArgumentException.class, () -> AuditScheme.key(1, 2, w("t", "p"), -1, 0));
    assertThrows(IllegalArgumentException.class, () -> AuditScheme.rowOf("12a".getBytes(StandardCharsets.US_ASCII)));
  }
}
