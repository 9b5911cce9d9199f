package io.github.hbasegrindersuite.lifecycle;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The size a sweep runs at ({@code ./suite sweep NAME --scale} or {@code sweep.scale}): tiny, for
 * {@code ./suite test}, runs in seconds; default is the scenario as written (sized for a 2-core
 * machine); a positive number N multiplies its rows and threads, for a real cluster.
 */
final class SweepScale {
  /** Tiny: at most this many rows, threads (the largest point; others in proportion), regions. */
  static final int TINY_ROWS = 2000;
  static final int TINY_MAX_THREADS = 4;
  static final int TINY_REGIONS = 2;
  static final int TINY_DURATION_S = 5;
  /** Tiny with sweep.work = rows: the bound of a run that ends with its (small) work. */
  static final int TINY_WORK_BOUND_S = 60;
  /** Bytes a cell costs beyond its value on disk (key, family, qualifier, timestamp, HFile index), a round guess. */
  static final int CELL_OVERHEAD_BYTES = 50;

  final String text;
  final boolean tiny;
  final int factor;

  private SweepScale(String text, boolean tiny, int factor) {
    this.text = text;
    this.tiny = tiny;
    this.factor = factor;
  }

  static SweepScale parse(String source, String value) throws LifecycleException {
    final String v = value == null ? "" : value.trim();
    if (v.isEmpty() || v.equals("default")) {
      return new SweepScale("default", false, 1);
    }
    if (v.equals("tiny")) {
      return new SweepScale("tiny", true, 1);
    }
    if (v.matches("[0-9]{1,6}") && Integer.parseInt(v) > 0) {
      return new SweepScale(v, false, Integer.parseInt(v));
    }
    throw new LifecycleException(source + " '" + value + "' is not accepted (accepted: tiny, default, or a whole number > 0)");
  }

  boolean isDefault() {
    return !tiny && factor == 1;
  }

  /** The sweep's thread counts at this scale: tiny keeps their proportions under TINY_MAX_THREADS, without repeats. */
  List<Integer> threads(List<Integer> given) throws LifecycleException {
    if (given.isEmpty() || isDefault()) {
      return given;
    }
    final LinkedHashSet<Integer> out = new LinkedHashSet<>();
    final int largest = given.stream().mapToInt(Integer::intValue).max().getAsInt();
    for (int t : given) {
      out.add(tiny ? Math.max(1, (int) Math.round((double) t * TINY_MAX_THREADS / largest)) : multiply("threads", t));
    }
    return new ArrayList<>(out);
  }

  /**
   * Rows and regions of the base properties at this scale (rows x N; tiny: a few thousand rows, two
   * regions), and a table of its own (NAME_tiny, NAME_xN): the preparer refuses to replace a table
   * holding other rows, and a tiny sweep must not cost the default scale its prepared table.
   */
  void applyTo(Map<String, String> base) throws LifecycleException {
    if (isDefault()) {
      return;
    }
    base.put("hbaseload.table", table(base.getOrDefault("hbaseload.table", "hbaseload")));
    if (tiny) {
      base.put("grinder.jvm.arguments", c1Only(base.getOrDefault("grinder.jvm.arguments", "")));
    }
    final int rows = (int) Math.min(Integer.MAX_VALUE, number(base, "hbaseload.rows", "100000"));
    base.put("hbaseload.rows", String.valueOf(tiny ? Math.min(rows, TINY_ROWS) : multiply("hbaseload.rows", rows)));
    if (tiny && base.containsKey("hbaseload.regions")) {
      base.put("hbaseload.regions", String.valueOf(Math.min(TINY_REGIONS,
          RunArguments.positive("hbaseload.regions", base.get("hbaseload.regions")))));
    }
  }

  /**
   * Tiny runs last seconds, where C2's compiles never repay: a worker with C1 only reaches its first
   * request in about half the time (3.6 s against 6.7-9.0 s, two workers on 2 cores with HBase).
   * A scenario that chose its own compilers keeps them.
   */
  static String c1Only(String jvmArguments) {
    final String args = jvmArguments.trim();
    return args.matches(".*-XX:(TieredStopAtLevel=|[-+]TieredCompilation).*") ? args : (args + " -XX:TieredStopAtLevel=1").trim();
  }

