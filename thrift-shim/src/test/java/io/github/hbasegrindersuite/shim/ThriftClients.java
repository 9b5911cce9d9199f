package io.github.hbasegrindersuite.shim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/** Stock thrift2 clients (HBase's generated THBaseService.Client) and raw sockets for bad input. */
public final class ThriftClients {

  private ThriftClients() {
  }

  /** A connected client; close() closes its socket. */
  public static final class Client implements AutoCloseable {
    public final THBaseService.Client api;
    public final TTransport transport;

    Client(THBaseService.Client api, TTransport transport) {
      this.api = api;
      this.transport = transport;
    }

    @Override
    public void close() {
      transport.close();
    }
  }

  public static Client connect(int port, ShimConfig.Transport transport, ShimConfig.Protocol protocol)
      throws TTransportException {
    // clients send large requests in the oversize tests: raise the client's own limits
    TConfiguration conf = new TConfiguration(Integer.MAX_VALUE, Integer.MAX_VALUE, 64);
    TSocket socket = new TSocket(conf, "127.0.0.1", port, 20_000);
    TTransport t = transport == ShimConfig.Transport.FRAMED ? new TFramedTransport(socket, Integer.MAX_VALUE) : socket;
    t.open();
    TProtocol p = protocol == ShimConfig.Protocol.COMPACT ? new TCompactProtocol(t) : new TBinaryProtocol(t);
    return new Client(new THBaseService.Client(p), t);
  }

  public static Client connect(int port) throws TTransportException {
    return connect(port, ShimConfig.Transport.BUFFERED, ShimConfig.Protocol.BINARY);
  }

  public static ByteBuffer buf(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  public static String str(ByteBuffer b) {
    return new String(Mapping.bytes(b), StandardCharsets.UTF_8);
  }

  /** The bytes of a binary-protocol call of {@code method} with no arguments, unframed. */
  public static byte[] rawCall(String method, int seqid) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TTransport t = new org.apache.thrift.transport.TIOStreamTransport(bytes);
    TBinaryProtocol p = new TBinaryProtocol(t);
    p.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqid));
    p.writeStructBegin(new TStruct("args"));
    p.writeFieldStop();
    p.writeStructEnd();
    p.writeMessageEnd();
    t.flush();
    return bytes.toByteArray();
  }

  /** Sends bytes on a fresh socket, half-closes it, and reads until the server closes it (or 5 s pass). */
  public static Exchange raw(int port, byte[] send) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(send);
      out.flush();
      s.shutdownOutput(); // and nothing more: the server sees the end of the stream
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      byte[] b = new byte[4096];
      boolean closed = false;
      try {
        int n;
        while ((n = in.read(b)) >= 0) {
          got.write(b, 0, n);
        }
        closed = true;
      } catch (java.net.SocketTimeoutException e) {
        closed = false;
      } catch (java.net.SocketException e) {
        closed = true; // reset
      }
      return new Exchange(got.toByteArray(), closed);
    }
  }

  /** What came back on a raw socket. */
  public static final class Exchange {
    public final byte[] reply;
    public final boolean closedByServer;

    Exchange(byte[] reply, boolean closedByServer) {
      this.reply = reply;
      this.closedByServer = closedByServer;
    }
  }
}
