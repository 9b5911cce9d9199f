package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class EmbeddedPortsTest {

  @Test
  void portsAreReadAsBashHandsThemOn() throws Exception {
    assertEquals(new EmbeddedPorts(2681, 9591, 9999), EmbeddedPorts.parse("2681,9591,9999"));
    assertEquals("--embedded-ports '2681,9591' is not ZOOKEEPER,GATEWAY,SHIM",
        assertThrows(LifecycleException.Usage.class, () -> EmbeddedPorts.parse("2681,9591")).getMessage());
    assertEquals("--embedded-ports '2681,x,9592': 'x' is not a port (1-65535)",
        assertThrows(LifecycleException.Usage.class, () -> EmbeddedPorts.parse("2681,x,9592")).getMessage());
    assertEquals("--embedded-ports '2681,9591,70000': '70000' is not a port (1-65535)",
        assertThrows(LifecycleException.Usage.class, () -> EmbeddedPorts.parse("2681,9591,70000")).getMessage());
  }

  /** The defaults a properties file names are mapped onto the ports handed on; no offset is added in Java. */
  @Test
  void aRunsDefaultPortsMeanTheEmbeddedStacksAndOthersAreKept() {
    final EmbeddedPorts ports = new EmbeddedPorts(2681, 9591, 9999);  // a SHIM_PORT of its own
    final Properties shim = new Properties();
    shim.setProperty("hbaseload.zookeeper.port", "2181");
    shim.setProperty("hbaseload.thrift.port", "9092");
    RunPlanner.embeddedPorts(shim, ports);
    assertEquals("2681", shim.getProperty("hbaseload.zookeeper.port"));
    assertEquals("9999", shim.getProperty("hbaseload.thrift.port"));
    final Properties gateway = new Properties();
    RunPlanner.embeddedPorts(gateway, ports);
    assertEquals("2681", gateway.getProperty("hbaseload.zookeeper.port"), "unset: the embedded ZooKeeper");
    assertEquals("9591", gateway.getProperty("hbaseload.thrift.port"), "unset: the embedded gateway");
    final Properties own = new Properties();
    own.setProperty("hbaseload.zookeeper.port", "2222");
    own.setProperty("hbaseload.thrift.port", "7000");
    RunPlanner.embeddedPorts(own, ports);
    assertEquals("2222", own.getProperty("hbaseload.zookeeper.port"));
    assertEquals("7000", own.getProperty("hbaseload.thrift.port"));
    final Properties cluster = new Properties();
    cluster.setProperty("hbaseload.hbase.site", "/etc/hbase/conf/hbase-site.xml");
    cluster.setProperty("hbaseload.zookeeper.port", "2181");
    RunPlanner.embeddedPorts(cluster, ports);
    assertEquals("2181", cluster.getProperty("hbaseload.zookeeper.port"), "a real cluster's ZooKeeper is its own");
  }
}
