package io.github.hbasegrindersuite.worker;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Every hbaseload.* key, its default and its meaning, declared in this one place ({@link Key},
 * typed as thrift-shim's ShimConfig.Key is); grinder.properties documents the same keys at the
 * same defaults (a test checks). Choice keys take their accepted values from the enum their
 * consumer switches over ({@link Choice}), so no list is written twice.
 *
 * <p>{@link #load} refuses an unknown hbaseload.* key and any ill-typed or impossible value
 * with a {@link SettingsException} naming the key and the accepted values.
 */
public final class Settings {

  public static final String PREFIX = "hbaseload.";

  /** The keys, in the order grinder.properties and error messages list them. */
  public enum Key {
    TARGET("target", "direct", SettingParser.choice(SettingChoices.Target.class),
        "how workers reach HBase: direct = HBase Java client, thrift = thrift2 client (HBase's gateway or the shim),"
            + " both = every other thread each way (a sweep's warm-up of both targets at once)"),
    OPERATIONS("operations", "get:70,put:30", SettingParser.mix(),
        "the operation mix, operation:percent pairs summing to 100 (" + Operation.labels() + ")"),
    TABLE("table", "hbaseload", SettingParser.name(), "the table under load"),
    FAMILY("family", "f", SettingParser.name(), "the column family (with families > 1: f0, f1, ...)"),
    FAMILIES("families", "1", SettingParser.integer(1, MAX_FAMILIES), "column families per row"),
    FAMILIES_WRITTEN("families.written", "all", SettingParser.choice(SettingChoices.FamiliesWritten.class),
        "with families > 1, which a put writes and a get returns: all of them, or one, each row's own (from its key)"),
    COLUMNS("columns", "1", SettingParser.integer(1, 10000), "columns (qualifiers q0, q1, ...) per family"),
    ROW_COLUMNS("row.columns", "", SettingParser.range(1, 10000),
        "columns per row as MIN-MAX (e.g. 1-5), each row's own from its key; empty: hbaseload.columns on every row"),
    ROW_BYTES("row.bytes", "", SettingParser.range(1, 64 * 1024 * 1024),
        "a row's value bytes in total as MIN-MAX (e.g. 128-256), each row's own, split evenly over its columns; empty: value.size per column"),
    ROWS("rows", "100000", SettingParser.integer(1, Integer.MAX_VALUE),
        "rows in the table; keys are row numbers 0..rows-1"),
    WIDE_COLUMNS("wide.columns", "0", SettingParser.integer(0, MAX_WIDE_COLUMNS),
        "a wide row: 0 = off; N = puts add columns q0..qN-1 to one row (row 0), wide.batch columns a put, and gets read one column of it"),
    WIDE_BATCH("wide.batch", "1000", SettingParser.integer(1, MAX_WIDE_BATCH),
        "wide row: columns per put (bounds the memory of one request)"),
    KEY_WIDTH("key.width", "10", SettingParser.integer(1, 19), "digits of the zero-padded decimal row key"),
    VALUE_SIZE("value.size", "1000", SettingParser.integer(0, 64 * 1024 * 1024), "bytes per value (per column)"),
    VALUE_KIND("value.kind", "random", SettingParser.choice(ValuePool.Kind.class),
        "value bytes: random (incompressible) or compressible (text-like, about 4:1 with gz)"),
    KEY_DISTRIBUTION("key.distribution", "uniform", SettingParser.choice(SettingChoices.KeyDistribution.class),
        "which rows requests pick"),
    ZIPFIAN_CONSTANT("zipfian.constant", "0.99", SettingParser.decimal(0.01, 0.999),
        "skew of zipfian and latest (theta, below 1)"),
    HOTSPOT_DATA_FRACTION("hotspot.data.fraction", "0.2", SettingParser.decimal(0.0001, 1.0),
        "hotspot: fraction of rows that are hot"),
    HOTSPOT_OPERATION_FRACTION("hotspot.operation.fraction", "0.8", SettingParser.decimal(0.0, 1.0),
        "hotspot: fraction of requests that go to hot rows"),
    SCAN_LENGTH("scan.length", "100", SettingParser.integer(1, 1000000), "rows read by one scan, from a random start row"),
    BATCH_SIZE("batch.size", "10", SettingParser.integer(1, 100000), "rows per batch-get and batch-put"),
    CLIENT_BUFFERING("client.buffering", "false", SettingParser.bool(),
        "true = puts go through a BufferedMutator (autoFlush off); the witness then times the buffering"),
    WRITE_BUFFER_BYTES("write.buffer.bytes", "2097152", SettingParser.integer(1024, Integer.MAX_VALUE),
        "client write buffer when buffering"),
    DURABILITY("durability", "default", SettingParser.choice(SettingChoices.WriteDurability.class),
        "durability of puts, batch-puts, deletes and increments"),
    VERIFY("verify", "false", SettingParser.bool(),
        "true = every get checks that the value read belongs to its row; a mismatch or a missing row is an error"),
    AUDIT("audit", "false", SettingParser.bool(),
        "true = the acknowledged-write audit: every put writes a key no other put writes (ROW/WRITER/THREAD/SEQ, in the chosen row's"
            + " region) with a value recomputable from the key, and each put's outcome goes to <host>-<n>.audit; ./suite verify RUN"
            + " (run at the end of an audited run) reads them back and counts lost, corrupted and in-doubt writes"),
    SETTLE("settle", "false", SettingParser.bool(),
        "true = before the load, ./suite run flushes the table and waits until HBase compacts nothing (lifecycle table-settle):"
            + " the run starts with empty memstores and without the compactions of the runs before it"),
    AUDIT_RUN("audit.run", "", SettingParser.text(),
        "audit: the run's key, which makes its audited keys its own (./suite run fills it in; empty: the worker's start time)"),
    RATE_PER_THREAD("rate.per.thread", "0", SettingParser.decimal(0.0, 1000000.0),
        "target requests/s per thread (open model); 0 = closed loop. When set, the data log gets 'Lag (us)'"),
    AGENTS("agents", "1", SettingParser.integer(1, 10000),
        "injector hosts in the run (./suite run fills it in): sequential keys split the rows over all threads"),
    SEED("seed", "42", SettingParser.integer(0, Integer.MAX_VALUE), "random seed; each thread derives its own from it"),
    DATALOG("datalog", "on", SettingParser.choice(SettingChoices.DataLog.class),
        "on = Grinder's per-request data log; off = none (long runs): the interval logs (<host>-<n>.hlog) alone carry latencies"),
    TIMEOUT_MS("timeout.ms", "10000", SettingParser.integer(1, 3600000),
        "client operation timeout: no request blocks longer"),
    HBASE_SITE("hbase.site", "", SettingParser.text(),
        "a client hbase-site.xml for a real cluster; empty = the embedded HBase on zookeeper.quorum:port"),
    ZOOKEEPER_QUORUM("zookeeper.quorum", "127.0.0.1", SettingParser.name(), "ZooKeeper quorum when hbase.site is empty"),
    ZOOKEEPER_PORT("zookeeper.port", "2181", SettingParser.integer(1, 65535),
        "ZooKeeper client port when hbase.site is empty"),
    THRIFT_HOST("thrift.host", "127.0.0.1", SettingParser.name(), "thrift target: host of the thrift2 server"),
    THRIFT_PORT("thrift.port", "9091", SettingParser.integer(1, 65535),
        "thrift target: port (9091 = HBase's own thrift2 gateway, 9092 = the thrift-shim)"),
    THRIFT_TRANSPORT("thrift.transport", "buffered", SettingParser.choice(SettingChoices.ThriftTransport.class),
        "thrift target: transport"),
    THRIFT_PROTOCOL("thrift.protocol", "binary", SettingParser.choice(SettingChoices.ThriftProtocol.class),
        "thrift target: protocol"),
    PREPARE_TIMEOUT_S("prepare.timeout.s", "600", SettingParser.integer(1, 86400),
        "prepare: seconds the table's creation may take; longer is reported as a timeout (exit 3), not waited for"),
    PREPARE_RECREATE("prepare.recreate", "false", SettingParser.bool(),
        "prepare: drop, create and load the table even when it matches (as --force), so that its creation is timed afresh"),
    REGIONS("regions", "8", SettingParser.integer(1, 10000), "prepare: regions the table is pre-split into"),
    PREPARE_MODE("prepare.mode", "load", SettingParser.choice(SettingChoices.PrepareMode.class),
        "prepare: load = create the table and load its rows (nothing to do when it already matches); fresh = drop and create"
            + " it empty every time (regions = 1: one region that splits as it grows, PerformanceEvaluation's writes on a new table)"),
    COMPRESSION("compression", "none", SettingParser.choice(SettingChoices.FamilyCompression.class),
        "prepare: column family compression"),
    BLOOM("bloom", "row", SettingParser.choice(SettingChoices.Bloom.class), "prepare: bloom filter"),
    BLOCK_SIZE("block.size", "65536", SettingParser.integer(1024, 16 * 1024 * 1024), "prepare: HFile block size in bytes"),
    IN_MEMORY("in.memory", "false", SettingParser.bool(), "prepare: keep the families in the in-memory block cache tier"),
    MSLAB("mslab", "true", SettingParser.bool(),
        "prepare: false = the table's memstores take no MSLAB chunk (2 MiB of heap per family and region once written: 1000 families, 2 GiB)");

    /** The name without the prefix, as grinder.properties writes it after "hbaseload.". */
    public final String shortName;
    public final String defaultValue;
    public final String meaning;
    final SettingParser parser;

    Key(String shortName, String defaultValue, SettingParser parser, String meaning) {
      this.shortName = shortName;
      this.defaultValue = defaultValue;
      this.parser = parser;
      this.meaning = meaning;
    }

    public String fullName() {
      return PREFIX + shortName;
    }

    /** The key called {@code shortName} ("rows", "key.width"). */
    public static Key named(String shortName) {
      for (Key key : values()) {
        if (key.shortName.equals(shortName)) {
          return key;
        }
      }
      throw new IllegalArgumentException("no such setting " + shortName);
    }
  }

  /** The families a table may have: the schema-stress study's largest table had 1000. */
  static final int MAX_FAMILIES = 1000;
  /** A wide row: at most the schema-stress study's 1,000,000 columns and this many bytes of values. */
  static final int MAX_WIDE_COLUMNS = 1_000_000;
  static final long MAX_WIDE_ROW_BYTES = 1L << 30;
  static final int MAX_WIDE_BATCH = 100_000;

  private static final List<Key> KEYS = List.of(Key.values());

  private final Map<Key, Object> values;

  private Settings(Map<Key, Object> values) {
    this.values = values;
  }

  public static List<Key> keys() {
    return KEYS;
  }

  /** Reads a Grinder/Java Properties object; every key not given takes its default. */
  public static Settings load(Properties properties) {
    Map<String, String> all = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      all.put(name, properties.getProperty(name));
    }
    return ofRun(all);
  }

  /** A whole run's properties (grinder.* and others too, as plan.json keeps them): the hbaseload.* keys of it. */
  public static Settings ofRun(Map<String, String> runProperties) {
    Map<String, String> given = new LinkedHashMap<>();
    runProperties.forEach((name, value) -> {
      if (name.startsWith(PREFIX)) {
        given.put(name, value);
      }
    });
    return load(given);
  }

  /** The same from full key names ("hbaseload.rows") to their text. */
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
    Map<Key, Object> values = new EnumMap<>(Key.class);
    for (Key key : KEYS) {
      String text = given.getOrDefault(key.fullName(), key.defaultValue);
      values.put(key, key.parser.parse(key.fullName(), text == null ? "" : text.trim()));
    }
    checkRowShape(values);
    checkWideRow(values);
    checkAudit(values);
    return new Settings(values);
  }

  /** A varied row shape: one family, no value verification, at least one byte per column. */
  private static void checkRowShape(Map<Key, Object> values) {
    IntRange columns = (IntRange) values.get(Key.ROW_COLUMNS);
    IntRange bytes = (IntRange) values.get(Key.ROW_BYTES);
    if (!columns.given && !bytes.given) {
      return;
    }
    String shape = columns.given ? Key.ROW_COLUMNS.fullName() : Key.ROW_BYTES.fullName();
    if ((Integer) values.get(Key.FAMILIES) != 1) {
      throw new SettingsException(shape + " needs hbaseload.families=1 (a varied row shape is for one family)");
    }
    if ((Boolean) values.get(Key.VERIFY)) {
      throw new SettingsException(shape + " cannot be verified (hbaseload.verify=true checks one fixed value size)");
    }
    int maxColumns = columns.given ? columns.max : (Integer) values.get(Key.COLUMNS);
    if (bytes.given && bytes.min < maxColumns) {
      throw new SettingsException(Key.ROW_BYTES.fullName() + "=" + bytes + ": a row of " + maxColumns
          + " columns needs at least " + maxColumns + " bytes (one per column)");
    }
  }

  /** A wide row: one family, direct target, fixed value size, within MAX_WIDE_ROW_BYTES. */
  private static void checkWideRow(Map<Key, Object> values) {
    int wide = (Integer) values.get(Key.WIDE_COLUMNS);
    if (wide == 0) {
      return;
    }
    String name = Key.WIDE_COLUMNS.fullName() + "=" + wide;
    long bytes = (long) wide * (Integer) values.get(Key.VALUE_SIZE);
    if (bytes > MAX_WIDE_ROW_BYTES) {
      throw new SettingsException(name + " x " + Key.VALUE_SIZE.fullName() + "=" + values.get(Key.VALUE_SIZE)
          + " is a row of " + bytes + " bytes, above the bound of " + MAX_WIDE_ROW_BYTES + " (1 GiB)");
    }
    if (values.get(Key.TARGET) != SettingChoices.Target.DIRECT) {
      throw new SettingsException(name + " needs hbaseload.target=direct (the thrift targets have no wide row)");
    }
    if ((Integer) values.get(Key.FAMILIES) != 1 || ((IntRange) values.get(Key.ROW_COLUMNS)).given
        || ((IntRange) values.get(Key.ROW_BYTES)).given) {
      throw new SettingsException(name + " needs hbaseload.families=1 and no row.columns/row.bytes (a wide row is one family of fixed values)");
    }
    if ((Boolean) values.get(Key.VERIFY)) {
      throw new SettingsException(name + " cannot be verified (hbaseload.verify=true checks whole rows)");
    }
    for (Object operation : ((Map<?, ?>) values.get(Key.OPERATIONS)).keySet()) {
      if (operation != Operation.GET && operation != Operation.PUT) {
        throw new SettingsException(name + " takes gets and puts only, not " + ((Operation) operation).label()
            + " (hbaseload.operations)");
      }
    }
  }

  /** The audit: puts one by one, acknowledged by HBase (not a client buffer), of a fixed row shape. */
  private static void checkAudit(Map<Key, Object> values) {
    if (!(Boolean) values.get(Key.AUDIT)) {
      return;
    }
    String name = Key.AUDIT.fullName() + "=true";
    Map<?, ?> mix = (Map<?, ?>) values.get(Key.OPERATIONS);
    if (!mix.containsKey(Operation.PUT)) {
      throw new SettingsException(name + " audits puts, and hbaseload.operations=" + renderMix(castMix(mix)) + " has none");
    }
    if (mix.containsKey(Operation.BATCH_PUT)) {
      throw new SettingsException(name + " audits single puts, not batch-put (hbaseload.operations)");
    }
    if ((Boolean) values.get(Key.CLIENT_BUFFERING)) {
      throw new SettingsException(name + " needs hbaseload.client.buffering=false (a buffered put is acknowledged by the client, not by HBase)");
    }
    if ((Integer) values.get(Key.WIDE_COLUMNS) != 0) {
      throw new SettingsException(name + " needs hbaseload.wide.columns=0 (a wide row's puts add columns to one row)");
    }
    if (((IntRange) values.get(Key.ROW_COLUMNS)).given || ((IntRange) values.get(Key.ROW_BYTES)).given) {
      throw new SettingsException(name + " needs no row.columns/row.bytes (the audit writes a fixed row shape)");
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<Operation, Integer> castMix(Map<?, ?> mix) {
    return (Map<Operation, Integer>) mix;
  }

  // ---- typed values

  public int integer(Key key) {
    return value(key, Integer.class);
  }

  public double decimal(Key key) {
    return value(key, Double.class);
  }

  public boolean flag(Key key) {
    return value(key, Boolean.class);
  }

  /** A text key's value, or a choice key's label. */
  public String text(Key key) {
    Object value = values.get(key);
    return value instanceof Choice ? ((Choice) value).label() : value(key, String.class);
  }

  /** The operation mix, in the order given, weights summing to 100. */
  @SuppressWarnings("unchecked")
  public Map<Operation, Integer> mix() {
    return value(Key.OPERATIONS, Map.class);
  }

  public SettingChoices.Target target() {
    return value(Key.TARGET, SettingChoices.Target.class);
  }

  public SettingChoices.KeyDistribution keyDistribution() {
    return value(Key.KEY_DISTRIBUTION, SettingChoices.KeyDistribution.class);
  }

  public IntRange range(Key key) {
    return value(key, IntRange.class);
  }

  public SettingChoices.FamiliesWritten familiesWritten() {
    return value(Key.FAMILIES_WRITTEN, SettingChoices.FamiliesWritten.class);
  }

  public ValuePool.Kind valueKind() {
    return value(Key.VALUE_KIND, ValuePool.Kind.class);
  }

  public SettingChoices.DataLog dataLog() {
    return value(Key.DATALOG, SettingChoices.DataLog.class);
  }

  public SettingChoices.WriteDurability durability() {
    return value(Key.DURABILITY, SettingChoices.WriteDurability.class);
  }

  public SettingChoices.ThriftTransport thriftTransport() {
    return value(Key.THRIFT_TRANSPORT, SettingChoices.ThriftTransport.class);
  }

  public SettingChoices.ThriftProtocol thriftProtocol() {
    return value(Key.THRIFT_PROTOCOL, SettingChoices.ThriftProtocol.class);
  }

  public SettingChoices.PrepareMode prepareMode() {
    return value(Key.PREPARE_MODE, SettingChoices.PrepareMode.class);
  }

  public SettingChoices.FamilyCompression compression() {
    return value(Key.COMPRESSION, SettingChoices.FamilyCompression.class);
  }

  public SettingChoices.Bloom bloom() {
    return value(Key.BLOOM, SettingChoices.Bloom.class);
  }

  // ---- by short name ("rows"): for callers written before the typed keys

  public int integer(String name) {
    return integer(Key.named(name));
  }

  public double decimal(String name) {
    return decimal(Key.named(name));
  }

  public boolean flag(String name) {
    return flag(Key.named(name));
  }

  public String text(String name) {
    return text(Key.named(name));
  }

  /** Family names: the family itself, or family0..familyN-1 when families > 1. */
  public List<String> familyNames() {
    int families = integer(Key.FAMILIES);
    if (families == 1) {
      return List.of(text(Key.FAMILY));
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < families; i++) {
      names.add(text(Key.FAMILY) + i);
    }
    return names;
  }

  /** Every key with its parsed value rendered as text, for the run manifest and logs. */
  public Map<String, String> asProperties() {
    Map<String, String> all = new LinkedHashMap<>();
    for (Key key : KEYS) {
      Object value = values.get(key);
      all.put(key.fullName(), value instanceof Map ? renderMix(mix())
          : value instanceof Choice ? ((Choice) value).label() : String.valueOf(value));
    }
    return all;
  }

  private <T> T value(Key key, Class<T> type) {
    Object value = values.get(key);
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(key.fullName() + " is read as " + type.getSimpleName() + " but holds "
          + value.getClass().getSimpleName());
    }
    return type.cast(value);
  }

  private static String renderMix(Map<Operation, Integer> mix) {
    StringBuilder out = new StringBuilder();
    mix.forEach((op, w) -> out.append(out.length() == 0 ? "" : ",").append(op.label()).append(':').append(w));
    return out.toString();
  }
}
