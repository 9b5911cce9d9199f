import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

/**
 * The clients of tests/e2e/shim-hostile.sh, run as a single source file on the shim's classpath
 * (java -cp CP ShimHostileClient.java MODE ...). Each mode prints one line of key=value pairs for
 * the test to judge; every wait here is bounded.
 *
 * <pre>
 * deadline PORT N BOUND_MS          N connections send one byte of a request, then nothing: when
 *                                   does the shim close each (ms after it opened)?
 * attack PORT N SECONDS INTERVAL_MS [half-sent|idle]
 *                                   N connections held open for SECONDS (each one the shim closes
 *                                   is opened again), each with one byte of a request sent
 *                                   (half-sent) or after one complete call (idle: a client that
 *                                   leaks its connections), while a stock thrift2 client calls
 *                                   exists every INTERVAL_MS on a new connection
 * idle PORT GAP_MS BOUND_MS         a stock client calls, idles GAP_MS, calls again on the same
 *                                   connection, then idles until the shim closes it
 * </pre>
 */
public final class ShimHostileClient {

  private static final ByteBuffer META = ByteBuffer.wrap("hbase:meta".getBytes(StandardCharsets.UTF_8));
  private static final TGet ROW = new TGet(ByteBuffer.wrap("e2e-probe".getBytes(StandardCharsets.UTF_8)));
  /** The first byte of a strict binary-protocol message. */
  private static final int FIRST_BYTE = 0x80;

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[1]);
    switch (args[0]) {
      case "deadline" -> deadline(port, Integer.parseInt(args[2]), Long.parseLong(args[3]));
      case "attack" -> attack(port, Integer.parseInt(args[2]), Long.parseLong(args[3]), Long.parseLong(args[4]),
          args.length > 5 && args[5].equals("idle"));
      case "idle" -> idle(port, Long.parseLong(args[2]), Long.parseLong(args[3]));
      default -> throw new IllegalArgumentException("unknown mode " + args[0] + " (deadline, attack, idle)");
    }
  }

  /** A connection that has sent one byte of a request. */
  private static Socket halfSent(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    s.getOutputStream().write(FIRST_BYTE);
    s.getOutputStream().flush();
    s.setSoTimeout(1);
    return s;
  }

  /** A connection that has made one call and then keeps still (refused or not: held anyway). */
  private static Socket afterOneCall(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    s.setSoTimeout(10_000);
    try {
      new THBaseService.Client(new TBinaryProtocol(new TSocket(s))).exists(META, ROW);
    } catch (Exception e) {
      // refused at the limit: a leaking client holds it all the same
    }
    s.setSoTimeout(1);
    return s;
  }

  /** Whether the shim has closed it (end of stream or reset, after its error reply if any). */
  private static boolean closedByShim(Socket s) {
    try {
      InputStream in = s.getInputStream();
      byte[] sink = new byte[512];
      while (in.read(sink) >= 0) {
        // the shim's error reply
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static long msSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static void deadline(int port, int n, long boundMs) throws Exception {
    List<Socket> held = new ArrayList<>();
    long[] opened = new long[n];
    long[] closedAfter = new long[n];
    for (int i = 0; i < n; i++) {
      opened[i] = System.nanoTime();
      held.add(halfSent(port));
      closedAfter[i] = -1;
    }
    long start = System.nanoTime();
    int closed = 0;
    while (closed < n && msSince(start) < boundMs) {
      for (int i = 0; i < n; i++) {
        if (closedAfter[i] < 0 && closedByShim(held.get(i))) {
          closedAfter[i] = msSince(opened[i]);
          closed++;
        }
      }
      Thread.sleep(20);
    }
    long first = Long.MAX_VALUE;
    long last = 0;
    for (long ms : closedAfter) {
      if (ms >= 0) {
        first = Math.min(first, ms);
        last = Math.max(last, ms);
      }
    }
    for (Socket s : held) {
      s.close();
    }
    System.out.printf("closed=%d of=%d first_ms=%d last_ms=%d%n", closed, n, closed == 0 ? -1 : first, last);
  }

  private static void attack(int port, int n, long seconds, long intervalMs, boolean idle) throws Exception {
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      held.add(idle ? afterOneCall(port) : halfSent(port));
    }
    long start = System.nanoTime();
    int probes = 0;
    int failed = 0;
    long slowest = 0;
    int reopened = 0;
    String firstFailure = "none";
    double firstSuccessSeconds = -1;
    while (msSince(start) < seconds * 1000) {
      long probeStart = System.nanoTime();
      try (TSocket t = new TSocket(new TConfiguration(), "127.0.0.1", port, 10_000)) {
        t.open();
        new THBaseService.Client(new TBinaryProtocol(t)).exists(META, ROW);
        if (firstSuccessSeconds < 0) {
          firstSuccessSeconds = msSince(start) / 1000.0;
        }
      } catch (Exception e) {
        failed++;
        if (firstFailure.equals("none")) {
          firstFailure = e.getClass().getSimpleName() + ":" + String.valueOf(e.getMessage()).replace(' ', '_');
        }
      }
      probes++;
      slowest = Math.max(slowest, msSince(probeStart));
      for (int i = 0; i < n; i++) { // keep n held: one closed by the shim is opened again
        if (closedByShim(held.get(i))) {
          held.get(i).close();
          held.set(i, idle ? afterOneCall(port) : halfSent(port));
          reopened++;
        }
      }
      long rest = intervalMs - msSince(probeStart);
      if (rest > 0) {
        Thread.sleep(rest);
      }
    }
    for (Socket s : held) {
      s.close();
    }
    System.out.printf("probes=%d failed=%d slowest_ms=%d reopened=%d first_failure=%s first_success_s=%.1f%n", probes,
        failed, slowest, reopened, firstFailure, firstSuccessSeconds);
  }

  private static void idle(int port, long gapMs, long boundMs) throws Exception {
    String second;
    long closedAfter = -1;
    try (TSocket t = new TSocket(new TConfiguration(), "127.0.0.1", port, 10_000)) {
      t.open();
      THBaseService.Client c = new THBaseService.Client(new TBinaryProtocol(t));
      c.exists(META, ROW);
      Thread.sleep(gapMs); // the idle time between two requests under test, not a wait for a condition
      try {
        c.exists(META, ROW);
        second = "ok";
      } catch (Exception e) {
        second = e.getClass().getSimpleName();
      }
      long answered = System.nanoTime();
      Socket s = t.getSocket();
      s.setSoTimeout(1);
      while (msSince(answered) < boundMs) {
        if (closedByShim(s)) {
          closedAfter = msSince(answered);
          break;
        }
        Thread.sleep(20);
      }
    }
    System.out.printf("second_call=%s closed_after_ms=%d%n", second, closedAfter);
  }
}
