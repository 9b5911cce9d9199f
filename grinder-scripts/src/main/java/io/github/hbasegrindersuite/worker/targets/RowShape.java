package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.IntRange;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The families and qualifiers every row has (hbaseload.families x hbaseload.columns): what the
 * targets read and write and what the table preparer loads. With hbaseload.row.columns and
 * hbaseload.row.bytes the shape varies row by row (the 2010 Adobe study's rows of 128-256 bytes in
 * 1 to 5 columns), each row's shape derived from its key, so a put rewrites a row as prepared.
 */
public final class RowShape {
  static final byte[] COUNTER = "counter".getBytes(StandardCharsets.US_ASCII);

  /** hbaseload.families.written's accepted values. */
  public final byte[][] families;
  /** Every qualifier a row may have; a row uses the first {@link #columnsOf} of them. */
  public final byte[][] qualifiers;
  private final IntRange rowColumns;
  private final IntRange rowBytes;
  private final boolean oneFamily;
  /** Each family alone, so familiesOf allocates nothing per request. */
  private final byte[][][] single;

  public RowShape(Settings settings) {
    List<String> names = settings.familyNames();
    families = new byte[names.size()][];
    for (int i = 0; i < families.length; i++) {
      families[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
    }
    oneFamily = settings.familiesWritten() == SettingChoices.FamiliesWritten.ONE;
    single = new byte[families.length][][];
    for (int i = 0; i < families.length; i++) {
      single[i] = new byte[][] {families[i]};
    }
    rowColumns = settings.range(Key.ROW_COLUMNS);
    rowBytes = settings.range(Key.ROW_BYTES);
    int columns = rowColumns.given ? rowColumns.max : settings.integer(Key.COLUMNS);
    qualifiers = new byte[columns][];
    for (int i = 0; i < columns; i++) {
      qualifiers[i] = (columns == 1 ? "v" : "q" + i).getBytes(StandardCharsets.US_ASCII);
    }
  }

  /**
   * The families this row has: every family, or with hbaseload.families.written=one a single one
   * picked from the key (so 1000 families cost one value per put, as a 10-family table does).
   */
  public byte[][] familiesOf(byte[] row) {
    return oneFamily ? single[(int) Math.floorMod(hash(row, 3), (long) families.length)] : families;
  }

  /** The columns this row has. */
  public int columnsOf(byte[] row) {
    return rowColumns.given ? rowColumns.pick(hash(row, 1)) : qualifiers.length;
  }

  /** The bytes of this row's values in total (hbaseload.row.bytes), or -1 when each value is value.size. */
  public int bytesOf(byte[] row) {
    return rowBytes.given ? rowBytes.pick(hash(row, 2)) : -1;
  }

  /** The value of column {@code column} of {@code columns}: the row's bytes split evenly, the first columns taking the remainder. */
  public byte[] value(ValuePool values, byte[] row, int column, int columns, SplittableRandom random) {
    byte[] value = values.valueFor(row, random);
    if (!rowBytes.given) {
      return value;
    }
    int total = bytesOf(row);
    return Arrays.copyOf(value, total / columns + (column < total % columns ? 1 : 0));
  }

  /** A well-mixed hash of the row key (SplitMix64's finaliser over Arrays.hashCode), salted per use. */
  static long hash(byte[] row, long salt) {
    long z = Arrays.hashCode(row) * 0x9E3779B97F4A7C15L + salt * 0xD1B54A32D69B5A67L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
