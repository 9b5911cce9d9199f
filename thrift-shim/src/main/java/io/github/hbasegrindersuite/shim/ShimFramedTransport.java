package io.github.hbasegrindersuite.shim;

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
 * client an error saying why before it closes the connection; and the frame's size is checked
 * before any memory is allocated for it.
 */
final class ShimFramedTransport extends TLayeredTransport {

  private static final byte[] SIZE_PLACEHOLDER = new byte[4];

  private final int maxFrameBytes;
  private final TMemoryInputTransport readBuffer;
  private final TByteArrayOutputStream writeBuffer = new TByteArrayOutputStream(1024);
  private final byte[] sizeBytes = new byte[4];

  ShimFramedTransport(TTransport inner, int maxFrameBytes) throws TTransportException {
    super(inner);
    this.maxFrameBytes = maxFrameBytes;
    this.readBuffer = new TMemoryInputTransport(
        new TConfiguration(maxFrameBytes, maxFrameBytes, TConfiguration.DEFAULT_RECURSION_DEPTH), new byte[0]);
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
    if (got > 0) {
      return got;
    }
    readFrame();
    return readBuffer.read(buf, off, len);
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
    byte[] frame = new byte[size];
    getInnerTransport().readAll(frame, 0, size);
    readBuffer.reset(frame);
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
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    readBuffer.checkReadBytesAvailable(numBytes);
  }
}
