# pipeline.R - the two reports end to end: one run, or a comparison of runs / a sweep.

# a, or b when a is absent: NULL, empty or all NA. (Not base R's %||% of R 4.4, which takes only
# NULL as absent: the name says it is another operator.)
`%if_absent%` <- function(a, b) if (is.null(a) || length(a) == 0 || all(is.na(a))) b else a

# summary.csv: contract columns first, numbers rounded to what they can mean.
write_summary_csv <- function(summary, path) {
  out <- data.table::copy(summary)
  ms_cols <- grep("_ms$", names(out), value = TRUE)
  out[, (ms_cols) := lapply(.SD, round, 4), .SDcols = ms_cols]
  num_cols <- intersect(c("throughput_rps", "overhead_us", "overhead_ci95_us", "error_rate", "window_s",
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
  plots$timeline <- save_png(plot_timeline(a$timeline, a$seconds, a$window, a$faults), path("timeline"), 7.5)
  if (!is.null(a$tiles) && nrow(a$tiles) > 0) {
    n_tiles <- data.table::uniqueN(a$tiles$label)
    plots$overhead <- save_png(plot_overhead(a$tiles), path("overhead"), facet_height(n_tiles))
  }
  if (!is.null(a$cpu) && !is.null(a$facts$cpu)) plots$cpu <- save_png(plot_cpu(a$cpu, a$window, a$facts$cpu), path("cpu"), 6)
  if (!is.null(a$metrics)) {
    plots$host_metrics <- save_png(plot_host_metrics(a$metrics, a$seconds, a$window, isTRUE(a$shared), gc_per_second(a$gc, a$window)), path("host-metrics"), 13)
  }
  if (!is.null(a$server_metrics$rows) && nrow(a$server_metrics$rows[status == "ok"]) > 0) {
    plots$server_metrics <- save_png(plot_server_metrics(a$server_metrics, a$seconds, a$window, a$facts$server), path("server-metrics"), 15)
  }
  plots
}

# One run's report: summary.csv, the plots, index.html and report.json. gates: parse_slo() or NULL.
# Returns list(written = paths, exit_status = 0 or GATE_FAILED_STATUS).
write_run_report <- function(a, out_dir, gates = NULL, slo = NA_character_) {
  if (isTRUE(a$hlog_only)) return(write_hlog_only_report(a$run_dir, a$run_id, a$manifest, out_dir))
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(out_dir)) stop_report("cannot create ", out_dir)
  gate_results <- evaluate_gates(gates, a$summary)
  exit_status <- gates_exit_status(if (is.null(gate_results)) list() else list(gate_results), "run")
  write_summary_csv(a$summary, file.path(out_dir, "summary.csv"))
  progress("drawing plots")
  plots <- write_run_plots(a, out_dir)
  progress("writing index.html and report.json")
  writeLines(render_run_report(a, plots, gate_results), file.path(out_dir, "index.html"), useBytes = TRUE)
  finding <- run_finding(a)
  doc <- report_json_document("run", a$run_id, a$verdict, list(run_json(a, gate_results)), slo, gates, exit_status)
  doc$finding <- finding
  write_report_json(doc, file.path(out_dir, "report.json"))
  list(written = file.path(out_dir, c("index.html", "summary.csv", "report.json")), exit_status = exit_status,
       said = c(paste("finding:", finding), paste("verdict:", a$verdict$sentence), gates_said(gate_results)),
       table = text_table(run_table_rows(a)))
}

# What report.R says on stdout after the paths: the gates of a run, or a comparison's capacity.
gates_said <- function(gate_results) {
  if (is.null(gate_results) || nrow(gate_results) == 0) return(character())
  failed <- gate_results[status != "pass"]
  if (nrow(failed) == 0) return(sprintf("gates: all %d hold", nrow(gate_results)))
  sprintf("gates: %d of %d fail: %s", nrow(failed), nrow(gate_results),
          paste(sprintf("%s (%s)", failed$term, ifelse(is.na(failed$value), "no data", format(signif(failed$value, 4)))), collapse = "; "))
}

capacity_said <- function(cap) {
  if (is.null(cap)) return(character())
  if (is.na(cap$throughput_rps)) return(sprintf("capacity: none of the %d runs meets every gate", cap$runs))
  sprintf("capacity: %s req/s%s, %s (verdict: %s)", fmt_num(cap$throughput_rps, 0),
          if (isTRUE(cap$lower_bound)) " at least" else "", cap$label, cap$verdict)
}

# Everything a comparison shows, computed once: runs and their baselines, deltas, repeats,
# contrasts, scaling, gates and capacity, verdict.
compare_runs <- function(analyses, sweep_id = NA_character_, skipped_runs = NULL, gates = NULL, slo = NA_character_,
                         baseline = NA_character_) {
  runs <- comparison_runs(analyses)
  baselines <- like_baselines(runs, baseline)
  stacked <- stack_summaries(analyses, runs)
  gstats <- group_stats(stacked, runs)
  gate_results <- if (is.null(gates)) list() else stats::setNames(lapply(analyses, function(a) evaluate_gates(gates, a$summary)), runs$run)
  contrasts <- group_contrasts(gstats, runs)
  list(analyses = analyses, runs = runs, baselines = baselines, stacked = stacked,
       compared = add_deltas(stacked, baselines), gstats = gstats, contrasts = contrasts,
       scaling = scaling_table(gstats), gate_results = gate_results,
       capacity = if (is.null(gates)) NULL else capacity(runs, stacked, gate_results),
       models = capacity_models(runs, stacked, gates, gate_results),
       verdict = compare_verdict(runs, baselines, analyses, contrasts, gstats), sweep_id = sweep_id, slo = slo,
       skipped_runs = if (is.null(skipped_runs)) data.table::data.table(run = character(), reason = character()) else skipped_runs,
       exit_status = gates_exit_status(gate_results, "compare"))
}

write_compare_plots <- function(cmp, out_dir) {
  display <- comparison_display(cmp$stacked)
  curves <- comparison_curves(cmp$analyses, display, cmp$runs)
  n_tests <- data.table::uniqueN(display$test[display$test != "total"])
  plots <- list()
  plots$percentiles <- save_png(plot_percentiles(curves, colour_by = "label", title = "Latency by percentile, all runs"),
                                file.path(out_dir, "percentiles-compare.png"), facet_height(n_tests) + 0.25 * nrow(cmp$runs))
  if (nrow(cmp$scaling) > 0) {
    plots$scaling_throughput <- save_png(plot_scaling_throughput(cmp$scaling), file.path(out_dir, "scaling-throughput.png"), 5)
    plots$scaling_latency <- save_png(plot_scaling_latency(cmp$scaling), file.path(out_dir, "scaling-latency.png"),
                                      facet_height(data.table::uniqueN(cmp$scaling$test)) + 0.25 * data.table::uniqueN(cmp$scaling$scaling_label))
  }
  plots$usl <- write_usl_plots(cmp$models$threads, cmp$models$thread_points, "threads", out_dir)
  plots$usl_servers <- write_usl_plots(cmp$models$servers, cmp$models$server_points, "region_servers", out_dir)
  pairs <- if (is.null(cmp$contrasts)) NULL else cmp$contrasts[dimension == "target"]
  if (!is.null(pairs) && nrow(pairs) > 0) {
    paired_runs <- cmp$runs[group %in% c(pairs$group_num, pairs$group_den), run]
    dt_curves <- curves[run %in% paired_runs]
    plots$direct_thrift <- save_png(plot_percentiles(dt_curves, colour_by = "label", title = "Direct against thrift"),
                                    file.path(out_dir, "direct-vs-thrift.png"), facet_height(n_tests) + 0.25 * length(paired_runs))
  }
  plots
}

# One chart per model (workload and target): usl-threads-1.png ... or usl-region-servers-1.png.
write_usl_plots <- function(models, points, over, out_dir) {
  if (is.null(models) || nrow(models) == 0) return(list())
  lapply(seq_len(nrow(models)), function(k) {
    m <- models[k]
    save_png(plot_usl(m, points[model_key == m$model_key], over), file.path(out_dir, sprintf("usl-%s-%d.png", gsub("_", "-", over), k)), 4.2)
  })
}

write_compare_report <- function(analyses, out_dir, sweep_id = NA_character_,
                                 skipped_runs = data.table::data.table(run = character(), reason = character()),
                                 gates = NULL, slo = NA_character_, baseline = NA_character_, study = NULL) {
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(out_dir)) stop_report("cannot create ", out_dir)
  cmp <- compare_runs(analyses, sweep_id, skipped_runs, gates, slo, baseline)
  cmp$study <- study   # study.R: a published study's table, when the sweep is one
  compared <- cmp$compared
  write_summary_csv(compared[, c(SUMMARY_COLUMNS, setdiff(names(compared), SUMMARY_COLUMNS)), with = FALSE],
                    file.path(out_dir, "summary.csv"))
  progress("drawing comparison plots")
  cmp$plots <- write_compare_plots(cmp, out_dir)
  writeLines(render_compare_report(cmp), file.path(out_dir, "index.html"), useBytes = TRUE)
  doc <- report_json_document(if (is.na(sweep_id)) "comparison" else "sweep",
                              if (is.na(sweep_id)) paste0("compare-", paste(cmp$runs$run, collapse = "-")) else sweep_id, cmp$verdict,
                              lapply(analyses, function(a) run_json(a, cmp$gate_results[[a$run_id]])),
                              slo, gates, cmp$exit_status, capacity_json(cmp$capacity), comparison_json(cmp))
  doc$study <- study_json(study)
  finding <- compare_finding(cmp)
  doc$finding <- finding
  doc$thrift_cost <- if (is.null(thrift_cost(cmp))) NULL else json_rows(thrift_cost(cmp))
  write_report_json(doc, file.path(out_dir, "report.json"))
  list(written = file.path(out_dir, c("index.html", "summary.csv", "report.json")), exit_status = cmp$exit_status,
       said = c(paste("finding:", finding), paste("verdict:", cmp$verdict$sentence), capacity_said(cmp$capacity), usl_said(cmp$models)),
       table = text_table(compared))
}

