package io.github.hbasegrindersuite.lifecycle.servermetrics;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One HBase server whose JMX servlet is sampled: its role and its info server's address. Its
 * handler count and metrics period come from its /conf once, at start, and the JVM it runs in from
 * its Runtime bean (null when unknown).
 */
final class Server {
  final Bean.Role role;
  final String host;
  final int infoPort;
  Integer handlers;
  Long metricsPeriodMs;
  /** The JVM serving it ("pid@host", its Runtime bean's Name), null when unknown. */
  String jvm;
  /** Its JVM's pid when it runs on this machine (LocalJvms), else null. */
  Integer localPid;

  Server(Bean.Role role, String host, int infoPort) {
    this.role = role;
    this.host = host;
    this.infoPort = infoPort;
  }

  /** {@code regionserver=127.0.0.1:16030} (a --server argument). */
  static Server parse(String text) {
    final int eq = text.indexOf('=');
    final int colon = text.lastIndexOf(':');
    if (eq < 0 || colon < eq) {
      throw new IllegalArgumentException("--server '" + text + "' is not ROLE=HOST:INFO_PORT");
    }
    final String port = text.substring(colon + 1);
    if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) == 0 || Integer.parseInt(port) > 65535) {
      throw new IllegalArgumentException("--server '" + text + "': info port '" + port + "' is not a port number");
    }
    return new Server(Bean.Role.of(text.substring(0, eq)), text.substring(eq + 1, colon), Integer.parseInt(port));
  }

  /** host:port, the CSV's server column. */
  String address() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + infoPort;
  }

  URI jmx(String objectName) {
    return URI.create("http://" + address() + "/jmx?qry=" + URLEncoder.encode(objectName, StandardCharsets.UTF_8));
  }

  URI conf() {
    return URI.create("http://" + address() + "/conf?format=json");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Server && ((Server) o).role == role && ((Server) o).host.equals(host) && ((Server) o).infoPort == infoPort;
  }

  @Override
  public int hashCode() {
    return Objects.hash(role, host, infoPort);
  }

  @Override
  public String toString() {
    return role.word + " " + address();
  }
}
