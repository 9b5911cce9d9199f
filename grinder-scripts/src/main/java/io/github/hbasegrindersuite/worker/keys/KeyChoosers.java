package io.github.hbasegrindersuite.worker.keys;

import io.github.hbasegrindersuite.worker.Settings;
import java.util.SplittableRandom;

/** Builds the configured key chooser for one thread. */
public final class KeyChoosers {
  private KeyChoosers() {
  }

  /**
   * @param slice this thread's index among all threads of the run (agent, process, thread)
   * @param slices all threads of the run
   */
  public static KeyChooser create(Settings settings, SplittableRandom random, int slice, int slices) {
    long rows = settings.integer("rows");
    String distribution = settings.text("key.distribution");
    switch (distribution) {
      case "uniform":
        return new UniformKeys(rows, random);
      case "zipfian":
        return new ZipfianKeys(rows, settings.decimal("zipfian.constant"), random);
      case "latest":
        return new LatestKeys(rows, settings.decimal("zipfian.constant"), random);
      case "hotspot":
        return new HotspotKeys(rows, settings.decimal("hotspot.data.fraction"),
            settings.decimal("hotspot.operation.fraction"), random);
      case "sequential":
        return new SequentialKeys(rows, slice, slices);
      default:
        throw new IllegalArgumentException("unknown key distribution " + distribution);
    }
  }
}
