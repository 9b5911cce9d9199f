package io.github.hbasegrindersuite.worker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hard bound on every target call: a call still running past its deadline has its thread
 * interrupted. The HBase 2.6 client bounds an RPC by hbase.client.operation.timeout, but not the
 * search for a region's location (ConnectionImplementation.locateRegionInMeta retries the meta
 * lookup and the ZooKeeper read without looking at the operation's deadline): with HBase down,
 * calls blocked 13 s under a 2 s timeout. Interrupting is what that client supports to end a
 * wait early (its futures and sleeps turn it into an InterruptedIOException); the interrupt flag
 * is always cleared before the thread goes back to Grinder.
 *
 * <p>One daemon thread per process looks at every thread's {@link Slot} each tick; a call costs its
 * thread two atomic writes.
 */
public final class CallWatchdog {
  private static final long TICK_MS = 50;
  private static CallWatchdog shared;

  private final long deadlineNanos;
  private final List<Slot> slots = new CopyOnWriteArrayList<>();

  /** @param deadlineMs how long a call may run before its thread is interrupted */
  CallWatchdog(long deadlineMs) {
    this.deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMs);
    Thread thread = new Thread(this::watch, "hbaseload-call-watchdog");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * The process's watchdog for calls bounded by hbaseload.timeout.ms: it steps in a little after
   * the timeout (10%, between 100 ms and 1 s), so the client's own timeout, with its clearer
   * error, wins whenever the client honours it.
   */
  static synchronized CallWatchdog forTimeout(long timeoutMs) {
    long deadline = deadlineFor(timeoutMs);
    if (shared == null || shared.deadlineNanos != TimeUnit.MILLISECONDS.toNanos(deadline)) {
      shared = new CallWatchdog(deadline);
    }
    return shared;
  }

  static long deadlineFor(long timeoutMs) {
    return timeoutMs + Math.min(1000, Math.max(100, timeoutMs / 10));
  }

  long deadlineMs() {
    return TimeUnit.NANOSECONDS.toMillis(deadlineNanos);
  }

  /** A slot for one Driver; its owner is whichever thread calls {@link Slot#begin}. */
  Slot slot() {
    Slot slot = new Slot();
    slots.add(slot);
    return slot;
  }

  void release(Slot slot) {
    slots.remove(slot);
  }

  private void watch() {
    while (true) {
      try {
        Thread.sleep(TICK_MS);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (Slot slot : slots) {
        slot.interruptIfLate(now, deadlineNanos);
      }
    }
  }

  /**
   * One thread's call in progress. States: idle, calling, being interrupted, interrupted, ending.
   * A late call is interrupted at every tick until it ends: the HBase client can swallow an
   * interrupt and wait again (a fault e2e saw one thread's get run 12.8 s under a 2.2 s deadline
   * while every other thread's ended at it), and the next interrupt reaches the next wait.
   */
  static final class Slot {
    private static final int IDLE = 0;
    private static final int CALLING = 1;
    private static final int INTERRUPTING = 2;
    private static final int INTERRUPTED = 3;
    private static final int ENDING = 4;

    private final AtomicInteger state = new AtomicInteger(IDLE);
    private Thread owner; // published by the volatile write of state in begin
    private long startNanos;

    void begin(long nowNanos) {
      owner = Thread.currentThread();
      startNanos = nowNanos;
      state.set(CALLING);
    }

    /**
     * Ends the call; true when the watchdog interrupted it. The thread's interrupt flag is clear
     * on return either way (an interrupt in flight is waited for, then cleared, never left behind:
     * once ENDING, the watchdog leaves the slot alone).
     */
    boolean end() {
      while (true) {
        final int now = state.get();
        if (now == CALLING && state.compareAndSet(CALLING, IDLE)) {
          return false;
        }
        if (now == INTERRUPTED && state.compareAndSet(INTERRUPTED, ENDING)) {
          Thread.interrupted();
          state.set(IDLE);
          return true;
        }
        Thread.onSpinWait(); // the watchdog is between its decision and Thread.interrupt
      }
    }

    void interruptIfLate(long nowNanos, long deadlineNanos) {
      if (nowNanos - startNanos <= deadlineNanos) {
        return;
      }
      final int now = state.get();
      if ((now == CALLING || now == INTERRUPTED) && state.compareAndSet(now, INTERRUPTING)) {
        owner.interrupt();
        state.set(INTERRUPTED);
      }
    }
  }
}