# One run of a comparison, analysed and made compact; a report_error (returned, not signalled) when
# it cannot stand in the comparison.
comparison_analysis <- function(target, warmup_s) {
  progress("run ", target$id)
  analysed <- if (target$kind == "missing") report_error(target$reason) else
    tryCatch(analyse_run(target, warmup_s), report_error = function(e) e)
  if (isTRUE(analysed$hlog_only)) analysed <- report_error("it wrote no data logs (hbaseload.datalog=off); comparisons need them")
  if (inherits(analysed, "report_error")) analysed else slim_analysis(analysed)
}

# The runs of a comparison through ANALYSE, in their order: side by side in forked processes (one per
# core, at most getOption("hbasegrinder.jobs")) when every run is small enough for two to be held at
# once, else one after another, each one's memory given back before the next. A process that fails
# outright is a report_error of its run.
PARALLEL_RUN_REQUESTS_MAX <- 2e6
map_runs <- function(targets, analyse) {
  jobs <- report_jobs(targets)
  if (jobs > 1) {
    # a failed process is said below, as its run's reason: mclapply's own warning would only repeat it
    results <- withCallingHandlers(parallel::mclapply(targets, analyse, mc.cores = jobs, mc.preschedule = FALSE),
      warning = function(w) if (grepl("resulted in an error|encountered errors", conditionMessage(w))) invokeRestart("muffleWarning"))
    return(lapply(seq_along(results), function(k) {
      if (inherits(results[[k]], "try-error") || is.null(results[[k]])) {
        report_error("its analysis failed in a forked process: ", one_line(as.character(results[[k]])))
      } else {
        results[[k]]
      }
    }))
  }
  lapply(targets, function(target) {
    analysed <- analyse(target)
    release_memory(target_requests(target))
    analysed
  })
}

