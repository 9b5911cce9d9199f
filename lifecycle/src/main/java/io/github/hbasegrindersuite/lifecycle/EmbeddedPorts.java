package io.github.hbasegrindersuite.lifecycle;

/**
 * The embedded stack's client-facing ports as suite.d/common.sh computed them (PORT_ZK,
 * PORT_THRIFT2, PORT_SHIM: the one place ports are computed, from SUITE_PORT_OFFSET and the
 * SHIM_PORT override), handed to lifecycle as {@code --embedded-ports ZK,GATEWAY,SHIM}. Java maps a
 * run's unshifted defaults onto them and never adds an offset itself.
 */
record EmbeddedPorts(int zookeeper, int gateway, int shim) {
  /** The ports a properties file names when it means the embedded stack (grinder.properties' defaults). */
  static final int DEFAULT_ZOOKEEPER = 2181;
  static final int DEFAULT_GATEWAY = 9091;
  static final int DEFAULT_SHIM = 9092;

  /** "2681,9591,9592"; anything else is a usage error naming the value. */
  static EmbeddedPorts parse(String text) throws LifecycleException {
    final String[] parts = text.split(",", -1);
    if (parts.length != 3) {
      throw new LifecycleException.Usage("--embedded-ports '" + text + "' is not ZOOKEEPER,GATEWAY,SHIM");
    }
    final int[] ports = new int[3];
    for (int i = 0; i < 3; i++) {
      try {
        ports[i] = Integer.parseInt(parts[i].trim());
      } catch (NumberFormatException e) {
        ports[i] = -1;
      }
      if (ports[i] < 1 || ports[i] > 65535) {
        throw new LifecycleException.Usage("--embedded-ports '" + text + "': '" + parts[i] + "' is not a port (1-65535)");
      }
    }
    return new EmbeddedPorts(ports[0], ports[1], ports[2]);
  }
}
