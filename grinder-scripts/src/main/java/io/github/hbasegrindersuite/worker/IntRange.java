package io.github.hbasegrindersuite.worker;

/**
 * A setting's MIN-MAX range of whole numbers ("1-5", or "3" for exactly 3), or none (empty text):
 * a row shape that varies row by row, each row picking its value from its own key.
 */
public final class IntRange {
  public static final IntRange NONE = new IntRange(0, 0, false);

  public final int min;
  public final int max;
  public final boolean given;

  private IntRange(int min, int max, boolean given) {
    this.min = min;
    this.max = max;
    this.given = given;
  }

  static IntRange of(int min, int max) {
    return new IntRange(min, max, true);
  }

  /** The value for a row: spread over min..max by a hash of the row, the same on every call. */
  public int pick(long hash) {
    return min + (int) Long.remainderUnsigned(hash, (long) max - min + 1);
  }

  @Override
  public String toString() {
    return !given ? "" : min == max ? String.valueOf(min) : min + "-" + max;
  }
}
