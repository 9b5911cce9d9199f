package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.keys.KeyChooser;
import io.github.hbasegrindersuite.worker.targets.Client;
import io.github.hbasegrindersuite.worker.targets.WideRow;
import java.nio.charset.StandardCharsets;

/**
 * One thread's request loop body: the load engine every client of the suite runs (the Grinder
 * worker, the plain-Java baseline PlainJavaLoad, the thrift-shim benchmark). {@link #next}
 * (outside the timed test) picks the operation and waits for its intended start when pacing;
 * {@link #execute} (inside the Grinder test that hbase_load.py recorded for that operation)
 * picks the rows, times the target call with System.nanoTime -- the witness, taken here and
 * nowhere else; a call the client does not end in time is cut by the {@link CallWatchdog} -- takes the lag from the same start ({@link IntendedStart}), verifies, counts
 * failures by class and reports. Keeping this in Java keeps the injector's own CPU per request
 * close to a plain Java client's (see README, benchmark).
 */
public final class Driver implements AutoCloseable {
  private final Client client;
  private final KeyChooser keys;
  private final OperationMix mix;
  private final Pacer pacer;
  private final ValuePool values;
  private final ErrorCounter errors;
  private final RequestReport report;
  private final int keyWidth;
  private final int scanLength;
  private final int batchSize;
  private final boolean verify;
  private final long timeoutMs;
  private final CallWatchdog watchdog;
  private final CallWatchdog.Slot slot;
  /** hbaseload.wide.columns (0: off) and wide.batch: puts and gets address one wide row's columns. */
  private final int wideColumns;
  private final int wideBatch;
  private final byte[] wideRow;
  private long wideRequests;

  private Operation chosen;
  private long intendedStart;
  /** Requests after which this thread's work is done (grinder.runs; 0: none), and those made so far. */
  private long lastRequest;
  private long requests;

  public Driver(Client client, KeyChooser keys, OperationMix mix, Pacer pacer, ValuePool values,
                ErrorCounter errors, RequestReport report, Settings settings) {
    this.client = client;
    this.keys = keys;
    this.mix = mix;
    this.pacer = pacer;
    this.values = values;
    this.errors = errors;
    this.report = report;
    this.keyWidth = settings.integer(Key.KEY_WIDTH);
    this.scanLength = settings.integer(Key.SCAN_LENGTH);
    this.batchSize = settings.integer(Key.BATCH_SIZE);
    this.verify = settings.flag(Key.VERIFY);
    this.timeoutMs = settings.integer(Key.TIMEOUT_MS);
    this.watchdog = CallWatchdog.forTimeout(timeoutMs);
    this.slot = watchdog.slot();
    this.wideColumns = settings.integer(Key.WIDE_COLUMNS);
    this.wideBatch = settings.integer(Key.WIDE_BATCH);
    this.wideRow = KeyFormat.rowKey(WideRow.ROW_NUMBER, keyWidth);
  }

  /**
   * A fixed amount of work (grinder.runs > 0, sweep.work = rows): the thread's last request also
   * flushes what its client still buffers, inside that request's timing, so that the run's
   * elapsed time covers every write -- as a put that fills the buffer pays for its flush.
   */
  public void flushWithRequest(long last) {
    this.lastRequest = last;
  }

  /** Chooses the next operation (and waits for its start when paced); returns its test number. */
  public int next() {
    chosen = mix.next();
    if (pacer.enabled()) {
      intendedStart = pacer.awaitNext();
    }
    return chosen.testNumber();
  }

  /** Runs the chosen operation once: the body of the recorded Grinder test. */
  public void execute() {
    Operation operation = chosen;
    byte[] row = null;
    byte[][] rows = null;
    int firstColumn = 0;
    int columns = 0;
    if (wideColumns > 0) {
      // the key chooser picks a batch of the wide row's columns: a put writes it, a get reads one column of it
      row = wideRow;
      firstColumn = (int) keys.next() * wideBatch;
      columns = Math.min(wideBatch, wideColumns - firstColumn);
      if (operation == Operation.GET) {
        firstColumn += (int) Math.floorMod(mix64(++wideRequests), (long) columns);
        columns = 1;
      }
    } else if (operation == Operation.BATCH_GET || operation == Operation.BATCH_PUT) {
      rows = new byte[batchSize][];
      for (int i = 0; i < batchSize; i++) {
        rows[i] = rowKey();
      }
    } else {
      row = rowKey();
    }
    Throwable failure = null;
    Object result = null;
    long start = System.nanoTime();
    slot.begin(start);
    try {
      result = wideColumns > 0 ? callWide(operation, row, firstColumn, columns) : call(operation, row, rows);
      if (++requests == lastRequest) {
        client.flush();
      }
    } catch (Exception | LinkageError e) {
      failure = e;
    }
    if (slot.end() && failure != null) {
      failure = new CallDeadlineException(watchdog.deadlineMs(), timeoutMs, failure);
    }
    long witnessMicros = (System.nanoTime() - start) / 1000;
    long lagMicros = pacer.enabled() ? IntendedStart.lagMicros(intendedStart, start) : 0;
    if (failure == null && verify && operation == Operation.GET) {
      failure = verifyValue(row, (byte[]) result);
    }
    if (failure != null) {
      errors.count(failure);
    } else if (operation == Operation.SCAN) {
      report.rows(((Integer) result).longValue());
    }
    report.request(operation, witnessMicros, lagMicros, failure == null);
  }

  private byte[] rowKey() {
    return KeyFormat.rowKey(keys.next(), keyWidth);
  }

  private Object call(Operation operation, byte[] row, byte[][] rows) throws Exception {
    switch (operation) {
      case GET:
        return client.get(row);
      case PUT:
        client.put(row);
        return null;
      case SCAN:
        return client.scan(row, scanLength);
      case BATCH_GET:
        return client.batchGet(rows);
      case BATCH_PUT:
        client.batchPut(rows);
        return null;
      case DELETE:
        client.delete(row);
        return null;
      case INCREMENT:
        return client.increment(row);
      default:
        throw new IllegalStateException("no call for " + operation);
    }
  }

  private Object callWide(Operation operation, byte[] row, int first, int count) throws Exception {
    if (operation == Operation.PUT) {
      client.putColumns(row, first, count);
      return null;
    }
    return client.getColumn(row, first);
  }

  /** SplitMix64's finaliser: which column of the batch a wide get reads, spread without a random stream. */
  static long mix64(long value) {
    long z = value * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private Throwable verifyValue(byte[] row, byte[] value) {
    if (value == null) {
      return new VerificationException("row " + new String(row, StandardCharsets.US_ASCII) + " is missing");
    }
    if (!values.belongsTo(value, row)) {
      return new VerificationException("row " + new String(row, StandardCharsets.US_ASCII)
          + " holds a value of another row or size");
    }
    return null;
  }

  @Override
  public void close() throws Exception {
    watchdog.release(slot);
    client.close();
  }
}
