package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The families and qualifiers every row has (hbaseload.families x hbaseload.columns): what the
 * targets read and write and what the table preparer loads.
 */
public final class RowShape {
  static final byte[] COUNTER = "counter".getBytes(StandardCharsets.US_ASCII);

  public final byte[][] families;
  public final byte[][] qualifiers;

  public RowShape(Settings settings) {
    List<String> names = settings.familyNames();
    families = new byte[names.size()][];
    for (int i = 0; i < families.length; i++) {
      families[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
    }
    int columns = settings.integer(Key.COLUMNS);
    qualifiers = new byte[columns][];
    for (int i = 0; i < columns; i++) {
      qualifiers[i] = (columns == 1 ? "v" : "q" + i).getBytes(StandardCharsets.US_ASCII);
    }
  }
}
