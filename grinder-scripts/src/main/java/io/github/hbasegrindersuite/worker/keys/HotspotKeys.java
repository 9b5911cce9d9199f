package io.github.hbasegrindersuite.worker.keys;

import java.util.SplittableRandom;

/**
 * A hot set: the first dataFraction of the rows receives operationFraction of the requests,
 * uniformly within the hot and within the cold part (YCSB's hotspot distribution).
 */
public final class HotspotKeys implements KeyChooser {
  private final long hotRows;
  private final long coldRows;
  private final double operationFraction;
  private final SplittableRandom random;

  public HotspotKeys(long rows, double dataFraction, double operationFraction, SplittableRandom random) {
    this.hotRows = Math.max(1, Math.min(rows, Math.round(rows * dataFraction)));
    this.coldRows = rows - hotRows;
    this.operationFraction = operationFraction;
    this.random = random;
  }

  @Override
  public long next() {
    if (coldRows == 0 || random.nextDouble() < operationFraction) {
      return random.nextLong(hotRows);
    }
    return hotRows + random.nextLong(coldRows);
  }
}
