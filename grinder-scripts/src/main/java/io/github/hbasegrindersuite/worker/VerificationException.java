package io.github.hbasegrindersuite.worker;

/** A get read a missing row or a value that does not belong to its row (hbaseload.verify). */
public final class VerificationException extends Exception {
  private static final long serialVersionUID = 1L;

  public VerificationException(String message) {
    super(message, null, false, false);
  }
}
