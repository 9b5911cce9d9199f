package io.github.hbasegrindersuite.shim;

import java.util.Arrays;
import org.apache.thrift.TByteArrayOutputStream;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TLayeredTransport;

/**
 * Framed transport for the thread-pool server, wire-compatible with libthrift's
 * TFramedTransport (a 4-byte big-endian length before each message). Unlike TFramedTransport it
 * does not close the socket itself when a frame is too large, so the shim can still send the
 * client an error saying why before it closes the connection; the frame's size is checked before
 * any memory is allocated for it; the frame's buffer grows as its bytes arrive (charged to the
 * connection's {@link RequestMemory.Account}) instead of being allocated at the announced size,
 * so a client announcing 16 MiB and sending nothing holds nothing; and a frame is let go once
 * read, so an idle connection holds no request.
 */
final class ShimFramedTransport extends TLayeredTransport {

  private static final byte[] SIZE_PLACEHOLDER = new byte[4];
  private static final byte[] NO_FRAME = new byte[0];
  /** A frame's first buffer; it doubles as the frame's bytes arrive. */
  static final int FIRST_CHUNK_BYTES = 16 * 1024;

  private final int maxFrameBytes;
  private final RequestMemory.Account memory;
  private final TMemoryInputTransport readBuffer;
  private final TByteArrayOutputStream writeBuffer = new TByteArrayOutputStream(1024);
  private final byte[] sizeBytes = new byte[4];

  ShimFramedTransport(TTransport inner, int maxFrameBytes, RequestMemory.Account memory) throws TTransportException {
    super(inner);
    this.maxFrameBytes = maxFrameBytes;
    this.memory = memory;
    this.readBuffer = new TMemoryInputTransport(
        new TConfiguration(maxFrameBytes, maxFrameBytes, TConfiguration.DEFAULT_RECURSION_DEPTH), NO_FRAME);
    writeBuffer.write(SIZE_PLACEHOLDER, 0, 4);
  }

  @Override
  public boolean isOpen() {
    return getInnerTransport().isOpen();
  }

  @Override
  public void open() throws TTransportException {
    getInnerTransport().open();
  }

  @Override
  public void close() {
    getInnerTransport().close();
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    int got = readBuffer.read(buf, off, len);
    if (got <= 0) {
      readFrame();
      got = readBuffer.read(buf, off, len);
    }
    releaseConsumedFrame();
    return got;
  }

  /** A frame fully read is not kept: its bytes live on only in what was decoded from them. */
  private void releaseConsumedFrame() {
    if (readBuffer.getBytesRemainingInBuffer() == 0 && readBuffer.getBuffer() != NO_FRAME) {
      readBuffer.reset(NO_FRAME);
    }
  }

  private void readFrame() throws TTransportException {
    getInnerTransport().readAll(sizeBytes, 0, 4);
    int size = ((sizeBytes[0] & 0xff) << 24) | ((sizeBytes[1] & 0xff) << 16)
        | ((sizeBytes[2] & 0xff) << 8) | (sizeBytes[3] & 0xff);
    if (size < 0) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA,
          "Read a negative frame size (" + size + "): not a framed Thrift client");
    }
    if (size > maxFrameBytes) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA,
          "Frame size (" + size + ") larger than max length (" + maxFrameBytes + ")");
    }
    byte[] frame = new byte[Math.min(size, FIRST_CHUNK_BYTES)];
    memory.charge(frame.length);
    int got = 0;
    while (got < size) {
      if (got == frame.length) {
        int bigger = (int) Math.min(size, 2L * frame.length);
        memory.charge(bigger - frame.length);
        frame = Arrays.copyOf(frame, bigger);
      }
      got += getInnerTransport().read(frame, got, frame.length - got);
    }
    readBuffer.reset(frame);
  }

  /** The capacity of the frame buffer held now (0 when no frame is held). */
  int frameCapacity() {
    return readBuffer.getBuffer().length;
  }

  @Override
  public void write(byte[] buf, int off, int len) {
    writeBuffer.write(buf, off, len);
  }

  @Override
  public void flush() throws TTransportException {
    byte[] buf = writeBuffer.get();
    int size = writeBuffer.len() - 4;
    buf[0] = (byte) (size >>> 24);
    buf[1] = (byte) (size >>> 16);
    buf[2] = (byte) (size >>> 8);
    buf[3] = (byte) size;
    try {
      getInnerTransport().write(buf, 0, size + 4);
    } finally {
      writeBuffer.reset();
      writeBuffer.write(SIZE_PLACEHOLDER, 0, 4);
    }
    getInnerTransport().flush();
  }

  @Override
  public byte[] getBuffer() {
    return readBuffer.getBuffer();
  }

  @Override
  public int getBufferPosition() {
    return readBuffer.getBufferPosition();
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return readBuffer.getBytesRemainingInBuffer();
  }

  @Override
  public void consumeBuffer(int len) {
    readBuffer.consumeBuffer(len);
    releaseConsumedFrame();
  }

  /** A request never reaches past its frame: a string or list the frame cannot hold is refused before it is allocated. */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    int left = readBuffer.getBytesRemainingInBuffer();
    if (numBytes > left) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "the request announces " + numBytes
          + " more bytes but its frame holds only " + left);
    }
  }
}
