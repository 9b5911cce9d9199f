package io.github.hbasegrindersuite.shim.metrics;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The loopback HTTP endpoint: {@code GET /metrics} (Prometheus text format 0.0.4),
 * {@code GET /metrics.csv} (the per-operation summary), {@code GET /health} (200 "serving" or
 * 503 "draining"). One request per connection (HTTP/1.1 with {@code Connection: close}), served
 * by a small pool ({@link #THREADS}; one more connection while all are busy is closed at once),
 * and each exchange must finish within a time limit, reading and writing included, or its
 * connection is closed: so a client that stalls mid-request, or never reads its answer, holds
 * one thread for a few seconds, never the endpoint.
 */
public final class MetricsHttpServer implements AutoCloseable {

  /** Scrapes are rare and cheap; a few threads let one stalled client not block the others. */
  static final int THREADS = 4;
  /** Time one exchange may take, request and response together. */
  public static final long EXCHANGE_TIMEOUT_MILLIS = 5000;
  /** Longest request head (request line and headers) read. */
  static final int MAX_HEAD_BYTES = 8192;

  /** What one path answers. */
  private static final class Route {
    final Supplier<Integer> status;
    final String type;
    final Supplier<String> body;

    Route(Supplier<Integer> status, String type, Supplier<String> body) {
      this.status = status;
      this.type = type;
      this.body = body;
    }
  }

  private final ServerSocket serverSocket;
  private final ThreadPoolExecutor pool;
  private final ScheduledExecutorService watchdog;
  private final Thread acceptor;
  private final long exchangeTimeoutMillis;
  private final Map<String, Route> routes = new LinkedHashMap<>();
  private volatile boolean closed;

  public MetricsHttpServer(String bindAddress, int port, ShimMetrics metrics, BooleanSupplier serving)
      throws IOException {
    this(bindAddress, port, metrics, serving, EXCHANGE_TIMEOUT_MILLIS);
  }

  public MetricsHttpServer(String bindAddress, int port, ShimMetrics metrics, BooleanSupplier serving,
      long exchangeTimeoutMillis) throws IOException {
    this.exchangeTimeoutMillis = exchangeTimeoutMillis;
    routes.put("/metrics", new Route(() -> 200, "text/plain; version=0.0.4; charset=utf-8", metrics::prometheus));
    routes.put("/metrics.csv", new Route(() -> 200, "text/csv; charset=utf-8", metrics::summaryCsv));
    routes.put("/health", new Route(() -> serving.getAsBoolean() ? 200 : 503, "text/plain; charset=utf-8",
        () -> serving.getAsBoolean() ? "serving\n" : "draining\n"));
    ServerSocket ss = new ServerSocket();
    ss.setReuseAddress(true);
    ss.bind(new InetSocketAddress(bindAddress, port), 16);
    serverSocket = ss;
    AtomicInteger n = new AtomicInteger();
    pool = new ThreadPoolExecutor(0, THREADS, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(r, "shim-metrics-http-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "shim-metrics-http-watchdog");
      t.setDaemon(true);
      return t;
    });
    acceptor = new Thread(this::acceptLoop, "shim-metrics-http");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return serverSocket.getLocalPort();
  }

  /** Exchanges in progress (each holds one of the THREADS), stalled ones included. */
  int busyThreads() {
    return pool.getActiveCount();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = serverSocket.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      try {
        pool.execute(() -> exchange(s));
      } catch (RejectedExecutionException e) {
        closeQuietly(s); // every thread busy: the scraper retries at its next interval
      }
    }
  }

  /** One request and its answer, then the connection closes; the watchdog cuts off a stalled one. */
  private void exchange(Socket s) {
    ScheduledFuture<?> cutOff = watchdog.schedule(() -> closeQuietly(s), exchangeTimeoutMillis, TimeUnit.MILLISECONDS);
    try (s) {
      s.setSoTimeout((int) exchangeTimeoutMillis);
      String requestLine = readRequestLine(new BufferedInputStream(s.getInputStream(), 1024));
      String[] parts = requestLine == null ? new String[0] : requestLine.split(" ");
      OutputStream out = s.getOutputStream();
      if (parts.length != 3 || !parts[2].startsWith("HTTP/")) {
        respond(out, 400, "Bad Request", "text/plain; charset=utf-8", "bad request\n", true);
        return;
      }
      String method = parts[0];
      String target = parts[1];
      int query = target.indexOf('?');
      Route route = routes.get(query >= 0 ? target.substring(0, query) : target);
      if (!method.equals("GET") && !method.equals("HEAD")) {
        respond(out, 405, "Method Not Allowed", "text/plain; charset=utf-8", "GET or HEAD only\n", true);
      } else if (route == null) {
        respond(out, 404, "Not Found", "text/plain; charset=utf-8", "no such path; try /metrics\n", !method.equals("HEAD"));
      } else {
        int status = route.status.get();
        respond(out, status, status == 200 ? "OK" : "Service Unavailable", route.type, route.body.get(),
            !method.equals("HEAD"));
      }
    } catch (IOException | RuntimeException ignored) {
      // the client went away, stalled past the time limit, or sent something unreadable
    } finally {
      cutOff.cancel(false);
    }
  }

  /** The request line, once the whole head has arrived (at most {@link #MAX_HEAD_BYTES}); null if there is none. */
  static String readRequestLine(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(256);
    int lineLength = 0; // bytes in the current line, line ends excluded: an empty line ends the head
    while (true) {
      int b = in.read();
      if (b < 0 || head.size() >= MAX_HEAD_BYTES) {
        return null;
      }
      head.write(b);
      if (b == '\n') {
        if (lineLength == 0) {
          break;
        }
        lineLength = 0;
      } else if (b != '\r') {
        lineLength++;
      }
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    return text.substring(0, text.indexOf('\n')).trim();
  }

  private static void respond(OutputStream out, int status, String reason, String type, String body, boolean withBody)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: "
        + bytes.length + "\r\nConnection: close\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    if (withBody) {
      out.write(bytes);
    }
    out.flush();
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(serverSocket);
    pool.shutdownNow();
    watchdog.shutdownNow();
  }
}
