package io.github.hbasegrindersuite.worker;

import java.util.Locale;

/**
 * The operations a worker can run. The numbers are Grinder test numbers: stable, because data
 * logs and reports identify operations by them.
 */
public enum Operation {
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

  public String label() {
    return label;
  }

  /** The operation called {@code label}, or null. */
  public static Operation byLabel(String label) {
    for (Operation operation : values()) {
      if (operation.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
        return operation;
      }
    }
    return null;
  }

  public static String labels() {
    StringBuilder all = new StringBuilder();
    for (Operation operation : values()) {
      all.append(all.length() == 0 ? "" : ", ").append(operation.label);
    }
    return all.toString();
  }
}
