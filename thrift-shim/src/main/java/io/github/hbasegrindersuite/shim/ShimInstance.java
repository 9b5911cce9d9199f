package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.ipc.NettyRpcClientConfigHelper;
import org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.Epoll;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.EpollEventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.EpollSocketChannel;
import org.apache.hbase.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A running shim: the HBase connection (checked reachable before the port opens), the handler,
 * the server, the scanner reaper. {@link ShimMain} runs one per JVM; the integration tests start
 * one in-process on free ports. {@link #close} drains, writes the metrics file, and disconnects.
 */
public final class ShimInstance implements AutoCloseable {

  private final ShimConfig config;
  private final Connection connection;
  private final ShimHandler handler;
  private final ShimServer server;
  private final ShimMetrics metrics;
  private final ScheduledExecutorService reaper;
  private final EventLoopGroup eventLoops;
  /** shim.server = eventloop: the asynchronous connection get and put use (else null). */
  private AsyncConnection asyncConnection;
  private volatile boolean closed;

  private ShimInstance(ShimConfig config, Connection connection, ShimHandler handler, ShimServer server,
      ShimMetrics metrics, ScheduledExecutorService reaper, EventLoopGroup eventLoops) {
    this.config = config;
    this.connection = connection;
    this.handler = handler;
    this.server = server;
    this.metrics = metrics;
    this.reaper = reaper;
    this.eventLoops = eventLoops;
  }

  /** The HBase client configuration the shim's settings describe. */
  public static Configuration hbaseConfiguration(ShimConfig config) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    String site = config.get(ShimConfig.Key.HBASE_SITE);
    if (!site.isEmpty()) {
      java.nio.file.Path p = Paths.get(site);
      if (!Files.isReadable(p)) {
        throw new IOException("shim.hbase.site: cannot read " + site);
      }
      conf.addResource(new Path(p.toAbsolutePath().toUri()));
    } else {
      conf.set(HConstants.ZOOKEEPER_QUORUM, config.get(ShimConfig.Key.ZK_QUORUM));
      conf.set(HConstants.ZOOKEEPER_CLIENT_PORT, config.get(ShimConfig.Key.ZK_PORT));
    }
    conf.setLong(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, config.longValue(ShimConfig.Key.HBASE_OPERATION_TIMEOUT_MS));
    if (config.rpcClient() == ShimConfig.RpcClient.BLOCKING) {
      conf.set("hbase.rpc.client.impl", "org.apache.hadoop.hbase.ipc.BlockingRpcClient");
    }
    return conf;
  }

  /**
   * For shim.hbase.rpc.client=epoll: the HBase client's netty event loops on the native epoll
   * transport (shipped in hbase-shaded-netty) instead of Java NIO; null otherwise or when the
   * native library cannot load (then HBase's default is used).
   */
  static EventLoopGroup epollEventLoops(ShimConfig config, Configuration conf) {
    if (config.rpcClient() != ShimConfig.RpcClient.EPOLL || !Epoll.isAvailable()) {
      return null;
    }
    EventLoopGroup group = new EpollEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
        new DefaultThreadFactory("shim-hbase-rpc", true));
    NettyRpcClientConfigHelper.setEventLoopConfig(conf, group, EpollSocketChannel.class);
    return group;
  }

  /**
   * For shim.server = eventloop: one group of netty event loops (native epoll, shipped in
   * hbase-shaded-netty, where it loads, else Java NIO; as measured, whatever shim.hbase.rpc.client
   * says between netty and epoll) for the HBase client and the shim's connections, so that a get or put runs on one
   * thread from request to answer. shim.eventloop.threads of them (0: one per CPU the JVM may use).
   */
  static ShimServer.EventLoops sharedEventLoops(ShimConfig config, Configuration conf) {
    int threads = config.intValue(ShimConfig.Key.EVENTLOOP_THREADS);
    if (threads == 0) {
      threads = Runtime.getRuntime().availableProcessors();
    }
    DefaultThreadFactory names = new DefaultThreadFactory("shim-eventloop", true);
    EventLoopGroup group;
    if (!Epoll.isAvailable()) {
      group = new org.apache.hbase.thirdparty.io.netty.channel.nio.NioEventLoopGroup(threads, names);
      NettyRpcClientConfigHelper.setEventLoopConfig(conf, group,
          org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioSocketChannel.class);
      return new ShimServer.EventLoops(group,
          org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioServerSocketChannel.class, null);
    }
    group = new EpollEventLoopGroup(threads, names);
    NettyRpcClientConfigHelper.setEventLoopConfig(conf, group, EpollSocketChannel.class);
    return new ShimServer.EventLoops(group,
        org.apache.hbase.thirdparty.io.netty.channel.epoll.EpollServerSocketChannel.class, null);
  }

  private static AsyncConnection asyncConnection(Configuration conf) throws IOException {
    try {
      return ConnectionFactory.createAsyncConnection(conf).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to HBase", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("cannot open HBase's asynchronous connection: " + Errors.firstLine(e), e);
    }
  }

  /** Where the shim's HBase is, for messages. */
  public static String describeHBase(ShimConfig config) {
    String site = config.get(ShimConfig.Key.HBASE_SITE);
    return site.isEmpty()
        ? "ZooKeeper " + config.get(ShimConfig.Key.ZK_QUORUM) + ":" + config.get(ShimConfig.Key.ZK_PORT)
        : "the cluster in " + site;
  }

  /** Connects to HBase, waits until hbase:meta can be located, then opens the ports. */
  public static ShimInstance start(ShimConfig config) throws IOException {
    Configuration conf = hbaseConfiguration(config);
    ShimServer.EventLoops serving = null;
    EventLoopGroup eventLoops;
    if (config.server() == ShimConfig.Server.EVENTLOOP) {
      serving = sharedEventLoops(config, conf);
      eventLoops = serving.group();
    } else {
      eventLoops = epollEventLoops(config, conf);
    }
    Connection connection = ConnectionFactory.createConnection(conf);
    try {
      probe(connection, config);
    } catch (IOException e) {
      closeInBackground(connection);
      throw e;
    }
    ShimMetrics metrics = new ShimMetrics();
    Gate gate = new Gate(config.intValue(ShimConfig.Key.MAX_INFLIGHT));
    ShimHandler handler = new ShimHandler(connection, config, metrics, gate);
    AsyncConnection asyncConnection = null;
    ShimServer server;
    try {
      if (serving != null) {
        asyncConnection = asyncConnection(conf);
        serving = new ShimServer.EventLoops(serving.group(), serving.serverChannel(),
            new AsyncDataPath(asyncConnection, gate, metrics, config.intValue(ShimConfig.Key.MAX_TABLE_NAMES)));
      }
      server = ShimServer.start(config, handler, gate, metrics, serving);
    } catch (IOException e) {
      closeInBackground(connection);
      throw e;
    }
    metrics.openScannersGauge(handler::openScanners);
    metrics.thriftLibraryErrors(ThriftLogCounter::count);
    long timeout = config.longValue(ShimConfig.Key.SCANNER_TIMEOUT_MS);
    long every = Math.max(1000, Math.min(10_000, timeout / 4));
    ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "shim-scanner-reaper");
      t.setDaemon(true);
      return t;
    });
    reaper.scheduleWithFixedDelay(handler::expireScanners, every, every, TimeUnit.MILLISECONDS);
    ShimInstance instance = new ShimInstance(config, connection, handler, server, metrics, reaper, eventLoops);
    instance.asyncConnection = asyncConnection;
    instance.writeReadyFile();
    return instance;
  }

  private static void probe(Connection connection, ShimConfig config) throws IOException {
    long timeout = config.longValue(ShimConfig.Key.HBASE_STARTUP_TIMEOUT_MS);
    ExecutorService one = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "shim-hbase-probe");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<?> f = one.submit(() -> {
        try (RegionLocator meta = connection.getRegionLocator(TableName.META_TABLE_NAME)) {
          meta.getRegionLocation(HConstants.EMPTY_START_ROW, true);
        }
        return null;
      });
      f.get(timeout, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("HBase not reachable at " + describeHBase(config) + " within " + timeout
          + " ms (shim.hbase.startup.timeout.ms): is it running?");
    } catch (ExecutionException e) {
      throw new IOException("HBase not reachable at " + describeHBase(config) + ": "
          + Errors.firstLine(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to HBase", e);
    } finally {
      one.shutdownNow();
    }
  }

  private static void closeInBackground(Connection connection) {
    Thread t = new Thread(() -> {
      try {
        connection.close();
      } catch (IOException | RuntimeException ignored) {
        // exiting anyway
      }
    }, "shim-hbase-close");
    t.setDaemon(true);
    t.start();
  }

  private void writeReadyFile() throws IOException {
    String f = config.get(ShimConfig.Key.READY_FILE);
    if (f.isEmpty()) {
      return;
    }
    java.nio.file.Path target = Paths.get(f);
    java.nio.file.Path dir = target.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    java.nio.file.Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    String text = "port=" + port() + "\nmetrics_port=" + metricsPort() + "\npid=" + ProcessHandle.current().pid()
        + "\nhbase=" + describeHBase(config) + "\n";
    Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public int port() {
    return server.port();
  }

  public int metricsPort() {
    return server.metricsPort();
  }

  public ShimMetrics metrics() {
    return metrics;
  }

  public ShimConfig config() {
    return config;
  }

  public Connection connection() {
    return connection;
  }

  /**
   * Drains (calls in progress finish, new ones are refused, up to shim.shutdown.grace.ms), closes
   * the server, writes shim.metrics.file, closes scanners and the HBase connection. Returns how
   * many calls were still running when the grace period ended.
   */
  public synchronized int shutdown() {
    if (closed) {
      return 0;
    }
    closed = true;
    int left = server.drain(config.longValue(ShimConfig.Key.SHUTDOWN_GRACE_MS));
    server.close();
    reaper.shutdownNow();
    handler.closeAllScanners();
    handler.closeTables();
    writeMetricsFile();
    try {
      connection.close();
      if (asyncConnection != null) {
        asyncConnection.close();
      }
    } catch (IOException | RuntimeException ignored) {
      // shutting down
    }
    if (eventLoops != null) {
      eventLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
    return left;
  }

  /** Writes the metrics file now (also done by {@link #shutdown}); no-op when none is configured. */
  public void writeMetricsFile() {
    String f = config.get(ShimConfig.Key.METRICS_FILE);
    if (f.isEmpty()) {
      return;
    }
    try {
      metrics.writeFiles(Paths.get(f));
    } catch (IOException e) {
      System.err.println("thrift-shim: cannot write " + f + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    shutdown();
  }
}