  /** A table's name at this scale: NAME_tiny, NAME_xN, or NAME at the default scale. */
  String table(String name) {
    return isDefault() ? name.trim() : name.trim() + (tiny ? "_tiny" : "_x" + factor);
  }

  /**
   * A point's own settings (a variant's hbaseload.table, rows, regions) at this scale, as
   * {@link #applyTo} scales the base's: a variant's table must not escape the scale's own table
   * name, nor its rows the tiny bound. Keys the point does not set are left out.
   */
  Map<String, String> applyToSets(Map<String, String> sets) throws LifecycleException {
    if (isDefault() || !(sets.containsKey("hbaseload.table") || sets.containsKey("hbaseload.rows") || sets.containsKey("hbaseload.regions"))) {
      return sets;
    }
    final Map<String, String> out = new java.util.LinkedHashMap<>(sets);
    if (sets.containsKey("hbaseload.table")) {
      out.put("hbaseload.table", table(sets.get("hbaseload.table")));
    }
    if (sets.containsKey("hbaseload.rows")) {
      final int rows = (int) Math.min(Integer.MAX_VALUE, number(sets, "hbaseload.rows", "1"));
      out.put("hbaseload.rows", String.valueOf(tiny ? Math.min(rows, TINY_ROWS) : multiply("hbaseload.rows", rows)));
    }
    if (tiny && sets.containsKey("hbaseload.regions")) {
      out.put("hbaseload.regions", String.valueOf(Math.min(TINY_REGIONS, RunArguments.positive("hbaseload.regions", sets.get("hbaseload.regions")))));
    }
    return out;
  }

  private int multiply(String what, int value) throws LifecycleException {
    final long scaled = (long) value * factor;
    if (scaled > Integer.MAX_VALUE) {
      throw new LifecycleException("scale " + text + ": " + what + " " + value + " x " + factor + " is more than " + Integer.MAX_VALUE);
    }
    return (int) scaled;
  }

  /** The table's size on disk, roughly: rows x families x columns x (value + cell overhead). */
  static long tableBytes(Map<String, String> base) throws LifecycleException {
    final long rows = number(base, "hbaseload.rows", "100000");
    final long families = number(base, "hbaseload.families", "1");
    final long columns = number(base, "hbaseload.columns", "1");
    final long value = number(base, "hbaseload.value.size", "1000");
    // a varied row shape (hbaseload.row.columns / row.bytes MIN-MAX): its largest row
    final String rowColumns = base.getOrDefault("hbaseload.row.columns", "").trim();
    final String rowBytes = base.getOrDefault("hbaseload.row.bytes", "").trim();
    final long cells = families * (rowColumns.isEmpty() ? columns : rangeMax("hbaseload.row.columns", rowColumns));
    final long bytes = rowBytes.isEmpty() ? cells * value : families * rangeMax("hbaseload.row.bytes", rowBytes);
    return rows * (bytes + cells * CELL_OVERHEAD_BYTES);
  }

  private static long rangeMax(String key, String text) throws LifecycleException {
    final String max = text.substring(text.indexOf('-') + 1).trim();
    if (!max.matches("[0-9]{1,9}")) {
      throw new LifecycleException(key + " '" + text + "' is not a range (MIN-MAX)");
    }
    return Long.parseLong(max);
  }

  private static long number(Map<String, String> base, String key, String otherwise) throws LifecycleException {
    final String text = base.getOrDefault(key, otherwise).trim();
    if (!text.matches("[0-9]{1,12}")) {
      throw new LifecycleException(key + " '" + text + "' is not a whole number");
    }
    return Long.parseLong(text);
  }

  /** Refuses a table that would not fit the free space of the disk the embedded HBase writes to. */
  void checkDisk(Map<String, String> base, long freeBytes, String disk) throws LifecycleException {
    final long need = tableBytes(base);
    if (need > freeBytes) {
      throw new LifecycleException(String.format("scale %s: the table needs about %.1f GB (%s rows), the disk of %s has %.1f GB free",
          text, need / 1e9, base.get("hbaseload.rows"), disk, freeBytes / 1e9));
    }
  }
}
