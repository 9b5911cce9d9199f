package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class LocalClusterTest {
  @TempDir
  Path dir;

  /** suite.d/common.sh's ports at SUITE_PORT_OFFSET=800. */
  private static final LocalCluster.Ports AT_800 = new LocalCluster.Ports(2981, 16800, 16810, 16820, 16830);

  @Test
  void oneRegionServerIsTheStandaloneAsBefore() throws Exception {
    final LocalCluster one = LocalCluster.of(1, AT_800, "4g", "");
    assertTrue(one.standalone());
    assertEquals(1, one.servers.size());
    final LocalCluster.Server s = one.servers.get(0);
    assertEquals("master", s.name);
    assertEquals(LocalCluster.HMASTER, s.mainClass);
    assertEquals("4g", s.heap);
    assertEquals(List.of(), s.properties);
    assertEquals(List.of("start"), s.args);
    assertEquals(List.of(2981, 16800, 16810, 16820, 16830), one.allPorts());
    // no override: the project's conf as it is
    assertEquals(Map.of(), one.site());
  }

  @Test
  void eachRegionServerHasItsOwnPortsNextToTheFirst() throws Exception {
    final LocalCluster three = LocalCluster.of(3, AT_800, "4g", "");
    assertEquals(List.of("zookeeper", "master", "regionserver-1", "regionserver-2", "regionserver-3"),
        three.servers.stream().map(s -> s.name).toList());
    assertEquals(List.of(2981), three.servers.get(0).ports);
    assertEquals(List.of(16800, 16810), three.servers.get(1).ports);
    assertEquals(List.of(16820, 16830), three.servers.get(2).ports);
    assertEquals(List.of(16822, 16832), three.servers.get(4).ports);
    assertEquals(List.of("-Dhbase.local.port.regionserver=16821", "-Dhbase.local.port.regionserver.info=16831"),
        three.servers.get(3).properties);
    assertEquals(LocalCluster.HQUORUMPEER, three.servers.get(0).mainClass);
    assertTrue(three.servers.get(0).properties.contains("-Dzookeeper.admin.enableServer=false"), "no admin server on 8080");
    assertEquals(List.of(), three.servers.get(0).args);
    assertEquals(List.of("start"), three.servers.get(4).args);
  }

  @Test
  void noTwoServersShareAPortUpToTheMaximum() throws Exception {
    for (int n = 1; n <= LocalCluster.MAX_REGION_SERVERS; n++) {
      final LocalCluster c = LocalCluster.of(n, AT_800, "4g", "");
      final Set<Integer> seen = new HashSet<>();
      c.servers.forEach(s -> s.ports.forEach(p -> assertTrue(seen.add(p), "port " + p + " twice with " + c.regionServers)));
      assertEquals(seen.size(), c.allPorts().size());
    }
    // and every region server port stays below the first region server's web port
    final LocalCluster eight = LocalCluster.of(8, AT_800, "4g", "");
    assertEquals(16827, (int) eight.servers.get(9).ports.get(0));
  }

  @Test
  void basePortsTooCloseAreRefusedNamingThePort() {
    final LocalCluster.Ports tight = new LocalCluster.Ports(2181, 16000, 16010, 16020, 16022);
    final LifecycleException e = assertThrows(LifecycleException.class, () -> LocalCluster.of(3, tight, "4g", ""));
    assertEquals("port 16022 would serve both regionserver-1 and regionserver-3: the base ports of suite.d/common.sh"
        + " leave no room for 3 region servers", e.getMessage());
  }

  @Test
  void regionServerHeapsShrinkToTheBudgetButNotBelowOneGiB() throws Exception {
    assertEquals(2048, LocalCluster.regionServerHeapMb(2));
    assertEquals(2048, LocalCluster.regionServerHeapMb(4));
    assertEquals(1638, LocalCluster.regionServerHeapMb(5));
    assertEquals(1024, LocalCluster.regionServerHeapMb(8));
    final LocalCluster two = LocalCluster.of(2, AT_800, "4g", "");
    assertEquals(List.of("256m", "1g", "2048m", "2048m"), two.servers.stream().map(s -> s.heap).toList());
    assertEquals("3g", LocalCluster.of(2, AT_800, "4g", " 3g ").servers.get(3).heap);
  }

  @Test
  void theCountIsAWholeNumberFromOneToEightElseAOneLineRefusalNamingIt() throws Exception {
    assertEquals(1, LocalCluster.parseCount("1"));
    assertEquals(8, LocalCluster.parseCount("8"));
    assertEquals(3, LocalCluster.parseCount(" 3 "));
    assertEquals("--regionservers '0': at least 1 region server",
        assertThrows(LifecycleException.Usage.class, () -> LocalCluster.parseCount("0")).getMessage());
    assertEquals("--regionservers '9': at most 8 region servers fit this machine and the port range"
        + " (region server i uses PORT_REGIONSERVER + i - 1)",
        assertThrows(LifecycleException.Usage.class, () -> LocalCluster.parseCount("9")).getMessage());
    for (String bad : List.of("two", "", "-1", "2.5", "1e3", "99999", "2;rm")) {
      final LifecycleException e = assertThrows(LifecycleException.Usage.class, () -> LocalCluster.parseCount(bad));
      assertTrue(e.getMessage().startsWith("--regionservers '" + bad + "' is not a whole number"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"));
    }
    assertThrows(LifecycleException.Usage.class, () -> LocalCluster.parseCount("10000"));
  }

  @Test
  void theClusterConfIsTheNormalOnePlusDistributedModeAndAShortSession() throws Exception {
    final Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("hbase-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>\n"
        + "  <property><name>hbase.cluster.distributed</name><value>false</value></property>\n"
        + "  <property><name>hbase.regionserver.port</name><value>${hbase.local.port.regionserver}</value></property>\n"
        + "</configuration>\n");
    Files.writeString(conf.resolve("log4j.properties"), "log4j.rootLogger=INFO, F\n");
    final LocalCluster two = LocalCluster.of(2, AT_800, "4g", "");
    final Path out = dir.resolve("cluster-conf");
    two.writeConf(conf, out);
    two.writeConf(conf, out);  // a second start rewrites it
    assertEquals("log4j.rootLogger=INFO, F\n", Files.readString(out.resolve("log4j.properties")));
    // Hadoop's Configuration: the last definition of a name wins
    final Map<String, String> site = lastValues(out.resolve("hbase-site.xml"));
    assertEquals("true", site.get("hbase.cluster.distributed"));
    assertEquals("6000", site.get("zookeeper.session.timeout"));
    assertEquals("1000", site.get("hbase.zookeeper.property.tickTime"));
    assertEquals("2", site.get("hbase.master.wait.on.regionservers.mintostart"));
    assertEquals("2", site.get("hbase.master.wait.on.regionservers.maxtostart"));
    assertEquals("${hbase.local.port.regionserver}", site.get("hbase.regionserver.port"));
    // ZooKeeper accepts sessions of 2 to 20 ticks
    assertTrue(LocalCluster.ZK_SESSION_TIMEOUT_MS >= 2 * LocalCluster.ZK_TICK_MS
        && LocalCluster.ZK_SESSION_TIMEOUT_MS <= 20 * LocalCluster.ZK_TICK_MS);
  }

  private static Map<String, String> lastValues(Path site) throws Exception {
    final Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(site.toFile());
    final NodeList props = d.getElementsByTagName("property");
    final Map<String, String> out = new java.util.HashMap<>();
    for (int i = 0; i < props.getLength(); i++) {
      final Element p = (Element) props.item(i);
      out.put(p.getElementsByTagName("name").item(0).getTextContent(), p.getElementsByTagName("value").item(0).getTextContent());
    }
    return out;
  }

  @Test
  void bashGetsOneArrayEntryPerServerInStartOrder() throws Exception {
    final String shell = LocalCluster.of(2, AT_800, "4g", "").shell("/d/conf-cluster");
    assertTrue(shell.contains("CLUSTER_REGIONSERVERS='2'\n"), shell);
    assertTrue(shell.contains("CLUSTER_MODE='distributed'\n"), shell);
    assertTrue(shell.contains("CLUSTER_CONF='/d/conf-cluster'\n"), shell);
    assertTrue(shell.contains("CLUSTER_NAMES=('zookeeper' 'master' 'regionserver-1' 'regionserver-2')\n"), shell);
    assertTrue(shell.contains("CLUSTER_PORTS=('2981' '16800 16810' '16820 16830' '16821 16831')\n"), shell);
    assertTrue(shell.contains("CLUSTER_ARGS=('' 'start' 'start' 'start')\n"), shell);
    assertTrue(shell.contains("CLUSTER_ALL_PORTS='2981 16800 16810 16820 16821 16830 16831'\n"), shell);
    assertTrue(LocalCluster.of(1, AT_800, "4g", "").shell("/c").contains("CLUSTER_MODE='standalone'\n"));
  }

  @Test
  void theCommandLineRefusesABadCountBeforeWritingAnything() {
    final LifecycleException e = assertThrows(LifecycleException.class, () -> Main.run(List.of("cluster", "--regionservers", "x",
        "--ports", "2981,16800,16810,16820,16830", "--standalone-heap", "4g", "--conf", dir.toString(),
        "--cluster-conf", dir.resolve("out").toString())));
    assertTrue(e instanceof LifecycleException.Usage);
    assertTrue(e.getMessage().startsWith("--regionservers 'x' is not a whole number"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("out")));
  }
}
