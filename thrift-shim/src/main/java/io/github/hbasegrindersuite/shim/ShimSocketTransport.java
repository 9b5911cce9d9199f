package io.github.hbasegrindersuite.shim;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * One client connection of the thread-pool server. Reads go through a 16 KiB buffer (with 1 KiB,
 * a 1000-byte value cost two system calls: README, "Defaults chosen by measurement") and writes
 * through another.
 * Three guards sit on the way in:
 * <ul>
 * <li>every byte read counts against {@code shim.max.frame.bytes}: Thrift's protocols ask
 *     {@link #checkReadBytesAvailable} before allocating a string or list, and {@link #read}
 *     fails once a request has used up the limit;</li>
 * <li>nothing is allocated for bytes that have not arrived: before the protocol allocates a
 *     string or list of the size the client announced, {@link #checkReadBytesAvailable} waits
 *     until that many bytes are here, growing the buffer as they come (charged to the
 *     connection's {@link RequestMemory.Account}), so a client announcing 16 MiB and sending
 *     nothing holds nothing;</li>
 * <li>every socket read obeys the connection's {@link RequestCycle}: the request deadline, or
 *     between requests the idle timeout.</li>
 * </ul>
 * {@link #endRequest} returns what the request held and restarts the count.
 */
final class ShimSocketTransport extends TIOStreamTransport {

  static final int BUFFER_BYTES = 16 * 1024;

  private final Socket socket;
  private final InputStream in;
  private final RequestMemory.Account memory;
  private final RequestCycle cycle;
  private byte[] buf = new byte[BUFFER_BYTES];
  private int pos;
  private int end;
  private int timeoutSet = -1;

  ShimSocketTransport(Socket socket, TConfiguration config, RequestMemory.Account memory, RequestCycle cycle)
      throws IOException, TTransportException {
    super(config, socket.getInputStream(), new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES));
    this.socket = socket;
    this.in = socket.getInputStream();
    this.memory = memory;
    this.cycle = cycle;
  }

  RequestCycle cycle() {
    return cycle;
  }

  /**
   * The request has been answered: its count, its memory and its deadline end; a grown buffer
   * goes back to its normal size. Bytes already here belong to the next request, whose clock
   * starts now.
   */
  void endRequest() throws TTransportException {
    resetConsumedMessageSize(-1);
    memory.endRequest();
    int left = end - pos;
    if (buf.length > BUFFER_BYTES) {
      byte[] smaller = new byte[Math.max(BUFFER_BYTES, left)];
      System.arraycopy(buf, pos, smaller, 0, left);
      buf = smaller;
      pos = 0;
      end = left;
      memory.charge(buf.length - BUFFER_BYTES);
    }
    cycle.requestEnded(left > 0, System.nanoTime());
  }

  /** Bytes read from the socket and not yet consumed by the protocol. */
  int buffered() {
    return end - pos;
  }

  /** The read buffer's size now: {@link #BUFFER_BYTES}, or more while a large request is arriving. */
  int bufferCapacity() {
    return buf.length;
  }

  @Override
  public int read(byte[] dst, int off, int len) throws TTransportException {
    if (len <= 0) {
      return 0;
    }
    if (pos == end) {
      if (len >= buf.length) {
        int n = socketRead(dst, off, len); // large reads skip the copy
        countConsumedMessageBytes(n);
        return n;
      }
      pos = 0;
      end = socketRead(buf, 0, buf.length);
    }
    int n = Math.min(len, end - pos);
    System.arraycopy(buf, pos, dst, off, n);
    pos += n;
    countConsumedMessageBytes(n);
    return n;
  }

  /**
   * Called by the protocols with the size of a string or list before they allocate it: fails if
   * the request may not hold that many more bytes, else returns once they have arrived.
   */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    super.checkReadBytesAvailable(numBytes);
    if (numBytes <= end - pos) {
      return;
    }
    int wanted = (int) numBytes; // at most the remaining message size, an int
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, end - pos);
      end -= pos;
      pos = 0;
    }
    while (end < wanted) {
      if (end == buf.length) {
        grow(wanted);
      }
      end += socketRead(buf, end, buf.length - end);
    }
  }

  /** Doubles the buffer (at most to {@code wanted}): memory follows the bytes that have arrived. */
  private void grow(int wanted) throws TTransportException {
    int bigger = (int) Math.min(wanted, Math.max(BUFFER_BYTES, 2L * buf.length));
    memory.charge(bigger - buf.length);
    byte[] b = new byte[bigger];
    System.arraycopy(buf, 0, b, 0, end);
    buf = b;
  }

  private int socketRead(byte[] b, int off, int len) throws TTransportException {
    int n;
    try {
      int timeout = cycle.nextReadTimeoutMillis(System.nanoTime());
      if (timeout != timeoutSet) {
        socket.setSoTimeout(timeout);
        timeoutSet = timeout;
      }
      n = in.read(b, off, len);
    } catch (SocketTimeoutException e) {
      throw cycle.expired(System.nanoTime()) ? cycle.timedOut() : cycle.idleTimedOut();
    } catch (IOException e) {
      if (cycle.phase() == RequestCycle.Phase.EVICTED) {
        throw new RequestCycle.Evicted(); // the acceptor closed the socket under this read
      }
      throw new TTransportException(TTransportException.UNKNOWN, e);
    }
    if (n < 0) {
      throw new TTransportException(TTransportException.END_OF_FILE, "Socket is closed by peer.");
    }
    cycle.bytesArrived();
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
