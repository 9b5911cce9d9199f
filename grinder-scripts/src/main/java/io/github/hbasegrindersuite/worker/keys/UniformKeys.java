package io.github.hbasegrindersuite.worker.keys;

import java.util.SplittableRandom;

/** Every row equally likely (the reference study's uniform random keys). */
public final class UniformKeys implements KeyChooser {
  private final long rows;
  private final SplittableRandom random;

  public UniformKeys(long rows, SplittableRandom random) {
    this.rows = rows;
    this.random = random;
  }

  @Override
  public long next() {
    return random.nextLong(rows);
  }
}
