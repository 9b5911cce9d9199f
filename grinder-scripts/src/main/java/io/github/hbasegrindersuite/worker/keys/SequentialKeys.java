package io.github.hbasegrindersuite.worker.keys;

/**
 * Sequential reads or writes: slice {@code slice} of {@code slices} equal, disjoint ranges of
 * the rows, walked in order and wrapped at its end, so no two threads touch the same row. A step
 * above 1 is for scans: scans of {@code step} rows that start {@code step} rows apart read the
 * slice once, as PerformanceEvaluation's scan test does.
 */
public final class SequentialKeys implements KeyChooser {
  private final long first;
  private final long length;
  private final long step;
  private long offset;

  public SequentialKeys(long rows, int slice, int slices) {
    this(rows, slice, slices, 1);
  }

  public SequentialKeys(long rows, int slice, int slices, long step) {
    if (slice < 0 || slice >= slices) {
      throw new IllegalArgumentException("slice " + slice + " of " + slices);
    }
    this.first = rows * slice / slices;
    long last = rows * (slice + 1) / slices;
    this.length = Math.max(1, last - first);
    this.step = Math.max(1, step);
  }

  /** Rows in this slice (at least 1). */
  long length() {
    return length;
  }

  @Override
  public long next() {
    long row = first + offset;
    offset = (offset + step) % length;
    return row;
  }
}
