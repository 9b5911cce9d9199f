package io.github.hbasegrindersuite.lifecycle.servermetrics;

/**
 * The four JMX beans a sample reads, one {@code /jmx?qry=} request each, so that an answer is a
 * few kB rather than the whole servlet (the RegionServer's full /jmx is hundreds of kB with its
 * per-region beans). The IPC bean is the master's or the region server's own; the server bean is a
 * region server's only (the master serves no regions by default).
 */
enum Bean {
  IPC,
  SERVER,
  JVM,
  /** The JVM's operating-system bean: its process CPU time and its machine's load, per server. */
  OS;

  /**
   * The JVM's own beans: one server's answer is every server's in that JVM (the embedded HBase's
   * master and region server are one JVM and one MBean server).
   */
  boolean perJvm() {
    return this == JVM || this == OS;
  }

  /** The bean's ObjectName for a server of this role, or null when that role has no such bean. */
  String objectName(Role role) {
    switch (this) {
      case IPC:
        return "Hadoop:service=HBase,name=" + (role == Role.MASTER ? "Master" : "RegionServer") + ",sub=IPC";
      case SERVER:
        return role == Role.MASTER ? null : "Hadoop:service=HBase,name=RegionServer,sub=Server";
      case OS:
        return "java.lang:type=OperatingSystem";
      default:
        return "Hadoop:service=HBase,name=JvmMetrics";
    }
  }

  /** What a server of each kind is, as named in the CSV's role column. */
  enum Role {
    MASTER("master"),
    REGIONSERVER("regionserver");

    final String word;

    Role(String word) {
      this.word = word;
    }

    static Role of(String word) {
      for (Role r : values()) {
        if (r.word.equals(word)) {
          return r;
        }
      }
      throw new IllegalArgumentException("role '" + word + "' is neither master nor regionserver");
    }
  }
}
