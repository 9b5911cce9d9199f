package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import io.github.hbasegrindersuite.worker.targets.RowShape;
import io.github.hbasegrindersuite.worker.targets.WideRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * ./suite prepare: create the load table pre-split over the key space and load its rows.
 *
 * <pre>TablePreparer PROPERTIES [--force]</pre>
 *
 * Skips when the table already holds what the properties ask for (a marker in the table
 * descriptor, written only after a complete load); --force drops and recreates it. Loads with
 * one BufferedMutator per loader thread over disjoint key ranges, printing progress, and ends
 * with one line: regions, rows, bytes, seconds. Exit 1 with a one-line reason on failure.
 * The thrift-shim benchmark prepares its table through {@link #prepare} as well.
 */
public final class TablePreparer {
  static final String MARKER = "hbaseload.prepared";
  private static final int LOADERS = 4;
  static final String MSLAB_ENABLED = "hbase.hregion.memstore.mslab.enabled";
  private static final long WRITE_BUFFER = 8L * 1024 * 1024;


  /** The marker of a table prepare.mode=fresh made: dropped and recreated without --force. */
  static final String FRESH = "fresh (empty, recreated by every prepare)";



  private final Settings settings;
  private final TableName name;

  public TablePreparer(Settings settings) {
    this.settings = settings;
    this.name = TableName.valueOf(settings.text(Key.TABLE));
  }

  public static void main(String[] args) {
    boolean force = false;
    Path recordFile = null;
    for (int i = 1; i < args.length; i++) {
      if ("--force".equals(args[i])) {
        force = true;
      } else if ("--record".equals(args[i]) && i + 1 < args.length) {
        recordFile = Path.of(args[++i]);
      } else {
        fail("usage: TablePreparer PROPERTIES [--force] [--record FILE]");
      }
    }
    if (args.length < 1) {
      fail("usage: TablePreparer PROPERTIES [--force] [--record FILE]");
    }
    PrepareRecord record = null;
    int exit = 0;
    try {
      Settings settings = Settings.load(read(args[0]));
      record = new PrepareRecord(settings);
      new TablePreparer(settings).prepare(force, record);
    } catch (SettingsException e) {
      fail(e.getMessage());
    } catch (OutcomeException e) {
      // a bounded failure of the table itself: recorded and reported, exit 3 (the sweep goes on)
      System.err.println("suite prepare: " + e.getMessage());
      exit = 3;
    } catch (Exception e) {
      fail(e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
    }
    if (recordFile != null && record != null) {
      try {
        record.write(recordFile);
      } catch (IOException e) {
        fail("cannot write " + recordFile + ": " + e.getMessage());
      }
    }
    System.exit(exit);
  }

  /** The table could not be made within its bounds (timeout) or its load failed (crash): an outcome, not a bug. */
  static final class OutcomeException extends Exception {
    private static final long serialVersionUID = 1L;

    OutcomeException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static void fail(String message) {
    System.err.println("suite prepare: " + message);
    System.exit(1);
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.split("\n", 2)[0];
  }

  /** A properties file, as the suite reads them all ({@link PropertiesFiles}). */
  public static Properties read(String path) throws IOException {
    return PropertiesFiles.read(Path.of(path));
  }

  /**
   * What identifies this preparation on one HBase: the table, where HBase is and the signature.
   * A sweep that has prepared a key once need not ask HBase again while HBase keeps running.
   * Empty when every preparation must go to HBase (prepare.mode=fresh, prepare.recreate=true).
   */
  public Optional<String> reuseKey() {
    if (settings.prepareMode() == SettingChoices.PrepareMode.FRESH || settings.flag(Key.PREPARE_RECREATE)) {
      return Optional.empty();
    }
    return Optional.of(name.getNameAsString() + " on " + settings.text(Key.HBASE_SITE) + "|"
        + settings.text(Key.ZOOKEEPER_QUORUM) + ":" + settings.integer(Key.ZOOKEEPER_PORT) + ": " + signature());
  }

  /** What a complete load of these settings leaves in the table descriptor. */
  String signature() {
    // only a varied shape, a wide row, one family per row add to the signature, so tables prepared before them still match
    String shape = (settings.range(Key.ROW_COLUMNS).given || settings.range(Key.ROW_BYTES).given
            ? " row.columns=" + settings.range(Key.ROW_COLUMNS) + " row.bytes=" + settings.range(Key.ROW_BYTES) : "")
        + (settings.integer(Key.WIDE_COLUMNS) > 0
            ? " wide.columns=" + settings.integer(Key.WIDE_COLUMNS) + " wide.batch=" + settings.integer(Key.WIDE_BATCH) : "")
        + (settings.familiesWritten() == SettingChoices.FamiliesWritten.ONE ? " families.written=one" : "")
        + (settings.flag(Key.MSLAB) ? "" : " mslab=false");
    return String.format("rows=%d value.size=%d value.kind=%s regions=%d families=%s columns=%d%s key.width=%d"
            + " compression=%s bloom=%s block.size=%d in.memory=%b",
        settings.integer(Key.ROWS), settings.integer(Key.VALUE_SIZE), settings.text(Key.VALUE_KIND),
        settings.integer(Key.REGIONS), String.join("|", settings.familyNames()), settings.integer(Key.COLUMNS), shape,
        settings.integer(Key.KEY_WIDTH), settings.text(Key.COMPRESSION), settings.text(Key.BLOOM),
        settings.integer(Key.BLOCK_SIZE), settings.flag(Key.IN_MEMORY));
  }

  /** Region boundaries cutting 0..rows-1 into equal ranges. */
  public static byte[][] splitKeys(long rows, int regions, int width) {
    List<byte[]> splits = new ArrayList<>();
    long previous = 0;
    for (int i = 1; i < regions; i++) {
      long boundary = rows * i / regions;
      if (boundary > previous && boundary < rows) {
        splits.add(KeyFormat.rowKey(boundary, width));
        previous = boundary;
      }
    }
    return splits.toArray(new byte[0][]);
  }

  /**
   * Creates and loads the table, or does nothing when it already holds what the settings ask
   * for; refuses (SettingsException) a table loaded otherwise unless {@code force}.
   */
  public void prepare(boolean force) throws Exception {
    prepare(force, new PrepareRecord(settings));
  }

  /**
   * The same, filling in {@code record}; throws {@link OutcomeException} when the creation takes
   * longer than hbaseload.prepare.timeout.s (outcome timeout) or the load fails (outcome crash).
   */
  void prepare(boolean forced, PrepareRecord record) throws Exception {
    boolean force = forced || settings.flag(Key.PREPARE_RECREATE);
    long started = System.nanoTime();
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
         Admin admin = connection.getAdmin()) {
      boolean fresh = settings.prepareMode() == SettingChoices.PrepareMode.FRESH;
      if (admin.tableExists(name)) {
        String marker = admin.getDescriptor(name).getValue(MARKER);
        if (fresh && FRESH.equals(marker)) {
          force = true;   // our own empty table, written to since: made anew
        }
        if (signature().equals(marker) && !force && !fresh) {
          record.set("outcome", PrepareRecord.ALREADY);
          System.out.println("table " + name + " already prepared (" + marker + "): nothing to do");
          return;
        }
        if (!force) {
          throw new SettingsException("table " + name + " exists but "
              + (marker == null ? "was never completely loaded" : "holds " + marker)
              + "; ./suite prepare --force drops and recreates it");
        }
        System.out.println("dropping table " + name + (FRESH.equals(marker) ? " (prepare.mode=fresh)"
            : forced ? " (--force)" : " (hbaseload.prepare.recreate=true)"));
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
      long creating = System.nanoTime();
      createTable(admin, record);
      double createSeconds = (System.nanoTime() - creating) / 1e9;
      record.set("create_s", round3(createSeconds));
      System.out.printf("created table %s in %.2f s%n", name, createSeconds);
      if (fresh) {
        admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name)).setValue(MARKER, FRESH).build());
        record.set("outcome", PrepareRecord.CREATED).set("load_s", 0.0).set("cells_loaded", 0);
        System.out.printf("prepared table %s: %d region(s), empty (prepare.mode=fresh), %.1f s%n",
            name, admin.getRegions(name).size(), (System.nanoTime() - started) / 1e9);
        return;
      }
      long loading = System.nanoTime();
      long cells;
      try {
        cells = settings.integer(Key.WIDE_COLUMNS) > 0 ? loadWideRow(connection) : load(connection);
        // Admin.flush waits without a bound (seen: a 1M-column row's flush still waiting after 5 min): bounded here
        admin.flushAsync(name, List.of()).get(settings.integer(Key.PREPARE_TIMEOUT_S), TimeUnit.SECONDS);
      } catch (Exception e) {
        String outcome = e instanceof TimeoutException ? PrepareRecord.TIMEOUT : PrepareRecord.CRASH;
        record.set("outcome", outcome).set("reason", e instanceof TimeoutException
            ? "loaded, but not flushed within " + Key.PREPARE_TIMEOUT_S.fullName() + "=" + settings.integer(Key.PREPARE_TIMEOUT_S)
            : e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
        throw new OutcomeException("loading table " + name + " failed after " + String.format("%.1f", (System.nanoTime() - loading) / 1e9)
            + " s (" + outcome + "): " + record.get("reason"), e);
      }
      record.set("load_s", round3((System.nanoTime() - loading) / 1e9)).set("cells_loaded", cells);
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setValue(MARKER, signature()).build());
      record.set("outcome", PrepareRecord.CREATED);
      int regions = admin.getRegions(name).size();
      long rows = settings.integer(Key.ROWS);
      IntRange rowBytes = settings.range(Key.ROW_BYTES);
      IntRange rowColumns = settings.range(Key.ROW_COLUMNS);
      // a varied row shape: its mean row (the ranges are drawn uniformly)
      double rowValueBytes = rowBytes.given ? (rowBytes.min + rowBytes.max) / 2.0
          : settings.integer(Key.VALUE_SIZE) * new RowShape(settings).familiesOf(KeyFormat.rowKey(0, 1)).length
              * (rowColumns.given ? (rowColumns.min + rowColumns.max) / 2.0 : settings.integer(Key.COLUMNS));
      double mib = settings.integer(Key.WIDE_COLUMNS) > 0 ? cells * (double) settings.integer(Key.VALUE_SIZE) / (1024.0 * 1024.0)
          : rows * rowValueBytes / (1024.0 * 1024.0);
      System.out.printf("prepared table %s: %d regions, %d rows, %d cells, %.1f MiB of values, %.1f s (creation %.2f s)%n",
          name, regions, rows, cells, mib, (System.nanoTime() - started) / 1e9, createSeconds);
    }
  }

  private static double round3(double seconds) {
    return Math.round(seconds * 1000) / 1000.0;
  }

  private void createTable(Admin admin, PrepareRecord record) throws Exception {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (String family : settings.familyNames()) {
      table.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family))
          .setCompressionType(compression(settings.compression()))
          .setBloomFilterType(bloomType(settings.bloom()))
          .setBlocksize(settings.integer(Key.BLOCK_SIZE))
          .setInMemory(settings.flag(Key.IN_MEMORY))
          .build());
    }
    if (!settings.flag(Key.MSLAB)) {
      // HStore reads its configuration through the table descriptor's values, so this reaches every store of the table
      table.setValue(MSLAB_ENABLED, "false");
    }
    TableDescriptor descriptor = table.build();
    byte[][] splits = splitKeys(settings.integer(Key.ROWS), settings.integer(Key.REGIONS), settings.integer(Key.KEY_WIDTH));
    System.out.printf("creating table %s: %d regions, families %s, compression %s, bloom %s%n", name,
        splits.length + 1, familiesText(settings.familyNames()), settings.text(Key.COMPRESSION), settings.text(Key.BLOOM));
    // asynchronous, so that a creation longer than its bound is reported, not waited for
    Future<Void> created = splits.length == 0 ? admin.createTableAsync(descriptor) : admin.createTableAsync(descriptor, splits);
    int timeout = settings.integer(Key.PREPARE_TIMEOUT_S);
    try {
      created.get(timeout, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      record.set("outcome", PrepareRecord.TIMEOUT).set("create_s", null)
          .set("reason", "not created within hbaseload.prepare.timeout.s=" + timeout);
      throw new OutcomeException("creating table " + name + " (" + settings.familyNames().size() + " families) took longer than "
          + Key.PREPARE_TIMEOUT_S.fullName() + "=" + timeout + " s (timeout); HBase may still finish it", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      record.set("outcome", PrepareRecord.CRASH).set("reason", cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()));
      throw new OutcomeException("creating table " + name + " failed (crash): " + record.get("reason"), cause);
    }
  }

  /** "[f]", or "1000 (f0 .. f999)": a thousand names on one line help nobody. */
  static String familiesText(List<String> names) {
    return names.size() <= 10 ? names.toString() : names.size() + " (" + names.get(0) + " .. " + names.get(names.size() - 1) + ")";
  }

  static Compression.Algorithm compression(SettingChoices.FamilyCompression compression) {
    return switch (compression) {
      case NONE -> Compression.Algorithm.NONE;
      case GZ -> Compression.Algorithm.GZ;
      case SNAPPY -> Compression.Algorithm.SNAPPY;
    };
  }

  /** Bloom's names are HBase's BloomType names. */
  static BloomType bloomType(SettingChoices.Bloom bloom) {
    return BloomType.valueOf(bloom.name());
  }

  /** Loads every row; returns the cells written. */
  private long load(Connection connection) throws Exception {
    long rows = settings.integer(Key.ROWS);
    int keyWidth = settings.integer(Key.KEY_WIDTH);
    ValuePool values = ValuePool.of(settings, settings.integer(Key.SEED));
    RowShape shape = new RowShape(settings);
    AtomicLong loaded = new AtomicLong();
    AtomicLong cells = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    System.out.printf("loading %d rows with %d threads%n", rows, LOADERS);
    List<Thread> loaders = new ArrayList<>();
    for (int i = 0; i < LOADERS; i++) {
      long first = rows * i / LOADERS;
      long last = rows * (i + 1) / LOADERS;
      SplittableRandom random = new SplittableRandom(settings.integer(Key.SEED) + i);
      Thread loader = new Thread(() -> {
        BufferedMutatorParams params = new BufferedMutatorParams(name).writeBufferSize(WRITE_BUFFER);
        try (BufferedMutator mutator = connection.getBufferedMutator(params)) {
          for (long row = first; row < last && failure.get() == null; row++) {
            byte[] key = KeyFormat.rowKey(row, keyWidth);
            Put put = new Put(key);
            put.setDurability(Durability.USE_DEFAULT);
            final int columns = shape.columnsOf(key);
            for (byte[] family : shape.familiesOf(key)) {
              for (int c = 0; c < columns; c++) {
                put.addColumn(family, shape.qualifiers[c], shape.value(values, key, c, columns, random));
              }
            }
            mutator.mutate(put);
            loaded.incrementAndGet();
            cells.addAndGet(put.size());
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "loader-" + i);
      loader.start();
      loaders.add(loader);
    }
    awaitLoaders(loaders, loaded, rows, "rows");
    if (failure.get() != null) {
      throw failure.get();
    }
    return cells.get();
  }

  private static void awaitLoaders(List<Thread> loaders, AtomicLong loaded, long total, String unit) throws InterruptedException {
    long started = System.nanoTime();
    for (Thread loader : loaders) {
      while (loader.isAlive()) {
        loader.join(5000);
        if (loader.isAlive()) {
          long done = loaded.get();
          double seconds = (System.nanoTime() - started) / 1e9;
          System.out.printf("  ... loaded %d of %d %s (%.0f%%, %.0f %s/s, %.0fs)%n",
              done, total, unit, 100.0 * done / total, done / seconds, unit, seconds);
        }
      }
    }
  }

  /**
   * The wide row (hbaseload.wide.columns): its columns q0..qN-1 in puts of wide.batch columns,
   * the batches shared out over the loader threads; returns the cells written.
   */
  private long loadWideRow(Connection connection) throws Exception {
    int columns = settings.integer(Key.WIDE_COLUMNS);
    int batch = settings.integer(Key.WIDE_BATCH);
    int batches = WideRow.batches(columns, batch);
    byte[] row = KeyFormat.rowKey(WideRow.ROW_NUMBER, settings.integer(Key.KEY_WIDTH));
    byte[] family = new RowShape(settings).families[0];
    ValuePool values = ValuePool.of(settings, settings.integer(Key.SEED));
    AtomicLong loaded = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    System.out.printf("loading one row of %d columns, %d a put, with %d threads%n", columns, batch, LOADERS);
    List<Thread> loaders = new ArrayList<>();
    for (int i = 0; i < LOADERS; i++) {
      int firstBatch = (int) ((long) batches * i / LOADERS);
      int lastBatch = (int) ((long) batches * (i + 1) / LOADERS);
      SplittableRandom random = new SplittableRandom(settings.integer(Key.SEED) + i);
      Thread loader = new Thread(() -> {
        try (Table table = connection.getTable(name)) {
          for (int b = firstBatch; b < lastBatch && failure.get() == null; b++) {
            int first = b * batch;
            int count = Math.min(batch, columns - first);
            table.put(WideRow.put(row, first, count, family, values, random, Durability.USE_DEFAULT));
            loaded.addAndGet(count);
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "wide-loader-" + i);
      loader.start();
      loaders.add(loader);
    }
    awaitLoaders(loaders, loaded, columns, "columns");
    if (failure.get() != null) {
      throw failure.get();
    }
    return loaded.get();
  }
}
