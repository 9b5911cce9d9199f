# analyse-run.R - one run's analysis in steps: load its requests, find the measured window,
# the statistics of the requests in it, the checks on them, the verdict. Only aggregated tables
# leave: the requests (10 million on a long run) are dropped as soon as the statistics are made,
# each step releasing what the next no longer needs.

# Load and summarise one run. Returns only aggregated tables: requests are dropped here.
analyse_run <- function(target, warmup_s = NA_real_) {
  run <- load_run(target$dir, target$id)
  if (is_hlog_only(run)) {
    return(list(hlog_only = TRUE, run_id = run$run_id, run_dir = run$run_dir, manifest = run$manifest))   # hbaseload.datalog=off
  }
  if (nrow(run$requests) == 0) {
    stop_report("no valid requests in ", run$run_dir, " (", skipped_reason_text(run$skipped, run$files), ")")
  }
  requests <- run$requests
  run$requests <- NULL
  progress("summarising ", fmt_int(nrow(requests)), " requests")
  hlog <- hlog_for_run(run$run_dir, requests)
  faults <- run_faults(run, requests)
  timing <- measured_window(requests, run, warmup_s)
  loaded <- nrow(requests)
  rm(requests)   # emptied: its measured rows moved to timing$measured
  release_memory(loaded)
  progress("timeline done (", timing$window$warmup_rule, "); ", fmt_int(nrow(timing$measured)), " requests in the measured window")
  stats <- request_statistics(timing$measured, run, timing)
  timing$measured <- NULL
  release_memory(loaded)
  progress("statistics done")
  setting <- run_setting(run, timing, stats)
  checks <- rbind(run_checks(run, timing, stats, setting, hlog), check_faults(faults$effects, run$manifest))
  judged <- judge_run(run, timing, stats, setting, checks, faults)
  run_analysis(run, timing, stats, setting, judged, hlog, faults)
}

# Faults step: the run's fault schedule (faults.csv) against every request, before the warm-up cut
# (a fault is often early); NULL without one.
run_faults <- function(run, requests) {
  f <- read_faults(run$run_dir)
  if (is.null(f)) return(NULL)
  run_start_ms <- min(requests$start_ms)
  list(effects = fault_effects(f, requests$start_ms + requests$time_ms, requests$errors > 0, requests$time_ms, run_start_ms,
                               deadline_of(run$manifest)),
       pauses = pause_spans(f, run_start_ms), schedule = as.character(run$manifest$faults$schedule %if_absent% NA_character_),
       deadline_ms = deadline_of(run$manifest))
}

# A run without data logs but with the workers' interval logs (hbaseload.datalog=off).
is_hlog_only <- function(run) nrow(run$requests) == 0 && !is.null(read_hlog_input(run$run_dir))

skipped_reason_text <- function(skipped, files) {
  notes <- files[nzchar(note), unique(note)]
  reasons <- if (nrow(skipped) > 0) skipped[, .(lines = sum(lines)), by = reason][, sprintf("%s lines: %s", fmt_int(lines), reason)] else character()
  paste(c(reasons, notes), collapse = "; ")
}

# Window step: the per-second series, the warm-up cut and the measured window, the run's fixed
# work and trend, the threads' spans and blackout seconds. The measured requests move out of
# `requests` (left empty) into $measured.
measured_window <- function(requests, run, warmup_s) {
  end_ms <- requests$start_ms + requests$time_ms
  run_start_ms <- min(requests$start_ms)
  timeline <- per_second_timeline(requests, run_start_ms)
  use_witness <- all(run$files[requests > 0, has_witness])   # `requests`: the files' column
  levels <- per_second_levels(timeline, run_start_ms, max(end_ms), use_witness)
  window <- measurement_window(requests$start_ms, end_ms, cut = warmup_cut(levels, max(end_ms) - run_start_ms, warmup_s))
  work <- fixed_work(run$manifest, requests$start_ms, end_ms, if ("rows" %in% names(requests)) requests$rows)
  rm(end_ms)
  trend <- steady_trend(levels, window$warmup_ms)
  trend$time_to_steady_s <- time_to_steady(levels)
  spans <- thread_spans(requests)
  seconds <- blackout_seconds(timeline, spans, window)
  measured <- take_rows(requests, window$measured)
  window$measured <- NULL
  list(timeline = timeline, levels = levels, window = window, work = work, trend = trend, spans = spans,
       seconds = seconds, measured = measured)
}

# Statistics step, over the measured requests: latency counts (Grinder's, the witness's, the
# intended ones of a paced run), each thread's cycles, the coordinated-omission estimate of a
# closed loop, the summary table and the Grinder-witness tiles.
request_statistics <- function(measured, run, timing) {
  manifest <- run$manifest
  has_lag <- any(run$files$has_lag)
  if (has_lag) measured[, intended_us := intended_latency_us(lag_us, time_ms)]
  counts <- list(grinder = latency_counts(measured, "time_ms"),
                 witness = latency_counts(measured, "witness_us"),
                 intended = if (has_lag) latency_counts(measured, "intended_us") else NULL)
  manifest_threads <- suppressWarnings(as.integer(manifest$threads_total %if_absent% NA))
  threads <- manifest_threads %if_absent% nrow(timing$spans)
  cycles <- thread_cycles(measured)
  pacing <- isTRUE(manifest$pacing) || has_lag
  # Paced runs measure from the intended start; only a closed loop needs the estimate.
  co <- if (!pacing) coordinated_omission(measured, cycles, counts) else NULL
  summary <- summary_table(counts, errors_by_test(measured), overhead_by_test(measured), threads,
                           timing$window$window_s, manifest$tests, co = co$table)
  summary <- add_rows_per_scan(summary, measured)
  list(has_lag = has_lag, counts = counts, manifest_threads = manifest_threads, threads = threads, cycles = cycles,
       pacing = pacing, co = co, summary = summary, tiles = grinder_witness_tiles(measured, summary))
}

