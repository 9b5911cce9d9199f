package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * The HBase Java client. One Connection per worker process (thread-safe and expensive: about
 * 0.7 s to connect and locate regions); one Table, and a BufferedMutator when client
 * buffering is on, per thread.
 */
public final class DirectTarget implements Target {
  private final Settings settings;
  private final ValuePool values;
  private final Connection connection;
  private final TableName table;

  public DirectTarget(Settings settings, ValuePool values) throws Exception {
    this.settings = settings;
    this.values = values;
    this.connection = ConnectionFactory.createConnection(configuration(settings));
    this.table = TableName.valueOf(settings.text(Key.TABLE));
  }

  /** The client configuration: a real cluster's hbase-site.xml or the embedded HBase, with bounded calls. */
  public static Configuration configuration(Settings settings) {
    Configuration conf = HBaseConfiguration.create();
    if (!settings.text(Key.HBASE_SITE).isEmpty()) {
      conf.addResource(new Path(settings.text(Key.HBASE_SITE)));
    } else {
      conf.set("hbase.zookeeper.quorum", settings.text(Key.ZOOKEEPER_QUORUM));
      conf.setInt("hbase.zookeeper.property.clientPort", settings.integer(Key.ZOOKEEPER_PORT));
    }
    // Bound every call: an unreachable HBase gives counted errors, not blocked threads.
    int timeout = settings.integer(Key.TIMEOUT_MS);
    conf.setInt("hbase.rpc.timeout", timeout);
    conf.setInt("hbase.client.operation.timeout", timeout);
    conf.setInt("hbase.client.meta.operation.timeout", timeout);
    conf.setInt("hbase.client.scanner.timeout.period", timeout);
    conf.setInt("zookeeper.recovery.retry", 1);
    // The ZooKeeper read of meta's location is not bounded by the operation timeout (10 s by default).
    conf.setInt("zookeeper.registry.async.get.timeout", timeout);
    return conf;
  }

  /** SettingChoices.WriteDurability's names other than DEFAULT are HBase's own. */
  static Durability durability(SettingChoices.WriteDurability durability) {
    return durability == SettingChoices.WriteDurability.DEFAULT ? Durability.USE_DEFAULT : Durability.valueOf(durability.name());
  }

  @Override
  public Client client(SplittableRandom random) throws Exception {
    BufferedMutator mutator = null;
    if (settings.flag(Key.CLIENT_BUFFERING)) {
      mutator = connection.getBufferedMutator(
          new BufferedMutatorParams(table).writeBufferSize(settings.integer(Key.WRITE_BUFFER_BYTES)));
    }
    return new DirectClient(connection.getTable(table), mutator, new RowShape(settings),
        durability(settings.durability()), values, random);
  }

  @Override
  public void close() throws Exception {
    connection.close();
  }

  static final class DirectClient implements Client {
    private final Table table;
    private final BufferedMutator mutator;
    private final RowShape shape;
    private final Durability durability;
    private final ValuePool values;
    private final SplittableRandom random;

    DirectClient(Table table, BufferedMutator mutator, RowShape shape, Durability durability,
                 ValuePool values, SplittableRandom random) {
      this.table = table;
      this.mutator = mutator;
      this.shape = shape;
      this.durability = durability;
      this.values = values;
      this.random = random;
    }

    @Override
    public byte[] get(byte[] row) throws Exception {
      Result result = table.get(new Get(row));
      return result.isEmpty() ? null : result.getValue(shape.familiesOf(row)[0], shape.qualifiers[0]);
    }

    private Put newPut(byte[] row) {
      Put put = new Put(row);
      put.setDurability(durability);
      final int columns = shape.columnsOf(row);
      for (byte[] family : shape.familiesOf(row)) {
        for (int c = 0; c < columns; c++) {
          put.addColumn(family, shape.qualifiers[c], shape.value(values, row, c, columns, random));
        }
      }
      return put;
    }

    @Override
    public void put(byte[] row) throws Exception {
      if (mutator != null) {
        mutator.mutate(newPut(row));
      } else {
        table.put(newPut(row));
      }
    }

    @Override
    public void putValue(byte[] row, byte[] value) throws Exception {
      Put put = new Put(row);
      put.setDurability(durability);
      final int columns = shape.columnsOf(row);
      for (byte[] family : shape.familiesOf(row)) {
        for (int c = 0; c < columns; c++) {
          put.addColumn(family, shape.qualifiers[c], value);
        }
      }
      table.put(put);
    }

    @Override
    public void putColumns(byte[] row, int first, int count) throws Exception {
      table.put(WideRow.put(row, first, count, shape.families[0], values, random, durability));
    }

    @Override
    public byte[] getColumn(byte[] row, int column) throws Exception {
      byte[] qualifier = WideRow.qualifier(column);
      return table.get(new Get(row).addColumn(shape.families[0], qualifier)).getValue(shape.families[0], qualifier);
    }

    @Override
    public int scan(byte[] start, int rows) throws Exception {
      Scan scan = new Scan().withStartRow(start).setLimit(rows).setCaching(Math.min(rows, 1000));
      int count = 0;
      try (ResultScanner scanner = table.getScanner(scan)) {
        while (scanner.next() != null) {
          count++;
        }
      }
      return count;
    }

    @Override
    public int batchGet(byte[][] rows) throws Exception {
      List<Get> gets = new ArrayList<>(rows.length);
      for (byte[] row : rows) {
        gets.add(new Get(row));
      }
      int found = 0;
      for (Result result : table.get(gets)) {
        found += result.isEmpty() ? 0 : 1;
      }
      return found;
    }

    @Override
    public void batchPut(byte[][] rows) throws Exception {
      List<Put> puts = new ArrayList<>(rows.length);
      for (byte[] row : rows) {
        puts.add(newPut(row));
      }
      if (mutator != null) {
        mutator.mutate(puts);
      } else {
        table.put(puts);
      }
    }

    @Override
    public void delete(byte[] row) throws Exception {
      Delete delete = new Delete(row);
      delete.setDurability(durability);
      table.delete(delete);
    }

    @Override
    public long increment(byte[] row) throws Exception {
      return table.incrementColumnValue(row, shape.families[0], RowShape.COUNTER, 1, durability);
    }

    @Override
    public void flush() throws Exception {
      if (mutator != null) {
        mutator.flush();
      }
    }

    @Override
    public void close() throws Exception {
      try {
        if (mutator != null) {
          mutator.close(); // flushes what is still buffered
        }
      } finally {
        table.close();
      }
    }
  }
}
