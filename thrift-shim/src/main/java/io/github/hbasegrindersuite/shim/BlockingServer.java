package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread-pool server: a thread per connection (as libthrift's TThreadPoolServer and HBase's
 * gateway default), written out here so that the shim decides what happens at the edges: at most
 * {@code shim.max.connections} connections, and when they are all open the one that has waited
 * longest for a request's bytes makes room for a new one ({@link ConnectionSlots}; one that cannot
 * get a slot within {@code shim.accept.wait.ms} is accepted and closed, counted); an idle timeout
 * and a deadline for each request to arrive in full ({@link RequestCycle}); the memory requests
 * being read may hold ({@link RequestMemory}); bad requests counted and their connections closed
 * without a log line; and a drain that stops accepting, lets calls in progress finish, then
 * closes the rest.
 */
final class BlockingServer {

  private static final Logger LOG = LoggerFactory.getLogger(BlockingServer.class);

  private final ServerSocket serverSocket;
  private final ThreadPoolExecutor pool;
  private final ShimProcessor processor;
  private final TProtocolFactory protocolFactory;
  private final boolean framed;
  private final int maxRequestBytes;
  private final int idleTimeoutMillis;
  private final long requestTimeoutMillis;
  private final RequestMemory requestMemory;
  private final ShimMetrics metrics;
  private final ConnectionSlots slots;
  private final long acceptWaitMillis;
  private final ConnectionLimitLog limitLog;
  private final Thread acceptor;
  private volatile boolean stopping;

