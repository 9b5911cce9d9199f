package io.github.hbasegrindersuite.lifecycle;

/** A refusal or failure with a one-line message that names its culprit; the command prints it and exits 1. */
public final class LifecycleException extends Exception {
  private static final long serialVersionUID = 1L;

  public LifecycleException(String message) {
    super(Text.oneLine(message));
  }
}
