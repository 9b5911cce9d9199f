# render-run.R - the page of one run: <run>/report/index.html, self-contained (images inlined).

# The page of one run; a figure the verdict disqualifies is greyed, with the reason above it.
render_run_report <- function(a, plots, gates = NULL) {
  why <- list(throughput = disqualified_why(a$verdict, "throughput"), latency = disqualified_why(a$verdict, "latency"))
  html_page(paste("Capacity report", a$run_id), html_lines(
    tags$h1(paste("Capacity report:", a$run_id)),
    finding_html(run_finding(a), a$verdict),
    plots_note(),
    run_headline(a),
    gates_table(gates),
    run_meta(a),
    flag_banner(a$checks),
    audit_section(a$facts$audit),
    # a fault run's result is what each fault did: its timeline and faults table come first
    if (!is.null(a$faults)) run_over_time_html(a, plots),
    run_results_html(a, why),
    run_latency_html(a, plots, why),
    if (is.null(a$faults)) run_over_time_html(a, plots),
    cpu_section(a, plots$cpu),
    tags$h2("Tool overhead and client cost"),
    html_img(plots$overhead, "Grinder time against witness"),
    overhead_table(a$summary),
    tags$h2("Direct against thrift"),
    html_p(sprintf("This run has one target (%s). Compare runs of both targets with ", if (is.na(a$target)) "not recorded" else a$target),
           tags$code("report.R RUN_DIRECT RUN_THRIFT"), "."),
    run_hosts_html(a, plots),
    tags$h2(id = "trust", "Can these numbers be trusted"),
    checks_table(a$checks),
    hlog_section(a$hlog),
    gap_table(a$cycles, a$files),
    tags$h3("Injector hosts"),
    host_table(a$hosts, a$window),
    tags$h2("Input"),
    input_section(a),
    tags$h2("What the numbers mean"),
    definitions(),
    html_p(sprintf("Generated %s by r-analysis/report.R; machine-readable: report.json.", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")), class = "meta")
  ))
}

# " (service time: closed loop)" after a latency heading of a closed-loop run.
service_note <- function(a) if (a$pacing) "" else " (service time: closed loop)"

# The run page's results: why figures are greyed, the reference tables of Grinder time and witness.
run_results_html <- function(a, why) {
  s <- a$summary
  why_t <- why$throughput
  why_l <- why$latency
  html_lines(
    tags$h2("Results"),
    if (nzchar(why_t) || nzchar(why_l)) html_p(paste(unique(c(why_t, why_l)[nzchar(c(why_t, why_l))]), collapse = " "), class = "why"),
    reference_table(s, why_throughput = why_t, why_latency = why_l),
    html_p("Grinder Test time (whole ms) over the measured window; all requests, failed ones included. Threads: ",
           if (!is.null(a$manifest$threads_total)) "from the manifest." else "distinct threads seen in the logs.", class = "meta"),
    coarse_note(s),
    if (any(s$witness_count > 0)) tagList(tags$h3(paste0("Witness (HBase call, microsecond resolution)", service_note(a))),
                                          reference_table(s, "witness_", why_throughput = why_t, why_latency = why_l)) else
      html_p("The logs have no 'Witness (us)' column: only Grinder's whole-ms time is known.", class = "note"))
}

# The run page's timeline per second, its blackouts and, in a fault run, its faults table.
run_over_time_html <- function(a, plots) {
  html_lines(
    tags$h2("Over time"),
    html_p("The evidence for the warm-up cut and the steady-state check: the grey band is the cut; warm-up spikes above the measured range are drawn at the top of the scale."),
    html_img(plots$timeline, "throughput, mean and p90 per second"),
    blackout_list(a$blackouts),
    faults_section(a$faults))
}

# The run page's percentile tables and latency distributions, greyed when the verdict disqualifies latency.
run_latency_html <- function(a, plots, why) {
  s <- a$summary
  service <- service_note(a)
  intended <- if (a$has_lag) {
    tagList(tags$h3("Latency from the intended start (pacing on)"),
            percentile_table(s[, .(test, intended_count, errors, error_rate, intended_p50_ms, intended_p90_ms, intended_p95_ms, intended_p99_ms,
                                  intended_p999_ms, intended_max_ms)], prefix = "intended_", digits = 3, with_errors = FALSE))
  }
  html_lines(
    tags$h2("Percentiles and errors"),
    html_disqualified(tagList(tags$h3(paste0("Grinder time", service)), percentile_table(s),
                              if (any(s$witness_count > 0)) tagList(tags$h3(paste0("Witness", service)), percentile_table(s, "witness_", 3)),
                              intended, co_table(s, a$co)), why$latency),
    tags$h2("Distributions"),
    html_p("Each test in its display latency: the witness when Grinder's ms are too coarse (named in the panel), else Grinder's time."),
    html_disqualified(tagList(html_img(plots$histogram_full, "latency histogram, full range"),
                             html_img(plots$histogram_zoom, "latency histogram, zoomed"),
                             html_img(plots$percentiles, "latency percentile plot")), why$latency))
}

# The run page's host metrics and HBase's server metrics.
run_hosts_html <- function(a, plots) {
  html_lines(
    tags$h2("Host metrics"),
    if (isTRUE(a$shared)) html_p(sprintf(paste("All injector hosts are this one machine (injector_mode %s): the injectors are",
                                                           "network namespaces or loopback agents sharing its CPU, memory and disk with HBase,",
                                                           "so their lines coincide and a busy CPU is not the client's alone."),
                                         a$manifest$injector_mode), class = "note"),
    if (!is.null(plots$host_metrics)) html_img(plots$host_metrics, "host metrics") else html_p("No metrics.csv in this run."),
    if (!is.null(a$facts$server) && !is.na(a$facts$server$kind)) tags$h2(id = "server-metrics", "HBase server metrics"),
    server_metrics_section(a, plots$server_metrics))
}

# The headline figures of a run: client cost per request, tool overhead with its interval, throughput.
run_headline <- function(a) {
  total <- a$summary[test == "total"]
  client <- a$facts$client
  figure <- function(title, value, note, greyed = FALSE) tags$div(class = if (greyed) "disq", title, tags$b(value), note)
  tags$div(class = "headline",
    figure("Client cost per request", paste(if (is.null(client)) "n/a" else fmt_num(client$gap_us, 0), "us"),
           paste0("mean off-timer gap", if (is.null(client)) "" else sprintf(", %s of the HBase time", fmt_pct(client$ratio, 0)))),
    figure("Tool overhead (inside the timer)",
           paste(if (is.na(total$overhead_us)) "n/a" else fmt_pm(total$overhead_us, total$overhead_ci95_us, 1), "us"),
           "95% interval, per request"),
    figure("Throughput", paste(fmt_num(total$throughput_rps, 0), "req/s"),
           sprintf("%s threads, %.1f s window", fmt_int(total$threads), a$window$window_s),
           greyed = nzchar(disqualified_why(a$verdict, "throughput"))),
    figure("HBase time (witness)", paste(fmt_num(total$witness_mean_ms, 3), "ms"),
           sprintf("mean; p99 %s ms", fmt_num(total$witness_p99_ms, 3)),
           greyed = nzchar(disqualified_why(a$verdict, "latency"))))
}

run_meta <- function(a) {
  m <- a$manifest
  field <- function(name) if (!is.null(m[[name]])) paste(unlist(m[[name]]), collapse = ", ") else "not recorded"
  tagList(
    html_p(paste0(a$label, ". Run folder "), tags$code(a$run_dir),
           sprintf(". Status: %s. Hosts: %s%s.", field("status"), paste(a$hosts$host, collapse = ", "),
                   if (!is.null(m$injector_mode)) sprintf(" (injector mode %s)", field("injector_mode")) else ""), class = "meta"),
    html_p(sprintf("Requests from %s to %s (%.1f s); measured window %s to %s (%.1f s, after a %.1f s warm-up cut: %s). %s data logs, %s requests read.",
                   fmt_epoch_ms(a$window$run_start_ms), fmt_epoch_ms(a$window$run_end_ms), a$window$run_s,
                   fmt_epoch_ms(a$window$window_start_ms), fmt_epoch_ms(a$window$window_end_ms), a$window$window_s,
                   a$window$warmup_ms / 1000, a$window$warmup_rule, nrow(a$files),
                   fmt_int(a$window$measured_requests + a$window$warmup_requests)), class = "meta"))
}

# The --slo gates of one run (or NULL): term, value, status.
gates_table <- function(gates, run_label = NULL) {
  if (is.null(gates) || nrow(gates) == 0) return(NULL)
  classes <- matrix(NA_character_, nrow(gates), 4)
  classes[, 4] <- ifelse(gates$status == "pass", "pass", "fail")
  tagList(html_p(sprintf("SLO gates (--slo): %d of %d hold%s.", sum(gates$status == "pass"), nrow(gates),
                        if (all(gates$status == "pass")) "" else "; report.R exits 99")),
         html_table(data.frame(Gate = gates$term, Test = gates$test, Value = fmt_num(gates$value, 4), Status = gates$status,
                               check.names = FALSE), left = 1:2, cell_class = classes))
}

flag_banner <- function(checks) {
  flagged <- checks[status == "FLAG", check]
  if (length(flagged) == 0) return(html_p("All trust checks passed (see 'Can these numbers be trusted').", class = "meta"))
  html_p(sprintf("%d check%s flagged: %s. See ", length(flagged), if (length(flagged) == 1) "" else "s", paste(flagged, collapse = ", ")),
         tags$a(href = "#trust", "Can these numbers be trusted"), ".", class = "meta")
}

# The reference study's table: Type | Threads | Mean | SD | 90% line | Throughput | Requests,
# with p50 and p95 beside the 90% line. why_throughput / why_latency grey those columns.
reference_table <- function(summary, prefix = "", why_throughput = "", why_latency = "") {
  col <- function(name) summary[[paste0(prefix, name)]]
  digits <- if (nzchar(prefix)) 3 else 2
  pdigits <- if (nzchar(prefix)) 3 else 0
  cells <- data.frame(
    Type = summary$test, Threads = fmt_int(summary$threads),
    `Mean Time (ms)` = fmt_num(col("mean_ms"), digits),
    `Time Standard Deviation (ms)` = fmt_num(col("sd_ms"), digits),
    `p50 (ms)` = fmt_num(col("p50_ms"), pdigits),
    `90% percentile line (ms)` = fmt_num(col("p90_ms"), pdigits),
    `p95 (ms)` = fmt_num(col("p95_ms"), pdigits),
    `Throughput (req/s)` = fmt_num(summary$throughput_rps, 1),
    `Number of Requests` = fmt_int(summary$count), check.names = FALSE)
  col_class <- c(NA, NA, rep(if (nzchar(why_latency)) "disq" else NA, 5), if (nzchar(why_throughput)) "disq" else NA, NA)
  html_table(cells, row_class = total_class(summary), col_class = col_class)
}

# Service time beside the coordinated-omission estimate, per test.
co_table <- function(summary, co) {
  rows <- summary[!is.na(co_p99_ms)]
  if (nrow(rows) == 0) return(NULL)
  source <- if (all(rows$witness_count > 0)) "witness" else "Grinder time"
  tagList(
    tags$h3("Closed loop: service time and the coordinated-omission estimate"),
    html_p("These percentiles are ", tags$b("service time"),
           paste(": each thread waited for its request before sending the next,",
                 "so a stall delayed the requests that would have been sent meanwhile and the stall is counted once. The "),
           tags$b("estimate"),
           sprintf(paste(" adds what a client on schedule would have seen, as HdrHistogram's",
                         "copyCorrectedForCoordinatedOmission does: every request of time T >= 2 I (I = the thread's expected",
                         "interval, median %s ms over %d threads) adds synthetic values T - I, T - 2I, ... down to I.",
                         "It is an estimate, not a measurement: pace the run (hbaseload.rate.per.thread) to measure latency from",
                         "the intended start."), fmt_num(co$median_interval_us / 1000, 3), co$threads)),
    html_table(data.frame(Type = rows$test, `Synthetic values added` = fmt_int(rows$co_added),
                          `p50 service / estimate (ms)` = paste(fmt_num(rows[[if (source == "witness") "witness_p50_ms" else "p50_ms"]], 3), "/", fmt_num(rows$co_p50_ms, 3)),
                          `p90 service / estimate (ms)` = paste(fmt_num(rows[[if (source == "witness") "witness_p90_ms" else "p90_ms"]], 3), "/", fmt_num(rows$co_p90_ms, 3)),
                          `p99 service / estimate (ms)` = paste(fmt_num(rows[[if (source == "witness") "witness_p99_ms" else "p99_ms"]], 3), "/", fmt_num(rows$co_p99_ms, 3)),
                          `p99.9 service / estimate (ms)` = paste(fmt_num(rows[[if (source == "witness") "witness_p999_ms" else "p999_ms"]], 3), "/", fmt_num(rows$co_p999_ms, 3)),
                          `mean service / estimate (ms)` = paste(fmt_num(rows[[if (source == "witness") "witness_mean_ms" else "mean_ms"]], 3), "/", fmt_num(rows$co_mean_ms, 3)),
                          check.names = FALSE), row_class = total_class(rows)),
    html_p(sprintf("Service time and estimate in the %s.", source), class = "meta"))
}

coarse_note <- function(summary) {
  coarse <- summary[grinder_coarse == TRUE & test != "total", test]
  if (length(coarse) == 0) return(NULL)
  html_p(sprintf(paste("Grinder's Test time is whole milliseconds: for %s its p90 is under %d ms, so its percentiles",
                       "are 1 ms steps and mean little. The witness table below (System.nanoTime around the HBase call,",
                       "microsecond resolution) gives the real distribution; histograms and timelines of these tests use the witness."),
                 paste(coarse, collapse = ", "), COARSE_P90_MS), class = "note")
}

blackout_list <- function(blackouts) {
  if (nrow(blackouts) == 0) return(html_p("No blackout second: some request completed in every second while threads were running."))
  shown <- utils::head(blackouts[order(-seconds)], 20)
  total <- sum(blackouts$seconds)
  tagList(html_p(sprintf("%d blackout interval%s (%d second%s in all). Longest first:", nrow(blackouts),
                        if (nrow(blackouts) == 1) "" else "s", total, if (total == 1) "" else "s")),
         html_table(data.frame(`Starts at (s since first request)` = shown$start_s, `Length (s)` = shown$seconds,
                               `In measured window` = ifelse(shown$in_measured_window, "yes", "no (warm-up)"),
                               check.names = FALSE)))
}

# The fault schedule's table: per action, what it did until the next (faults.R); NULL without faults.
faults_section <- function(faults) {
  if (is.null(faults)) return(NULL)
  e <- faults$effects
  num <- function(x, digits = 1) ifelse(is.na(x), "-", formatC(x, format = "f", digits = digits, big.mark = ","))
  tagList(
    tags$h2(id = "faults", "Faults"),
    html_p(sprintf(paste("The run's fault schedule%s, as faults.csv recorded it. Per action, until %s: the first failed request,",
                         "whole seconds without a successful one, the second from which the successful throughput was back to",
                         "%d%% of its %d s before the action (held %d s), errors, calls over the client's deadline of %s ms",
                         "(hbaseload.timeout.ms) and over its bound (the deadline plus the worker's watchdog grace and 100 ms for its",
                         "interrupt to land: such a call was not bounded). Seconds count from the action; a request counts in the second it ended."),
                   if (is.na(faults$schedule)) "" else paste0(" (", faults$schedule, ")"), "the next action or the run's end",
                   round(100 * FAULT_RECOVERED_SHARE), FAULT_BASELINE_S, FAULT_RECOVERY_HOLD_S, fmt_int(faults$deadline_ms))),
    html_table(data.frame(
      `#` = e$fault, Action = sprintf("at=%gs %s regionserver=%d%s", e$at_s, e$action, e$regionserver,
                                      ifelse(e$action == "pause", sprintf(" for=%gs", e$for_s), "")),
      `At (s since first request)` = num(e$second), Outcome = ifelse(e$outcome == "done", "done", paste0(e$outcome, ": ", e$detail)),
      `Req/s before` = num(e$baseline_rps, 0), `First error after (s)` = num(e$first_error_s, 2),
      `Seconds without success` = num(e$no_success_s, 0),
      `Back to 90% after (s)` = ifelse(is.na(e$recovered), "-", ifelse(e$recovered, num(e$recovery_s, 0), "not within")),
      `Lowest req/s` = num(e$min_rps, 0), Errors = num(e$errors, 0), `Past deadline` = num(e$past_deadline, 0), `Past bound` = num(e$past_bound, 0),
      `Until (s later)` = num(e$window_s), check.names = FALSE), left = c(2, 4), nowrap = 2))
}

# Where the CPU went: the lab, the sides' load, the stacked chart and the table per role (cpu.R).
cpu_section <- function(a, plot) {
  f <- a$facts$cpu
  head <- tags$h2(id = "cpu", "Where the CPU went")
  if (is.null(f)) return(tagList(head, html_p("No cpu.csv in this run: it predates the CPU accounting, or the folder holds data logs only.", class = "note")))
  closure <- f$closure
  tagList(head,
    html_p(sprintf(paste("%s. Over the %.0f s measured window the server side (%s) was %s%% busy and the client side (%s) %s%%;",
                                     "processes the run did not start took %s%% of the machine, steal %s%%. Counted by %s."),
                               f$lab_note, f$seconds, cpu_count_text(f$server$cpus), fmt_num(f$server$busy_pct, 0),
                               cpu_count_text(f$client$cpus), fmt_num(f$client$busy_pct, 0), fmt_num(f$other_pct, 1),
                               fmt_num(f$steal_pct, 1), f$method)),
    if (!is.null(plot)) html_img(plot, "CPU per role per second"),
    html_table(cpu_table_frame(f), left = 1:2),
    html_p(sprintf(paste("CPU seconds over the measured window; %% of machine: of its %s CPUs for that time; %% of its side: of the",
                                     "side's CPUs (all of them when the lab shares); us per request: over the %s requests measured. JIT, GC,",
                                     "io (event loops) and load (the threads that make or serve requests): the JVM threads of that class;",
                                     "empty where a JVM has too many threads to read each second (HBase). Over the sampler's whole life the",
                                     "cgroup root counted %s CPU s against the kernel's %s busy (ratio %s)."),
                               fmt_num(f$cpus, 0), fmt_int(f$requests), fmt_num(closure$cgroup_root_s %if_absent% NA, 1),
                               fmt_num(closure$busy_s %if_absent% NA, 1), fmt_num(closure$root_over_busy %if_absent% NA, 3)), class = "meta"))
}

overhead_table <- function(summary) {
  rows <- summary[witness_count > 0]
  if (nrow(rows) == 0) return(html_p("No 'Witness (us)' column in the logs: the tool's overhead cannot be measured.", class = "note"))
  tagList(
    html_table(data.frame(Type = rows$test, `Grinder mean (ms)` = fmt_num(rows$mean_ms, 3),
                          `Witness mean (ms)` = fmt_num(rows$witness_mean_ms, 3),
                          `Overhead (us, 95% interval)` = fmt_pm(rows$overhead_us, rows$overhead_ci95_us, 1),
                          `Overhead / witness` = fmt_pct(rows$overhead_us / (rows$witness_mean_ms * 1000), 1),
                          check.names = FALSE), row_class = total_class(rows)),
    html_p(paste("Overhead = mean over requests of (Grinder ms x 1000 - witness us), +- 1.96 sd / sqrt(n) of those differences.",
                 "Grinder's time is whole ms, so each difference is quantised (off by up to 1 ms either way); the mean of many is",
                 "unbiased. A negative overhead within its interval is zero; beyond it, the ms clock ran slow against nanoTime",
                 "(NTP slewing). What the client costs between requests is not here: see the off-timer gap (client cost per request)."),
           class = "meta"))
}

gap_table <- function(cycles, files) {
  if (nrow(cycles) == 0) return(NULL)
  worst <- utils::head(cycles[order(-gap_us)], 10)
  worst[files, on = "file_id", `:=`(host = i.host, file = i.rel_path)]
  tagList(html_p("Threads with the largest off-timer gap:"),
         html_table(data.frame(Host = worst$host, File = worst$file, Thread = worst$thread,
                               Requests = fmt_int(worst$requests), `Mean cycle (us)` = fmt_num(worst$cycle_us, 1),
                               `Gap (us)` = fmt_num(worst$gap_us, 1), check.names = FALSE), left = 1:2))
}

host_table <- function(hosts, window) {
  html_table(data.frame(Host = hosts$host, Workers = hosts$workers, Threads = hosts$threads,
                        Requests = fmt_int(hosts$requests),
                        `First start (s)` = fmt_num((hosts$first_start_ms - window$run_start_ms) / 1000, 3),
                        `Last end (s)` = fmt_num((hosts$last_end_ms - window$run_start_ms) / 1000, 3),
                        check.names = FALSE))
}

input_section <- function(a) {
  files <- a$files
  file_table <- html_table(data.frame(File = files$rel_path, Host = files$host,
                                      Worker = ifelse(is.na(files$worker), "", files$worker),
                                      Size = fmt_bytes(files$bytes), Requests = fmt_int(files$requests),
                                      `Skipped lines` = fmt_int(files$skipped_lines),
                                      Witness = ifelse(files$has_witness, "yes", "no"), Note = files$note,
                                      check.names = FALSE), left = c(1, 2, 8))
  skipped <- if (nrow(a$skipped) > 0) {
    tagList(html_p(sprintf("%s lines skipped; the report is built from the valid lines only:", fmt_int(sum(a$skipped$lines)))),
           html_table(data.frame(File = a$skipped$file, Reason = a$skipped$reason, Lines = fmt_int(a$skipped$lines),
                                 check.names = FALSE), left = 1:2))
  } else html_p("No line was skipped.")
  extras <- c(
    if (isTRUE(a$manifest$found)) "manifest.json read" else "no manifest.json (thread count from the logs, no run times)",
    if (!is.na(a$console_stats)) "console/statistics.csv present (not used: the data logs hold every request)" else "no console statistics",
    if (!is.null(a$metrics)) sprintf("host metrics for %s", paste(unique(a$metrics$host), collapse = ", ")) else "no host metrics (metrics.csv)"
  )
  tagList(file_table, skipped, html_p(paste(extras, collapse = "; "), "."))
}
