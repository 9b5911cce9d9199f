package io.github.hbasegrindersuite.shim.it;

import io.github.hbasegrindersuite.shim.ShimConfig;
import io.github.hbasegrindersuite.shim.ShimInstance;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What every integration test needs: the ZooKeeper port of an HBase that is already running
 * (system property suite.hbase.zk.port; missing = the test fails, it never skips), a direct
 * HBase client, throwaway tables, and shims started in-process on free loopback ports.
 */
final class HBaseSupport {

  static final String PORT_PROPERTY = "suite.hbase.zk.port";

  private HBaseSupport() {
  }

  /** The ZooKeeper port, or an AssertionError that says how to give it. */
  static int zkPort() {
    String p = System.getProperty(PORT_PROPERTY);
    if (p == null || p.isBlank()) {
      throw new AssertionError("system property " + PORT_PROPERTY + " is not set: the integration tests need a"
          + " running HBase. Start one (./suite hbase start: ZooKeeper on 127.0.0.1:2181 + SUITE_PORT_OFFSET) and run"
          + " mvn verify -D" + PORT_PROPERTY + "=2181");
    }
    try {
      return Integer.parseInt(p.trim());
    } catch (NumberFormatException e) {
      throw new AssertionError(PORT_PROPERTY + "='" + p + "' is not a port number");
    }
  }

  static Connection directConnection() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort());
    conf.setInt("hbase.client.retries.number", 3);
    conf.setLong("hbase.client.operation.timeout", 20_000);
    return ConnectionFactory.createConnection(conf);
  }

  /** Creates shim_it_<label>_<random> with families f and g, split at "m" (two regions). */
  static TableName createTable(Connection c, String label) throws IOException {
    TableName name = TableName.valueOf("shim_it_" + label + "_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL));
    try (Admin admin = c.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("g"))
          .build(), new byte[][] {Bytes.toBytes("m")});
    }
    return name;
  }

  static void dropTable(Connection c, TableName name) {
    if (c == null || name == null) {
      return;
    }
    try (Admin admin = c.getAdmin()) {
      if (admin.tableExists(name)) {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
    } catch (IOException e) {
      System.err.println("could not drop " + name + ": " + e);
    }
  }

  /** A shim in this JVM on free ports, talking to the test HBase; extra settings as pairs. */
  static ShimInstance startShim(String... settings) throws IOException {
    Map<String, String> s = new HashMap<>();
    s.put("shim.port", "0");
    s.put("shim.metrics.port", "0");
    s.put("shim.hbase.zookeeper.quorum", "127.0.0.1");
    s.put("shim.hbase.zookeeper.port", Integer.toString(zkPort()));
    for (int i = 0; i < settings.length; i += 2) {
      s.put(settings[i], settings[i + 1]);
    }
    return ShimInstance.start(ShimConfig.of(s));
  }

  static Path targetDir() {
    return Paths.get("target").toAbsolutePath();
  }
}
