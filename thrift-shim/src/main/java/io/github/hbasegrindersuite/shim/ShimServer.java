package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.MetricsHttpServer;
import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.server.ServerContext;
import org.apache.thrift.server.TServerEventHandler;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * The shim's network side, independent of HBase: the Thrift server the config chooses
 * (thread-pool or nonblocking; buffered or framed; binary or compact) around any
 * {@link THBaseService.Iface}, the metrics HTTP endpoint, and the drain on shutdown.
 */
public final class ShimServer implements AutoCloseable {

  private final ShimConfig config;
  private final ShimProcessor processor;
  private final Gate gate;
  private final ShimMetrics metrics;
  private final BlockingServer blocking;
  private final EventLoopServer eventLoop;
  private final ThreadPoolExecutor eventLoopBlockingCalls;
  /** The event loops this server made itself (no HBase client to share them with), else null. */
  private final org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup ownEventLoops;
  private final TThreadedSelectorServer nonblocking;
  private final Thread nonblockingThread;
  private final ThreadPoolExecutor nonblockingWorkers;
  private final MetricsHttpServer http;
  private final AtomicInteger nonblockingConnections = new AtomicInteger();
  private final RequestMemory requestMemory;
  private final int port;

  /**
   * What the event-loop server shares with the HBase client: its netty event loops (the channel
   * class of their transport) and the asynchronous data path on the same connection's loops.
   */
  public record EventLoops(org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup group,
      Class<? extends org.apache.hbase.thirdparty.io.netty.channel.ServerChannel> serverChannel, AsyncDataPath async) {
  }

