package io.github.hbasegrindersuite.lifecycle;

/**
 * A refusal or failure with a one-line message that names its culprit; the command prints it and
 * exits 1, or 2 when it is a misuse of the command line (an unknown option, one without its value).
 */
public class LifecycleException extends Exception {
  private static final long serialVersionUID = 1L;

  public LifecycleException(String message) {
    super(Text.oneLine(message));
  }

  /** A command line that cannot be right whatever the machine: exit 2, as getopt's users do. */
  public static final class Usage extends LifecycleException {
    private static final long serialVersionUID = 1L;

    public Usage(String message) {
      super(message);
    }
  }
}
