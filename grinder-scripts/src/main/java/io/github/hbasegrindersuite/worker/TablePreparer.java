package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import io.github.hbasegrindersuite.worker.targets.RowShape;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
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
  private static final long WRITE_BUFFER = 8L * 1024 * 1024;

  /** hbaseload.prepare.mode's accepted values: a loaded table, or an empty one created anew every time. */
  public enum Mode implements Choice { LOAD, FRESH }

  /** The marker of a table prepare.mode=fresh made: dropped and recreated without --force. */
  static final String FRESH = "fresh (empty, recreated by every prepare)";

  /** hbaseload.compression's accepted values (snappy needs codec support in the server). */
  public enum FamilyCompression implements Choice { NONE, GZ, SNAPPY }

  /** hbaseload.bloom's accepted values: HBase's BloomType names. */
  public enum Bloom implements Choice { NONE, ROW, ROWCOL }

  private final Settings settings;
  private final TableName name;

  public TablePreparer(Settings settings) {
    this.settings = settings;
    this.name = TableName.valueOf(settings.text(Key.TABLE));
  }

  public static void main(String[] args) {
    if (args.length < 1 || args.length > 2 || (args.length == 2 && !"--force".equals(args[1]))) {
      fail("usage: TablePreparer PROPERTIES [--force]");
    }
    try {
      new TablePreparer(Settings.load(read(args[0]))).prepare(args.length == 2);
    } catch (SettingsException e) {
      fail(e.getMessage());
    } catch (Exception e) {
      fail(e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
    }
    System.exit(0);
  }

  private static void fail(String message) {
    System.err.println("suite prepare: " + message);
    System.exit(1);
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.split("\n", 2)[0];
  }

  /** A properties file as java.util.Properties reads it (PlainJavaLoad reads its own here). */
  public static Properties read(String path) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = new FileInputStream(path)) {
      properties.load(in);
    }
    return properties;
  }

  /** What a complete load of these settings leaves in the table descriptor. */
  String signature() {
    return String.format("rows=%d value.size=%d value.kind=%s regions=%d families=%s columns=%d%s key.width=%d"
            + " compression=%s bloom=%s block.size=%d in.memory=%b",
        settings.integer(Key.ROWS), settings.integer(Key.VALUE_SIZE), settings.text(Key.VALUE_KIND),
        settings.integer(Key.REGIONS), String.join("|", settings.familyNames()), settings.integer(Key.COLUMNS),
        // only a varied shape adds to the signature, so tables prepared before it still match
        settings.range(Key.ROW_COLUMNS).given || settings.range(Key.ROW_BYTES).given
            ? " row.columns=" + settings.range(Key.ROW_COLUMNS) + " row.bytes=" + settings.range(Key.ROW_BYTES) : "",
        settings.integer(Key.KEY_WIDTH), settings.text(Key.COMPRESSION), settings.text(Key.BLOOM),
        settings.integer(Key.BLOCK_SIZE), settings.flag(Key.IN_MEMORY));
  }

  /** Region boundaries cutting 0..rows-1 into equal ranges. */
  static byte[][] splitKeys(long rows, int regions, int width) {
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
    long started = System.nanoTime();
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
         Admin admin = connection.getAdmin()) {
      boolean fresh = settings.prepareMode() == Mode.FRESH;
      if (admin.tableExists(name)) {
        String marker = admin.getDescriptor(name).getValue(MARKER);
        if (fresh && FRESH.equals(marker)) {
          force = true;   // our own empty table, written to since: made anew
        }
        if (signature().equals(marker) && !force && !fresh) {
          System.out.println("table " + name + " already prepared (" + marker + "): nothing to do");
          return;
        }
        if (!force) {
          throw new SettingsException("table " + name + " exists but "
              + (marker == null ? "was never completely loaded" : "holds " + marker)
              + "; ./suite prepare --force drops and recreates it");
        }
        System.out.println("dropping table " + name + (FRESH.equals(marker) ? " (prepare.mode=fresh)" : " (--force)"));
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
      createTable(admin);
      if (fresh) {
        admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name)).setValue(MARKER, FRESH).build());
        System.out.printf("prepared table %s: %d region(s), empty (prepare.mode=fresh), %.1f s%n",
            name, admin.getRegions(name).size(), (System.nanoTime() - started) / 1e9);
        return;
      }
      load(connection);
      admin.flush(name);
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setValue(MARKER, signature()).build());
      int regions = admin.getRegions(name).size();
      long rows = settings.integer(Key.ROWS);
      IntRange rowBytes = settings.range(Key.ROW_BYTES);
      IntRange rowColumns = settings.range(Key.ROW_COLUMNS);
      // a varied row shape: its mean row (the ranges are drawn uniformly)
      double rowValueBytes = rowBytes.given ? (rowBytes.min + rowBytes.max) / 2.0
          : settings.integer(Key.VALUE_SIZE) * settings.familyNames().size()
              * (rowColumns.given ? (rowColumns.min + rowColumns.max) / 2.0 : settings.integer(Key.COLUMNS));
      double mib = rows * rowValueBytes / (1024.0 * 1024.0);
      System.out.printf("prepared table %s: %d regions, %d rows, %.1f MiB of values, %.1f s%n",
          name, regions, rows, mib, (System.nanoTime() - started) / 1e9);
    }
  }

  private void createTable(Admin admin) throws IOException {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (String family : settings.familyNames()) {
      table.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family))
          .setCompressionType(compression(settings.compression()))
          .setBloomFilterType(bloomType(settings.bloom()))
          .setBlocksize(settings.integer(Key.BLOCK_SIZE))
          .setInMemory(settings.flag(Key.IN_MEMORY))
          .build());
    }
    TableDescriptor descriptor = table.build();
    byte[][] splits = splitKeys(settings.integer(Key.ROWS), settings.integer(Key.REGIONS), settings.integer(Key.KEY_WIDTH));
    System.out.printf("creating table %s: %d regions, families %s, compression %s, bloom %s%n", name,
        splits.length + 1, settings.familyNames(), settings.text(Key.COMPRESSION), settings.text(Key.BLOOM));
    if (splits.length == 0) {
      admin.createTable(descriptor);
    } else {
      admin.createTable(descriptor, splits);
    }
  }

  static Compression.Algorithm compression(FamilyCompression compression) {
    return switch (compression) {
      case NONE -> Compression.Algorithm.NONE;
      case GZ -> Compression.Algorithm.GZ;
      case SNAPPY -> Compression.Algorithm.SNAPPY;
    };
  }

  /** Bloom's names are HBase's BloomType names. */
  static BloomType bloomType(Bloom bloom) {
    return BloomType.valueOf(bloom.name());
  }

  private void load(Connection connection) throws Exception {
    long rows = settings.integer(Key.ROWS);
    int keyWidth = settings.integer(Key.KEY_WIDTH);
    ValuePool values = ValuePool.of(settings, settings.integer(Key.SEED));
    RowShape shape = new RowShape(settings);
    AtomicLong loaded = new AtomicLong();
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
            for (byte[] family : shape.families) {
              for (int c = 0; c < columns; c++) {
                put.addColumn(family, shape.qualifiers[c], shape.value(values, key, c, columns, random));
              }
            }
            mutator.mutate(put);
            loaded.incrementAndGet();
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "loader-" + i);
      loader.start();
      loaders.add(loader);
    }
    long started = System.nanoTime();
    for (Thread loader : loaders) {
      while (loader.isAlive()) {
        loader.join(5000);
        if (loader.isAlive()) {
          long done = loaded.get();
          double seconds = (System.nanoTime() - started) / 1e9;
          System.out.printf("  ... loaded %d of %d rows (%.0f%%, %.0f rows/s, %.0fs)%n",
              done, rows, 100.0 * done / rows, done / seconds, seconds);
        }
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }
}
