package io.github.hbasegrindersuite.shim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.ErrorCounter;
import io.github.hbasegrindersuite.worker.Operation;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.ValuePool;
import io.github.hbasegrindersuite.worker.targets.Client;
import io.github.hbasegrindersuite.worker.targets.Target;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Slices over a fake path whose every call takes 2 ms: the closed loop's latency is the call,
 * and paced load beyond what the path sustains shows, from the intended start, the queue that
 * the uncorrected latency leaves out.
 */
class SliceTest {
  private final AtomicInteger closed = new AtomicInteger();

  /** Every call parks 2 ms; a put of any row fails. */
  private final class SlowClient implements Client {
    private void call() {
      long until = System.nanoTime() + 2_000_000;
      while (System.nanoTime() < until) {
        LockSupport.parkNanos(until - System.nanoTime());
      }
    }

    @Override public byte[] get(byte[] row) {
      call();
      return row;
    }
    @Override public void put(byte[] row) {
      call();
      throw new IllegalStateException("read-only");
    }
    @Override public int scan(byte[] start, int rows) {
      return 0;
    }
    @Override public int batchGet(byte[][] rows) {
      return 0;
    }
    @Override public void batchPut(byte[][] rows) {
    }
    @Override public void delete(byte[] row) {
    }
    @Override public long increment(byte[] row) {
      return 0;
    }
    @Override public void close() {
      closed.incrementAndGet();
    }
  }

  private final BenchPath path = new BenchPath("slow", Settings.load(Map.of("hbaseload.rows", "100")), new Target() {
    @Override public Client client(SplittableRandom random) {
      return new SlowClient();
    }
    @Override public void close() {
    }
  });
  private final ErrorCounter errors = new ErrorCounter();
  private final Slice slice = new Slice(new ValuePool(16, false, 1), errors, new ProcessCpu(Map.of()), new SplittableRandom(1));

  private static double p50Micros(io.github.hbasegrindersuite.shim.metrics.Histogram h) {
    return h.snapshot().percentileNanos(50) / 1000.0;
  }

  @Test
  void theClosedLoopTimesTheCallAndClosesItsClients() throws Exception {
    SliceResult r = slice.run(path, Operation.GET, 2, 1, 0);
    // 2 threads, 2 ms a call, 1 s: at most 1000, fewer when this machine is busy
    assertTrue(r.count() > 300 && r.count() <= 1000, "requests " + r.count());
    assertEquals(0, r.errors());
    assertTrue(r.seconds() >= 1.0 && r.seconds() < 1.5, "seconds " + r.seconds());
    assertEquals(p50Micros(r.uncorrected()), p50Micros(r.latency()), "unpaced: no lag");
    assertTrue(r.medianMicros() >= 2000 && r.medianMicros() < 4000, "median " + r.medianMicros() + " us");
    assertEquals(2, closed.get());
  }

  @Test
  void pacedBeyondThePathsCapacityTheQueueCountsFromTheIntendedStart() throws Exception {
    // 2 threads asked for 1000/s each, the path serves 500/s each: by the end a request is
    // intended about 0.5 s before it starts. The uncorrected median stays at the 2 ms call.
    SliceResult r = slice.run(path, Operation.GET, 2, 1, 2000);
    double uncorrected = p50Micros(r.uncorrected());
    assertTrue(uncorrected >= 2000 && uncorrected < 4000, "uncorrected median " + uncorrected + " us");
    assertTrue(r.medianMicros() > 50 * uncorrected, "from the intended start " + r.medianMicros() + " us");
  }

  @Test
  void pacedWithinCapacityRequestsKeepTheirScheduleAndFailuresAreCounted() throws Exception {
    SliceResult r = slice.run(path, Operation.PUT, 2, 1, 100); // 50/s each, every 20 ms
    assertEquals(0, r.count(), "failed requests are not timed");
    assertTrue(r.errors() >= 96 && r.errors() <= 100, "errors " + r.errors());
    assertEquals(r.errors(), errors.total());
    SliceResult gets = slice.run(path, Operation.GET, 2, 1, 100);
    assertTrue(gets.count() >= 96 && gets.count() <= 100, "requests " + gets.count());
    assertTrue(gets.medianMicros() - p50Micros(gets.uncorrected()) < 1000,
        "on schedule, lag is the timer's: " + gets.medianMicros() + " against " + p50Micros(gets.uncorrected()));
  }
}
