# render-compare.R - the page of a comparison of runs or of a sweep's runs: compare-.../report/
# or <sweep>/report/index.html. A sweep's own sections (capacity, scaling) are in render-sweep.R.

render_compare_report <- function(cmp) {
  analyses <- cmp$analyses
  runs <- cmp$runs
  title <- if (!is.na(cmp$sweep_id)) paste("Sweep", cmp$sweep_id) else paste("Comparison", paste(runs$run, collapse = " / "))
  html_page(title, html_lines(
    tags$h1(title),
    finding_html(compare_finding(cmp), cmp$verdict),
    plots_note(),
    if (!is.null(thrift_cost(cmp))) tagList(tags$h2("What the thrift layer costs"), thrift_cost_table(thrift_cost(cmp)),
      html_p(paste("Per workload run both ways: throughput thrift / direct as the ratio of the medians, with the range its repeats allow",
                   "(lowest thrift / highest direct to highest / lowest); witness p50 and p99 added by thrift (medians; a closed",
                   "loop measures each side at its own throughput, so not at equal load); CPU per",
                   "request of the server side (HBase, gateway, shim) and of the client side, from each run's cpu.csv. Each side's",
                   "figures come from its runs that stand; a run that does not is left out when a repeat beside it stands",
                   "(\"1 of 2\"). Greyed: a workload with no standing run on one side; its figures are as measured."), class = "meta")),
    warmups_html(sweep_warmups(analyses, cmp$sweep_id)),
    capacity_box(cmp$capacity, cmp$slo),
    study_html(cmp$study),
    compare_runs_table(analyses, runs),
    if (nrow(cmp$skipped_runs) > 0) html_p(paste0("Skipped: ", paste(sprintf("%s (%s)", cmp$skipped_runs$run, cmp$skipped_runs$reason), collapse = "; "), "."), class = "flag"),
    html_p("Latencies: Grinder's whole-ms time; the witness columns are the HBase call at microsecond resolution (service time: closed loop). Runs are named by id, target, operations and threads.", class = "meta"),
    if (length(cmp$gate_results) > 0) tagList(tags$h2("SLO gates"), compare_gates_table(cmp$gate_results, runs)),
    tags$h2("Side by side"),
    compare_side_by_side(cmp$compared, runs),
    if (any(nzchar(runs$disqualifies))) html_p("Greyed rows: runs whose verdict disqualifies their figures (see the Verdict column).", class = "why"),
    tags$h2("Like with like: deltas and ratios"),
    compare_deltas(cmp$compared, runs),
    tags$h3("Repeats of one workload"),
    repeats_section(cmp$gstats),
    if (!is.null(cmp$contrasts) && nrow(cmp$contrasts[dimension != "target"]) > 0)
      tagList(tags$h3("Between workloads one dimension apart"), contrast_table(cmp$contrasts[dimension != "target"], runs)),
    tags$h2("Percentile curves"),
    html_img(cmp$plots$percentiles, "percentile curves of all runs"),
    scaling_html(cmp),
    servers_model_html(cmp),
    tags$h2("Direct against thrift"),
    direct_thrift_section(cmp$contrasts, runs, cmp$plots),
    tags$h2(id = "trust", "Can these numbers be trusted"),
    html_p("Each run's checks; open the run's own report (report.R RUN) for the details."),
    html_table(data.table::rbindlist(lapply(seq_along(analyses), function(k) {
      analyses[[k]]$checks[, .(Run = runs$label[k], Check = check, Status = status, Result = result)]
    })), left = 1:4, nowrap = 1),
    tags$h2("What the numbers mean"),
    definitions(),
    html_p(sprintf("Generated %s by r-analysis/report.R; machine-readable: report.json.", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")), class = "meta")
  ))
}

compare_runs_table <- function(analyses, runs) {
  html_table(data.frame(
    Run = runs$label,
    Verdict = vapply(analyses, function(a) html_verdict(a$verdict), ""),
    `Window (s)` = vapply(analyses, function(a) fmt_num(a$window$window_s, 1), ""),
    `Warm-up cut (s)` = vapply(analyses, function(a) fmt_num(a$window$warmup_ms / 1000, 1), ""),
    `Flagged checks` = vapply(analyses, function(a) paste(a$checks[status == "FLAG", check], collapse = ", "), ""),
    Folder = vapply(analyses, `[[`, "", "run_dir"),
    check.names = FALSE), left = c(1, 2, 5, 6), nowrap = c(1, 6), html_cols = 2)
}

compare_gates_table <- function(gate_results, runs) {
  if (length(gate_results) == 0) return(NULL)
  rows <- data.table::rbindlist(lapply(names(gate_results), function(id) gate_results[[id]][, run := id]))
  classes <- matrix(NA_character_, nrow(rows), 5)
  classes[, 5] <- ifelse(rows$status == "pass", "pass", "fail")
  html_table(data.frame(Run = runs$label[match(rows$run, runs$run)], Gate = rows$term, Test = rows$test,
                        Value = fmt_num(rows$value, 4), Status = rows$status, check.names = FALSE),
             left = 1:3, nowrap = 1, cell_class = classes)
}

# Row classes of a comparison table: the total row bold, a disqualified run's rows greyed.
compare_row_class <- function(rows, runs, category) {
  disq <- rows$run %in% runs[vapply(strsplit(disqualifies, ","), function(d) category %in% d, NA), run]
  ifelse(disq, "disq", total_class(rows))
}

compare_side_by_side <- function(compared, runs) {
  html_table(data.frame(Run = compared$label, Type = compared$test,
                        `Mean (ms)` = fmt_num(compared$mean_ms, 2),
                        `p50 (ms)` = fmt_num(compared$p50_ms, 0), `p90 (ms)` = fmt_num(compared$p90_ms, 0),
                        `p95 (ms)` = fmt_num(compared$p95_ms, 0), `p99 (ms)` = fmt_num(compared$p99_ms, 0),
                        `Witness mean (ms)` = fmt_num(compared$witness_mean_ms, 3),
                        `Witness p50 (ms)` = fmt_num(compared$witness_p50_ms, 3),
                        `Witness p95 (ms)` = fmt_num(compared$witness_p95_ms, 3),
                        `Witness p99 (ms)` = fmt_num(compared$witness_p99_ms, 3),
                        `Throughput (req/s)` = fmt_num(compared$throughput_rps, 1),
                        Requests = fmt_int(compared$count), `Error rate` = fmt_pct(compared$error_rate, 3),
                        Verdict = runs$verdict[match(compared$run, runs$run)],
                        check.names = FALSE), left = c(1, 2, 15), nowrap = 1,
             row_class = compare_row_class(compared, runs, "latency"),
             cell_class = throughput_cell_class(compared, runs, throughput_column = 12, columns = 15))
}

# A run whose verdict greys its throughput only (shared CPU, client-bound) keeps its latencies
# clear: only its throughput cell is greyed.
throughput_cell_class <- function(rows, runs, throughput_column, columns) {
  greyed <- rows$run %in% runs[vapply(strsplit(disqualifies, ","), function(d) "throughput" %in% d, NA), run]
  classes <- matrix(NA_character_, nrow(rows), columns)
  classes[greyed, throughput_column] <- "disq"
  classes
}

compare_deltas <- function(compared, runs) {
  rows <- compared[!is.na(baseline) & run != baseline]
  not_compared <- unique(compared[is.na(baseline), .(run, baseline_relation)])
  ratio <- function(x) ifelse(is.na(x), "", sprintf("x%.3f", x))
  delta <- function(x, d) ifelse(is.na(x), "", sprintf(paste0("%+.", d, "f"), x))
  label_of <- function(id) runs$label[match(id, runs$run)]
  disq_runs <- runs[vapply(strsplit(disqualifies, ","), function(d) "comparison" %in% d, NA), run]
  table <- if (nrow(rows) > 0) {
    tagList(html_p("Each run against its alike baseline (delta = run - baseline, ratio = run / baseline); the relation says how their workloads differ:"),
           html_table(data.frame(Run = rows$label, Baseline = label_of(rows$baseline), Relation = rows$baseline_relation, Type = rows$test,
                                 `delta mean (ms)` = delta(rows$delta_mean_ms, 2), `mean ratio` = ratio(rows$ratio_mean),
                                 `delta p99 (ms)` = delta(rows$delta_p99_ms, 0), `p99 ratio` = ratio(rows$ratio_p99),
                                 `delta witness mean (ms)` = delta(rows$delta_witness_mean_ms, 3), `witness mean ratio` = ratio(rows$ratio_witness_mean),
                                 `witness p99 ratio` = ratio(rows$ratio_witness_p99),
                                 `delta throughput (req/s)` = delta(rows$delta_throughput_rps, 1), `throughput ratio` = ratio(rows$ratio_throughput),
                                 check.names = FALSE), left = 1:4, nowrap = 1,
                      row_class = ifelse(rows$run %in% disq_runs | rows$baseline %in% disq_runs, "disq", total_class(rows))),
           if (any(rows$run %in% disq_runs | rows$baseline %in% disq_runs))
             html_p("Greyed rows involve a run whose verdict disqualifies comparisons.", class = "why"))
  } else html_p("No run has an alike baseline: nothing is set against anything.")
  listed <- if (nrow(not_compared) > 0) {
    html_p(paste0("Not compared (different workload): ",
                  paste(sprintf("%s - %s", label_of(not_compared$run), sub("^not compared: ", "", not_compared$baseline_relation)),
                        collapse = "; "), "."), class = "note")
  }
  tagList(table, listed)
}

# Repeats of one workload: min / median / max per test.
repeats_section <- function(gstats) {
  rows <- gstats[n_runs >= 2]
  if (nrow(rows) == 0) return(html_p("No workload was run more than once: the run-to-run spread is unknown, so no difference below can be weighed against it."))
  range3 <- function(lo, mid, hi, d) sprintf("%s / %s / %s", fmt_num(lo, d), fmt_num(mid, d), fmt_num(hi, d))
  html_table(data.frame(Workload = rows$group_label, Runs = rows$runs, Type = rows$test,
                        `Throughput min / median / max (req/s)` = range3(rows$throughput_min, rows$throughput_median, rows$throughput_max, 0),
                        `Mean min / median / max (ms)` = range3(rows$mean_min, rows$mean_median, rows$mean_max, 3),
                        `p99 min / median / max (ms)` = range3(rows$p99_min, rows$p99_median, rows$p99_max, 3),
                        Latency = rows$metric, check.names = FALSE), left = 1:3, nowrap = 1, row_class = total_class(rows))
}

# A row whose runs' verdicts disqualify comparisons is greyed whole; one whose runs' verdicts
# disqualify only throughput (shared CPU) greys its throughput ratio: what the machine gave each
# setup, not a difference of HBase or Thrift (on one machine the gateway takes CPU from the same cores).
contrast_table <- function(contrasts, runs) {
  groups_where <- function(category) runs[vapply(strsplit(disqualifies, ","), function(d) category %in% d, NA), unique(group)]
  disq_groups <- groups_where("comparison")
  greyed <- contrasts$group_num %in% disq_groups | contrasts$group_den %in% disq_groups
  thr_groups <- groups_where("throughput")
  thr_greyed <- !greyed & (contrasts$group_num %in% thr_groups | contrasts$group_den %in% thr_groups)
  cells <- matrix(NA_character_, nrow(contrasts), 10)
  cells[thr_greyed, 5:6] <- "disq"
  tagList(html_table(data.frame(Ratio = contrasts$direction, Workload = contrasts$workload_den, Type = contrasts$test,
                               `Runs (numerator / denominator)` = paste(contrasts$runs_num, "/", contrasts$runs_den),
                               `Throughput ratio` = fmt_num(contrasts$throughput_ratio, 3),
                               `Throughput: difference vs spread` = contrasts$throughput_spread,
                               `Mean latency ratio` = fmt_num(contrasts$mean_ratio, 3),
                               `Mean: difference vs spread` = contrasts$mean_spread,
                               `p99 ratio` = fmt_num(contrasts$p99_ratio, 3),
                               Latency = contrasts$metric, check.names = FALSE),
                    left = c(1, 2, 3, 4, 6, 8, 10), nowrap = 1, row_class = ifelse(greyed, "disq", total_class(contrasts)),
                    cell_class = cells),
         if (any(greyed)) html_p("Greyed rows involve a run whose verdict disqualifies comparisons.", class = "why"),
         if (any(thr_greyed)) html_p(paste("Greyed throughput ratios: a run of the pair has its throughput disqualified by its verdict",
                                           "(shared CPU, client-bound): the ratio compares what this machine gave each setup, not HBase's or",
                                           "the service layer's own throughput. The latency ratios are not greyed by that verdict, but on a saturated shared",
                                           "machine both sides' calls include waiting for CPU."), class = "why"))
}

direct_thrift_section <- function(contrasts, runs, plots) {
  pairs <- if (is.null(contrasts)) NULL else contrasts[dimension == "target"]
  if (is.null(pairs) || nrow(pairs) == 0) {
    return(html_p("No workload was run on both targets (the same operations, threads, value size ... once direct and once through thrift): nothing to pair."))
  }
  order_note <- if (all(pairs$order_note == "denominator ran first")) {
    html_p(paste("Direct ran before thrift in every pair: a drift over time (warming caches, compactions, other load) would read as a",
                 "target difference. Repeat the points in alternating order (sweep.repeat) to tell them apart."), class = "note")
  }
  tagList(html_p("Per workload (mixes included) and test; every ratio divides thrift by direct, medians of repeats."),
         contrast_table(pairs, runs), order_note, html_img(plots$direct_thrift, "direct against thrift"))
}
