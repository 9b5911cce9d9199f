package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.shim.metrics.Histogram;
import io.github.hbasegrindersuite.worker.Driver;
import io.github.hbasegrindersuite.worker.ErrorCounter;
import io.github.hbasegrindersuite.worker.KeyFormat;
import io.github.hbasegrindersuite.worker.Operation;
import io.github.hbasegrindersuite.worker.OperationMix;
import io.github.hbasegrindersuite.worker.Pacer;
import io.github.hbasegrindersuite.worker.Settings.Key;
import io.github.hbasegrindersuite.worker.ValuePool;
import io.github.hbasegrindersuite.worker.keys.KeyChoosers;
import io.github.hbasegrindersuite.worker.targets.Client;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One slice of the benchmark, on the worker's own engine: every thread runs a {@link Driver}
 * over a fresh Client of one path, the path's key chooser (uniform), a one-operation mix and a
 * {@link Pacer}, for a fixed time -- a closed loop at rate 0, else each thread paced to rate /
 * threads requests per second from its own random phase, so that threads released together do
 * not send in bursts. A paced thread stops when its next intended start is past the end.
 */
final class Slice {
  private final ValuePool values;
  private final ErrorCounter errors;
  private final ProcessCpu cpu;
  private final SplittableRandom random;

  Slice(ValuePool values, ErrorCounter errors, ProcessCpu cpu, SplittableRandom random) {
    this.values = values;
    this.errors = errors;
    this.cpu = cpu;
    this.random = random;
  }

  SliceResult run(BenchPath path, Operation operation, int threads, int seconds, double rate) throws Exception {
    Driver[] drivers = new Driver[threads];
    Pacer[] pacers = new Pacer[threads];
    Client[] clients = new Client[threads];
    SliceRecorder[] recorders = new SliceRecorder[threads];
    for (int t = 0; t < threads; t++) {
      SplittableRandom r = random.split();
      pacers[t] = new Pacer(rate / threads, r.nextDouble());
      recorders[t] = new SliceRecorder();
      clients[t] = path.target().client(r.split());
      drivers[t] = new Driver(clients[t], KeyChoosers.create(path.settings(), r.split(), t, threads),
          new OperationMix(Map.of(operation, 100), r.split()), pacers[t], values, errors, recorders[t], path.settings());
    }
    byte[] firstRow = KeyFormat.rowKey(0, path.settings().integer(Key.KEY_WIDTH));
    // One start time for all: the barrier's action runs once, before any party is released,
    // so every worker's end and the slice's elapsed time count from the same instant.
    AtomicLong begin = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads + 1, () -> begin.set(System.nanoTime()));
    AtomicLong lastEnd = new AtomicLong();
    long durationNanos = TimeUnit.SECONDS.toNanos(seconds);
    Thread[] workers = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      final int t = i;
      workers[t] = new Thread(() -> {
        try {
          clients[t].get(firstRow); // thrift clients connect on first use: not on the clock
        } catch (Exception e) {
          // the timed requests will fail too, and are counted
        }
        try {
          start.await();
        } catch (Exception e) {
          return;
        }
        long end = begin.get() + durationNanos;
        Driver driver = drivers[t];
        Pacer pacer = pacers[t];
        while (pacer.nextIntendedStart() < end) {
          driver.next();
          driver.execute();
        }
        lastEnd.accumulateAndGet(System.nanoTime(), Math::max);
      }, "bench-" + path.name() + "-" + t);
      workers[t].start();
    }
    Map<String, Long> cpuBefore = cpu.sample();
    start.await();
    for (Thread w : workers) {
      w.join(TimeUnit.SECONDS.toMillis(seconds) + 60_000);
    }
    Map<String, Long> cpuAfter = cpu.sample();
    double elapsed = (Math.max(lastEnd.get(), begin.get()) - begin.get()) / 1e9;
    Histogram latency = new Histogram();
    Histogram uncorrected = new Histogram();
    long count = 0;
    long failed = 0;
    for (int t = 0; t < threads; t++) {
      try {
        drivers[t].close();
      } catch (Exception e) {
        // the slice is over; a client that fails to close changes nothing measured
      }
      latency.add(recorders[t].latency);
      uncorrected.add(recorders[t].uncorrected);
      count += recorders[t].count;
      failed += recorders[t].errors;
    }
    return new SliceResult(latency, uncorrected, count, failed, elapsed, cpuBefore, cpuAfter);
  }
}
