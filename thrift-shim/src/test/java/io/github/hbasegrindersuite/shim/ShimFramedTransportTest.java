package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** The framed transport holds what has arrived of a frame, never what the frame announces. */
class ShimFramedTransportTest {

  private static final int MAX = 16 << 20;

  private final RequestMemory.Account memory = new RequestMemory(64L << 20).account();

  /** Serves the given bytes, then behaves like a client that stopped sending (a read timeout). */
  private static final class Stalling extends TTransport {
    private final byte[] bytes;
    private int pos;

    Stalling(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws TTransportException {
      if (pos == bytes.length) {
        throw new TTransportException(TTransportException.TIMED_OUT, "stalled");
      }
      int n = Math.min(len, bytes.length - pos);
      System.arraycopy(bytes, pos, buf, off, n);
      pos += n;
      return n;
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
    public void write(byte[] buf, int off, int len) {
    }

    @Override
    public org.apache.thrift.TConfiguration getConfiguration() {
      return new org.apache.thrift.TConfiguration();
    }

    @Override
    public void updateKnownMessageSize(long size) {
    }

    @Override
    public void checkReadBytesAvailable(long numBytes) {
    }
  }

  private ShimFramedTransport framed(byte[] wire) throws TTransportException {
    return new ShimFramedTransport(new Stalling(wire), MAX, memory);
  }

  @Test
  void aFrameAnnouncingFifteenMebibytesHoldsOnlyWhatArrived() throws Exception {
    int arrived = 100_000;
    ShimFramedTransport t = framed(HostileClients.framed(15 << 20, new byte[arrived]));
    TTransportException e = assertThrows(TTransportException.class, () -> t.read(new byte[1], 0, 1));
    assertEquals("stalled", e.getMessage());
    assertTrue(memory.charged() <= 2 * arrived, "held " + memory.charged() + " bytes for " + arrived + " arrived");
    assertEquals(128 * 1024, memory.charged(), "16 KiB doubled as the bytes came: 16, 32, 64, 128 KiB");
  }

  @Test
  void aFrameAboveTheLimitIsRefusedBeforeAnythingIsAllocated() throws Exception {
    ShimFramedTransport t = framed(HostileClients.framed(MAX + 1, new byte[10]));
    TTransportException e = assertThrows(TTransportException.class, () -> t.read(new byte[1], 0, 1));
    assertEquals(TTransportException.CORRUPTED_DATA, e.getType());
    assertTrue(e.getMessage().contains("larger than max length"), e.getMessage());
    assertEquals(0, memory.charged());
  }

  @Test
  void aFrameFullyReadIsNotKept() throws Exception {
    ShimFramedTransport t = framed(HostileClients.framed(new byte[] {1, 2, 3, 4, 5}));
    byte[] got = new byte[5];
    t.readAll(got, 0, 5);
    assertEquals(5, got[4]);
    assertEquals(0, t.frameCapacity(), "the consumed frame is let go");
  }

  @Test
  void aRequestNeverReachesPastItsFrame() throws Exception {
    ShimFramedTransport t = framed(HostileClients.framed(new byte[10]));
    t.readAll(new byte[2], 0, 2);
    t.checkReadBytesAvailable(8);
    TTransportException e = assertThrows(TTransportException.class, () -> t.checkReadBytesAvailable(9));
    assertEquals(TTransportException.CORRUPTED_DATA, e.getType());
    assertEquals("the request announces 9 more bytes but its frame holds only 8", e.getMessage());
  }
}
