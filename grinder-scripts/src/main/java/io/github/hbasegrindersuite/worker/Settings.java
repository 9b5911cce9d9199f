package io.github.hbasegrindersuite.worker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Every hbaseload.* key, its default and its meaning, declared in this one place (YCSB's
 * style); grinder.properties documents the same keys at the same defaults (a test checks).
 *
 * <p>{@link #load} refuses an unknown hbaseload.* key and any ill-typed or impossible value
 * with a {@link SettingsException} naming the key and the accepted values.
 */
public final class Settings {

  public static final String PREFIX = "hbaseload.";

  /** One declared key: short name (without the prefix), default, parser, meaning. */
  public static final class Key {
    public final String name;
    public final String defaultValue;
    public final String meaning;
    final BiFunction<String, String, Object> parser;

    Key(String name, String defaultValue, BiFunction<String, String, Object> parser, String meaning) {
      this.name = name;
      this.defaultValue = defaultValue;
      this.parser = parser;
      this.meaning = meaning;
    }

    public String fullName() {
      return PREFIX + name;
    }
  }

  private static final List<Key> KEYS = List.of(
      new Key("target", "direct", choice("direct", "thrift"),
          "how workers reach HBase: direct = HBase Java client, thrift = thrift2 client (HBase's gateway or the shim)"),
      new Key("operations", "get:70,put:30", Settings::mix,
          "the operation mix, operation:percent pairs summing to 100 (" + Operation.labels() + ")"),
      new Key("table", "hbaseload", Settings::name, "the table under load"),
      new Key("family", "f", Settings::name, "the column family (with families > 1: f0, f1, ...)"),
      new Key("families", "1", integer(1, 100), "column families per row"),
      new Key("columns", "1", integer(1, 10000), "columns (qualifiers q0, q1, ...) per family"),
      new Key("rows", "100000", integer(1, Integer.MAX_VALUE), "rows in the table; keys are row numbers 0..rows-1"),
      new Key("key.width", "10", integer(1, 19), "digits of the zero-padded decimal row key"),
      new Key("value.size", "1000", integer(0, 64 * 1024 * 1024), "bytes per value (per column)"),
      new Key("value.kind", "random", choice("random", "compressible"),
          "value bytes: random (incompressible) or compressible (text-like, about 4:1 with gz)"),
      new Key("key.distribution", "uniform", choice("uniform", "zipfian", "hotspot", "sequential", "latest"),
          "which rows requests pick"),
      new Key("zipfian.constant", "0.99", decimal(0.01, 0.999), "skew of zipfian and latest (theta, below 1)"),
      new Key("hotspot.data.fraction", "0.2", decimal(0.0001, 1.0), "hotspot: fraction of rows that are hot"),
      new Key("hotspot.operation.fraction", "0.8", decimal(0.0, 1.0), "hotspot: fraction of requests that go to hot rows"),
      new Key("scan.length", "100", integer(1, 1000000), "rows read by one scan, from a random start row"),
      new Key("batch.size", "10", integer(1, 100000), "rows per batch-get and batch-put"),
      new Key("client.buffering", "false", bool(),
          "true = puts go through a BufferedMutator (autoFlush off); the witness then times the buffering"),
      new Key("write.buffer.bytes", "2097152", integer(1024, Integer.MAX_VALUE), "client write buffer when buffering"),
      new Key("durability", "default", choice("default", "sync_wal", "async_wal", "skip_wal", "fsync_wal"),
          "durability of puts, batch-puts, deletes and increments"),
      new Key("verify", "false", bool(),
          "true = every get checks that the value read belongs to its row; a mismatch or a missing row is an error"),
      new Key("rate.per.thread", "0", decimal(0.0, 1000000.0),
          "target requests/s per thread (open model); 0 = closed loop. When set, the data log gets 'Lag (us)'"),
      new Key("agents", "1", integer(1, 10000),
          "injector hosts in the run (./suite run fills it in): sequential keys split the rows over all threads"),
      new Key("seed", "42", integer(0, Integer.MAX_VALUE), "random seed; each thread derives its own from it"),
      new Key("timeout.ms", "10000", integer(1, 3600000), "client operation timeout: no request blocks longer"),
      new Key("hbase.site", "", Settings::text,
          "a client hbase-site.xml for a real cluster; empty = the embedded HBase on zookeeper.quorum:port"),
      new Key("zookeeper.quorum", "127.0.0.1", Settings::name, "ZooKeeper quorum when hbase.site is empty"),
      new Key("zookeeper.port", "2181", integer(1, 65535), "ZooKeeper client port when hbase.site is empty"),
      new Key("thrift.host", "127.0.0.1", Settings::name, "thrift target: host of the thrift2 server"),
      new Key("thrift.port", "9091", integer(1, 65535),
          "thrift target: port (9091 = HBase's own thrift2 gateway, 9092 = the thrift-shim)"),
      new Key("thrift.transport", "buffered", choice("buffered", "framed"), "thrift target: transport"),
      new Key("thrift.protocol", "binary", choice("binary", "compact"), "thrift target: protocol"),
      new Key("regions", "8", integer(1, 10000), "prepare: regions the table is pre-split into"),
      new Key("compression", "none", choice("none", "gz", "snappy"), "prepare: column family compression"),
      new Key("bloom", "row", choice("none", "row", "rowcol"), "prepare: bloom filter"),
      new Key("block.size", "65536", integer(1024, 16 * 1024 * 1024), "prepare: HFile block size in bytes"),
      new Key("in.memory", "false", bool(), "prepare: keep the families in the in-memory block cache tier"));

  private final Map<String, Object> values;

  private Settings(Map<String, Object> values) {
    this.values = values;
  }

  public static List<Key> keys() {
    return KEYS;
  }

  /** Reads a Grinder/Java Properties object; every key not given takes its default. */
  public static Settings load(Properties properties) {
    Map<String, String> given = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(PREFIX)) {
        given.put(name, properties.getProperty(name));
      }
    }
    return load(given);
  }

  public static Settings load(Map<String, String> given) {
    Map<String, Key> known = new LinkedHashMap<>();
    for (Key key : KEYS) {
      known.put(key.fullName(), key);
    }
    TreeSet<String> unknown = new TreeSet<>(given.keySet());
    unknown.removeAll(known.keySet());
    if (!unknown.isEmpty()) {
      throw new SettingsException("unknown key " + unknown.first() + " (accepted: "
          + String.join(", ", known.keySet()) + ")");
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (Key key : KEYS) {
      String text = given.getOrDefault(key.fullName(), key.defaultValue);
      values.put(key.name, key.parser.apply(key.fullName(), text == null ? "" : text.trim()));
    }
    return new Settings(values);
  }

  public int integer(String name) {
    return (Integer) value(name);
  }

  public double decimal(String name) {
    return (Double) value(name);
  }

  public boolean flag(String name) {
    return (Boolean) value(name);
  }

  public String text(String name) {
    return (String) value(name);
  }

  /** The operation mix, in declaration order, weights summing to 100. */
  @SuppressWarnings("unchecked")
  public Map<Operation, Integer> mix() {
    return (Map<Operation, Integer>) value("operations");
  }

  /** Family names: the family itself, or family0..familyN-1 when families > 1. */
  public List<String> familyNames() {
    int families = integer("families");
    if (families == 1) {
      return List.of(text("family"));
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < families; i++) {
      names.add(text("family") + i);
    }
    return names;
  }

  /** Every key with its parsed value rendered as text, for the run manifest and logs. */
  public Map<String, String> asProperties() {
    Map<String, String> all = new LinkedHashMap<>();
    for (Key key : KEYS) {
      Object v = value(key.name);
      all.put(key.fullName(), v instanceof Map ? renderMix(mix()) : String.valueOf(v));
    }
    return all;
  }

  private Object value(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("no such setting " + name);
    }
    return v;
  }

  private static String renderMix(Map<Operation, Integer> mix) {
    StringBuilder out = new StringBuilder();
    mix.forEach((op, w) -> out.append(out.length() == 0 ? "" : ",").append(op.label()).append(':').append(w));
    return out.toString();
  }

  // ---- parsers: each takes (full key name, trimmed text) and returns the value or throws.

  private static BiFunction<String, String, Object> integer(int min, int max) {
    return (key, text) -> {
      long value;
      try {
        value = Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new SettingsException(key + "=" + text + " is not a whole number");
      }
      if (value < min || value > max) {
        throw new SettingsException(key + "=" + text + " is out of range (accepted: " + min + ".." + max + ")");
      }
      return (int) value;
    };
  }

  private static BiFunction<String, String, Object> decimal(double min, double max) {
    return (key, text) -> {
      double value;
      try {
        value = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        throw new SettingsException(key + "=" + text + " is not a number");
      }
      if (!(value >= min && value <= max)) {
        throw new SettingsException(key + "=" + text + " is out of range (accepted: " + min + ".." + max + ")");
      }
      return value;
    };
  }

  private static BiFunction<String, String, Object> choice(String... accepted) {
    return (key, text) -> {
      String value = text.toLowerCase(Locale.ROOT);
      for (String candidate : accepted) {
        if (candidate.equals(value)) {
          return candidate;
        }
      }
      throw new SettingsException(key + "=" + text + " is not accepted (accepted: " + String.join(", ", accepted) + ")");
    };
  }

  private static BiFunction<String, String, Object> bool() {
    return choice("true", "false").andThen("true"::equals);
  }

  private static Object text(String key, String text) {
    return text;
  }

  private static Object name(String key, String text) {
    if (text.isEmpty()) {
      throw new SettingsException(key + " is empty (accepted: a non-empty name)");
    }
    return text;
  }

  private static Object mix(String key, String text) {
    Map<Operation, Integer> mix = new LinkedHashMap<>();
    int total = 0;
    for (String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      String[] pair = part.split(":", 2);
      if (pair.length != 2) {
        throw new SettingsException(key + "=" + text + ": '" + part.trim() + "' is not operation:percent (e.g. get:70,put:30)");
      }
      Operation operation = Operation.byLabel(pair[0]);
      if (operation == null) {
        throw new SettingsException(key + "=" + text + ": unknown operation '" + pair[0].trim()
            + "' (accepted: " + Operation.labels() + ")");
      }
      int weight;
      try {
        weight = Integer.parseInt(pair[1].trim());
      } catch (NumberFormatException e) {
        throw new SettingsException(key + "=" + text + ": weight of " + operation.label() + " is not a whole number");
      }
      if (weight < 0) {
        throw new SettingsException(key + "=" + text + ": weight of " + operation.label() + " is negative");
      }
      if (mix.containsKey(operation)) {
        throw new SettingsException(key + "=" + text + ": " + operation.label() + " is given twice");
      }
      mix.put(operation, weight);
      total += weight;
    }
    if (mix.isEmpty()) {
      throw new SettingsException(key + " is empty (accepted: operation:percent pairs, e.g. get:70,put:30)");
    }
    if (total != 100) {
      throw new SettingsException(key + "=" + text + ": percentages sum to " + total + ", not 100");
    }
    return Collections.unmodifiableMap(mix);
  }
}
