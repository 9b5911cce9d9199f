package io.github.hbasegrindersuite.worker;

/**
 * Fixed-width, zero-padded decimal row keys ("0000000042"), the format hbaseload/keys.py
 * writes, built straight into bytes: the injector's hot path makes one per request.
 */
public final class KeyFormat {

  private KeyFormat() {
  }

  public static byte[] rowKey(long index, int width) {
    if (index < 0) {
      throw new IllegalArgumentException("negative row index " + index);
    }
    byte[] key = new byte[width];
    long rest = index;
    for (int i = width - 1; i >= 0; i--) {
      key[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    if (rest != 0) {
      throw new IllegalArgumentException("row index " + index + " needs more than " + width + " digits");
    }
    return key;
  }
}
