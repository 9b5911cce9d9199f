package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A connection's request cycle: which timeout its reads get, and when it may make room. */
class RequestCycleTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private final long t0 = System.nanoTime();
  /** 1 s for a request to arrive, 60 s idle between requests, accepted at t0. */
  private final RequestCycle cycle = new RequestCycle(1000, 60_000, t0);

  /** A request arrives in full and is answered at {@code nanos}; the next one's bytes already here or not. */
  private void answeredAt(long nanos, boolean nextRequestStarted) throws Exception {
    cycle.bytesArrived();
    cycle.requestRead();
    cycle.requestEnded(nextRequestStarted, nanos);
  }

  @Test
  void aNewConnectionsFirstRequestCountsFromTheAccept() throws Exception {
    assertEquals(RequestCycle.Phase.NEW, cycle.phase());
    assertEquals(600, cycle.nextReadTimeoutMillis(t0 + 400 * MS));
    cycle.bytesArrived();
    assertEquals(RequestCycle.Phase.READING, cycle.phase());
    assertEquals(100, cycle.nextReadTimeoutMillis(t0 + 900 * MS), "the first byte does not restart the clock");
    RequestCycle.TimedOut e = assertThrows(RequestCycle.TimedOut.class, () -> cycle.nextReadTimeoutMillis(t0 + 1000 * MS));
    assertFalse(e.nothingArrived, "a half-sent request");
    assertTrue(cycle.expired(t0 + 1000 * MS));
  }

  @Test
  void aConnectionThatSendsNothingTimesOutAsSuch() {
    RequestCycle.TimedOut e = assertThrows(RequestCycle.TimedOut.class, () -> cycle.nextReadTimeoutMillis(t0 + 1001 * MS));
    assertTrue(e.nothingArrived);
    assertTrue(e.getMessage().contains("shim.request.read.timeout.ms=1000"), e.getMessage());
  }

  @Test
  void betweenRequestsOnlyTheIdleTimeoutApplies() throws Exception {
    answeredAt(t0 + 10 * MS, false);
    assertEquals(RequestCycle.Phase.IDLE, cycle.phase());
    assertEquals(60_000, cycle.nextReadTimeoutMillis(t0 + 30_000 * MS), "long past the request deadline");
    assertFalse(cycle.expired(t0 + 30_000 * MS));
    assertTrue(cycle.idleTimedOut().getMessage().contains("shim.idle.timeout.ms=60000"));
  }

  @Test
  void bytesAlreadyBufferedStartTheNextRequestsClockWhenTheLastEnds() throws Exception {
    long end = t0 + 5_000 * MS;
    answeredAt(end, true);
    assertEquals(RequestCycle.Phase.READING, cycle.phase());
    assertEquals(end, cycle.sinceNanos());
    assertEquals(400, cycle.nextReadTimeoutMillis(end + 600 * MS));
  }

  @Test
  void aConnectionInACallIsNeverEvicted() throws Exception {
    cycle.bytesArrived();
    cycle.requestRead();
    assertNull(cycle.tryEvict(t0 + TimeUnit.HOURS.toNanos(1), 0));
    assertEquals(RequestCycle.Phase.CALL, cycle.phase());
  }

  @Test
  void aStalledConnectionMayBeEvictedOnlyAfterTheMinimumWait() throws Exception {
    assertNull(cycle.tryEvict(t0 + 499 * MS, 500 * MS));
    assertEquals(RequestCycle.Phase.NEW, cycle.tryEvict(t0 + 500 * MS, 500 * MS));
    assertEquals(RequestCycle.Phase.EVICTED, cycle.phase());
    assertNull(cycle.tryEvict(t0 + 600 * MS, 500 * MS), "evicted once");
    // its thread, wherever it is, ends instead of serving a request
    assertThrows(RequestCycle.Evicted.class, cycle::requestRead);
    assertThrows(RequestCycle.Evicted.class, () -> cycle.nextReadTimeoutMillis(t0 + 600 * MS));
    cycle.bytesArrived();
    cycle.requestEnded(false, t0 + 700 * MS);
    assertEquals(RequestCycle.Phase.EVICTED, cycle.phase());
  }

  @Test
  void anIdleConnectionCountsItsWaitFromItsLastAnswer() throws Exception {
    long answered = t0 + 2_000 * MS;
    answeredAt(answered, false);
    assertNull(cycle.tryEvict(answered + 999 * MS, 1_000 * MS));
    assertEquals(RequestCycle.Phase.IDLE, cycle.tryEvict(answered + 1_000 * MS, 1_000 * MS));
  }
}