# How many processes analyse a comparison's runs: 1 on Windows, for one run, or when a run is large.
report_jobs <- function(targets) {
  jobs <- min(length(targets), getOption("hbasegrinder.jobs", parallel::detectCores()))
  if (is.na(jobs) || jobs < 2 || .Platform$OS.type != "unix") return(1L)
  if (any(vapply(targets, target_requests, 0) > PARALLEL_RUN_REQUESTS_MAX)) return(1L)
  as.integer(jobs)
}

# The requests a run's manifest says its data logs hold (0 when unknown).
target_requests <- function(target) {
  manifest <- if (is.na(target$dir %if_absent% NA)) NULL else file.path(target$dir, "manifest.json")
  if (is.null(manifest) || !file.exists(manifest)) return(0)
  n <- tryCatch(jsonlite::read_json(manifest)$datalog_requests, error = function(e) NULL)
  if (is.null(n) || !is.numeric(n)) 0 else as.numeric(n)
}

# Compact analysis for comparisons: what the comparison report reads, nothing heavy.
slim_analysis <- function(a) a[c("run_id", "run_dir", "target", "sweep_id", "manifest", "window", "summary", "curves",
                                  "checks", "files", "skipped", "seconds", "trend", "facts", "verdict", "workload", "label",
                                  "pacing", "work")]

