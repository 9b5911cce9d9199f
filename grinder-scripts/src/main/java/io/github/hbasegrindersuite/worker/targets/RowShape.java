package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.Settings;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The families and qualifiers every row has (hbaseload.families x hbaseload.columns). */
final class RowShape {
  static final byte[] COUNTER = "counter".getBytes(StandardCharsets.US_ASCII);

  final byte[][] families;
  final byte[][] qualifiers;

  RowShape(Settings settings) {
    List<String> names = settings.familyNames();
    families = new byte[names.size()][];
    for (int i = 0; i < families.length; i++) {
      families[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
    }
    int columns = settings.integer("columns");
    qualifiers = new byte[columns][];
    for (int i = 0; i < columns; i++) {
      qualifiers[i] = (columns == 1 ? "v" : "q" + i).getBytes(StandardCharsets.US_ASCII);
    }
  }
}