  private ShimServer(ShimConfig config, THBaseService.Iface handler, Gate gate, ShimMetrics metrics, EventLoops loops)
      throws IOException {
    this.config = config;
    this.gate = gate;
    this.metrics = metrics;
    int maxRequest = config.intValue(ShimConfig.Key.MAX_FRAME_BYTES);
    this.processor = new ShimProcessor(handler, metrics, maxRequest);
    String bind = config.get(ShimConfig.Key.BIND_ADDRESS);
    int wantedPort = config.intValue(ShimConfig.Key.PORT);
    InetSocketAddress address = new InetSocketAddress(bind, wantedPort);
    TProtocolFactory protocols = protocolFactory(config.protocol(), maxRequest);
    this.requestMemory = new RequestMemory(config.longValue(ShimConfig.Key.MAX_REQUEST_MEMORY_BYTES));

    try {
      if (config.server() == ShimConfig.Server.EVENTLOOP) {
        if (loops == null) {
          // no HBase client's loops to share: loops of its own, every method on the handler
          ownEventLoops = new org.apache.hbase.thirdparty.io.netty.channel.nio.NioEventLoopGroup(1,
              new org.apache.hbase.thirdparty.io.netty.util.concurrent.DefaultThreadFactory("shim-eventloop", true));
          loops = new EventLoops(ownEventLoops,
              org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioServerSocketChannel.class, null);
        } else {
          ownEventLoops = null;
        }
        blocking = null;
        nonblocking = null;
        nonblockingThread = null;
        nonblockingWorkers = null;
        AtomicInteger n = new AtomicInteger();
        // the methods other than get and put: the blocking handler, on threads of their own
        // room beyond shim.max.inflight: the gate, not a missing thread, refuses the call too many
        eventLoopBlockingCalls = new ThreadPoolExecutor(0, 2 * config.intValue(ShimConfig.Key.MAX_INFLIGHT) + 8, 60,
            TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
              Thread t = new Thread(r, "shim-call-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
        try {
          eventLoop = new EventLoopServer(address, config, loops.group(), loops.serverChannel(), loops.async(),
              processor, eventLoopBlockingCalls, protocols, requestMemory, metrics);
        } catch (BindException | RuntimeException e) {
          eventLoopBlockingCalls.shutdownNow();
          if (ownEventLoops != null) {
            ownEventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
          }
          throw e; // a BindException is worded below as the other servers' are
        }
        port = eventLoop.port();
      } else if (config.server() == ShimConfig.Server.THREADPOOL) {
        ownEventLoops = null;
        eventLoop = null;
        eventLoopBlockingCalls = null;
        blocking = new BlockingServer(address, config, requestMemory, protocols, processor, metrics);
        nonblocking = null;
        nonblockingThread = null;
        nonblockingWorkers = null;
        port = blocking.port();
      } else {
        ownEventLoops = null;
        eventLoop = null;
        eventLoopBlockingCalls = null;
        blocking = null;
        TNonblockingServerSocket socket = new TNonblockingServerSocket(
            new TNonblockingServerSocket.NonblockingAbstractServerSocketArgs().bindAddr(address).backlog(256));
        int workers = config.intValue(ShimConfig.Key.WORKER_THREADS);
        AtomicInteger n = new AtomicInteger();
        // a bounded queue: beyond it the library closes the connection (counted as a library error)
        nonblockingWorkers = new ThreadPoolExecutor(workers, workers, 60, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(Math.max(16, config.intValue(ShimConfig.Key.MAX_INFLIGHT) * 4)), r -> {
              Thread t = new Thread(r, "shim-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
        TThreadedSelectorServer.Args args = new TThreadedSelectorServer.Args(socket)
            .selectorThreads(config.intValue(ShimConfig.Key.SELECTOR_THREADS))
            .executorService(nonblockingWorkers)
            .processor(processor)
            // each connection's decoding charged to the request memory, as in the thread-pool server
            .protocolFactory(t -> new AccountedProtocol(protocols.getProtocol(t), requestMemory.account(), true))
            // the server reads whole frames (up to maxReadBufferBytes) itself; the processor
            // answers those above shim.max.frame.bytes and the connection stays usable
            .transportFactory(new TFramedTransport.Factory(Integer.MAX_VALUE));
        args.maxReadBufferBytes = Math.min(Integer.MAX_VALUE, 4L * maxRequest);
        nonblocking = new TThreadedSelectorServer(args);
        nonblocking.setServerEventHandler(new ConnectionCounter());
        port = socket.getPort();
        nonblockingThread = new Thread(nonblocking::serve, "shim-nonblocking-server");
        nonblockingThread.setDaemon(true);
      }
    } catch (BindException | TTransportException e) {
      throw new IOException("cannot listen on " + bind + ":" + wantedPort + " (port already in use?): "
          + rootMessage(e), e);
    }
    int metricsPort = config.intValue(ShimConfig.Key.METRICS_PORT);
    MetricsHttpServer h = null;
    if (metricsPort >= 0) {
      try {
        h = new MetricsHttpServer(bind, metricsPort, metrics, () -> !gate.draining());
      } catch (IOException e) {
        closeServers();
        throw new IOException("cannot listen on " + bind + ":" + metricsPort + " for metrics (port already in use?): "
            + rootMessage(e), e);
      }
    }
    this.http = h;
  }

  private static String rootMessage(Throwable e) {
    Throwable c = e;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.toString() : c.getMessage();
  }

  /** Builds and starts the server. */
  public static ShimServer start(ShimConfig config, THBaseService.Iface handler, Gate gate, ShimMetrics metrics)
      throws IOException {
    return start(config, handler, gate, metrics, null);
  }

  /**
   * Builds and starts the server. {@code loops}: for shim.server = eventloop, the HBase client's
   * event loops and the asynchronous get and put on them; null, the server makes loops of its own
   * and serves every method with the handler (the unit tests' stub HBase).
   */
  public static ShimServer start(ShimConfig config, THBaseService.Iface handler, Gate gate, ShimMetrics metrics,
      EventLoops loops) throws IOException {
    ShimServer s = new ShimServer(config, handler, gate, metrics, loops);
    s.startServing();
    return s;
  }

  private void startServing() throws IOException {
    metrics.inFlightGauge(gate::inFlight);
    metrics.openConnectionsGauge(this::openConnections);
    if (blocking != null) {
      metrics.connectionPhasesGauge(blocking::connectionPhases);
    } else if (eventLoop != null) {
      metrics.connectionPhasesGauge(eventLoop::connectionPhases);
    }
    metrics.requestMemoryGauge(requestMemory::used);
    if (blocking != null) {
      blocking.start();
    } else if (nonblocking != null) {
      nonblockingThread.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!nonblocking.isServing()) {
        if (System.nanoTime() > deadline || !nonblockingThread.isAlive()) {
          closeServers();
          throw new IOException("nonblocking server did not start");
        }
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while starting", e);
        }
      }
    }
  }

  static TProtocolFactory protocolFactory(ShimConfig.Protocol protocol, int maxRequestBytes) {
    if (protocol == ShimConfig.Protocol.COMPACT) {
      return new TCompactProtocol.Factory(maxRequestBytes, maxRequestBytes);
    }
    // strict read: a request without the protocol version header is rejected, not guessed at
    return new TBinaryProtocol.Factory(true, true, maxRequestBytes, maxRequestBytes);
  }

  public int port() {
    return port;
  }

  /** The metrics HTTP port, or -1 when the endpoint is off. */
  public int metricsPort() {
    return http == null ? -1 : http.port();
  }

  public int openConnections() {
    return blocking != null ? blocking.openConnections()
        : eventLoop != null ? eventLoop.openConnections() : nonblockingConnections.get();
  }

  /** Connections idle between requests now (blocking transports; -1 otherwise). */
  int idleConnections() {
    return blocking != null ? blocking.idleConnections() : eventLoop != null ? eventLoop.idleConnections() : -1;
  }

  /** Bytes of shim.max.request.memory.bytes that requests being read hold now. */
  public long requestMemoryUsed() {
    return requestMemory.used();
  }

  public ShimProcessor processor() {
    return processor;
  }

  /**
   * Stops taking calls and waits up to {@code graceMillis} for the calls in progress to finish
   * (their responses included); returns how many were still running when the wait ended.
   */
  public int drain(long graceMillis) {
    gate.drain();
    if (blocking != null) {
      blocking.stopAccepting();
    }
    if (eventLoop != null) {
      eventLoop.stopAccepting();
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
    int quietChecks = 0;
    while (System.nanoTime() < deadline) {
      if (processor.active() == 0 && gate.inFlight() == 0) {
        if (++quietChecks >= 3) {
          break;
        }
      } else {
        quietChecks = 0;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return processor.active();
  }

  @Override
  public void close() {
    closeServers();
    if (http != null) {
      http.close();
    }
  }

  private void closeServers() {
    if (blocking != null) {
      blocking.close();
    }
    if (eventLoop != null) {
      eventLoop.close();
      eventLoopBlockingCalls.shutdownNow();
    }
    if (ownEventLoops != null) {
      ownEventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
    if (nonblocking != null) {
      nonblocking.stop();
      nonblockingWorkers.shutdownNow();
    }
  }

  /** Counts the nonblocking server's connections. */
  private final class ConnectionCounter implements TServerEventHandler {
    @Override
    public void preServe() {
    }

    @Override
    public ServerContext createContext(TProtocol input, TProtocol output) {
      nonblockingConnections.incrementAndGet();
      metrics.connectionsAccepted.increment();
      return null;
    }

    @Override
    public void deleteContext(ServerContext serverContext, TProtocol input, TProtocol output) {
      nonblockingConnections.decrementAndGet();
      if (input instanceof AccountedProtocol) {
        ((AccountedProtocol) input).memory().endRequest(); // the last request's charge, if any
      }
    }

    @Override
    public void processContext(ServerContext serverContext, TTransport inputTransport, TTransport outputTransport) {
    }
  }

  public ShimConfig config() {
    return config;
  }
}
