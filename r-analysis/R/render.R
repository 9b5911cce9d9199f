# render.R - analyses + PNG paths -> one self-contained index.html (images inlined as base64).

REPORT_CSS <- "
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:1.8em}
h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.6em 0 1em 0;font-size:.9em}
th,td{border:1px solid #ccd;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#eef}td.l,th.l{text-align:left}
tr.total td{font-weight:bold;background:#f6f6fb}
.meta{color:#555;font-size:.92em}.note{background:#fff8e0;border-left:4px solid #e0b000;padding:6px 10px;margin:.6em 0}
.flag{background:#fde8e8;border-left:4px solid #c00;padding:6px 10px;margin:.6em 0}
td.FLAG{background:#fbd5d5;font-weight:bold;text-align:left}td.ok{background:#dff3df;text-align:left}
td.info,td.na{background:#eef;text-align:left}
img{max-width:100%;border:1px solid #ddd;margin:.4em 0}
dt{font-weight:bold;margin-top:.5em}dd{margin-left:1.2em}
"

html_escape <- function(x) {
  x <- gsub("&", "&amp;", as.character(x), fixed = TRUE)
  x <- gsub("<", "&lt;", x, fixed = TRUE)
  x <- gsub(">", "&gt;", x, fixed = TRUE)
  gsub("\"", "&quot;", x, fixed = TRUE)
}

# cells: a data.frame of strings (escaped here); left: columns aligned left;
# row_class / cell_class: optional CSS classes.
html_table <- function(cells, left = 1, row_class = NULL, cell_class = NULL) {
  cells <- as.data.frame(cells, stringsAsFactors = FALSE, check.names = FALSE)
  align <- ifelse(seq_along(cells) %in% left, " class=\"l\"", "")
  head <- paste0("<tr>", paste0("<th", align, ">", html_escape(names(cells)), "</th>", collapse = ""), "</tr>")
  rows <- vapply(seq_len(nrow(cells)), function(i) {
    classes <- if (!is.null(cell_class)) cell_class[i, ] else rep(NA, ncol(cells))
    attrs <- ifelse(!is.na(classes), paste0(" class=\"", classes, "\""), align)
    tr <- if (!is.null(row_class) && !is.na(row_class[i])) paste0("<tr class=\"", row_class[i], "\">") else "<tr>"
    paste0(tr, paste0("<td", attrs, ">", html_escape(unlist(cells[i, ])), "</td>", collapse = ""), "</tr>")
  }, "")
  paste0("<table>", head, paste(rows, collapse = "\n"), "</table>")
}

html_img <- function(path, alt) {
  if (is.null(path) || !file.exists(path)) return("")
  sprintf("<img alt=\"%s\" src=\"data:image/png;base64,%s\">", html_escape(alt), base64enc::base64encode(path))
}

html_p <- function(..., class = NULL) {
  paste0(if (is.null(class)) "<p>" else sprintf("<p class=\"%s\">", class), paste0(...), "</p>")
}

html_page <- function(title, body) {
  paste0("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", html_escape(title),
         "</title><style>", REPORT_CSS, "</style></head><body>\n", paste(body, collapse = "\n"), "\n</body></html>")
}

total_class <- function(summary) ifelse(summary$test == "total", "total", NA)

# The reference study's table: Type | Threads | Mean | SD | 90% line | Throughput | Requests.
reference_table <- function(summary, prefix = "") {
  col <- function(name) summary[[paste0(prefix, name)]]
  digits <- if (nzchar(prefix)) 3 else 2
  cells <- data.frame(
    Type = summary$test, Threads = fmt_int(summary$threads),
    `Mean Time (ms)` = fmt_num(col("mean_ms"), digits),
    `Time Standard Deviation (ms)` = fmt_num(col("sd_ms"), digits),
    `90% percentile line (ms)` = fmt_num(col("p90_ms"), if (nzchar(prefix)) 3 else 0),
    `Throughput (req/s)` = fmt_num(summary$throughput_rps, 1),
    `Number of Requests` = fmt_int(summary$count), check.names = FALSE)
  html_table(cells, row_class = total_class(summary))
}

percentile_table <- function(summary, prefix = "", digits = 0, with_errors = TRUE) {
  col <- function(name) fmt_num(summary[[paste0(prefix, name)]], digits)
  cells <- data.frame(Type = summary$test, Requests = fmt_int(summary[[if (nzchar(prefix)) paste0(prefix, "count") else "count"]]),
                      `p50 (ms)` = col("p50_ms"), `p95 (ms)` = col("p95_ms"), `p99 (ms)` = col("p99_ms"),
                      `p99.9 (ms)` = col("p999_ms"), `max (ms)` = col("max_ms"), check.names = FALSE)
  if (with_errors) {
    cells$Errors <- fmt_int(summary$errors)
    cells$`Error rate` <- fmt_pct(summary$error_rate, 3)
  }
  html_table(cells, row_class = total_class(summary))
}

checks_table <- function(checks) {
  cells <- data.frame(Check = checks$check, Status = checks$status, Result = checks$result,
                      `What it means` = checks$meaning, check.names = FALSE)
  classes <- matrix(NA_character_, nrow(cells), ncol(cells))
  classes[, 2] <- gsub("/", "", checks$status)
  classes[, c(1, 3, 4)] <- "l"
  html_table(cells, left = c(1, 2, 3, 4), cell_class = classes)
}

flag_banner <- function(checks) {
  flagged <- checks[status == "FLAG", check]
  if (length(flagged) == 0) return(html_p("All trust checks passed (see 'Can these numbers be trusted').", class = "meta"))
  html_p(sprintf("%d check%s flagged: %s. See <a href=\"#trust\">Can these numbers be trusted</a>.",
                 length(flagged), if (length(flagged) == 1) "" else "s", html_escape(paste(flagged, collapse = ", "))),
         class = "flag")
}

run_meta <- function(a) {
  m <- a$manifest
  field <- function(name) if (!is.null(m[[name]])) html_escape(paste(unlist(m[[name]]), collapse = ", ")) else "not recorded"
  paste0(
    html_p(sprintf("Run folder <code>%s</code>. Target: %s. Status: %s. Hosts: %s.",
                   html_escape(a$run_dir), field("target"), field("status"),
                   html_escape(paste(a$hosts$host, collapse = ", "))), class = "meta"),
    html_p(sprintf("Requests from %s to %s (%.1f s); measured window %s to %s (%.1f s, after a %.1f s warm-up cut). %s data logs, %s requests read.",
                   fmt_epoch_ms(a$window$run_start_ms), fmt_epoch_ms(a$window$run_end_ms), a$window$run_s,
                   fmt_epoch_ms(a$window$window_start_ms), fmt_epoch_ms(a$window$window_end_ms), a$window$window_s,
                   a$window$warmup_ms / 1000, nrow(a$files),
                   fmt_int(a$window$measured_requests + a$window$warmup_requests)), class = "meta"))
}

coarse_note <- function(summary) {
  coarse <- summary[grinder_coarse == TRUE & test != "total", test]
  if (length(coarse) == 0) return("")
  html_p(sprintf(paste("Grinder's Test time is whole milliseconds: for %s its p90 is under %d ms, so its percentiles",
                       "are 1 ms steps and mean little. The witness table below (System.nanoTime around the HBase call,",
                       "microsecond resolution) gives the real distribution; histograms and timelines of these tests use the witness."),
                 html_escape(paste(coarse, collapse = ", ")), COARSE_P90_MS), class = "note")
}

blackout_list <- function(blackouts) {
  if (nrow(blackouts) == 0) return(html_p("No blackout second: some request completed in every second while threads were running."))
  shown <- utils::head(blackouts[order(-seconds)], 20)
  total <- sum(blackouts$seconds)
  paste0(html_p(sprintf("%d blackout interval%s (%d second%s in all). Longest first:", nrow(blackouts),
                        if (nrow(blackouts) == 1) "" else "s", total, if (total == 1) "" else "s")),
         html_table(data.frame(`Starts at (s since first request)` = shown$start_s, `Length (s)` = shown$seconds,
                               `In measured window` = ifelse(shown$in_measured_window, "yes", "no (warm-up)"),
                               check.names = FALSE)))
}

overhead_table <- function(summary) {
  rows <- summary[witness_count > 0]
  if (nrow(rows) == 0) return(html_p("No 'Witness (us)' column in the logs: the tool's overhead cannot be measured.", class = "note"))
  html_table(data.frame(Type = rows$test, `Grinder mean (ms)` = fmt_num(rows$mean_ms, 3),
                        `Witness mean (ms)` = fmt_num(rows$witness_mean_ms, 3),
                        `Overhead (us)` = fmt_num(rows$overhead_us, 1),
                        `Overhead / witness` = fmt_pct(rows$overhead_us / (rows$witness_mean_ms * 1000), 1),
                        check.names = FALSE), row_class = total_class(rows))
}

gap_table <- function(cycles, files) {
  if (nrow(cycles) == 0) return("")
  worst <- utils::head(cycles[order(-gap_us)], 10)
  worst[files, on = "file_id", `:=`(host = i.host, file = i.rel_path)]
  paste0(html_p("Threads with the largest off-timer gap:"),
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
    paste0(html_p(sprintf("%s lines skipped; the report is built from the valid lines only:", fmt_int(sum(a$skipped$lines)))),
           html_table(data.frame(File = a$skipped$file, Reason = a$skipped$reason, Lines = fmt_int(a$skipped$lines),
                                 check.names = FALSE), left = 1:2))
  } else html_p("No line was skipped.")
  extras <- c(
    if (isTRUE(a$manifest$found)) "manifest.json read" else "no manifest.json (thread count from the logs, no run times)",
    if (!is.na(a$console_stats)) "console/statistics.csv present (not used: the data logs hold every request)" else "no console statistics",
    if (!is.null(a$metrics)) sprintf("host metrics for %s", paste(unique(a$metrics$host), collapse = ", ")) else "no host metrics (metrics.csv)"
  )
  paste0(file_table, skipped, html_p(html_escape(paste(extras, collapse = "; ")), "."))
}

definitions <- function() {
  paste0("<dl>",
    "<dt>Requests</dt><dd>One line of a Grinder data log. Logs of all hosts, workers and threads are merged; a thread is host + worker + thread number.</dd>",
    "<dt>Test names</dt><dd>1 get, 2 put, 3 scan, 4 batch-get, 5 batch-put, 6 delete, 7 increment (a mixed run logs 1 and 2); the manifest's names win; others are test-N.</dd>",
    "<dt>Grinder time (unprefixed columns)</dt><dd>Grinder's Test time, whole milliseconds, what the reference study reported.</dd>",
    "<dt>Witness</dt><dd>System.nanoTime around the HBase call, in microseconds, shown in ms. Overhead = mean Grinder time x 1000 - mean witness (us), over requests that have a witness.</dd>",
    "<dt>Latency statistics</dt><dd>From all requests in the measured window, failed ones included; errors are counted separately (a request with errors counts once) and the error rate is errors / requests.</dd>",
    "<dt>Percentiles</dt><dd>Nearest rank over the merged requests of all injectors: the smallest value with at least P% of requests at or below it (sorted values, index ceiling(P/100 x n)). Never an average of per-host percentiles. Standard deviation is the sample one (n - 1).</dd>",
    "<dt>Warm-up cut and measured window</dt><dd>Requests that started before the cut (default: first 10% of the time from the first start to the last end; --warmup SECONDS to change) are left out. The measured window runs from the first start at or after the cut to the last end of those requests.</dd>",
    "<dt>Throughput</dt><dd>Requests in the measured window / window length, per test over the same window.</dd>",
    "<dt>Threads</dt><dd>threads_total from the manifest when present, else the distinct threads in the logs.</dd>",
    "<dt>Blackout second</dt><dd>A second (since the first request, by completion time) in which at least one thread was between its first start and last end and no request completed.</dd>",
    "<dt>Latency from intended start</dt><dd>With pacing on (a 'Lag (us)' column): Lag + Test time, the latency a user arriving on schedule would see.</dd>",
    "</dl>")
}

render_run_report <- function(a, plots) {
  s <- a$summary
  has_witness <- any(s$witness_count > 0)
  intended <- if (a$has_lag) {
    paste0("<h3>Latency from the intended start (pacing on)</h3>",
           percentile_table(s[, .(test, intended_count, errors, error_rate, intended_p50_ms, intended_p95_ms, intended_p99_ms,
                                  intended_p999_ms, intended_max_ms)], prefix = "intended_", digits = 3, with_errors = FALSE))
  } else ""
  html_page(paste("Capacity report", a$run_id), c(
    sprintf("<h1>Capacity report: %s</h1>", html_escape(a$run_id)),
    run_meta(a),
    flag_banner(a$checks),
    "<h2>Results</h2>",
    reference_table(s),
    html_p("Grinder Test time (whole ms) over the measured window; all requests, failed ones included. Threads: ",
           if (!is.null(a$manifest$threads_total)) "from the manifest." else "distinct threads seen in the logs.", class = "meta"),
    coarse_note(s),
    if (has_witness) paste0("<h3>Witness (HBase call, microsecond resolution)</h3>", reference_table(s, "witness_")) else
      html_p("The logs have no 'Witness (us)' column: only Grinder's whole-ms time is known.", class = "note"),
    "<h2>Percentiles and errors</h2><h3>Grinder time</h3>",
    percentile_table(s),
    if (has_witness) paste0("<h3>Witness</h3>", percentile_table(s, "witness_", 3)) else "",
    intended,
    "<h2>Distributions</h2>",
    html_p("Each test in its display latency: the witness when Grinder's ms are too coarse (named in the panel), else Grinder's time."),
    html_img(plots$histogram_full, "latency histogram, full range"),
    html_img(plots$histogram_zoom, "latency histogram, zoomed"),
    html_img(plots$percentiles, "latency percentile plot"),
    "<h2>Over time</h2>",
    html_img(plots$timeline, "throughput, mean and p90 per second"),
    blackout_list(a$blackouts),
    "<h2>Tool overhead: Grinder time against witness</h2>",
    html_img(plots$overhead, "Grinder time against witness"),
    overhead_table(s),
    "<h2>Direct against thrift</h2>",
    html_p(sprintf("This run has one target (%s). Compare runs of both targets with <code>report.R RUN_DIRECT RUN_THRIFT</code>.",
                   html_escape(if (is.na(a$target)) "not recorded" else a$target))),
    "<h2>Host metrics</h2>",
    if (!is.null(plots$host_metrics)) html_img(plots$host_metrics, "host metrics") else html_p("No metrics.csv in this run."),
    "<h2 id=\"trust\">Can these numbers be trusted</h2>",
    checks_table(a$checks),
    gap_table(a$cycles, a$files),
    "<h3>Injector hosts</h3>",
    host_table(a$hosts, a$window),
    "<h2>Input</h2>",
    input_section(a),
    "<h2>What the numbers mean</h2>",
    definitions(),
    html_p(sprintf("Generated %s by r-analysis/report.R.", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")), class = "meta")
  ))
}

compare_side_by_side <- function(compared) {
  html_table(data.frame(Run = compared$run, Target = ifelse(is.na(compared$target), "", compared$target),
                        Type = compared$test, Threads = fmt_int(compared$threads),
                        `Mean (ms)` = fmt_num(compared$mean_ms, 2), `SD (ms)` = fmt_num(compared$sd_ms, 2),
                        `p90 (ms)` = fmt_num(compared$p90_ms, 0), `p99 (ms)` = fmt_num(compared$p99_ms, 0),
                        `Witness mean (ms)` = fmt_num(compared$witness_mean_ms, 3),
                        `Witness p90 (ms)` = fmt_num(compared$witness_p90_ms, 3),
                        `Witness p99 (ms)` = fmt_num(compared$witness_p99_ms, 3),
                        `Throughput (req/s)` = fmt_num(compared$throughput_rps, 1),
                        Requests = fmt_int(compared$count), `Error rate` = fmt_pct(compared$error_rate, 3),
                        check.names = FALSE), left = 1:3, row_class = total_class(compared))
}

compare_deltas <- function(compared) {
  rows <- compared[run != baseline]
  if (nrow(rows) == 0) return("")
  ratio <- function(x) ifelse(is.na(x), "", sprintf("x%.3f", x))
  delta <- function(x, d) ifelse(is.na(x), "", sprintf(paste0("%+.", d, "f"), x))
  paste0(html_p(sprintf("Against the baseline %s (delta = run - baseline, ratio = run / baseline):", html_escape(rows$baseline[1]))),
         html_table(data.frame(Run = rows$run, Type = rows$test,
                               `delta mean (ms)` = delta(rows$delta_mean_ms, 2), `mean ratio` = ratio(rows$ratio_mean),
                               `delta p90 (ms)` = delta(rows$delta_p90_ms, 0), `p90 ratio` = ratio(rows$ratio_p90),
                               `delta p99 (ms)` = delta(rows$delta_p99_ms, 0), `p99 ratio` = ratio(rows$ratio_p99),
                               `delta witness mean (ms)` = delta(rows$delta_witness_mean_ms, 3), `witness mean ratio` = ratio(rows$ratio_witness_mean),
                               `delta throughput (req/s)` = delta(rows$delta_throughput_rps, 1), `throughput ratio` = ratio(rows$ratio_throughput),
                               check.names = FALSE), left = 1:2, row_class = total_class(rows)))
}

compare_runs_table <- function(analyses) {
  html_table(data.frame(
    Run = vapply(analyses, `[[`, "", "run_id"),
    Target = vapply(analyses, function(a) if (is.na(a$target)) "" else a$target, ""),
    Folder = vapply(analyses, `[[`, "", "run_dir"),
    `Window (s)` = vapply(analyses, function(a) fmt_num(a$window$window_s, 1), ""),
    `Skipped lines` = vapply(analyses, function(a) fmt_int(sum(a$skipped$lines)), ""),
    `Flagged checks` = vapply(analyses, function(a) paste(a$checks[status == "FLAG", check], collapse = ", "), ""),
    check.names = FALSE), left = c(1, 2, 3, 6))
}

knee_text <- function(scaling) {
  knees <- scaling[knee == TRUE]
  if (nrow(knees) == 0) return("")
  html_p("Knee (highest throughput / mean latency): ",
         html_escape(paste(sprintf("%s at %s threads (%s req/s, mean %s ms, run %s)", knees$test, fmt_int(knees$threads),
                                   fmt_num(knees$throughput_rps, 1), fmt_num(knees$mean_display_ms, 3), knees$run),
                           collapse = "; ")), ".")
}

direct_thrift_section <- function(pairs, plots) {
  if (is.null(pairs)) return(html_p("Only one target among these runs (or no test and thread count run on both): nothing to pair."))
  paste0(html_table(data.frame(Type = pairs$test, Threads = fmt_int(pairs$threads), `Direct run` = pairs$run_direct,
                               `Thrift run` = pairs$run_thrift,
                               `Mean direct / thrift (ms)` = paste(fmt_num(pairs$mean_ms_direct, 2), "/", fmt_num(pairs$mean_ms_thrift, 2)),
                               `Witness mean direct / thrift (ms)` = paste(fmt_num(pairs$witness_mean_ms_direct, 3), "/", fmt_num(pairs$witness_mean_ms_thrift, 3)),
                               `Witness mean ratio` = fmt_num(pairs$witness_mean_ratio, 3),
                               `Throughput ratio` = fmt_num(pairs$throughput_ratio, 3), check.names = FALSE), left = 1:4),
         html_img(plots$direct_thrift, "direct against thrift"))
}

render_compare_report <- function(analyses, compared, scaling, pairs, plots, sweep_id, show_scaling, skipped_runs) {
  title <- if (!is.na(sweep_id)) paste("Sweep", sweep_id) else paste("Comparison", paste(vapply(analyses, `[[`, "", "run_id"), collapse = " / "))
  html_page(title, c(
    sprintf("<h1>%s</h1>", html_escape(title)),
    compare_runs_table(analyses),
    if (nrow(skipped_runs) > 0) html_p(html_escape(paste0("Skipped: ", paste(sprintf("%s (%s)", skipped_runs$run, skipped_runs$reason), collapse = "; "), ".")), class = "flag") else "",
    html_p("Baseline for deltas and ratios: the first run. Latencies: Grinder's whole-ms time; the witness columns are the HBase call at microsecond resolution.", class = "meta"),
    "<h2>Side by side</h2>",
    compare_side_by_side(compared),
    "<h2>Deltas and ratios</h2>",
    compare_deltas(compared),
    "<h2>Percentile curves</h2>",
    html_img(plots$percentiles, "percentile curves of all runs"),
    if (show_scaling) paste0("<h2>Scaling</h2>", html_img(plots$scaling_throughput, "throughput against threads"),
                             html_img(plots$scaling_latency, "latency against throughput"), knee_text(scaling)) else "",
    "<h2>Direct against thrift</h2>",
    direct_thrift_section(pairs, plots),
    "<h2 id=\"trust\">Can these numbers be trusted</h2>",
    html_p("Each run's checks; open the run's own report (report.R RUN) for the details."),
    html_table(data.table::rbindlist(lapply(analyses, function(a) a$checks[, .(Run = a$run_id, Check = check, Status = status, Result = result)])),
               left = 1:4),
    "<h2>What the numbers mean</h2>",
    definitions(),
    html_p(sprintf("Generated %s by r-analysis/report.R.", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")), class = "meta")
  ))
}
