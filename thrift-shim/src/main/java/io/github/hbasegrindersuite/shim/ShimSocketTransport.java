package io.github.hbasegrindersuite.shim;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.Socket;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * One client connection of the thread-pool server: the socket's streams behind 16 KiB buffers
 * (TSocket uses 1 KiB, so a 1000-byte value costs two system calls each way), with every byte
 * read counted against the per-request limit: Thrift's protocols ask
 * {@link #checkReadBytesAvailable} before allocating a string or list, and {@link #read} fails
 * once a request has used up {@code shim.max.frame.bytes}. The count restarts with each request.
 */
final class ShimSocketTransport extends TIOStreamTransport {

  static final int BUFFER_BYTES = 16 * 1024;

  private final Socket socket;

  ShimSocketTransport(Socket socket, TConfiguration config) throws IOException, TTransportException {
    super(config, new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES),
        new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES));
    this.socket = socket;
  }

  /** Starts counting a new request against the limit. */
  void startRequest() throws TTransportException {
    resetConsumedMessageSize(-1);
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    int n = super.read(buf, off, len);
    countConsumedMessageBytes(n);
    return n;
  }

  @Override
  public boolean isOpen() {
    return super.isOpen() && !socket.isClosed();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    super.close();
  }
}
