package net.grinder.util;

import net.grinder.common.GrinderBuild;
import net.grinder.common.GrinderException;
import org.slf4j.Logger;

/**
 * Replaces Grinder 3.11's own {@code net.grinder.util.JVM} (same public surface), whose version
 * check reads "17.0.15" as major 17, minor 0, demands minor >= 6 and so refuses every modern
 * Java. This jar comes first on the console, agent and worker classpaths, so this class wins.
 *
 * <p>Versions are compared on the legacy scale Grinder asks in: "1.8.0_292" is (1, 8) and a
 * modern "17.0.15" counts as (1, 17), so {@code isAtLeastVersion(1, 6)} holds for Java 9 on.
 * Asked in the modern scale ({@code isAtLeastVersion(17, 0)}), feature and interim are compared.
 */
public final class JVM {

  private static final JVM INSTANCE = new JVM();

  /** Grinder's minimum, as the original class states it: Java SE 6. */
  private static final int REQUIRED_MAJOR = 1;
  private static final int REQUIRED_MINOR = 6;

  public static JVM getInstance() {
    return INSTANCE;
  }

  private JVM() {
  }

  public boolean haveRequisites(Logger logger) throws VersionException {
    final String name = "The Grinder " + GrinderBuild.getVersionString();
    if (!isAtLeastVersion(REQUIRED_MAJOR, REQUIRED_MINOR)) {
      logger.error("Fatal Error - incompatible version of Java ({})%n{} requires at least Java SE 6.",
                   this, name);
      return false;
    }
    return true;
  }

  public boolean isAtLeastVersion(int major, int minor) throws VersionException {
    return isAtLeast(System.getProperty("java.version"), major, minor);
  }

  /** Package-private for tests: does {@code version} reach (major, minor)? */
  static boolean isAtLeast(String version, int major, int minor) throws VersionException {
    final int[] featureInterim = parse(version);
    final int feature = featureInterim[0];
    if (major <= 1) {
      return feature >= minor; // legacy scale: 1.minor means feature release "minor"
    }
    return feature > major || feature == major && featureInterim[1] >= minor;
  }

  /**
   * Package-private for tests: {feature, interim} of a java.version string, for both the legacy
   * form ("1.8.0_292" gives {8, 0}) and the modern one ("17.0.15" gives {17, 0}, "21-ea" {21, 0},
   * "25+36" {25, 0}).
   */
  static int[] parse(String version) throws VersionException {
    if (version == null || version.isEmpty()) {
      throw new VersionException("Could not parse JVM version " + version);
    }
    final String numeric = version.split("[-+_ ]", 2)[0];
    final String[] parts = numeric.split("\\.");
    try {
      final int first = Integer.parseInt(parts[0]);
      if (first == 1) {
        if (parts.length < 2) {
          throw new VersionException("Could not parse JVM version " + version);
        }
        return new int[] {Integer.parseInt(parts[1]), 0};
      }
      final int interim = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return new int[] {first, interim};
    } catch (NumberFormatException e) {
      throw new VersionException("Could not parse JVM version " + version);
    }
  }

  @Override
  public String toString() {
    return System.getProperty("java.runtime.name") + " " + System.getProperty("java.runtime.version")
        + ": " + System.getProperty("java.vm.name") + " (" + System.getProperty("java.vm.version")
        + ", " + System.getProperty("java.vm.info") + ") on " + System.getProperty("os.name") + " "
        + System.getProperty("os.arch") + " " + System.getProperty("os.version");
  }

  /** Thrown when the running JVM's version string cannot be read. */
  public static final class VersionException extends GrinderException {
    public VersionException(String message) {
      super(message);
    }
  }
}
