package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.thrift2.generated.TColumnIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TDelete;
import org.apache.hadoop.hbase.thrift2.generated.TDurability;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * HBase's thrift2 interface (THBaseService) through the generated client stock users have, so
 * the same script drives HBase's own thrift2 gateway or the thrift-shim. Thrift clients are not
 * thread-safe: one client and socket per thread.
 */
public final class ThriftTarget implements Target {



  private final Settings settings;
  private final ValuePool values;

  public ThriftTarget(Settings settings, ValuePool values) {
    this.settings = settings;
    this.values = values;
  }

  @Override
  public Client client(SplittableRandom random) {
    return new ThriftClient(new Connector(settings), settings, values, random);
  }

  /**
   * One thread's socket to the thrift2 server, opened on first use and reopened after a
   * transport failure, so an unreachable or restarted server gives counted errors (each
   * bounded by hbaseload.timeout.ms) instead of a dead thread. Reopening after failures waits
   * first (ReconnectBackoff), inside the call: the request that waited reports the wait.
   */
  static final class Connector {
    private final Settings settings;
    private final ReconnectBackoff backoff;
    private TTransport transport;
    private THBaseService.Client service;

    Connector(Settings settings) {
      this.settings = settings;
      this.backoff = new ReconnectBackoff(settings.integer(Key.TIMEOUT_MS));
    }

    THBaseService.Client service() throws TTransportException {
      if (service == null) {
        final long wait = backoff.delayMs();
        if (wait > 0) {
          try {
            Thread.sleep(wait);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TTransportException(TTransportException.UNKNOWN, "interrupted while waiting to reconnect");
          }
        }
        TSocket socket = new TSocket(new TConfiguration(), settings.text(Key.THRIFT_HOST),
            settings.integer(Key.THRIFT_PORT), settings.integer(Key.TIMEOUT_MS));
        TTransport t = switch (settings.thriftTransport()) {
          case BUFFERED -> socket;
          case FRAMED -> new TFramedTransport(socket);
        };
        TProtocol protocol = switch (settings.thriftProtocol()) {
          case BINARY -> new TBinaryProtocol(t);
          case COMPACT -> new TCompactProtocol(t);
        };
        try {
          t.open();
        } catch (TTransportException e) {
          backoff.failed();
          throw e;
        }
        transport = t;
        service = new THBaseService.Client(protocol);
      }
      return service;
    }

    /** After a transport failure the stream is out of step: start again on the next call (at once; refusals pause). */
    void reset() {
      close();
    }

    /** A call went through: the next reconnect, if any, starts without a pause. */
    void succeeded() {
      backoff.succeeded();
    }

    void close() {
      if (transport != null) {
        transport.close();
      }
      transport = null;
      service = null;
    }
  }

  @Override
  public void close() {
    // Nothing per process: each thread closes its own transport.
  }

  /** One thrift2 call on a connected service. */
  @FunctionalInterface
  interface ThriftCall<T> {
    T on(THBaseService.Client service) throws Exception;
  }

  /** SettingChoices.WriteDurability's names other than DEFAULT are thrift2's own. */
  static TDurability durability(SettingChoices.WriteDurability durability) {
    return durability == SettingChoices.WriteDurability.DEFAULT ? TDurability.USE_DEFAULT : TDurability.valueOf(durability.name());
  }

  static final class ThriftClient implements Client {
    private final Connector connector;
    private final ByteBuffer table;
    private final ByteBuffer[] families;
    private final ByteBuffer[] qualifiers;
    private final RowShape shape;
    private final ByteBuffer counter = ByteBuffer.wrap(RowShape.COUNTER);
    private final TDurability durability;
    private final ValuePool values;
    private final SplittableRandom random;

    ThriftClient(Connector connector, Settings settings, ValuePool values, SplittableRandom random) {
      this.connector = connector;
      this.table = ByteBuffer.wrap(settings.text(Key.TABLE).getBytes(StandardCharsets.UTF_8));
      this.shape = new RowShape(settings);
      this.families = wrap(shape.families);
      this.qualifiers = wrap(shape.qualifiers);
      this.durability = durability(settings.durability());
      this.values = values;
      this.random = random;
    }

    private static ByteBuffer[] wrap(byte[][] arrays) {
      ByteBuffer[] buffers = new ByteBuffer[arrays.length];
      for (int i = 0; i < arrays.length; i++) {
        buffers[i] = ByteBuffer.wrap(arrays[i]);
      }
      return buffers;
    }

