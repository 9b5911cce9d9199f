package io.github.hbasegrindersuite.shim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The metrics endpoint keeps answering while clients stall, and cuts the stalled ones off. */
class MetricsHttpServerTest {

  private static final long TIMEOUT_MS = 1000;

  private MetricsHttpServer server;
  private final List<Socket> stalled = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = new MetricsHttpServer("127.0.0.1", 0, new ShimMetrics(), () -> true, TIMEOUT_MS);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : stalled) {
      s.close();
    }
    server.close();
  }

  /** A client that sends half a request and then nothing. */
  private Socket stall() throws IOException {
    Socket s = new Socket("127.0.0.1", server.port());
    s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    stalled.add(s);
    return s;
  }

  /** Waits, bounded, until n exchanges hold a thread of the server. */
  private void awaitBusy(int n) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (server.busyThreads() != n && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(n, server.busyThreads(), "exchanges holding a thread");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(3)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Reads until the server closes; returns how long that took. */
  private static long millisUntilClosed(Socket s) throws IOException {
    long start = System.nanoTime();
    s.setSoTimeout(10_000);
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // whatever came back
      }
    } catch (java.net.SocketException reset) {
      // closed too
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void aSecondClientIsServedWhileTheFirstStalls() throws Exception {
    assertEquals(200, get("/health").statusCode()); // the HTTP client warm, so the time below is the server's
    Socket first = stall();
    awaitBusy(1); // the first client holds a thread now
    long start = System.nanoTime();
    HttpResponse<String> r = get("/metrics");
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertEquals(200, r.statusCode());
    assertTrue(r.body().contains("hbasegrinder_shim_open_connections "), r.body());
    assertTrue(tookMs < TIMEOUT_MS / 2, "served in " + tookMs + " ms, without waiting for the stalled client");
    long closedAfter = millisUntilClosed(first);
    assertTrue(closedAfter < TIMEOUT_MS + 1000, "the stalled client was cut off after " + closedAfter + " ms");
  }

  @Test
  void evenWithEveryThreadStalledTheEndpointRecoversWithinTheTimeout() throws Exception {
    for (int i = 0; i < MetricsHttpServer.THREADS + 3; i++) {
      stall();
    }
    awaitBusy(MetricsHttpServer.THREADS); // the 3 beyond them were closed at once
    long stalledAt = System.nanoTime();
    int status = 0;
    while (status != 200 && System.nanoTime() - stalledAt < (TIMEOUT_MS + 2000) * 1_000_000L) {
      try {
        status = get("/health").statusCode();
      } catch (IOException refused) {
        Thread.sleep(20); // every thread still held: the connection was closed unanswered
      }
    }
    long recoveredMs = (System.nanoTime() - stalledAt) / 1_000_000;
    assertEquals(200, status, "answered again after " + recoveredMs + " ms");
    assertTrue(recoveredMs < TIMEOUT_MS + 1000, "answered again after " + recoveredMs + " ms, the timeout is " + TIMEOUT_MS);
    for (Socket s : stalled) {
      assertTrue(millisUntilClosed(s) < 1000, "every stalled client has been cut off");
    }
  }

  @Test
  void oneRequestPerConnectionWithTheDocumentedAnswers() throws Exception {
    assertTrue(exchange("GET /metrics.csv HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 200 OK\r\n"));
    String head = exchange("HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n");
    assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n") && head.contains("Content-Length: 8\r\n") && head.endsWith("\r\n\r\n"), head);
    assertTrue(exchange("GET /metrics?x=1 HTTP/1.0\r\n\r\n").contains("# TYPE hbasegrinder_shim_open_connections gauge"));
    assertTrue(exchange("POST /metrics HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 405 "));
    assertTrue(exchange("GET /nothing HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 404 "));
    assertTrue(exchange("hello\r\n\r\n").startsWith("HTTP/1.1 400 "));
    String tooLong = exchange("GET /" + "x".repeat(MetricsHttpServer.MAX_HEAD_BYTES) + " HTTP/1.1\r\n\r\n");
    // a head beyond the limit is not read on: 400 and closed (the reply may be lost to the reset)
    assertTrue(tooLong.isEmpty() || tooLong.startsWith("HTTP/1.1 400 "), tooLong);
  }

  private String exchange(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(5000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try {
        s.getInputStream().transferTo(got);
      } catch (java.net.SocketException reset) {
        // closed with our request unread
      }
      return got.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
