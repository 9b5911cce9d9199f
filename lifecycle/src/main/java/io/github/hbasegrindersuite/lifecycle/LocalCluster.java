package io.github.hbasegrindersuite.lifecycle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The embedded HBase's processes for {@code ./suite hbase start --regionservers N}: what each JVM
 * is (its name, main class, heap, ports, system properties and arguments) and, for a cluster, the
 * hbase-site.xml overrides all of them share. hbase-local/hbase-ctl.sh starts, watches and stops
 * what this lists and decides nothing itself.
 *
 * <p>N = 1 is the standalone HBase as it always was: one JVM with master, region server and
 * ZooKeeper, on the base ports, with the project's conf unchanged. N ≥ 2 is HBase's
 * pseudo-distributed mode on the local filesystem (as bin/start-hbase.sh plus
 * bin/local-regionservers.sh would run it): ZooKeeper (HQuorumPeer), the master and N region
 * servers, each its own JVM, sharing one rootdir. The base ports come from suite.d/common.sh
 * (PORT_*, moved by SUITE_PORT_OFFSET); region server i (1-based) listens on PORT_REGIONSERVER + i - 1
 * and PORT_REGIONSERVER_INFO + i - 1, so region server 1 is on the standalone's ports, and at most
 * {@link #MAX_REGION_SERVERS} fit below the info port (HBase's own script steps by 1 too, from 16200/16300).
 */
final class LocalCluster {
  static final String OPTION = "--regionservers";
  /** 8 region servers of 1 GiB plus master, ZooKeeper and injectors are what 2 cores and 24 GiB carry. */
  static final int MAX_REGION_SERVERS = 8;

  /** Heap of each region server: 2 GiB, less when many share {@link #REGION_SERVER_HEAP_BUDGET_MB}. */
  static final int REGION_SERVER_HEAP_MB = 2048;
  /** What all region servers together may take (other copies of the suite share this machine). */
  static final int REGION_SERVER_HEAP_BUDGET_MB = 8192;
  static final int MIN_REGION_SERVER_HEAP_MB = 1024;
  /** The master hosts no user regions in 2.x (hbase:meta lives on a region server): procedures and the UI. */
  static final String MASTER_HEAP = "1g";
  static final String ZOOKEEPER_HEAP = "256m";

  /**
   * A dead region server's ZooKeeper session ends after this, and the master then reassigns its
   * regions: HBase's default (90 s) would hide a kill for a minute and a half.
   */
  static final int ZK_SESSION_TIMEOUT_MS = 6000;
  /** ZooKeeper grants sessions of 2 to 20 ticks: 1 s ticks let 6 s sessions through. */
  static final int ZK_TICK_MS = 1000;

  static final String HMASTER = "org.apache.hadoop.hbase.master.HMaster";
  static final String HREGIONSERVER = "org.apache.hadoop.hbase.regionserver.HRegionServer";
  static final String HQUORUMPEER = "org.apache.hadoop.hbase.zookeeper.HQuorumPeer";

  /** The base ports of suite.d/common.sh (after the offset). */
  static final class Ports {
    final int zk;
    final int master;
    final int masterInfo;
    final int regionServer;
    final int regionServerInfo;

    Ports(int zk, int master, int masterInfo, int regionServer, int regionServerInfo) {
      this.zk = zk;
      this.master = master;
      this.masterInfo = masterInfo;
      this.regionServer = regionServer;
      this.regionServerInfo = regionServerInfo;
    }
  }

  /** One JVM to start: ports[0] is its client/RPC port, ports[1] (if any) its web UI. */
  static final class Server {
    final String name;
    final String mainClass;
    final String heap;
    final List<Integer> ports;
    /** -Dkey=value words for the JVM, beside the ones every server gets (hbase-ctl.sh's site_properties). */
    final List<String> properties;
    final List<String> args;

    Server(String name, String mainClass, String heap, List<Integer> ports, List<String> properties, List<String> args) {
      this.name = name;
      this.mainClass = mainClass;
      this.heap = heap;
      this.ports = List.copyOf(ports);
      this.properties = List.copyOf(properties);
      this.args = List.copyOf(args);
    }
  }

  final int regionServers;
  final List<Server> servers;

  private LocalCluster(int regionServers, List<Server> servers) {
    this.regionServers = regionServers;
    this.servers = List.copyOf(servers);
  }

  boolean standalone() {
    return regionServers == 1;
  }

  /** N from the command line: a whole number from 1 to 8, else a one-line refusal naming it. */
  static int parseCount(String text) throws LifecycleException {
    final String t = text == null ? "" : text.trim();
    final String culprit = OPTION + " '" + (text == null ? "" : text) + "'";
    if (!t.matches("[0-9]{1,4}")) {
      throw new LifecycleException.Usage(culprit + " is not a whole number (1 for the standalone HBase, 2 to "
          + MAX_REGION_SERVERS + " for a local cluster)");
    }
    final int n = Integer.parseInt(t);
    if (n < 1) {
      throw new LifecycleException.Usage(culprit + ": at least 1 region server");
    }
    if (n > MAX_REGION_SERVERS) {
      throw new LifecycleException.Usage(culprit + ": at most " + MAX_REGION_SERVERS
          + " region servers fit this machine and the port range (region server i uses PORT_REGIONSERVER + i - 1)");
    }
    return n;
  }

  /** Each region server's heap in MiB: 2 GiB, shrunk so that all fit the budget, never below 1 GiB. */
  static int regionServerHeapMb(int n) {
    return Math.max(MIN_REGION_SERVER_HEAP_MB, Math.min(REGION_SERVER_HEAP_MB, REGION_SERVER_HEAP_BUDGET_MB / n));
  }

  /**
   * The processes for N region servers. standaloneHeap is the standalone's (HBASE_LOCAL_HEAP);
   * regionServerHeap, when not empty, overrides the region servers' (HBASE_LOCAL_RS_HEAP).
   */
  static LocalCluster of(int n, Ports p, String standaloneHeap, String regionServerHeap) throws LifecycleException {
    if (n < 1 || n > MAX_REGION_SERVERS) {
      throw new LifecycleException.Usage(OPTION + " " + n + ": from 1 to " + MAX_REGION_SERVERS);
    }
    final List<Server> servers = new ArrayList<>();
    if (n == 1) {
      servers.add(new Server("master", HMASTER, standaloneHeap,
          List.of(p.zk, p.master, p.masterInfo, p.regionServer, p.regionServerInfo), List.of(), List.of("start")));
    } else {
      // ZooKeeper's admin server would take 8080 whatever the offset: other copies of the suite need it.
      servers.add(new Server("zookeeper", HQUORUMPEER, ZOOKEEPER_HEAP, List.of(p.zk),
          List.of("-Dzookeeper.admin.enableServer=false"), List.of()));
      servers.add(new Server("master", HMASTER, MASTER_HEAP, List.of(p.master, p.masterInfo), List.of(), List.of("start")));
      final String heap = regionServerHeap == null || regionServerHeap.isBlank() ? regionServerHeapMb(n) + "m" : regionServerHeap.trim();
      for (int i = 1; i <= n; i++) {
        final int rpc = p.regionServer + i - 1;
        final int info = p.regionServerInfo + i - 1;
        // hbase-site.xml reads both ports from these properties (${hbase.local.port.regionserver*}).
        servers.add(new Server("regionserver-" + i, HREGIONSERVER, heap, List.of(rpc, info),
            List.of("-Dhbase.local.port.regionserver=" + rpc, "-Dhbase.local.port.regionserver.info=" + info), List.of("start")));
      }
    }
    final LocalCluster cluster = new LocalCluster(n, servers);
    cluster.refuseSharedPorts();
    return cluster;
  }

  /** Two servers on one port would fail half-started: refuse base ports too close together. */
  private void refuseSharedPorts() throws LifecycleException {
    final Map<Integer, String> owner = new LinkedHashMap<>();
    for (Server s : servers) {
      for (int port : s.ports) {
        final String before = owner.putIfAbsent(port, s.name);
        if (before != null) {
          throw new LifecycleException("port " + port + " would serve both " + before + " and " + s.name
              + ": the base ports of suite.d/common.sh leave no room for " + regionServers + " region servers");
        }
      }
    }
  }

  /** Every port the servers listen on, ascending: what must be free before the start. */
  List<Integer> allPorts() {
    final TreeSet<Integer> all = new TreeSet<>();
    servers.forEach(s -> all.addAll(s.ports));
    return List.copyOf(all);
  }

  /**
   * hbase-site.xml overrides of a cluster (none for the standalone). The master waits for all N
   * region servers before it assigns anything (and goes on as soon as they are in), so a table
   * made right after the start has its regions spread over every server.
   */
  Map<String, String> site() {
    final Map<String, String> site = new LinkedHashMap<>();
    if (standalone()) {
      return site;
    }
    site.put("hbase.cluster.distributed", "true");
    site.put("zookeeper.session.timeout", String.valueOf(ZK_SESSION_TIMEOUT_MS));
    site.put("hbase.zookeeper.property.tickTime", String.valueOf(ZK_TICK_MS));
    site.put("hbase.master.wait.on.regionservers.mintostart", String.valueOf(regionServers));
    // and no longer: without a maximum it waits another 4.5 s (…regionservers.timeout) for more
    site.put("hbase.master.wait.on.regionservers.maxtostart", String.valueOf(regionServers));
    return site;
  }

  /** The cluster's conf folder: the normal conf's files, hbase-site.xml with {@link #site()} added. */
  Path writeConf(Path normalConf, Path out) throws LifecycleException {
    return ServerVariants.writeConf(normalConf,
        new ServerVariants.Variant("local cluster, " + regionServers + " region servers", site()), out);
  }

  /**
   * What hbase-ctl.sh sources: CLUSTER_REGIONSERVERS, CLUSTER_MODE (standalone|distributed) and one
   * array entry per server, in start order (ZooKeeper, master, region servers): CLUSTER_NAMES,
   * CLUSTER_MAINS, CLUSTER_HEAPS, and space-separated words in CLUSTER_PORTS, CLUSTER_PROPS and
   * CLUSTER_ARGS (none holds a space: ports, -Dkey=number, start). CLUSTER_ALL_PORTS: every port.
   */
  String shell(String conf) {
    final List<String> names = new ArrayList<>();
    final List<String> mains = new ArrayList<>();
    final List<String> heaps = new ArrayList<>();
    final List<String> ports = new ArrayList<>();
    final List<String> props = new ArrayList<>();
    final List<String> args = new ArrayList<>();
    for (Server s : servers) {
      names.add(s.name);
      mains.add(s.mainClass);
      heaps.add(s.heap);
      ports.add(words(s.ports));
      props.add(String.join(" ", s.properties));
      args.add(String.join(" ", s.args));
    }
    return new ShellAssignments()
        .scalar("CLUSTER_REGIONSERVERS", regionServers)
        .scalar("CLUSTER_MODE", standalone() ? "standalone" : "distributed")
        .scalar("CLUSTER_CONF", conf)
        .array("CLUSTER_NAMES", names)
        .array("CLUSTER_MAINS", mains)
        .array("CLUSTER_HEAPS", heaps)
        .array("CLUSTER_PORTS", ports)
        .array("CLUSTER_PROPS", props)
        .array("CLUSTER_ARGS", args)
        .scalar("CLUSTER_ALL_PORTS", words(allPorts()))
        .toString();
  }

  private static String words(List<Integer> ports) {
    final StringBuilder b = new StringBuilder();
    for (int port : ports) {
      b.append(b.length() == 0 ? "" : " ").append(port);
    }
    return b.toString();
  }
}
