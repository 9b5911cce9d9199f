package io.github.hbasegrindersuite.lifecycle;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A run's sampler, ready to loop (its arguments read, its files open): the CPU accounting
 * (cpu.CpuSampler) and the HBase server metrics (servermetrics.ServerMetricsSampler). Each can run
 * alone, as its own main, or both in one JVM ({@link RunSamplers}): one JVM start less on the
 * client CPU per run. {@link #runUntilStopped} runs them to their deadline or SIGTERM, then lets
 * each finish its sample in hand and write its notes (./suite run waits 5 s before SIGKILL).
 */
public final class SamplerRun {
  /** The sampling loop: returns at the deadline or once {@code stop} has been counted down. */
  public interface Loop {
    void run(CountDownLatch stop) throws IOException;
  }

  final String name;
  private final Loop loop;
  private final Closeable output;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile boolean failed;

  /** NAME prefixes its one-line failure on stderr; OUTPUT is closed when the loop ends. */
  public SamplerRun(String name, Loop loop, Closeable output) {
    this.name = name;
    this.loop = loop;
    this.output = output;
  }

  private void run() {
    try (Closeable out = output) {
      loop.run(stop);
    } catch (IOException | RuntimeException e) {
      failed = true;
      System.err.println(name + ": " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim());
    } finally {
      finished.countDown();
    }
  }

  /**
   * Runs every sampler in a thread of its own until each ends; at SIGTERM, stops them all and waits
   * up to 4 s in all for their last samples and notes. A sampler that fails leaves the others
   * running. Returns 1 when one failed, else 0.
   */
  public static int runUntilStopped(List<SamplerRun> samplers) {
    final List<Thread> threads = new ArrayList<>();
    for (SamplerRun s : samplers) {
      threads.add(new Thread(s::run, s.name));
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      samplers.forEach(s -> s.stop.countDown());
      final long until = System.currentTimeMillis() + 4000;
      for (SamplerRun s : samplers) {
        try {
          s.finished.await(Math.max(0, until - System.currentTimeMillis()), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          return; // ending anyway
        }
      }
    }));
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return samplers.stream().anyMatch(s -> s.failed) ? 1 : 0;
  }
}