  BlockingServer(InetSocketAddress bind, ShimConfig config, RequestMemory requestMemory,
      TProtocolFactory protocolFactory, ShimProcessor processor, ShimMetrics metrics) throws IOException {
    this.processor = processor;
    this.protocolFactory = protocolFactory;
    this.framed = config.transport() == ShimConfig.Transport.FRAMED;
    this.maxRequestBytes = config.intValue(ShimConfig.Key.MAX_FRAME_BYTES);
    this.idleTimeoutMillis = config.intValue(ShimConfig.Key.IDLE_TIMEOUT_MS);
    this.requestTimeoutMillis = config.longValue(ShimConfig.Key.REQUEST_READ_TIMEOUT_MS);
    this.requestMemory = requestMemory;
    this.metrics = metrics;
    int maxConnections = config.intValue(ShimConfig.Key.MAX_CONNECTIONS);
    this.acceptWaitMillis = config.longValue(ShimConfig.Key.ACCEPT_WAIT_MS);
    this.limitLog = new ConnectionLimitLog(maxConnections, acceptWaitMillis, ConnectionLimitLog.INTERVAL_MILLIS,
        line -> LOG.warn(line));
    this.slots = ConnectionSlots.of(config, metrics, limitLog);
    ServerSocket ss = new ServerSocket();
    ss.setReuseAddress(true);
    ss.bind(bind, 256);
    this.serverSocket = ss;
    AtomicInteger threadNumber = new AtomicInteger();
    // the slots bound the connections; the pool only supplies their threads, with room for those
    // that have released their slot but not yet returned to the pool
    this.pool = new ThreadPoolExecutor(0, 2 * maxConnections, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(r, "shim-connection-" + threadNumber.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.acceptor = new Thread(this::acceptLoop, "shim-acceptor");
    this.acceptor.setDaemon(true);
  }

  void start() {
    acceptor.start();
  }

  int port() {
    return serverSocket.getLocalPort();
  }

  int openConnections() {
    return slots.size();
  }

  /** Open connections by phase of their request cycle, named as the metrics name them (new, reading, call, idle). */
  java.util.Map<String, Long> connectionPhases() {
    return slots.namedPhases();
  }

  int idleConnections() {
    return slots.idle();
  }

  private void acceptLoop() {
    while (!stopping) {
      Socket s;
      try {
        s = serverSocket.accept();
      } catch (IOException e) {
        if (stopping) {
          return;
        }
        continue; // e.g. too many open files: try again
      }
      Connection c = new Connection(s, new RequestCycle(requestTimeoutMillis, idleTimeoutMillis, System.nanoTime()));
      boolean admitted = false;
      try {
        s.setTcpNoDelay(true);
        s.setKeepAlive(true);
        admitted = slots.admit(c, acceptWaitMillis, () -> stopping);
        if (admitted) {
          pool.execute(() -> serve(c));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopping = true;
      } catch (RejectedExecutionException | IOException e) {
        // not served after all (no thread, or the socket already broken)
        if (admitted) {
          slots.release(c);
          admitted = false;
        }
      }
      if (!admitted) {
        if (!stopping) {
          metrics.connectionsRejected.increment();
          limitLog.refused(System.nanoTime());
        }
        closeQuietly(s);
      }
    }
  }

  /** A client connection holding a slot: its socket and where it is in its request cycle. */
  private static final class Connection implements ConnectionSlots.Member {
    final Socket socket;
    final RequestCycle cycle;

    Connection(Socket socket, RequestCycle cycle) {
      this.socket = socket;
      this.cycle = cycle;
    }

    @Override
    public RequestCycle cycle() {
      return cycle;
    }

    @Override
    public void close() {
      closeQuietly(socket);
    }
  }

  private void serve(Connection c) {
    Socket s = c.socket;
    metrics.connectionsAccepted.increment();
    RequestMemory.Account memory = requestMemory.account();
    ShimSocketTransport socketTransport = null;
    boolean linger = false;
    try {
      if (stopping) {
        return;
      }
      TConfiguration config = new TConfiguration(maxRequestBytes + 64, maxRequestBytes, TConfiguration.DEFAULT_RECURSION_DEPTH);
      socketTransport = new ShimSocketTransport(s, config, memory, c.cycle);
      TTransport transport = framed ? new ShimFramedTransport(socketTransport, maxRequestBytes, memory) : socketTransport;
      TProtocol protocol = new AccountedProtocol(protocolFactory.getProtocol(transport), memory, false);
      while (!stopping) {
        processor.process(protocol, protocol);
        socketTransport.endRequest();
      }
    } catch (ShimProcessor.BadRequest e) {
      linger = true; // answered where possible; let the client read the answer before closing
    } catch (RequestCycle.TimedOut e) {
      metrics.connectionClosed(e.nothingArrived ? CloseReason.NO_REQUEST : CloseReason.REQUEST_TIMEOUT);
    } catch (RequestCycle.IdleTimedOut e) {
      metrics.connectionClosed(CloseReason.IDLE_TIMEOUT);
    } catch (TTransportException e) {
      // the client went away, or the connection was evicted (counted by the acceptor)
    } catch (TException | IOException | RuntimeException e) {
      metrics.malformedRequests.increment();
    } finally {
      memory.endRequest();
      if (linger) {
        lingerBeforeClose(s);
      }
      if (socketTransport != null) {
        socketTransport.close();
      } else {
        closeQuietly(s);
      }
      slots.release(c); // only now is its thread free again
    }
  }

  /**
   * Closing a socket with unread input makes the kernel send a reset, which can destroy the
   * error reply before the client reads it. So: send FIN, read and discard what the client is
   * still sending (at most 1 s and 4x the request limit), then close.
   */
  private void lingerBeforeClose(Socket s) {
    try {
      s.shutdownOutput();
      s.setSoTimeout(200);
      java.io.InputStream in = s.getInputStream();
      byte[] sink = new byte[16384];
      long budget = 4L * maxRequestBytes;
      long deadline = System.nanoTime() + 1_000_000_000L;
      while (budget > 0 && System.nanoTime() < deadline && !stopping) {
        int n = in.read(sink);
        if (n < 0) {
          break;
        }
        budget -= n;
      }
    } catch (IOException ignored) {
      // timeout or reset: closing anyway
    }
  }

  /** Stops accepting connections; the ones open keep being served. */
  void stopAccepting() {
    stopping = true;
    closeQuietly(serverSocket);
  }

  /** Closes every connection and the threads serving them. */
  void close() {
    stopAccepting();
    for (ConnectionSlots.Member m : slots.members()) {
      m.close();
    }
    pool.shutdownNow();
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }
}
