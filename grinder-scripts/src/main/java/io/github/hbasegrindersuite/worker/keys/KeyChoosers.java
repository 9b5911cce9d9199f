package io.github.hbasegrindersuite.worker.keys;

import io.github.hbasegrindersuite.worker.Operation;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.targets.WideRow;
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
    int wide = settings.integer(Key.WIDE_COLUMNS);
    // a wide row's requests pick a batch of its columns, not a row
    long rows = wide > 0 ? WideRow.batches(wide, settings.integer(Key.WIDE_BATCH)) : settings.integer(Key.ROWS);
    return switch (settings.keyDistribution()) {
      case UNIFORM -> new UniformKeys(rows, random);
      case ZIPFIAN -> new ZipfianKeys(rows, settings.decimal(Key.ZIPFIAN_CONSTANT), random);
      case LATEST -> new LatestKeys(rows, settings.decimal(Key.ZIPFIAN_CONSTANT), random);
      case HOTSPOT -> new HotspotKeys(rows, settings.decimal(Key.HOTSPOT_DATA_FRACTION),
          settings.decimal(Key.HOTSPOT_OPERATION_FRACTION), random);
      case SEQUENTIAL -> new SequentialKeys(rows, slice, slices, scansOnly(settings) ? settings.integer(Key.SCAN_LENGTH) : 1);
      case REVERSE -> new ReverseKeys(rows, slice, slices);
    };
  }

  /** A scan-only mix: sequential scans then start a scan's length apart, so each reads rows the last did not. */
  static boolean scansOnly(Settings settings) {
    return settings.mix().size() == 1 && settings.mix().containsKey(Operation.SCAN);
  }
}
