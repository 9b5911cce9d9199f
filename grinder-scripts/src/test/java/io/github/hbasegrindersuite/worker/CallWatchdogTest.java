package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CallWatchdogTest {

  @Test
  void theDeadlineIsTheTimeoutPlusTenPercentBetween100MsAnd1s() {
    assertEquals(300, CallWatchdog.deadlineFor(200));
    assertEquals(2200, CallWatchdog.deadlineFor(2000));
    assertEquals(11000, CallWatchdog.deadlineFor(10000));
    assertEquals(61000, CallWatchdog.deadlineFor(60000));
  }

  /** Calls ending just before, at and after the watchdog's decision: no interrupt ever outlives end(). */
  @Test
  void noInterruptIsLeftBehindWhateverTheTiming() {
    CallWatchdog watchdog = new CallWatchdog(1);
    CallWatchdog.Slot slot = watchdog.slot();
    int cut = 0;
    long until = System.nanoTime() + 3_000_000_000L;
    int calls = 0;
    while (System.nanoTime() < until && calls < 5000) {
      long start = System.nanoTime();
      slot.begin(start);
      long spin = (calls % 7) * 300_000L; // 0 to 1.8 ms, against a 1 ms deadline and a 50 ms tick
      while (System.nanoTime() - start < spin) {
        Thread.onSpinWait();
      }
      if (slot.end()) {
        cut++;
      }
      assertFalse(Thread.currentThread().isInterrupted(), "call " + calls + " left an interrupt");
      calls++;
    }
    watchdog.release(slot);
    assertTrue(cut > 0, "some of " + calls + " calls were late at a tick and cut");
    assertTrue(cut < calls, "calls under the deadline are never cut");
  }

  @Test
  void aCallUnderTheDeadlineIsNeverCut() throws Exception {
    CallWatchdog watchdog = new CallWatchdog(500);
    CallWatchdog.Slot slot = watchdog.slot();
    for (int i = 0; i < 5; i++) {
      slot.begin(System.nanoTime());
      Thread.sleep(60); // spans a tick
      assertFalse(slot.end());
    }
    watchdog.release(slot);
  }

  /** A call that swallows the first interrupt and waits again is interrupted again, at the next tick. */
  @Test
  void aLateCallIsInterruptedAgainUntilItEnds() throws Exception {
    CallWatchdog watchdog = new CallWatchdog(100);
    CallWatchdog.Slot slot = watchdog.slot();
    long start = System.nanoTime();
    slot.begin(start);
    int interrupts = 0;
    while (interrupts < 3 && System.nanoTime() - start < 5_000_000_000L) {
      try {
        Thread.sleep(5_000); // a wait that ends only by an interrupt
      } catch (InterruptedException swallowed) {
        interrupts++; // like a client that clears the flag and retries
      }
    }
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(slot.end());
    assertFalse(Thread.currentThread().isInterrupted());
    watchdog.release(slot);
    assertEquals(3, interrupts);
    // the deadline (100 ms), then a tick (50 ms) per further interrupt: well under the 5-s waits
    assertTrue(tookMs >= 100 && tookMs < 1_500, "three interrupts took " + tookMs + " ms");
  }
}