usage_help <- function() {
  paste0(usage_line(), "\n",
         "  RUN      a run id under <repo>/runs (or $SUITE_RUNS_DIR), or a path to a run folder\n",
         "  SWEEP    a sweep id/folder holding sweep.json: comparison of its runs\n",
         "  --warmup SECONDS  warm-up cut from the first request (default: detected from the per-second\n",
         "                    throughput and latency; the first 10% of a run too short to tell)\n",
         "  --slo GATES       service-level gates, e.g. 'p99_ms<50,error_rate<0.001,get.witness_p99_ms<=5':\n",
         "                    [TEST.]METRIC OP NUMBER, METRIC a numeric summary.csv column, OP < <= > >=,\n",
         "                    TEST a test name (default total). Exit 99 when a run fails a gate (a comparison\n",
         "                    or sweep: when no run meets every gate); comparisons name the capacity\n",
         "  --baseline RUN    comparisons: the run others are set against when alike (default: the first)\n",
         "  --out DIR         write the report there instead of <run>/report\n",
         "  --quiet           no progress on stderr\n",
         "  --check           only check the options (e.g. an --slo expression) and exit, reading no run\n",
         "  --table           also print one line per run and test on stdout (throughput in brackets when\n",
         "                    the run's verdict greys it)\n",
         "  --no-plots        no charts: report.json, summary.csv and an index.html that says they were not\n",
         "                    drawn, in a fraction of the time (the charts are most of a small run's report)\n",
         "Exit status: 0 report written (and every gate holds); 99 report written, a gate failed;\n",
         "1 with one line 'report.R: <reason>' on stderr: nothing valid to report, or a bad option.\n")
}

# Returns the exit status: 0, or GATE_FAILED_STATUS when the report was written and a gate failed.
# repo_root: where runs/ and scenarios/ are (the folder above r-analysis/).
main <- function(args, repo_root = ".") {
  opts <- parse_cli(args)
  if (opts$help) {
    cat(usage_help())
    return(0L)
  }
  if (opts$check) return(0L)   # the options parsed: ./suite run checks --slo before it starts anything
  set_progress(opts$quiet)
  if (!opts$plots) {
    old <- options(hbasegrinder.plots = FALSE)
    on.exit(options(old), add = TRUE)
  }
  root <- normalizePath(repo_root, mustWork = FALSE)
  plan <- plan_report(opts$targets, runs_dir_for(root), opts$out_dir)
  if (plan$mode == "run") {
    if (!is.na(opts$baseline)) stop_report("--baseline is for comparisons: give two or more runs or a sweep")
    analysis <- analyse_run(plan$runs[[1]], opts$warmup_s)
    result <- write_run_report(analysis, plan$out_dir, opts$gates, opts$slo)
  } else {
    analyses <- list()
    skipped_runs <- data.table::data.table(run = character(), reason = character())
    results <- map_runs(plan$runs, function(target) comparison_analysis(target, opts$warmup_s))
    for (k in seq_along(results)) {
      analysed <- results[[k]]
      if (inherits(analysed, "report_error")) {
        message("report.R: skipping ", plan$runs[[k]]$id, ": ", one_line(conditionMessage(analysed)))
        skipped_runs <- rbind(skipped_runs, data.table::data.table(run = plan$runs[[k]]$id, reason = conditionMessage(analysed)))
      } else {
        analyses[[length(analyses) + 1]] <- analysed
      }
    }
    if (length(analyses) == 0) stop_report("no run in the comparison has valid requests (", nrow(skipped_runs), " skipped)")
    result <- write_compare_report(analyses, plan$out_dir, plan$sweep_id, skipped_runs, opts$gates, opts$slo, opts$baseline,
                                   study = study_section(plan$sweep_dir, analyses, root))
  }
  progress("done")
  cat(sprintf("report.R: wrote %s\n", result$written), sep = "")
  cat(sprintf("report.R: %s\n", result$said), sep = "")
  if (opts$table) cat(paste0("  ", result$table, "\n"), sep = "")
  if (result$exit_status != 0L) message("report.R: an SLO gate failed (", opts$slo, "); exit status ", result$exit_status)
  result$exit_status
}