    @Override
    public byte[] get(byte[] row) throws Exception {
      TResult result = call(s -> s.get(table, new TGet(ByteBuffer.wrap(row))));
      for (TColumnValue cell : result.getColumnValues()) {
        if (cell.bufferForFamily().equals(ByteBuffer.wrap(shape.familiesOf(row)[0])) && cell.bufferForQualifier().equals(qualifiers[0])) {
          return cell.getValue();
        }
      }
      return null;
    }

    private TPut newPut(byte[] row) {
      final int columns = shape.columnsOf(row);
      final byte[][] written = shape.familiesOf(row);
      List<TColumnValue> cells = new ArrayList<>(written.length * columns);
      for (byte[] name : written) {
        ByteBuffer family = ByteBuffer.wrap(name);
        for (int c = 0; c < columns; c++) {
          cells.add(new TColumnValue(family, qualifiers[c], ByteBuffer.wrap(shape.value(values, row, c, columns, random))));
        }
      }
      TPut put = new TPut(ByteBuffer.wrap(row), cells);
      if (durability != TDurability.USE_DEFAULT) {
        put.setDurability(durability);
      }
      return put;
    }

    @Override
    public void put(byte[] row) throws Exception {
      TPut put = newPut(row);
      call(s -> {
        s.put(table, put);
        return null;
      });
    }

    @Override
    public void putValue(byte[] row, byte[] value) throws Exception {
      final int columns = shape.columnsOf(row);
      final byte[][] written = shape.familiesOf(row);
      List<TColumnValue> cells = new ArrayList<>(written.length * columns);
      for (byte[] name : written) {
        ByteBuffer family = ByteBuffer.wrap(name);
        for (int c = 0; c < columns; c++) {
          cells.add(new TColumnValue(family, qualifiers[c], ByteBuffer.wrap(value)));
        }
      }
      TPut put = new TPut(ByteBuffer.wrap(row), cells);
      if (durability != TDurability.USE_DEFAULT) {
        put.setDurability(durability);
      }
      call(s -> {
        s.put(table, put);
        return null;
      });
    }

    @Override
    public int scan(byte[] start, int rows) throws Exception {
      TScan scan = new TScan().setStartRow(start).setCaching(Math.min(rows, 1000)).setLimit(rows);
      return call(s -> s.getScannerResults(table, scan, rows)).size();
    }

    @Override
    public int batchGet(byte[][] rows) throws Exception {
      List<TGet> gets = new ArrayList<>(rows.length);
      for (byte[] row : rows) {
        gets.add(new TGet(ByteBuffer.wrap(row)));
      }
      int found = 0;
      for (TResult result : call(s -> s.getMultiple(table, gets))) {
        found += result.getColumnValuesSize() > 0 ? 1 : 0;
      }
      return found;
    }

    @Override
    public void batchPut(byte[][] rows) throws Exception {
      List<TPut> puts = new ArrayList<>(rows.length);
      for (byte[] row : rows) {
        puts.add(newPut(row));
      }
      call(s -> {
        s.putMultiple(table, puts);
        return null;
      });
    }

    @Override
    public void delete(byte[] row) throws Exception {
      TDelete delete = new TDelete(ByteBuffer.wrap(row));
      if (durability != TDurability.USE_DEFAULT) {
        delete.setDurability(durability);
      }
      call(s -> {
        s.deleteSingle(table, delete);
        return null;
      });
    }

    @Override
    public long increment(byte[] row) throws Exception {
      TIncrement increment = new TIncrement(ByteBuffer.wrap(row),
          List.of(new TColumnIncrement(families[0], counter).setAmount(1)));
      if (durability != TDurability.USE_DEFAULT) {
        increment.setDurability(durability);
      }
      TResult result = call(s -> s.increment(table, increment));
      return result.getColumnValuesSize() == 0 ? 0 : ByteBuffer.wrap(result.getColumnValues().get(0).getValue()).getLong();
    }

    /** The service, connecting if needed; a transport failure resets the connection. */
    private THBaseService.Client service() throws TTransportException {
      return connector.service();
    }

    private <T> T call(ThriftCall<T> call) throws Exception {
      try {
        final T result = call.on(service());
        connector.succeeded();
        return result;
      } catch (TTransportException e) {
        connector.reset();
        throw e;
      }
    }

    @Override
    public void close() {
      connector.close();
    }
  }
}
