package io.github.hbasegrindersuite.worker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Values for puts. Each value starts with its row key (so a get can verify that what it read
 * belongs to the row) and is filled from a 4 MiB pool at a random offset, so neighbouring rows
 * differ and a block compressor sees realistic data: random bytes (incompressible) or
 * text-like words (about 4:1 with gz). The pool is built once per process and only read.
 */
public final class ValuePool {

  /** hbaseload.value.kind's accepted values. */
  public enum Kind implements Choice {
    /** random bytes: incompressible */
    RANDOM,
    /** text-like words: about 4:1 with gz */
    COMPRESSIBLE
  }

  private static final int POOL_BYTES = 4 * 1024 * 1024;
  private static final String[] WORDS = ("hbase region server put get scan row column family value "
      + "latency throughput request client thread table block cache memstore flush compaction "
      + "the a of and to in is for on with as by at from").split(" ");

  private final byte[] pool;
  private final int valueSize;

  public ValuePool(int valueSize, boolean compressible, long seed) {
    this.valueSize = valueSize;
    this.pool = new byte[Math.max(POOL_BYTES, valueSize * 2)];
    SplittableRandom random = new SplittableRandom(seed);
    if (compressible) {
      int at = 0;
      while (at < pool.length) {
        byte[] word = (WORDS[random.nextInt(WORDS.length)] + " ").getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(word.length, pool.length - at);
        System.arraycopy(word, 0, pool, at, n);
        at += n;
      }
    } else {
      for (int i = 0; i < pool.length; i++) {
        pool[i] = (byte) random.nextInt(256);
      }
    }
  }

  /** The pool hbaseload.value.size and value.kind ask for. */
  public static ValuePool of(Settings settings, long seed) {
    IntRange rowBytes = settings.range(Settings.Key.ROW_BYTES);
    // With hbaseload.row.bytes a value is cut from one of the largest a row can hold (RowShape).
    int size = rowBytes.given ? rowBytes.max : settings.integer(Settings.Key.VALUE_SIZE);
    return new ValuePool(size, settings.valueKind() == Kind.COMPRESSIBLE, seed);
  }

  public int valueSize() {
    return valueSize;
  }

  /** A fresh array: buffered puts keep a reference, so values are never reused. */
  public byte[] valueFor(byte[] rowKey, SplittableRandom random) {
    byte[] value = new byte[valueSize];
    int stamp = Math.min(rowKey.length, valueSize);
    System.arraycopy(rowKey, 0, value, 0, stamp);
    int fill = valueSize - stamp;
    if (fill > 0) {
      System.arraycopy(pool, random.nextInt(pool.length - fill + 1), value, stamp, fill);
    }
    return value;
  }

  /** Does {@code value} look like one this pool made for {@code rowKey}? */
  public boolean belongsTo(byte[] value, byte[] rowKey) {
    if (value == null || value.length != valueSize) {
      return false;
    }
    int stamp = Math.min(rowKey.length, valueSize);
    return Arrays.equals(value, 0, stamp, rowKey, 0, stamp);
  }
}
