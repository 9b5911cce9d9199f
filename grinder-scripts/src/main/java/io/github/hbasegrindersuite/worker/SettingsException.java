package io.github.hbasegrindersuite.worker;

/** A bad hbaseload.* setting; the message names the key and what it accepts. */
public final class SettingsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public SettingsException(String message) {
    super(message);
  }
}
