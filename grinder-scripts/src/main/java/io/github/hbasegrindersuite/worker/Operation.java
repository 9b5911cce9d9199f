package io.github.hbasegrindersuite.worker;

/**
 * The operations a worker can run: the one declaration of the suite's test numbers and names.
 * Each is a Grinder test (hbase_load.py records one per constant); the numbers are stable,
 * because data logs and reports identify operations by them. Every other copy -- the README's
 * table, r-analysis's fallback names for logs without a manifest -- is checked against this
 * enum by TestNumbersTest.
 */
public enum Operation implements Choice {
  GET(1, "get"),
  PUT(2, "put"),
  SCAN(3, "scan"),
  BATCH_GET(4, "batch-get"),
  BATCH_PUT(5, "batch-put"),
  DELETE(6, "delete"),
  INCREMENT(7, "increment");

  private final int testNumber;
  private final String label;

  Operation(int testNumber, String label) {
    this.testNumber = testNumber;
    this.label = label;
  }

  public int testNumber() {
    return testNumber;
  }

  @Override
  public String label() {
    return label;
  }

  /** The operation called {@code label}, or null. */
  public static Operation byLabel(String label) {
    return Choice.byLabel(Operation.class, label);
  }

  /** "get, put, scan, ...": the accepted operations, as error messages list them. */
  public static String labels() {
    return Choice.labels(Operation.class);
  }
}
