package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.targets.DirectTarget;
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
 */
public final class TablePreparer {
  static final String MARKER = "hbaseload.prepared";
  private static final int LOADERS = 4;
  private static final long WRITE_BUFFER = 8L * 1024 * 1024;

  private final Settings settings;
  private final TableName name;

  TablePreparer(Settings settings) {
    this.settings = settings;
    this.name = TableName.valueOf(settings.text("table"));
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

  static Properties read(String path) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = new FileInputStream(path)) {
      properties.load(in);
    }
    return properties;
  }

  /** What a complete load of these settings leaves in the table descriptor. */
  String signature() {
    return String.format("rows=%d value.size=%d value.kind=%s regions=%d families=%s columns=%d key.width=%d"
            + " compression=%s bloom=%s block.size=%d in.memory=%b",
        settings.integer("rows"), settings.integer("value.size"), settings.text("value.kind"),
        settings.integer("regions"), String.join("|", settings.familyNames()), settings.integer("columns"),
        settings.integer("key.width"), settings.text("compression"), settings.text("bloom"),
        settings.integer("block.size"), settings.flag("in.memory"));
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

  void prepare(boolean force) throws Exception {
    long started = System.nanoTime();
    try (Connection connection = ConnectionFactory.createConnection(DirectTarget.configuration(settings));
         Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        String marker = admin.getDescriptor(name).getValue(MARKER);
        if (signature().equals(marker) && !force) {
          System.out.println("table " + name + " already prepared (" + marker + "): nothing to do");
          return;
        }
        if (!force) {
          throw new SettingsException("table " + name + " exists but "
              + (marker == null ? "was never completely loaded" : "holds " + marker)
              + "; ./suite prepare --force drops and recreates it");
        }
        System.out.println("dropping table " + name + " (--force)");
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
      createTable(admin);
      load(connection);
      admin.flush(name);
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setValue(MARKER, signature()).build());
      int regions = admin.getRegions(name).size();
      long rows = settings.integer("rows");
      double mib = rows * (double) settings.integer("value.size") * settings.familyNames().size()
          * settings.integer("columns") / (1024.0 * 1024.0);
      System.out.printf("prepared table %s: %d regions, %d rows, %.1f MiB of values, %.1f s%n",
          name, regions, rows, mib, (System.nanoTime() - started) / 1e9);
    }
  }

  private void createTable(Admin admin) throws IOException {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (String family : settings.familyNames()) {
      table.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family))
          .setCompressionType(compression(settings.text("compression")))
          .setBloomFilterType(BloomType.valueOf(settings.text("bloom").toUpperCase(java.util.Locale.ROOT)))
          .setBlocksize(settings.integer("block.size"))
          .setInMemory(settings.flag("in.memory"))
          .build());
    }
    TableDescriptor descriptor = table.build();
    byte[][] splits = splitKeys(settings.integer("rows"), settings.integer("regions"), settings.integer("key.width"));
    System.out.printf("creating table %s: %d regions, families %s, compression %s, bloom %s%n", name,
        splits.length + 1, settings.familyNames(), settings.text("compression"), settings.text("bloom"));
    if (splits.length == 0) {
      admin.createTable(descriptor);
    } else {
      admin.createTable(descriptor, splits);
    }
  }

  static Compression.Algorithm compression(String name) {
    switch (name) {
      case "gz":
        return Compression.Algorithm.GZ;
      case "snappy":
        return Compression.Algorithm.SNAPPY;
      default:
        return Compression.Algorithm.NONE;
    }
  }

  private void load(Connection connection) throws Exception {
    long rows = settings.integer("rows");
    ValuePool values = new ValuePool(settings.integer("value.size"),
        "compressible".equals(settings.text("value.kind")), settings.integer("seed"));
    List<byte[]> families = new ArrayList<>();
    settings.familyNames().forEach(f -> families.add(Bytes.toBytes(f)));
    int columns = settings.integer("columns");
    AtomicLong loaded = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    System.out.printf("loading %d rows with %d threads%n", rows, LOADERS);
    List<Thread> loaders = new ArrayList<>();
    for (int i = 0; i < LOADERS; i++) {
      long first = rows * i / LOADERS;
      long last = rows * (i + 1) / LOADERS;
      SplittableRandom random = new SplittableRandom(settings.integer("seed") + i);
      Thread loader = new Thread(() -> {
        BufferedMutatorParams params = new BufferedMutatorParams(name).writeBufferSize(WRITE_BUFFER);
        try (BufferedMutator mutator = connection.getBufferedMutator(params)) {
          for (long row = first; row < last && failure.get() == null; row++) {
            byte[] key = KeyFormat.rowKey(row, settings.integer("key.width"));
            Put put = new Put(key);
            put.setDurability(Durability.USE_DEFAULT);
            for (byte[] family : families) {
              for (int c = 0; c < columns; c++) {
                put.addColumn(family, Bytes.toBytes(columns == 1 ? "v" : "q" + c), values.valueFor(key, random));
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
