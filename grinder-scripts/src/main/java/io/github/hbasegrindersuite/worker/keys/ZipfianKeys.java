package io.github.hbasegrindersuite.worker.keys;

import java.util.SplittableRandom;

/**
 * Zipfian popularity with the popular rows scattered over the key space (an FNV hash of the
 * rank, as YCSB's scrambled zipfian), so the hot rows do not all sit in one region.
 */
public final class ZipfianKeys implements KeyChooser {
  private static final long FNV_OFFSET = 0xCBF29CE484222325L;
  private static final long FNV_PRIME = 1099511628211L;

  private final long rows;
  private final ZipfianRanks ranks;

  public ZipfianKeys(long rows, double theta, SplittableRandom random) {
    this.rows = rows;
    this.ranks = new ZipfianRanks(rows, theta, random);
  }

  @Override
  public long next() {
    return Math.floorMod(fnv64(ranks.next()), rows);
  }

  static long fnv64(long value) {
    long hash = FNV_OFFSET;
    long rest = value;
    for (int i = 0; i < 8; i++) {
      hash ^= rest & 0xFF;
      hash *= FNV_PRIME;
      rest >>>= 8;
    }
    return hash;
  }
}
