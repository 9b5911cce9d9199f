package io.github.hbasegrindersuite.shim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The thread-pool server's {@code shim.max.connections} slots, and who gives one up when they
 * are all taken. A new connection gets a free slot; when there is none, the connection that has
 * waited longest for bytes that did not come makes room, once it has waited
 * {@code shim.evict.after.ms} (so a client whose request is on its way is not cut off): one whose
 * request has not arrived in full (a new connection that sent nothing, or a half-sent request)
 * while there is any such, else one idle between requests, so a pooled client idling between
 * calls keeps its connection through a flood of half-sent requests. A connection in a call is
 * never closed. When nobody can make room yet, the new connection waits,
 * at most {@code shim.accept.wait.ms}, for a slot to free or a connection to become old enough;
 * then it is refused.
 *
 * <p>Without this, slots held by clients that send nothing locked every new client out: 600
 * connections that had each made one call and then stayed open held all 512 slots for the idle
 * timeout (10 minutes), and half-sent requests for the request deadline (30 s).
 */
final class ConnectionSlots {

  /** One connection holding a slot: where it is in its request cycle, and how to close it. */
  interface Member {
    RequestCycle cycle();

    /** Closes the connection under its thread's feet: its read fails, its thread releases the slot. */
    void close();
  }

  /** What the server counts and logs. */
  interface Events {
    /** A connection was closed to make room; {@code phase} is where it was in its cycle. */
    void evicted(RequestCycle.Phase phase);
  }

  /** Longest single wait, so that connections growing old enough to make room are noticed. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final int max;
  private final long evictAfterNanos;
  private final Events events;
  private final List<Member> members = new ArrayList<>();

  /**
   * @param evictAfterMillis how long a connection must have waited for bytes before it may make
   *     room; negative: never (a full server refuses new connections after the wait)
   */
  ConnectionSlots(int max, long evictAfterMillis, Events events) {
    this.max = max;
    this.evictAfterNanos = evictAfterMillis < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(evictAfterMillis);
    this.events = events;
  }

  synchronized int size() {
    return members.size();
  }

  /** How many connections are in each phase of their request cycle now (every phase, zeros too). */
  synchronized java.util.Map<RequestCycle.Phase, Integer> phases() {
    java.util.Map<RequestCycle.Phase, Integer> n = new java.util.EnumMap<>(RequestCycle.Phase.class);
    for (RequestCycle.Phase p : RequestCycle.Phase.values()) {
      n.put(p, 0);
    }
    for (Member o : members) {
      n.merge(o.cycle().phase(), 1, Integer::sum);
    }
    return n;
  }

  /**
   * A server's slots: {@code shim.max.connections} of them, making room after
   * {@code shim.evict.after.ms}; each eviction counted by reason and told to the limit's log.
   */
  static ConnectionSlots of(ShimConfig config, io.github.hbasegrindersuite.shim.metrics.ShimMetrics metrics,
      ConnectionLimitLog limitLog) {
    return new ConnectionSlots(config.intValue(ShimConfig.Key.MAX_CONNECTIONS),
        config.longValue(ShimConfig.Key.EVICT_AFTER_MS), phase -> {
          metrics.connectionClosed(phase.stalled() ? CloseReason.EVICTED_STALLED : CloseReason.EVICTED_IDLE);
          limitLog.evicted(phase.stalled(), System.nanoTime());
        });
  }

  /** Open connections by phase of their request cycle, named as the metrics name them (new, reading, call, idle). */
  java.util.Map<String, Long> namedPhases() {
    java.util.Map<String, Long> named = new java.util.LinkedHashMap<>();
    phases().forEach((phase, n) -> {
      if (phase != RequestCycle.Phase.EVICTED) { // closing: no longer a connection a client holds
        named.put(phase.name().toLowerCase(java.util.Locale.ROOT), (long) n);
      }
    });
    return named;
  }

  /** Connections idle between requests now. */
  synchronized int idle() {
    int n = 0;
    for (Member o : members) {
      n += o.cycle().phase() == RequestCycle.Phase.IDLE ? 1 : 0;
    }
    return n;
  }

  /**
   * Gives {@code m} a slot: a free one, else one made by closing a connection that waits for
   * bytes; waits for either at most {@code waitMillis}, or until {@code stopping}. Returns false
   * when no slot could be had.
   */
  synchronized boolean admit(Member m, long waitMillis, BooleanSupplier stopping) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    while (!stopping.getAsBoolean()) {
      long now = System.nanoTime();
      int leaving = 0; // evicted, their threads not yet gone
      for (Member o : members) {
        leaving += o.cycle().phase() == RequestCycle.Phase.EVICTED ? 1 : 0;
      }
      if (members.size() < max) {
        members.add(m);
        return true;
      }
      long nextChance = Long.MAX_VALUE;
      if (members.size() - leaving >= max && evictAfterNanos >= 0) {
        nextChance = evictOne(now);
      }
      long left = deadline - now;
      if (left <= 0) {
        return false;
      }
      // a release wakes this at once; otherwise look again when a connection may have grown old enough
      long wait = Math.min(left, Math.min(POLL_NANOS, Math.max(nextChance - now, 1_000_000L)));
      TimeUnit.NANOSECONDS.timedWait(this, wait);
    }
    return false;
  }

  /**
   * Closes the connection that has waited longest for bytes: while any connection is stalled
   * (its request not arrived in full), one of those, else one idle between requests; returns
   * {@code now} when one was closed, else when the first of those will be old enough
   * (Long.MAX_VALUE: none can make room, all are in calls).
   */
  private long evictOne(long now) {
    while (true) {
      boolean anyStalled = false;
      for (Member o : members) {
        anyStalled |= o.cycle().phase().stalled();
      }
      Member victim = null;
      long nextChance = Long.MAX_VALUE;
      for (Member o : members) {
        RequestCycle c = o.cycle();
        RequestCycle.Phase p = c.phase();
        if (p == RequestCycle.Phase.CALL || p == RequestCycle.Phase.EVICTED || p.stalled() != anyStalled) {
          continue; // an idle client keeps its connection while a stalled one can make room
        }
        long since = c.sinceNanos();
        if (now - since < evictAfterNanos) {
          nextChance = Math.min(nextChance, since + evictAfterNanos);
        } else if (victim == null || since - victim.cycle().sinceNanos() < 0) {
          victim = o;
        }
      }
      if (victim == null) {
        return nextChance;
      }
      RequestCycle.Phase was = victim.cycle().tryEvict(now, evictAfterNanos);
      if (was != null) { // else its request arrived or ended in the meantime: choose again
        victim.close();
        events.evicted(was);
        return now;
      }
    }
  }

  /** The connection's thread has ended: its slot is free. */
  synchronized void release(Member m) {
    members.remove(m);
    notifyAll();
  }

  /** Every connection holding a slot now (for closing them all). */
  synchronized List<Member> members() {
    return new ArrayList<>(members);
  }
}
