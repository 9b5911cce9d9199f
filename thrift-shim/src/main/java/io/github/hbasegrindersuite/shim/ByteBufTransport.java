package io.github.hbasegrindersuite.shim;

import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A Thrift transport over a netty buffer: reads consume it, writes append to it. Running out of
 * bytes is END_OF_FILE, which the event-loop server's decoder takes as "the request is not all
 * here yet". A heap buffer's array may be lent to the protocol (as TMemoryInputTransport does), so
 * that a binary read is a view of the request, not a copy.
 */
final class ByteBufTransport extends TTransport {

  /**
   * "Not all here yet", thrown at every partial unframed request (a request longer than one read
   * of the channel): one instance, so that no stack trace is filled in each time.
   */
  static final TTransportException INCOMPLETE = new TTransportException(TTransportException.END_OF_FILE,
      "request incomplete");

  private final ByteBuf buf;
  private final TConfiguration config;
  private final boolean lend;

  /**
   * @param lend whether the protocol may read binaries as views of the buffer's array (only when
   *     nothing read is kept beyond the buffer's life, and no one reads a view's whole array)
   */
  ByteBufTransport(ByteBuf buf, TConfiguration config, boolean lend) {
    this.buf = buf;
    this.config = config;
    this.lend = lend && buf.hasArray();
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public void open() {
  }

  @Override
  public void close() {
  }

  @Override
  public int read(byte[] into, int off, int len) throws TTransportException {
    int n = Math.min(len, buf.readableBytes());
    if (n == 0 && len > 0) {
      throw INCOMPLETE;
    }
    buf.readBytes(into, off, n);
    return n;
  }

  @Override
  public void write(byte[] from, int off, int len) {
    buf.writeBytes(from, off, len);
  }

  @Override
  public byte[] getBuffer() {
    return lend ? buf.array() : null;
  }

  @Override
  public int getBufferPosition() {
    return lend ? buf.arrayOffset() + buf.readerIndex() : 0;
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return lend ? buf.readableBytes() : -1;
  }

  /** Bytes not yet read (the rest of a request the event-loop server has cut whole). */
  int remaining() {
    return buf.readableBytes();
  }

  @Override
  public void consumeBuffer(int len) {
    buf.skipBytes(len);
  }

  @Override
  public TConfiguration getConfiguration() {
    return config;
  }

  @Override
  public void updateKnownMessageSize(long size) {
  }

  /**
   * A length the request announces: beyond the configured message size it never fits (SIZE_LIMIT
   * as Thrift's own "MaxMessageSize reached"); beyond what has arrived it is not all here yet.
   */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes > config.getMaxMessageSize()) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "MaxMessageSize reached: " + numBytes
          + " bytes announced");
    }
    if (numBytes > buf.readableBytes()) {
      throw INCOMPLETE;
    }
  }
}
