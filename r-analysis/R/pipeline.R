# pipeline.R - the two reports end to end: one run, or a comparison of runs / a sweep.

`%||%` <- function(a, b) if (is.null(a) || length(a) == 0 || all(is.na(a))) b else a

skipped_reason_text <- function(skipped, files) {
  notes <- files[nzchar(note), unique(note)]
  reasons <- if (nrow(skipped) > 0) skipped[, .(lines = sum(lines)), by = reason][, sprintf("%s lines: %s", fmt_int(lines), reason)] else character()
  paste(c(reasons, notes), collapse = "; ")
}

# Load and summarise one run. Returns only aggregated tables: requests are dropped here.
analyse_run <- function(target, warmup_s = NA_real_) {
  run <- load_run(target$dir, target$id)
  if (nrow(run$requests) == 0) {
    stop_report("no valid requests in ", run$run_dir, " (", skipped_reason_text(run$skipped, run$files), ")")
  }
  manifest <- run$manifest
  requests <- run$requests
  run$requests <- NULL
  progress("summarising ", fmt_int(nrow(requests)), " requests")
  window <- measurement_window(requests$start_ms, requests$start_ms + requests$time_ms, warmup_s)
  spans <- thread_spans(requests)
  timeline <- per_second_timeline(requests, window$run_start_ms)
  seconds <- blackout_seconds(timeline, spans, window)
  measured <- requests[window$measured]
  window$measured <- NULL
  rm(requests)
  invisible(gc())
  progress("timeline done; ", fmt_int(nrow(measured)), " requests in the measured window")

  has_lag <- any(run$files$has_lag)
  if (has_lag) measured[, intended_us := lag_us + time_ms * 1000]
  counts <- list(grinder = latency_counts(measured, "time_ms"),
                 witness = latency_counts(measured, "witness_us"),
                 intended = if (has_lag) latency_counts(measured, "intended_us") else NULL)
  manifest_threads <- suppressWarnings(as.integer(manifest$threads_total %||% NA))
  threads <- manifest_threads %||% nrow(spans)
  summary <- summary_table(counts, errors_by_test(measured), overhead_by_test(measured), threads,
                           window$window_s, manifest$tests)
  cycles <- thread_cycles(measured)
  tiles <- grinder_witness_tiles(measured, summary)
  rm(measured)
  invisible(gc())
  progress("statistics done")

  hosts <- host_spans(spans, run$files)
  display <- display_metric(summary)
  pacing <- isTRUE(manifest$pacing) || has_lag
  checks <- rbind(
    check_warmup(window),
    check_littles_law(summary[test == "total"], pacing, cycles),
    check_overhead(summary),
    check_offtimer_gap(cycles, pacing),
    check_injector_cpu(run$metrics, window),
    check_pacing(summary, has_lag, manifest$pacing),
    check_clock_offsets(hosts, manifest),
    check_blackouts(seconds),
    check_resolution(summary),
    check_threads(nrow(spans), manifest_threads),
    check_witness(run$files),
    check_skipped(run$skipped, run$files),
    check_manifest(manifest)
  )
  list(
    run_id = run$run_id, run_dir = run$run_dir,
    target = as.character(manifest$target %||% NA_character_),
    sweep_id = as.character(manifest$sweep_id %||% NA_character_),
    manifest = manifest, files = run$files, skipped = run$skipped, metrics = run$metrics,
    console_stats = run$console_stats, window = window, summary = summary, display = display,
    timeline = timeline_series(timeline, display, nrow(seconds)), seconds = seconds,
    blackouts = blackout_intervals(seconds), cycles = cycles, hosts = hosts, tiles = tiles,
    histograms = histograms(display_counts(counts, display), display),
    curves = percentile_curves(counts, summary), checks = checks, has_lag = has_lag
  )
}

# summary.csv: contract columns first, numbers rounded to what they can mean.
write_summary_csv <- function(summary, path) {
  out <- data.table::copy(summary)
  ms_cols <- grep("_ms$", names(out), value = TRUE)
  out[, (ms_cols) := lapply(.SD, round, 4), .SDcols = ms_cols]
  num_cols <- intersect(c("throughput_rps", "overhead_us", "error_rate", "window_s",
                          grep("^(delta|ratio)_", names(out), value = TRUE)), names(out))
  out[, (num_cols) := lapply(.SD, round, 6), .SDcols = num_cols]
  data.table::fwrite(out, path)
  invisible(path)
}

# Plots of one run -> named list of PNG paths (NULL for plots without data).
write_run_plots <- function(a, out_dir) {
  n_tests <- data.table::uniqueN(a$display[!is.na(test_number), test])
  path <- function(name) file.path(out_dir, paste0(name, ".png"))
  plots <- list()
  plots$histogram_full <- save_png(plot_histogram_full(a$histograms), path("histogram-full"), facet_height(n_tests))
  n_zoom <- data.table::uniqueN(a$histograms[range != "full", .(test, range)])
  plots$histogram_zoom <- save_png(plot_histogram_zoom(a$histograms), path("histogram-zoom"), facet_height(n_zoom))
  plots$percentiles <- save_png(plot_percentiles(a$curves), path("percentiles"), facet_height(n_tests))
  plots$timeline <- save_png(plot_timeline(a$timeline, a$seconds, a$window), path("timeline"), 7.5)
  if (!is.null(a$tiles) && nrow(a$tiles) > 0) {
    n_tiles <- data.table::uniqueN(a$tiles$label)
    plots$overhead <- save_png(plot_overhead(a$tiles), path("overhead"), facet_height(n_tiles))
  }
  if (!is.null(a$metrics)) {
    plots$host_metrics <- save_png(plot_host_metrics(a$metrics, a$seconds, a$window), path("host-metrics"), 10)
  }
  plots
}