# Where the run ran: its hosts, the CPU accounting, whether HBase shared the injector's machine.
run_setting <- function(run, timing, stats) {
  hosts <- host_spans(timing$spans, run$files)
  display <- display_metric(stats$summary)
  cpu <- read_cpu(run$run_dir)
  cpu_f <- cpu_facts(cpu, timing$window, run$manifest, timing$window$measured_requests)
  isolated <- if (isTRUE(cpu_f$isolated)) cpu_f$lab_note else NULL
  shared <- shared_machine(run$manifest) && is.null(isolated)   # an isolated lab shares nothing with HBase
  list(hosts = hosts, display = display, cpu = cpu, cpu_f = cpu_f, isolated = isolated, shared = shared)
}

# Checks step: one row per check of the client side and of the run's data (checks.R).
run_checks <- function(run, timing, stats, setting, hlog) {
  window <- timing$window
  summary <- stats$summary
  rbind(
    check_warmup(window),
    check_steady_state(timing$trend),
    check_window(window),
    check_errors(summary),
    check_littles_law(summary[test == "total"], stats$pacing, stats$cycles),
    check_overhead(summary),
    check_offtimer_gap(stats$cycles, stats$pacing),
    check_client_cost(stats$cycles, summary, stats$pacing),
    check_injector_cpu(run$metrics, window, setting$shared, setting$isolated),
    check_shared_cpu(run$metrics, window, setting$shared, setting$isolated),
    check_steal(run$metrics, window),
    check_worker_gc(run$gc, window, nrow(run$files)),
    check_pacing(summary, stats$has_lag, run$manifest$pacing),
    check_clock_offsets(setting$hosts, run$manifest),
    check_blackouts(timing$seconds),
    check_resolution(summary),
    check_threads(nrow(timing$spans), stats$manifest_threads),
    check_witness(run$files),
    check_skipped(run$skipped, run$files),
    check_manifest(run$manifest),
    hlog$check
  )
}

# Verdict step: the server side's checks (HBase's own metrics, the CPU accounting) join the
# client's, and the facts the verdict weighs with them.
judge_run <- function(run, timing, stats, setting, checks, faults = NULL) {
  server_metrics <- read_server_metrics(run$run_dir)
  server <- server_finding(server_metrics, timing$window)
  audit <- read_audit(run$run_dir)
  checks <- rbind(checks, check_server_metrics(server), check_cpu(setting$cpu_f), check_audit(audit))
  summary <- stats$summary
  facts <- list(audit = audit, client = client_cost(stats$cycles, summary), trend = timing$trend, window = timing$window,
                shared = setting$shared, cpu_pct = checks[check == "injector CPU", value], pacing = stats$pacing,
                server = server, cpu = setting$cpu_f, throughput_rps = summary[test == "total", throughput_rps],
                faults = faults$effects, faults_schedule = faults$schedule,
                target = as.character(run$manifest$target %if_absent% NA_character_),
                trend_cpu = cpu_thirds(setting$cpu, timing$trend, timing$window$run_start_ms, timing$levels, run$manifest))
  list(server_metrics = server_metrics, checks = checks, facts = facts, verdict = run_verdict(checks, facts))
}

# The analysis the reports read: what each step found, and the series the plots draw.
run_analysis <- function(run, timing, stats, setting, judged, hlog, faults = NULL) {
  manifest <- run$manifest
  workload <- workload_of(manifest, stats$threads)
  display <- setting$display
  list(
    run_id = run$run_id, run_dir = run$run_dir,
    target = as.character(manifest$target %if_absent% NA_character_),
    sweep_id = as.character(manifest$sweep_id %if_absent% NA_character_),
    manifest = manifest, files = run$files, skipped = run$skipped, metrics = run$metrics, gc = run$gc,
    server_metrics = judged$server_metrics, cpu = setting$cpu,
    console_stats = run$console_stats, window = timing$window, summary = stats$summary, display = display,
    levels = timing$levels, trend = timing$trend,
    timeline = timeline_series(timing$timeline, display, nrow(timing$seconds)), seconds = timing$seconds,
    blackouts = blackout_intervals(timing$seconds), cycles = stats$cycles, hosts = setting$hosts, tiles = stats$tiles,
    histograms = histograms(display_counts(stats$counts, display), display),
    curves = percentile_curves(stats$counts, stats$summary), checks = judged$checks, has_lag = stats$has_lag,
    pacing = stats$pacing, co = stats$co[c("threads", "from_median", "median_interval_us")], shared = setting$shared,
    facts = judged$facts, verdict = judged$verdict, workload = workload,
    label = run_labels(run$run_id, workload), hlog = hlog, work = timing$work, faults = faults
  )
}
