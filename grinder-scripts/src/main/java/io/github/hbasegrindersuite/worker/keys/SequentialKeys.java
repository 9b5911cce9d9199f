package io.github.hbasegrindersuite.worker.keys;

/**
 * Sequential reads or writes: slice {@code slice} of {@code slices} equal, disjoint ranges of
 * the rows, walked in order and wrapped at its end, so no two threads touch the same row.
 */
public final class SequentialKeys implements KeyChooser {
  private final long first;
  private final long length;
  private long offset;

  public SequentialKeys(long rows, int slice, int slices) {
    if (slice < 0 || slice >= slices) {
      throw new IllegalArgumentException("slice " + slice + " of " + slices);
    }
    this.first = rows * slice / slices;
    long last = rows * (slice + 1) / slices;
    this.length = Math.max(1, last - first);
  }

  /** Rows in this slice (at least 1). */
  long length() {
    return length;
  }

  @Override
  public long next() {
    long row = first + offset;
    offset = (offset + 1) % length;
    return row;
  }
}
