package io.github.hbasegrindersuite.worker.targets;

/**
 * One thread's handle on HBase, the same for every target (YCSB's DB binding). Each method is
 * exactly the call the witness times; a failure is thrown, never swallowed.
 */
public interface Client extends AutoCloseable {

  /** Reads the whole row; returns the value of the first family's first column, null when absent. */
  byte[] get(byte[] row) throws Exception;

  /** Writes every family and column of the row. */
  void put(byte[] row) throws Exception;

  /**
   * Writes every family and column the row has, each with {@code value} (the acknowledged-write
   * audit's put: audit/AuditedClient, a value recomputable from the key).
   */
  default void putValue(byte[] row, byte[] value) throws Exception {
    throw new UnsupportedOperationException("this client cannot write a given value (no audit)");
  }

  /** Reads up to {@code rows} rows from {@code start}; returns how many came back. */
  int scan(byte[] start, int rows) throws Exception;

  /** Reads the rows in one call; returns how many exist. */
  int batchGet(byte[][] rows) throws Exception;

  void batchPut(byte[][] rows) throws Exception;

  void delete(byte[] row) throws Exception;

  /** Adds 1 to the row's counter column and returns the new value. */
  long increment(byte[] row) throws Exception;

  /**
   * Sends what the client still buffers (puts with hbaseload.client.buffering) and waits for it;
   * a client that buffers nothing has nothing to do.
   */
  default void flush() throws Exception {
  }

  /** Wide row (hbaseload.wide.columns): writes columns q{first}..q{first+count-1} of the row in one put. */
  default void putColumns(byte[] row, int first, int count) throws Exception {
    throw new UnsupportedOperationException("this target has no wide row");
  }

  /** Wide row: reads column q{column} of the row alone; null when absent. */
  default byte[] getColumn(byte[] row, int column) throws Exception {
    throw new UnsupportedOperationException("this target has no wide row");
  }

  @Override
  void close() throws Exception;
}
