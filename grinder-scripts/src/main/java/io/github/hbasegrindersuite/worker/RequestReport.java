package io.github.hbasegrindersuite.worker;

/** Where a Driver reports each request; Grinder's statistics in a worker, a recorder in tests. */
public interface RequestReport {
  /**
   * Called inside the recorded test, after the timed call.
   *
   * @param witnessMicros System.nanoTime around the HBase call alone
   * @param lagMicros how late the request started against its intended start (0 unpaced)
   * @param success false when the call failed or its result did not verify
   */
  void request(long witnessMicros, long lagMicros, boolean success);

  /** The same, knowing the operation (what Driver calls): reports that keep tests apart override it. */
  default void request(Operation operation, long witnessMicros, long lagMicros, boolean success) {
    request(witnessMicros, lagMicros, success);
  }

  /**
   * The rows a scan returned, called before {@link #request} for each scan that succeeded: a scan
   * near the table's end returns fewer than hbaseload.scan.length, so records/s is counted, not assumed.
   */
  default void rows(long rows) {
  }
}
