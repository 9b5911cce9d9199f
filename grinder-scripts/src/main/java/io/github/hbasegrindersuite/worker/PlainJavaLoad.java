package io.github.hbasegrindersuite.worker;

import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline the Grinder injector is measured against (./suite bench injector): the worker's
 * own engine -- WorkerProcess, one Driver per thread with the same Client, key chooser,
 * operation mix, pacer and witness -- run by plain Java threads, minus Grinder and Jython, with
 * a {@link CountingReport} in place of Grinder's statistics. It reads the very properties file
 * the Grinder run reads (hbaseload.* through Settings; grinder.threads, run as worker process 0
 * of grinder.processes), so both sides make the same calls. If the Grinder run reaches this
 * throughput, the tool is not the bottleneck.
 *
 * <pre>PlainJavaLoad PROPERTIES [--threads N] [--warmup-seconds 10] [--seconds 20]</pre>
 * --threads overrides grinder.threads. Prints one line:
 * {@code plain-java: threads=8 seconds=20 requests=N throughput_rps=X mean_us=Y all=A errors=E}
 * (requests in the measured window; mean_us from the intended start, which unpaced is the
 * witness, with uncorrected_mean_us beside it when paced; all = including the warm-up).
 * Exit 1 with a one-line reason on a bad setting or a failure, 2 on bad arguments.
 */
public final class PlainJavaLoad {
  private static final String USAGE = "usage: PlainJavaLoad PROPERTIES [--threads N] [--warmup-seconds S] [--seconds S]";

  private PlainJavaLoad() {
  }

  public static void main(String[] args) {
    Properties properties;
    long warmupSeconds = 10;
    long seconds = 20;
    try {
      if (args.length == 0 || args.length % 2 == 0) {
        throw new IllegalArgumentException("expected a properties file and option pairs");
      }
      properties = TablePreparer.read(args[0]);
      for (int i = 1; i < args.length; i += 2) {
        switch (args[i]) {
          case "--threads" -> properties.setProperty("grinder.threads", String.valueOf(atLeast(1, args[i], args[i + 1])));
          case "--warmup-seconds" -> warmupSeconds = atLeast(0, args[i], args[i + 1]);
          case "--seconds" -> seconds = atLeast(1, args[i], args[i + 1]);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
    } catch (Exception e) {
      System.err.println(USAGE + "\nplain-java: " + e.getMessage());
      System.exit(2);
      return;
    }
    int status;
    try (WorkerProcess worker = WorkerProcess.start(properties, 0, 0)) {
      System.out.println(run(worker, warmupSeconds, seconds));
      status = 0;
    } catch (SettingsException e) {
      System.err.println("plain-java: " + e.getMessage());
      status = 1;
    } catch (Exception e) {
      System.err.println("plain-java: " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n", 2)[0]);
      status = 1;
    }
    System.exit(status);
  }

  private static int atLeast(int min, String option, String text) {
    int value;
    try {
      value = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " " + text + ": not a whole number");
    }
    if (value < min) {
      throw new IllegalArgumentException(option + " " + text + ": must be at least " + min);
    }
    return value;
  }

  /** Runs the threads for the warm-up and the measured seconds; returns the result line. */
  static String run(WorkerProcess worker, long warmupSeconds, long seconds) throws Exception {
    int threads = worker.threads();
    long start = System.nanoTime();
    long measureFrom = start + warmupSeconds * 1_000_000_000L;
    long end = measureFrom + seconds * 1_000_000_000L;
    CountingReport report = new CountingReport(measureFrom, end);
    AtomicLong failedThreads = new AtomicLong();
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      Driver driver = worker.driver(t, report);
      workers[t] = new Thread(() -> {
        try (Driver d = driver) {
          while (System.nanoTime() < end) {
            d.next();
            d.execute();
          }
        } catch (Exception e) {
          failedThreads.incrementAndGet();
          System.err.println("plain-java: " + Thread.currentThread().getName() + " failed: " + e);
        }
      }, "plain-java-" + t);
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    long n = report.requests();
    long errors = report.errors() + failedThreads.get();
    if (errors > 0) {
      System.err.println("plain-java: errors by class: " + worker.errorSummary());
    }
    String uncorrected = worker.paced()
        ? String.format(Locale.ROOT, " uncorrected_mean_us=%.1f", report.meanUncorrectedMicros()) : "";
    return String.format(Locale.ROOT, "plain-java: threads=%d seconds=%d requests=%d throughput_rps=%.1f mean_us=%.1f%s all=%d errors=%d",
        threads, seconds, n, n / (double) seconds, report.meanLatencyMicros(), uncorrected, report.all(), errors);
  }
}
