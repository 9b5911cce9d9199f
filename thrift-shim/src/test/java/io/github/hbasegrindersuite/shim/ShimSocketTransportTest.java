package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The unframed transport on a real socket pair: a string is allocated only once its bytes have
 * arrived, the buffer holding them grows with them and shrinks after the request, and the
 * request's deadline ends a read however the bytes trickle.
 */
class ShimSocketTransportTest {

  private static final int MAX = 16 << 20;
  private static final long DEADLINE_MS = 500;

  private final RequestMemory.Account memory = new RequestMemory(64L << 20).account();
  private ServerSocket listener;
  private Socket client;
  private Socket served;
  private ShimSocketTransport transport;

  @BeforeEach
  void connect() throws Exception {
    listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    served = listener.accept();
    transport = new ShimSocketTransport(served, new TConfiguration(MAX + 64, MAX, 64), memory,
        new RequestCycle(DEADLINE_MS, 0, System.nanoTime()));
  }

  @AfterEach
  void close() throws Exception {
    client.close();
    transport.close();
    listener.close();
  }

  /** A binary-protocol string header announcing {@code announced} bytes, then {@code sent} of them. */
  private void send(int announced, int sent) throws Exception {
    DataOutputStream out = new DataOutputStream(client.getOutputStream());
    out.writeInt(announced);
    out.write(new byte[sent]);
    out.flush();
  }

  private CompletableFuture<ByteBuffer> readBinaryInBackground() {
    TBinaryProtocol p = new TBinaryProtocol(transport, MAX, MAX);
    return CompletableFuture.supplyAsync(() -> {
      try {
        return p.readBinary();
      } catch (Exception e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  @Test
  void aStringAnnouncingTenMebibytesHoldsOnlyWhatArrivedUntilTheDeadline() throws Exception {
    send(10 << 20, 100_000);
    CompletableFuture<ByteBuffer> read = readBinaryInBackground();
    java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> read.get(DEADLINE_MS + 2000, TimeUnit.MILLISECONDS));
    assertTrue(e.getCause() instanceof RequestCycle.TimedOut, String.valueOf(e.getCause()));
    // the read has ended: its thread's writes are visible here
    assertTrue(transport.bufferCapacity() <= 2 * 100_004, "buffer of " + transport.bufferCapacity() + " bytes");
    assertEquals(transport.bufferCapacity() - ShimSocketTransport.BUFFER_BYTES, memory.charged());
  }

  @Test
  void aStringIsReadOnceArrivedAndTheBufferShrinksAfterTheRequest() throws Exception {
    send(1 << 20, 1 << 20);
    ByteBuffer got = readBinaryInBackground().get(5, TimeUnit.SECONDS);
    assertEquals(1 << 20, got.remaining());
    assertEquals(1 << 20, transport.bufferCapacity(), "grew to hold the string");
    assertTrue(memory.charged() >= (1 << 20) - ShimSocketTransport.BUFFER_BYTES);
    transport.endRequest();
    assertEquals(ShimSocketTransport.BUFFER_BYTES, transport.bufferCapacity());
    assertEquals(0, memory.charged());
  }

  @Test
  void aStringBeyondTheLimitIsRefusedWithoutWaiting() throws Exception {
    send(MAX + 1000, 0);
    TBinaryProtocol p = new TBinaryProtocol(transport, MAX + 1000L, MAX);
    TTransportException e = assertThrows(TTransportException.class, p::readBinary);
    assertEquals("MaxMessageSize reached", e.getMessage());
    assertEquals(ShimSocketTransport.BUFFER_BYTES, transport.bufferCapacity());
  }

  @Test
  void aRequestThatKeepsTricklingIsCutOffAtItsDeadline() throws Exception {
    CompletableFuture<ByteBuffer> read = readBinaryInBackground();
    DataOutputStream out = new DataOutputStream(client.getOutputStream());
    out.writeInt(100);
    long start = System.nanoTime();
    java.util.concurrent.ExecutionException e = null;
    for (int i = 0; i < 100 && e == null; i++) {
      out.write(0); // a byte every 50 ms: each read waits far less than any idle timeout
      out.flush();
      try {
        read.get(50, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException stillReading) {
        // go on dripping
      } catch (java.util.concurrent.ExecutionException failed) {
        e = failed;
      }
    }
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e != null && e.getCause() instanceof RequestCycle.TimedOut, String.valueOf(e));
    assertTrue(tookMs < DEADLINE_MS + 500, "cut off after " + tookMs + " ms");
  }
}