write_run_report <- function(a, out_dir) {
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(out_dir)) stop_report("cannot create ", out_dir)
  write_summary_csv(a$summary, file.path(out_dir, "summary.csv"))
  progress("drawing plots")
  plots <- write_run_plots(a, out_dir)
  progress("writing index.html")
  html <- render_run_report(a, plots)
  writeLines(html, file.path(out_dir, "index.html"), useBytes = TRUE)
  file.path(out_dir, c("index.html", "summary.csv"))
}

write_compare_report <- function(analyses, out_dir, sweep_id = NA_character_,
                                 skipped_runs = data.table::data.table(run = character(), reason = character())) {
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(out_dir)) stop_report("cannot create ", out_dir)
  stacked <- stack_summaries(analyses)
  compared <- add_deltas(stacked)
  display <- comparison_display(stacked)
  curves <- comparison_curves(analyses, display)
  scaling <- scaling_table(stacked)
  pairs <- direct_vs_thrift(stacked)
  write_summary_csv(compared[, c(SUMMARY_COLUMNS, setdiff(names(compared), SUMMARY_COLUMNS)), with = FALSE],
                    file.path(out_dir, "summary.csv"))
  progress("drawing comparison plots")
  n_tests <- data.table::uniqueN(display$test[display$test != "total"])
  plots <- list()
  plots$percentiles <- save_png(plot_percentiles(curves, colour_by = "run", title = "Latency by percentile, all runs"),
                                file.path(out_dir, "percentiles-compare.png"), facet_height(n_tests))
  show_scaling <- !is.na(sweep_id) || data.table::uniqueN(stacked$threads) >= 3
  if (show_scaling) {
    plots$scaling_throughput <- save_png(plot_scaling_throughput(scaling), file.path(out_dir, "scaling-throughput.png"), 5)
    plots$scaling_latency <- save_png(plot_scaling_latency(scaling), file.path(out_dir, "scaling-latency.png"),
                                      facet_height(data.table::uniqueN(scaling$test)))
  }
  if (!is.null(pairs)) {
    dt_curves <- curves[run %in% c(pairs$run_direct, pairs$run_thrift)]
    plots$direct_thrift <- save_png(plot_percentiles(dt_curves, colour_by = "target", title = "Direct against thrift"),
                                    file.path(out_dir, "direct-vs-thrift.png"), facet_height(n_tests))
  }
  html <- render_compare_report(analyses, compared, scaling, pairs, plots, sweep_id, show_scaling, skipped_runs)
  writeLines(html, file.path(out_dir, "index.html"), useBytes = TRUE)
  file.path(out_dir, c("index.html", "summary.csv"))
}

# Compact analysis for comparisons: what the comparison report reads, nothing heavy.
slim_analysis <- function(a) a[c("run_id", "run_dir", "target", "sweep_id", "manifest", "window", "summary", "curves",
                                  "checks", "files", "skipped", "seconds")]

main <- function(args) {
  opts <- parse_cli(args)
  if (opts$help) {
    cat(usage_line(), "\n",
        "  RUN      a run id under <repo>/runs (or $SUITE_RUNS_DIR), or a path to a run folder\n",
        "  SWEEP    a sweep id/folder holding sweep.json: comparison of its runs\n",
        "  --warmup SECONDS  warm-up cut from the first request (default: first 10% of the run)\n",
        "  --out DIR         write the report there instead of <run>/report\n",
        "  --quiet           no progress on stderr\n", sep = "")
    return(invisible(0L))
  }
  set_progress(opts$quiet)
  root <- repo_root_from_script(get0("REPORT_SCRIPT_DIR", ifnotfound = "."))
  plan <- plan_report(opts$targets, runs_dir_for(root), opts$out_dir)
  if (plan$mode == "run") {
    analysis <- analyse_run(plan$runs[[1]], opts$warmup_s)
    written <- write_run_report(analysis, plan$out_dir)
  } else {
    analyses <- list()
    skipped_runs <- data.table::data.table(run = character(), reason = character())
    for (target in plan$runs) {
      progress("run ", target$id)
      analysed <- if (target$kind == "missing") report_error(target$reason) else
        tryCatch(analyse_run(target, opts$warmup_s), report_error = function(e) e)
      if (inherits(analysed, "report_error")) {
        message("report.R: skipping ", target$id, ": ", one_line(conditionMessage(analysed)))
        skipped_runs <- rbind(skipped_runs, data.table::data.table(run = target$id, reason = conditionMessage(analysed)))
      } else {
        analyses[[length(analyses) + 1]] <- slim_analysis(analysed)
      }
      analysed <- NULL
      invisible(gc())
    }
    if (length(analyses) == 0) stop_report("no run in the comparison has valid requests (", nrow(skipped_runs), " skipped)")
    written <- write_compare_report(analyses, plan$out_dir, plan$sweep_id, skipped_runs)
  }
  progress("done")
  cat(sprintf("report.R: wrote %s\n", written), sep = "")
  invisible(0L)
}
