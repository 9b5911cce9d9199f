package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HBase client configuration the shim's settings produce (no HBase needed). */
class ShimInstanceTest {

  @Test
  void embeddedHBaseByZooKeeperPort() throws Exception {
    Configuration c = ShimInstance.hbaseConfiguration(ShimConfig.of(Map.of("shim.hbase.zookeeper.port", "2381")));
    assertEquals("127.0.0.1", c.get("hbase.zookeeper.quorum"));
    assertEquals("2381", c.get("hbase.zookeeper.property.clientPort"));
    assertEquals(10_000, c.getLong("hbase.client.operation.timeout", 0));
    assertNull(c.get("hbase.rpc.client.impl"), "HBase's own default RPC client");
    assertEquals("ZooKeeper 127.0.0.1:2381", ShimInstance.describeHBase(ShimConfig.of(Map.of("shim.hbase.zookeeper.port", "2381"))));
  }

  @Test
  void realClusterBySiteFile(@TempDir Path dir) throws Exception {
    Path site = dir.resolve("hbase-site.xml");
    Files.writeString(site, "<?xml version=\"1.0\"?><configuration>"
        + "<property><name>hbase.zookeeper.quorum</name><value>zk1.example,zk2.example</value></property>"
        + "<property><name>hbase.zookeeper.property.clientPort</name><value>2222</value></property>"
        + "</configuration>");
    ShimConfig cfg = ShimConfig.of(Map.of("shim.hbase.site", site.toString(), "shim.server", "threadpool",
        "shim.hbase.rpc.client", "blocking"));
    Configuration c = ShimInstance.hbaseConfiguration(cfg);
    assertEquals("zk1.example,zk2.example", c.get("hbase.zookeeper.quorum"));
    assertEquals("2222", c.get("hbase.zookeeper.property.clientPort"));
    assertEquals("org.apache.hadoop.hbase.ipc.BlockingRpcClient", c.get("hbase.rpc.client.impl"));
    assertTrue(ShimInstance.describeHBase(cfg).startsWith("the cluster in "));
    IOException e = assertThrows(IOException.class, () -> ShimInstance.hbaseConfiguration(
        ShimConfig.of(Map.of("shim.hbase.site", dir.resolve("missing.xml").toString()))));
    assertTrue(e.getMessage().startsWith("shim.hbase.site: cannot read "), e.getMessage());
  }
}
