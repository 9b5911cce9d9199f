package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PacerTest {

  @Test
  void theScheduleStartsAtThePhaseAndNeverSlips() {
    Pacer pacer = new Pacer(100, 0.5); // every 10 ms, the first at 5 ms
    // The schedule starts at the first call, somewhere between these two readings (on a loaded
    // machine they can lie milliseconds apart): the first start is 5 ms after that call.
    long before = System.nanoTime();
    long first = pacer.nextIntendedStart();
    long after = System.nanoTime();
    assertTrue(first >= before + 5_000_000 && first <= after + 5_000_000,
        "first at " + (first - before) + " ns after the call began, which took " + (after - before) + " ns");
    assertEquals(first, pacer.nextIntendedStart(), "peeking does not advance the schedule");
    assertEquals(first, pacer.awaitNext());
    assertTrue(System.nanoTime() >= first, "waited until the intended start");
    LockSupportSleep.millis(35); // late by 3 intervals: the next starts go at once, on the old schedule
    assertEquals(first + 10_000_000, pacer.awaitNext());
    assertEquals(first + 20_000_000, pacer.awaitNext());
    assertEquals(first + 30_000_000, pacer.nextIntendedStart());
  }

  @Test
  void rateZeroIsTheClosedLoop() {
    Pacer pacer = new Pacer(0);
    assertFalse(pacer.enabled());
    long before = System.nanoTime();
    long returned = pacer.awaitNext();
    assertTrue(returned >= before && returned - before < 50_000_000, "returns now, at once");
    assertTrue(new Pacer(0.5).enabled());
  }

  @Test
  void aPhaseOutside0To1IsRefused() {
    assertEquals("phase 1.5 is outside 0..1",
        assertThrows(IllegalArgumentException.class, () -> new Pacer(10, 1.5)).getMessage());
  }

  /** Thread.sleep without the checked exception. */
  private static final class LockSupportSleep {
    static void millis(long ms) {
      long until = System.nanoTime() + ms * 1_000_000;
      while (System.nanoTime() < until) {
        java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
      }
    }
  }
}
