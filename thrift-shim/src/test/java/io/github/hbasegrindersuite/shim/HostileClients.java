package io.github.hbasegrindersuite.shim;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TIOStreamTransport;

/**
 * Hostile Thrift clients on real sockets (binary protocol): requests that announce more than they
 * send, slow drips, idle connections. Shared by the unit tests (stub HBase) and the integration
 * tests (real HBase).
 */
public final class HostileClients {

  private HostileClients() {
  }

  /** The start of a put whose row announces {@code announced} bytes; none of them follow. */
  public static byte[] putAnnouncingRow(int announced) throws Exception {
    return encode(p -> {
      p.writeMessageBegin(new TMessage("put", TMessageType.CALL, 1));
      p.writeFieldBegin(new TField("table", TType.STRING, (short) 1));
      p.writeBinary(ThriftClients.buf("t"));
      p.writeFieldBegin(new TField("tput", TType.STRUCT, (short) 2));
      p.writeFieldBegin(new TField("row", TType.STRING, (short) 1));
      p.writeI32(announced);
    });
  }

  /** The start of a putMultiple whose list announces {@code elements} puts; none of them follow. */
  public static byte[] putMultipleAnnouncingList(int elements) throws Exception {
    return encode(p -> {
      p.writeMessageBegin(new TMessage("putMultiple", TMessageType.CALL, 1));
      p.writeFieldBegin(new TField("table", TType.STRING, (short) 1));
      p.writeBinary(ThriftClients.buf("t"));
      p.writeFieldBegin(new TField("tputs", TType.LIST, (short) 2));
      p.writeListBegin(new TList(TType.STRUCT, elements));
    });
  }

  /** A complete, valid get of row "row" in {@code table}, unframed. */
  public static byte[] getRequest(ByteBuffer table) throws Exception {
    return encode(p -> {
      p.writeMessageBegin(new TMessage("get", TMessageType.CALL, 1));
      new THBaseService.get_args(table, new TGet(ThriftClients.buf("row"))).write(p);
      p.writeMessageEnd();
    });
  }

  /** A 4-byte frame header announcing {@code size} bytes, followed by {@code body}. */
  public static byte[] framed(int size, byte[] body) {
    byte[] out = new byte[4 + body.length];
    ByteBuffer.wrap(out).putInt(size).put(body);
    return out;
  }

  /** {@code message} in one frame of its own size. */
  public static byte[] framed(byte[] message) {
    return framed(message.length, message);
  }

  @FunctionalInterface
  private interface Writer {
    void write(TProtocol p) throws Exception;
  }

  private static byte[] encode(Writer w) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TIOStreamTransport t = new TIOStreamTransport(bytes);
    w.write(new TBinaryProtocol(t));
    t.flush();
    return bytes.toByteArray();
  }

  /** Connections that sent something (or nothing) and now keep still; close() closes them all. */
  public static final class Stalled implements Closeable {
    public final List<Socket> sockets = new ArrayList<>();

    /** How many of them the server has closed (a read sees the end of the stream, or a reset). */
    public int closedByServer() {
      int closed = 0;
      for (Socket s : sockets) {
        try {
          s.setSoTimeout(1);
          InputStream in = s.getInputStream();
          byte[] sink = new byte[4096];
          while (in.read(sink) >= 0) {
            // the server's error reply, if any
          }
          closed++;
        } catch (java.net.SocketTimeoutException e) {
          // still open
        } catch (IOException e) {
          closed++;
        }
      }
      return closed;
    }

    @Override
    public void close() {
      for (Socket s : sockets) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
  }

  /** Opens {@code count} connections, each sending {@code bytes} (may be empty) and then nothing more. */
  public static Stalled stall(int port, int count, byte[] bytes) throws IOException {
    Stalled stalled = new Stalled();
    try {
      for (int i = 0; i < count; i++) {
        Socket s = new Socket("127.0.0.1", port);
        stalled.sockets.add(s);
        if (bytes.length > 0) {
          OutputStream out = s.getOutputStream();
          out.write(bytes);
          out.flush();
        }
      }
    } catch (IOException e) {
      stalled.close();
      throw e;
    }
    return stalled;
  }

  /**
   * Sends a request one byte every {@code intervalMillis} on its own thread until the server
   * closes the connection (or every byte is sent); {@link #awaitClosed} says how long that took.
   */
  public static final class SlowDrip implements Closeable {
    private final Socket socket;
    private final Thread dripper;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final long startNanos = System.nanoTime();
    private volatile long closedAfterMillis = -1;
    private volatile int sent;

    public SlowDrip(int port, byte[] request, long intervalMillis) throws IOException {
      socket = new Socket("127.0.0.1", port);
      Thread reader = new Thread(() -> {
        try {
          InputStream in = socket.getInputStream();
          byte[] sink = new byte[1024];
          while (in.read(sink) >= 0) {
            // an error reply before the close, if any
          }
        } catch (IOException ignored) {
          // reset: closed too
        }
        closedAfterMillis = (System.nanoTime() - startNanos) / 1_000_000;
        closed.countDown();
      }, "slow-drip-reader");
      dripper = new Thread(() -> {
        try {
          OutputStream out = socket.getOutputStream();
          for (byte b : request) {
            if (closed.getCount() == 0) {
              return;
            }
            out.write(b);
            out.flush();
            sent++;
            Thread.sleep(intervalMillis);
          }
        } catch (IOException | InterruptedException ignored) {
          // the server closed the connection, or the test ended
        }
      }, "slow-drip");
      reader.setDaemon(true);
      dripper.setDaemon(true);
      reader.start();
      dripper.start();
    }

    /** Milliseconds from the start until the server closed the connection, or -1 if it did not within the wait. */
    public long awaitClosed(long waitMillis) throws InterruptedException {
      closed.await(waitMillis, TimeUnit.MILLISECONDS);
      return closedAfterMillis;
    }

    /** Bytes of the request sent so far. */
    public int sent() {
      return sent;
    }

    @Override
    public void close() {
      dripper.interrupt();
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }
}
