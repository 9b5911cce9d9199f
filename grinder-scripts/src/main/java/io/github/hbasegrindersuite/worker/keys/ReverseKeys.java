package io.github.hbasegrindersuite.worker.keys;

/**
 * Writes in reverse key order (the schema-stress study's "reverse"): slice {@code slice} of
 * {@code slices} equal, disjoint ranges of the rows, as {@link SequentialKeys} cuts them, walked
 * from its last row down to its first and wrapped, so no two threads touch the same row.
 */
public final class ReverseKeys implements KeyChooser {
  private final SequentialKeys forward;
  private final long first;
  private final long last;

  public ReverseKeys(long rows, int slice, int slices) {
    this.forward = new SequentialKeys(rows, slice, slices);
    this.first = rows * slice / slices;
    this.last = first + forward.length() - 1;
  }

  @Override
  public long next() {
    // the forward walk's offset, mirrored inside the same slice
    return last - (forward.next() - first);
  }
}
