package io.github.hbasegrindersuite.worker.audit;

import io.github.hbasegrindersuite.worker.targets.Client;

/**
 * One thread's client with hbaseload.audit=true: a put goes to the audited key of the row the key
 * chooser picked ({@link AuditScheme}) with the key's own value, and its outcome goes to the
 * worker's {@link AuditLog}; every other call passes through. The decorator is the whole audit on
 * the request path: an unaudited run's threads get the target's client itself, so they do no
 * extra work per request. The key and value are made inside the call the witness times (the
 * audit's cost shows in the put's latency, where an engineer looks for it).
 */
public final class AuditedClient implements Client {
  private final Client inner;
  private final AuditLog log;
  private final byte[] writer;
  private final int width;
  private final int thread;
  private final int valueSize;
  private long seq;

  public AuditedClient(Client inner, AuditLog log, byte[] writer, int width, int thread, int valueSize) {
    this.inner = inner;
    this.log = log;
    this.writer = writer;
    this.width = width;
    this.thread = thread;
    this.valueSize = valueSize;
  }

  @Override
  public void put(byte[] row) throws Exception {
    final long n = seq++;
    final int rowNumber = (int) AuditScheme.rowOf(row);
    final byte[] key = AuditScheme.key(rowNumber, width, writer, thread, n);
    boolean acknowledged = false;
    try {
      inner.putValue(key, AuditScheme.value(key, valueSize));
      acknowledged = true;
    } finally {
      log.record(rowNumber, thread, n, acknowledged);
    }
  }

  /** Puts made so far by this thread. */
  public long puts() {
    return seq;
  }

  @Override
  public byte[] get(byte[] row) throws Exception {
    return inner.get(row);
  }

  @Override
  public int scan(byte[] start, int rows) throws Exception {
    return inner.scan(start, rows);
  }

  @Override
  public int batchGet(byte[][] rows) throws Exception {
    return inner.batchGet(rows);
  }

  @Override
  public void batchPut(byte[][] rows) throws Exception {
    throw new UnsupportedOperationException("batch-put is not audited (Settings refuses it with hbaseload.audit=true)");
  }

  @Override
  public void delete(byte[] row) throws Exception {
    inner.delete(row);
  }

  @Override
  public long increment(byte[] row) throws Exception {
    return inner.increment(row);
  }

  @Override
  public void flush() throws Exception {
    inner.flush();
  }

  @Override
  public void putValue(byte[] row, byte[] value) throws Exception {
    inner.putValue(row, value);
  }

  @Override
  public void close() throws Exception {
    inner.close();
  }
}
