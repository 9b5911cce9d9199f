package io.github.hbasegrindersuite.console.live;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The run's live Prometheus endpoint: {@code http://127.0.0.1:PORT/metrics}, the console's
 * statistics per test and its agents and workers, in the suite's naming scheme
 * ({@code hbasegrinder_<component>_<quantity>_<unit>}, label {@code operation} as the shim's).
 * Every value is read from {@link LiveStatistics} when scraped, through the Prometheus client's
 * callback metrics and its own HTTP server (JDK's, on one daemon thread: it must never keep the
 * console alive, and a scrape a second is nothing for one thread).
 *
 * <table>
 * <caption>what it serves (labels test, operation on the per-test families)</caption>
 * <tr><td>{@value #REQUESTS}</td><td>counter: successful requests (Grinder's Tests)</td></tr>
 * <tr><td>{@value #ERRORS}</td><td>counter: failed requests (Grinder's Errors)</td></tr>
 * <tr><td>{@value #TEST_TIME}</td><td>counter: sum of Grinder's test time, s; over {@value #REQUESTS}
 *   it is the mean over any window</td></tr>
 * <tr><td>{@value #WITNESS}</td><td>counter: sum of the witness (the HBase call alone), s</td></tr>
 * <tr><td>{@value #TEST_TIME_MEAN}, {@value #TEST_TIME_SD}, {@value #WITNESS_MEAN}</td><td>gauges:
 *   since the start of the run, as statistics.csv</td></tr>
 * <tr><td>{@value #THROUGHPUT}</td><td>gauge: successful requests per second in the console's
 *   latest sample interval, as timeline.csv</td></tr>
 * <tr><td>{@value #WORKERS}</td><td>gauge, label state: started, running, finished, lost</td></tr>
 * <tr><td>{@value #WORKERS_EXPECTED}, {@value #AGENTS}, {@value #AGENTS_EXPECTED},
 *   {@value #THREADS}, {@value #ELAPSED}, {@value #RUN}</td><td>gauges</td></tr>
 * </table>
 */
public final class LiveExport implements AutoCloseable {

  public static final String PREFIX = "hbasegrinder_console_";
  public static final String REQUESTS = PREFIX + "requests_total";
  public static final String ERRORS = PREFIX + "errors_total";
  public static final String TEST_TIME = PREFIX + "test_time_seconds_total";
  public static final String WITNESS = PREFIX + "witness_seconds_total";
  public static final String TEST_TIME_MEAN = PREFIX + "test_time_mean_seconds";
  public static final String TEST_TIME_SD = PREFIX + "test_time_sd_seconds";
  public static final String WITNESS_MEAN = PREFIX + "witness_mean_seconds";
  public static final String THROUGHPUT = PREFIX + "throughput_requests_per_second";
  public static final String WORKERS = PREFIX + "workers";
  public static final String WORKERS_EXPECTED = PREFIX + "workers_expected";
  public static final String AGENTS = PREFIX + "agents_connected";
  public static final String AGENTS_EXPECTED = PREFIX + "agents_expected";
  public static final String THREADS = PREFIX + "threads_running";
  public static final String ELAPSED = PREFIX + "elapsed_seconds";
  public static final String RUN = PREFIX + "run";

  private static final String[] TEST_LABELS = {"test", "operation"};

  private final PrometheusRegistry registry;
  private final HTTPServer server;

  private LiveExport(PrometheusRegistry registry, HTTPServer server) {
    this.registry = registry;
    this.server = server;
  }

  /**
   * Serves {@code live} on 127.0.0.1:{@code port} (0: any free port, see {@link #port()}).
   *
   * @throws IOException when the port cannot be bound
   */
  public static LiveExport start(LiveStatistics live, int port) throws IOException {
    final PrometheusRegistry registry = registry(live);
    final ExecutorService executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(16), r -> {
      final Thread t = new Thread(r, "hbasegrinder-live-metrics");
      t.setDaemon(true);
      return t;
    }, new ThreadPoolExecutor.DiscardPolicy()); // more than 16 waiting scrapes: drop, the scraper retries
    final HTTPServer server = HTTPServer.builder().hostname("127.0.0.1").port(port).registry(registry)
        .executorService(executor).buildAndStart();
    return new LiveExport(registry, server);
  }

  /** The metrics of {@code live} in a registry of their own (not the client's default one). */
  static PrometheusRegistry registry(LiveStatistics live) {
    final PrometheusRegistry registry = new PrometheusRegistry();
    perTestCounter(registry, REQUESTS, "Successful requests (Grinder's Tests) per test, as the console counts them.",
        live, f -> f.count);
    perTestCounter(registry, ERRORS, "Failed requests (Grinder's Errors) per test.", live, f -> f.errors);
    perTestCounter(registry, TEST_TIME, "Sum of Grinder's test time (whole milliseconds per request) of the "
        + "successful requests, seconds; rate() over rate(requests_total) is the mean test time.",
        live, f -> f.testTimeSumMs / 1e3);
    perTestCounter(registry, WITNESS, "Sum of the witness (System.nanoTime around the HBase call alone) of the "
        + "successful requests, seconds.", live, f -> f.witnessSumMicros / 1e6);
    perTestGauge(registry, TEST_TIME_MEAN, "Mean Grinder test time since the run started, seconds.",
        live, f -> f.meanMs() / 1e3);
    perTestGauge(registry, TEST_TIME_SD, "Standard deviation of Grinder's test time since the run started, seconds.",
        live, f -> f.testTimeSdMs / 1e3);
    perTestGauge(registry, WITNESS_MEAN, "Mean witness since the run started, seconds.",
        live, f -> f.witnessMeanMicros() / 1e6);
    perTestGauge(registry, THROUGHPUT, "Successful requests per second in the console's latest sample interval.",
        live, f -> f.intervalTps);
    final LiveStatistics.Processes p = live.processes();
    GaugeWithCallback.builder().name(WORKERS).help("Worker processes by their last reported state; lost: gone "
        + "from the reports without finishing.").labelNames("state").callback(cb -> {
          cb.call(p.workersIn("STARTED"), "started");
          cb.call(p.workersIn("RUNNING"), "running");
          cb.call(p.workersIn("FINISHED"), "finished");
          cb.call(p.workersLost(), "lost");
        }).register(registry);
    gauge(registry, WORKERS_EXPECTED, "Worker processes the run expects (agents x grinder.processes).",
        cb -> cb.call(p.workersExpected()));
    gauge(registry, AGENTS, "Agents connected to the console.", cb -> cb.call(p.agentsConnected()));
    gauge(registry, AGENTS_EXPECTED, "Agents the run expects.", cb -> cb.call(p.agentsExpected()));
    gauge(registry, THREADS, "Worker threads running, as the workers last reported.", cb -> cb.call(p.threadsRunning()));
    gauge(registry, ELAPSED, "Seconds of load the console has counted so far.", cb -> cb.call(live.elapsedSeconds()));
    GaugeWithCallback.builder().name(RUN).help("Always 1; the label names the run folder (runs/RUN).")
        .labelNames("run").callback(cb -> cb.call(1, live.runId())).register(registry);
    return registry;
  }

  private interface Figure {
    double of(LiveStatistics.TestFigures figures);
  }

  private static void perTestCounter(PrometheusRegistry registry, String name, String help, LiveStatistics live,
                                     Figure figure) {
    CounterWithCallback.builder().name(name).help(help).labelNames(TEST_LABELS).callback(cb -> {
      for (LiveStatistics.TestFigures f : live.tests()) {
        cb.call(figure.of(f), Integer.toString(f.test), f.name);
      }
    }).register(registry);
  }

  private static void perTestGauge(PrometheusRegistry registry, String name, String help, LiveStatistics live,
                                   Figure figure) {
    GaugeWithCallback.builder().name(name).help(help).labelNames(TEST_LABELS).callback(cb -> {
      for (LiveStatistics.TestFigures f : live.tests()) {
        final double value = figure.of(f);
        if (!Double.isNaN(value)) {
          cb.call(value, Integer.toString(f.test), f.name);
        }
      }
    }).register(registry);
  }

  private static void gauge(PrometheusRegistry registry, String name, String help,
                            Consumer<GaugeWithCallback.Callback> callback) {
    GaugeWithCallback.builder().name(name).help(help).callback(callback).register(registry);
  }

  /** The port it listens on (the one chosen, when started with 0). */
  public int port() {
    return server.getPort();
  }

  PrometheusRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    server.close();
  }
}
