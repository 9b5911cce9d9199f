package io.github.hbasegrindersuite.shim.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The loopback HTTP endpoint: {@code GET /metrics} (Prometheus text format 0.0.4),
 * {@code GET /metrics.csv} (the per-operation summary), {@code GET /health} (200 "serving" or
 * 503 "draining"). One thread: scraping is rare and cheap.
 */
public final class MetricsHttpServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;

  public MetricsHttpServer(String bindAddress, int port, ShimMetrics metrics, BooleanSupplier serving)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "shim-metrics-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/metrics", ex -> reply(ex, 200, "text/plain; version=0.0.4; charset=utf-8",
        metrics::prometheus));
    server.createContext("/metrics.csv", ex -> reply(ex, 200, "text/csv; charset=utf-8", metrics::summaryCsv));
    server.createContext("/health", ex -> {
      boolean ok = serving.getAsBoolean();
      reply(ex, ok ? 200 : 503, "text/plain; charset=utf-8", () -> ok ? "serving\n" : "draining\n");
    });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void reply(HttpExchange ex, int status, String type, Supplier<String> body) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(405, -1);
        return;
      }
      if (!path.equals(ex.getHttpContext().getPath())) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      if ("HEAD".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(status, -1);
        return;
      }
      ex.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
