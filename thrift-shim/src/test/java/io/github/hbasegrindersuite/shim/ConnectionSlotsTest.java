package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Who makes room at the connection limit, and how long a new connection waits for it. */
class ConnectionSlotsTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final List<RequestCycle.Phase> evicted = new ArrayList<>();

  /** A connection whose close releases its slot at once, as its thread does. */
  private final class Conn implements ConnectionSlots.Member {
    final RequestCycle cycle;
    final ConnectionSlots slots;
    volatile boolean closed;

    Conn(ConnectionSlots slots, long acceptedNanos) {
      this.slots = slots;
      this.cycle = new RequestCycle(60_000, 0, acceptedNanos);
    }

    @Override
    public RequestCycle cycle() {
      return cycle;
    }

    @Override
    public void close() {
      closed = true;
      slots.release(this);
    }
  }

  private ConnectionSlots slots(int max, long evictAfterMillis) {
    return new ConnectionSlots(max, evictAfterMillis, phase -> evicted.add(phase));
  }

  /** Admitted at once with a slot free; or waits at most {@code waitMillis}. */
  private static boolean admit(ConnectionSlots slots, ConnectionSlots.Member m, long waitMillis) throws Exception {
    return slots.admit(m, waitMillis, () -> false);
  }

  private Conn stalled(ConnectionSlots slots, long waitedMillis) throws Exception {
    Conn c = new Conn(slots, System.nanoTime() - waitedMillis * MS);
    assertTrue(admit(slots, c, 0));
    return c;
  }

  private Conn idle(ConnectionSlots slots, long idleMillis) throws Exception {
    Conn c = stalled(slots, 0);
    c.cycle.bytesArrived();
    c.cycle.requestRead();
    c.cycle.requestEnded(false, System.nanoTime() - idleMillis * MS);
    return c;
  }

  private Conn inCall(ConnectionSlots slots) throws Exception {
    Conn c = stalled(slots, 0);
    c.cycle.bytesArrived();
    c.cycle.requestRead();
    return c;
  }

  @Test
  void aFreeSlotIsTakenAtOnce() throws Exception {
    ConnectionSlots s = slots(2, 0);
    stalled(s, 0);
    stalled(s, 0);
    assertEquals(2, s.size());
    assertTrue(evicted.isEmpty());
  }

  @Test
  void theLongestStalledMakesRoomBeforeAnyIdleOne() throws Exception {
    ConnectionSlots s = slots(3, 100);
    Conn idleLong = idle(s, 60_000);
    Conn stalledShort = stalled(s, 200);
    Conn stalledLong = stalled(s, 5_000);
    assertTrue(admit(s, new Conn(s, System.nanoTime()), 1_000));
    assertTrue(stalledLong.closed);
    assertFalse(stalledShort.closed);
    assertFalse(idleLong.closed, "an idle client keeps its connection while a stalled one can make room");
    assertEquals(List.of(RequestCycle.Phase.NEW), evicted);
    assertEquals(3, s.size());
  }

  @Test
  void anIdleClientKeepsItsConnectionWhileAStalledOneGrowsOldEnough() throws Exception {
    ConnectionSlots s = slots(2, 300);
    Conn idleLong = idle(s, 60_000);
    Conn young = stalled(s, 0);
    long start = System.nanoTime();
    assertTrue(admit(s, new Conn(s, System.nanoTime()), 5_000));
    long tookMs = (System.nanoTime() - start) / MS;
    assertTrue(young.closed);
    assertFalse(idleLong.closed);
    assertTrue(tookMs >= 250 && tookMs < 3_000, "waited " + tookMs + " ms for the stalled one to wait 300 ms");
  }

  @Test
  void withNoneStalledTheLongestIdleMakesRoom() throws Exception {
    ConnectionSlots s = slots(2, 100);
    Conn shorter = idle(s, 500);
    Conn longer = idle(s, 2_000);
    assertTrue(admit(s, new Conn(s, System.nanoTime()), 1_000));
    assertTrue(longer.closed);
    assertFalse(shorter.closed);
    assertEquals(List.of(RequestCycle.Phase.IDLE), evicted);
  }

  @Test
  void aConnectionInACallIsNeverClosedAndTheWaitIsBounded() throws Exception {
    ConnectionSlots s = slots(1, 0);
    Conn busy = inCall(s);
    long start = System.nanoTime();
    assertFalse(admit(s, new Conn(s, System.nanoTime()), 200));
    long tookMs = (System.nanoTime() - start) / MS;
    assertFalse(busy.closed);
    assertTrue(tookMs >= 190 && tookMs < 2_000, "refused after " + tookMs + " ms; wait 200 ms");
    assertTrue(evicted.isEmpty());
  }

  @Test
  void withEvictionOffAFullServerRefusesAfterTheWait() throws Exception {
    ConnectionSlots s = slots(1, -1);
    Conn old = stalled(s, 60_000);
    assertFalse(admit(s, new Conn(s, System.nanoTime()), 100));
    assertFalse(old.closed);
  }

  @Test
  void aSlotFreedWhileWaitingIsTakenAtOnce() throws Exception {
    ConnectionSlots s = slots(1, 0);
    Conn busy = inCall(s);
    CompletableFuture<Void> release = CompletableFuture.runAsync(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      s.release(busy);
    });
    long start = System.nanoTime();
    assertTrue(admit(s, new Conn(s, System.nanoTime()), 10_000));
    long tookMs = (System.nanoTime() - start) / MS;
    release.get(5, TimeUnit.SECONDS);
    assertTrue(tookMs < 2_000, "admitted " + tookMs + " ms later; the slot was freed after 100 ms");
  }

  @Test
  void stoppingEndsTheWait() throws Exception {
    ConnectionSlots s = slots(1, -1);
    inCall(s);
    long start = System.nanoTime();
    assertFalse(s.admit(new Conn(s, System.nanoTime()), 60_000, () -> System.nanoTime() - start > 100 * MS));
    assertTrue((System.nanoTime() - start) / MS < 2_000);
  }
}
