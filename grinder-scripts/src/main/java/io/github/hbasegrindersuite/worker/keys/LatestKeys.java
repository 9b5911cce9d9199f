package io.github.hbasegrindersuite.worker.keys;

import java.util.SplittableRandom;

/**
 * Recency skew: with time-ordered row keys the newest rows are the highest numbers, so row
 * rows-1 is the most popular, then rows-2, ... (zipfian over recency, like YCSB's "latest").
 */
public final class LatestKeys implements KeyChooser {
  private final long rows;
  private final ZipfianRanks ranks;

  public LatestKeys(long rows, double theta, SplittableRandom random) {
    this.rows = rows;
    this.ranks = new ZipfianRanks(rows, theta, random);
  }

  @Override
  public long next() {
    return rows - 1 - ranks.next();
  }
}
