# render-glossary.R - 'What the numbers mean', the glossary at the end of every page.

definitions <- function() {
  # The definitions are prose with inline markup (<i>, &gt;) written here: HTML as they stand.
  dd <- function(term, text) tagList(tags$dt(term), tags$dd(HTML(text)))
  tags$dl(
    dd("Verdict", verdict_glossary()),
    dd("Lab and CPU accounting", paste("lab.cpus splits the machine's CPUs between the server side (HBase, its thrift2 gateway, the shim) and the",
                                       "client side (console, agents, workers, samplers, ./suite itself); each role's CPU is counted every second",
                                       "(a cgroup per role, else by command line) into cpu.csv, each JVM's threads split into JIT, GC, io (event",
                                       "loops) and load (the threads that make or serve requests); other is busy CPU no role took, steal the",
                                       "hypervisor's.")),
    dd("Requests", "One line of a Grinder data log. Logs of all hosts, workers and threads are merged; a thread is host + worker + thread number."),
    dd("Test names", "1 get, 2 put, 3 scan, 4 batch-get, 5 batch-put, 6 delete, 7 increment (a mixed run logs 1 and 2); the manifest's names win; others are test-N."),
    dd("Grinder time (unprefixed columns)", "Grinder's Test time, whole milliseconds, what the reference study reported."),
    dd("Witness", "System.nanoTime around the HBase call, in microseconds, shown in ms: the HBase time."),
    dd("Tool overhead", "Mean over requests with a witness of (Grinder ms x 1000 - witness us), with a 95% interval of +- 1.96 sd / sqrt(n) of those per-request differences. Grinder's whole ms make each difference off by up to 1 ms; a negative value within its interval is zero."),
    dd("Client cost per request (off-timer gap)", "Per thread: (last start - first start - the witnesses of every request but the last) / (requests - 1); the time between one request's end and the next one's start, Grinder's and the script's work included. Shown as the mean over threads."),
    dd("Service time and the coordinated-omission estimate", "A closed loop's latencies are service times: a stall holds its thread, so the requests a steady client would have sent meanwhile are never timed. The estimate adds, for each request of time T >= 2 I (I = the thread's median start-to-next-start, or its mean cycle when that median is under 2 ms), synthetic values T - I, T - 2I, ... while >= I, as HdrHistogram's copyCorrectedForCoordinatedOmission. Paced runs measure latency from the intended start instead."),
    dd("Latency statistics", "From all requests in the measured window, failed ones included; errors are counted separately (a request with errors counts once) and the error rate is errors / requests."),
    dd("Percentiles", "Nearest rank over the merged requests of all injectors: the smallest value with at least P% of requests at or below it (sorted values, index ceiling(P/100 x n)). Never an average of per-host percentiles. Standard deviation is the sample one (n - 1)."),
    dd("Warm-up cut (steady state)", sprintf(paste("From the per-second series of the run (completions, and mean latency of all tests): the steady level of each is its",
                                                   "median over the second half of the run; the warm-up ends at the first second from which both stay no more than %d%%",
                                                   "slower than their level (fewer completions, higher latency) for %d seconds in a row, at most half the run: a start",
                                                   "faster than the level is no warm-up and stays measured. With fewer than %d full seconds: the first 10%% of the run.",
                                                   "--warmup SECONDS overrides. Requests that started before the cut are left out; the measured window runs from the first",
                                                   "start at or after the cut to the last end of those requests. Steady: the medians of the first and last third of the",
                                                   "window's seconds differ by at most %d%%, for throughput and mean latency."),
                                             round(100 * STEADY_BAND), STEADY_HOLD_S, STEADY_MIN_SECONDS, round(100 * STEADY_TREND_TOLERANCE))),
    dd("Throughput", "Requests in the measured window / window length, per test over the same window."),
    dd("Threads", "threads_total from the manifest when present, else the distinct threads in the logs."),
    dd("Blackout second", "A second (since the first request, by completion time) in which at least one thread was between its first start and last end and no request completed."),
    dd("Latency from intended start", "With pacing on (a 'Lag (us)' column): Lag + Test time, the latency a user arriving on schedule would see."),
    dd("Like with like", "Runs are alike when their workload (operations mix, threads, target, value size, key distribution, rows, pacing, buffering, durability, row shape; from the manifest's properties) is the same, or differs in one of threads, target, value size, pacing, buffering, durability, key distribution, region servers (when recorded). A different operations mix is never compared. Each run is set against the --baseline run (default: the first) when alike, else the first earlier run of its workload, else the first earlier alike run. Repeats of one workload give min / median / max; a difference between two workloads is larger than the spread when their min..max ranges do not overlap."),
    dd("Capacity model (Universal Scalability Law)", sprintf(paste(
      "X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) fitted on log X (nls, port: lambda &gt; 0, 0 &le; sigma &le; 1, kappa &ge; 0)",
      "to total throughput against threads, per workload and target, with %d or more distinct thread counts; peak N* = sqrt((1 - sigma) / kappa)",
      "(none when kappa = 0). %d%% intervals from the standard errors. Mean latency by Little's law, R(N) = N / X(N); the model predicts",
      "means, never percentiles."), USL_MIN_DISTINCT_N, round(100 * USL_CONFIDENCE))),
    dd("SLO gates and capacity", "--slo 'p99_ms<50,get.error_rate<0.001': [TEST.]METRIC OP NUMBER over summary.csv's numeric columns, the total row by default. A gate with no data fails. Capacity (comparisons, sweeps): the highest total throughput among the runs that meet every gate. Exit status 99: a run with a failed gate; a comparison or sweep with no run meeting every gate.")
  )
}
