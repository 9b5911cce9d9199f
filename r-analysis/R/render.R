# render.R - analyses + PNG paths -> one self-contained index.html (images inlined as base64).

REPORT_CSS <- "
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1250px;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:1.8em}
h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.6em 0 1em 0;font-size:.9em}
th,td{border:1px solid #ccd;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#eef}td.l,th.l{text-align:left}td.nw,th.nw{white-space:nowrap}
tr.total td{font-weight:bold;background:#f6f6fb}
.meta{color:#555;font-size:.92em}.note{background:#fff8e0;border-left:4px solid #e0b000;padding:6px 10px;margin:.6em 0}
.flag{background:#fde8e8;border-left:4px solid #c00;padding:6px 10px;margin:.6em 0}
td.FLAG{background:#fbd5d5;font-weight:bold;text-align:left}td.ok{background:#dff3df;text-align:left}
td.info,td.na{background:#eef;text-align:left}td.fail{background:#fbd5d5;font-weight:bold}td.pass{background:#dff3df}
.verdict{font-size:1.12em;padding:10px 14px;margin:.8em 0;border-left:6px solid #c00;background:#fde8e8}
.verdict.v-trustworthy,.verdict.v-server-bound{border-left-color:#2a7d2a;background:#e4f4e4}
.verdict.v-not-steady,.verdict.v-different-workloads{border-left-color:#e0b000;background:#fff8e0}
p.finding{font-size:1.35em;font-weight:600;margin:.4em 0 .5em 0;max-width:60em}
details.verdict{font-size:.95em}details.verdict summary{cursor:pointer}
.headline{display:flex;flex-wrap:wrap;gap:10px;margin:.6em 0}
.headline div{border:1px solid #ccd;background:#f7f7fc;padding:6px 12px;min-width:180px}
.headline b{display:block;font-size:1.3em}
.disq,td.disq{opacity:.45;filter:grayscale(1);background:#eee}
p.why{color:#666;font-style:italic;margin:.2em 0}
p.usl{font-size:1.05em;margin:.3em 0}h4{margin:1.2em 0 .2em 0}
img{max-width:100%;border:1px solid #ddd;margin:.4em 0}
dt{font-weight:bold;margin-top:.5em}dd{margin-left:1.2em}
"

html_escape <- function(x) {
  x <- gsub("&", "&amp;", as.character(x), fixed = TRUE)
  x <- gsub("<", "&lt;", x, fixed = TRUE)
  x <- gsub(">", "&gt;", x, fixed = TRUE)
  gsub("\"", "&quot;", x, fixed = TRUE)
}

# cells: a data.frame of strings (escaped here); left: columns aligned left; nowrap: columns
# never wrapped (run ids, labels); row_class / cell_class / col_class: optional CSS classes.
html_table <- function(cells, left = 1, row_class = NULL, cell_class = NULL, col_class = NULL, nowrap = integer()) {
  cells <- as.data.frame(cells, stringsAsFactors = FALSE, check.names = FALSE)
  n_col <- ncol(cells)
  base <- vapply(seq_len(n_col), function(j) {
    parts <- c(if (j %in% left) "l", if (j %in% nowrap) "nw", if (!is.null(col_class) && !is.na(col_class[j]) && nzchar(col_class[j])) col_class[j])
    paste(parts, collapse = " ")
  }, "")
  attr_of <- function(classes) ifelse(nzchar(classes), paste0(" class=\"", classes, "\""), "")
  head <- paste0("<tr>", paste0("<th", attr_of(base), ">", html_escape(names(cells)), "</th>", collapse = ""), "</tr>")
  rows <- vapply(seq_len(nrow(cells)), function(i) {
    extra <- if (!is.null(cell_class)) cell_class[i, ] else rep(NA_character_, n_col)
    classes <- trimws(paste(base, ifelse(is.na(extra), "", extra)))
    tr <- if (!is.null(row_class) && !is.na(row_class[i])) paste0("<tr class=\"", row_class[i], "\">") else "<tr>"
    paste0(tr, paste0("<td", attr_of(classes), ">", html_escape(unlist(cells[i, ])), "</td>", collapse = ""), "</tr>")
  }, "")
  paste0("<table>", head, paste(rows, collapse = "\n"), "</table>")
}

# A figure (table or image) the verdict disqualifies: greyed, with the reason above it.
html_disqualified <- function(html, why) {
  if (!nzchar(why)) return(html)
  paste0(html_p(html_escape(why), class = "why"), "<div class=\"disq\">", html, "</div>")
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

percentile_table <- function(summary, prefix = "", digits = 0, with_errors = TRUE) {
  col <- function(name) fmt_num(summary[[paste0(prefix, name)]], digits)
  cells <- data.frame(Type = summary$test, Requests = fmt_int(summary[[if (nzchar(prefix)) paste0(prefix, "count") else "count"]]),
                      `p50 (ms)` = col("p50_ms"), `p90 (ms)` = col("p90_ms"), `p95 (ms)` = col("p95_ms"), `p99 (ms)` = col("p99_ms"),
                      `p99.9 (ms)` = col("p999_ms"), `max (ms)` = col("max_ms"), check.names = FALSE)
  if (with_errors) {
    cells$Errors <- fmt_int(summary$errors)
    cells$`Error rate` <- fmt_pct(summary$error_rate, 3)
  }
  html_table(cells, row_class = total_class(summary))
}

# Service time beside the coordinated-omission estimate, per test.
co_table <- function(summary, co) {
  rows <- summary[!is.na(co_p99_ms)]
  if (nrow(rows) == 0) return("")
  source <- if (all(rows$witness_count > 0)) "witness" else "Grinder time"
  paste0(
    "<h3>Closed loop: service time and the coordinated-omission estimate</h3>",
    html_p(sprintf(paste("These percentiles are <b>service time</b>: each thread waited for its request before sending the next,",
                         "so a stall delayed the requests that would have been sent meanwhile and the stall is counted once.",
                         "The <b>estimate</b> adds what a client on schedule would have seen, as HdrHistogram's",
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

checks_table <- function(checks) {
  cells <- data.frame(Check = checks$check, Status = checks$status, Result = checks$result,
                      `What it means` = checks$meaning, check.names = FALSE)
  classes <- matrix(NA_character_, nrow(cells), ncol(cells))
  classes[, 2] <- gsub("/", "", checks$status)
  html_table(cells, left = c(1, 2, 3, 4), cell_class = classes, nowrap = 1)
}

flag_banner <- function(checks) {
  flagged <- checks[status == "FLAG", check]
  if (length(flagged) == 0) return(html_p("All trust checks passed (see 'Can these numbers be trusted').", class = "meta"))
  html_p(sprintf("%d check%s flagged: %s. See <a href=\"#trust\">Can these numbers be trusted</a>.",
                 length(flagged), if (length(flagged) == 1) "" else "s", html_escape(paste(flagged, collapse = ", "))),
         class = "meta")
}

verdict_box <- function(verdict) {
  sprintf("<div class=\"verdict v-%s\"><b>Verdict</b>: %s</div>", gsub("[^a-z]+", "-", verdict$kind), html_escape(verdict$sentence))
}

# The headline figures of a run: client cost per request, tool overhead with its interval, throughput.
run_headline <- function(a) {
  total <- a$summary[test == "total"]
  client <- a$facts$client
  cells <- c(
    sprintf("<div>Client cost per request<b>%s us</b>mean off-timer gap%s</div>",
            if (is.null(client)) "n/a" else fmt_num(client$gap_us, 0),
            if (is.null(client)) "" else sprintf(", %s of the HBase time", fmt_pct(client$ratio, 0))),
    sprintf("<div>Tool overhead (inside the timer)<b>%s us</b>95%% interval, per request</div>",
            if (is.na(total$overhead_us)) "n/a" else fmt_pm(total$overhead_us, total$overhead_ci95_us, 1)),
    sprintf("<div%s>Throughput<b>%s req/s</b>%s threads, %.1f s window</div>",
            if (nzchar(disqualified_why(a$verdict, "throughput"))) " class=\"disq\"" else "",
            fmt_num(total$throughput_rps, 0), fmt_int(total$threads), a$window$window_s),
    sprintf("<div%s>HBase time (witness)<b>%s ms</b>mean; p99 %s ms</div>",
            if (nzchar(disqualified_why(a$verdict, "latency"))) " class=\"disq\"" else "",
            fmt_num(total$witness_mean_ms, 3), fmt_num(total$witness_p99_ms, 3)))
  paste0("<div class=\"headline\">", paste(cells, collapse = ""), "</div>")
}

# The --slo gates of one run (or NULL): term, value, status.
gates_table <- function(gates, run_label = NULL) {
  if (is.null(gates) || nrow(gates) == 0) return("")
  classes <- matrix(NA_character_, nrow(gates), 4)
  classes[, 4] <- ifelse(gates$status == "pass", "pass", "fail")
  paste0(html_p(sprintf("SLO gates (--slo): %d of %d hold%s.", sum(gates$status == "pass"), nrow(gates),
                        if (all(gates$status == "pass")) "" else "; report.R exits 99")),
         html_table(data.frame(Gate = gates$term, Test = gates$test, Value = fmt_num(gates$value, 4), Status = gates$status,
                               check.names = FALSE), left = 1:2, cell_class = classes))
}

run_meta <- function(a) {
  m <- a$manifest
  field <- function(name) if (!is.null(m[[name]])) html_escape(paste(unlist(m[[name]]), collapse = ", ")) else "not recorded"
  paste0(
    html_p(sprintf("%s. Run folder <code>%s</code>. Status: %s. Hosts: %s%s.",
                   html_escape(a$label), html_escape(a$run_dir), field("status"),
                   html_escape(paste(a$hosts$host, collapse = ", ")),
                   if (!is.null(m$injector_mode)) sprintf(" (injector mode %s)", field("injector_mode")) else ""), class = "meta"),
    html_p(sprintf("Requests from %s to %s (%.1f s); measured window %s to %s (%.1f s, after a %.1f s warm-up cut: %s). %s data logs, %s requests read.",
                   fmt_epoch_ms(a$window$run_start_ms), fmt_epoch_ms(a$window$run_end_ms), a$window$run_s,
                   fmt_epoch_ms(a$window$window_start_ms), fmt_epoch_ms(a$window$window_end_ms), a$window$window_s,
                   a$window$warmup_ms / 1000, html_escape(a$window$warmup_rule), nrow(a$files),
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
  paste0(
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
  dd <- function(term, text) paste0("<dt>", term, "</dt><dd>", text, "</dd>")
  paste0("<dl>",
    dd("Verdict", sprintf(paste("The first of: <i>incomplete run</i> (the manifest says incomplete or interrupted), <i>degraded run</i> (the run reached its end through failed requests or seconds without a success: the manifest says degraded), <i>too short</i> (measured window under %d s or",
                                "under %s requests), <i>errors</i> (over %s failed), <i>contended</i> (processes the run did not start, and steal, over %d%% of",
                                "the machine's CPU), <i>warming</i> (JIT compiler threads over %d%% of a side's CPU), <i>client-bound</i> (mean off-timer gap at",
                                "least %s x the HBase time per request, or the lab's client CPUs %d%% busy or more), <i>shared CPU</i> (injectors on the HBase",
                                "machine sharing its CPUs, over %d%% busy on average), <i>not steady</i> (throughput or mean latency moved over %d%% from the",
                                "first to the last third of the window), <i>server-bound</i> (an isolated lab whose server CPUs were %d%% busy or more while",
                                "the client's had headroom: HBase's capacity on those CPUs, nothing greyed); else <i>trustworthy</i>. A comparison takes the",
                                "first kind among its runs, or <i>different workloads</i> when no two runs are alike. Greyed figures are those the verdict",
                                "disqualifies: throughput and comparisons for a client-bound run, throughput (and throughput ratios) for a shared-CPU run,",
                                "nothing for a server-bound run, everything for the other kinds."),
                          MIN_WINDOW_S, fmt_int(MIN_MEASURED_REQUESTS), fmt_pct(MAX_ERROR_RATE, 0), CPU_CONTENDED_PCT, CPU_WARMING_JIT_PCT,
                          fmt_num(CLIENT_BOUND_GAP_RATIO, 1), CPU_SIDE_BOUND_PCT, SHARED_BUSY_PCT, round(100 * STEADY_TREND_TOLERANCE),
                          CPU_SIDE_BOUND_PCT)),
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
    dd("Client cost per request (off-timer gap)", "Per thread: (last start - first start) / (requests - 1) minus its mean witness; the time between one request's end and the next one's start, Grinder's and the script's work included. Shown as the mean over threads."),
    dd("Service time and the coordinated-omission estimate", "A closed loop's latencies are service times: a stall holds its thread, so the requests a steady client would have sent meanwhile are never timed. The estimate adds, for each request of time T >= 2 I (I = the thread's median start-to-next-start, or its mean cycle when that median is under 2 ms), synthetic values T - I, T - 2I, ... while >= I, as HdrHistogram's copyCorrectedForCoordinatedOmission. Paced runs measure latency from the intended start instead."),
    dd("Latency statistics", "From all requests in the measured window, failed ones included; errors are counted separately (a request with errors counts once) and the error rate is errors / requests."),
    dd("Percentiles", "Nearest rank over the merged requests of all injectors: the smallest value with at least P% of requests at or below it (sorted values, index ceiling(P/100 x n)). Never an average of per-host percentiles. Standard deviation is the sample one (n - 1)."),
    dd("Warm-up cut (steady state)", sprintf(paste("From the per-second series of the run (completions, and mean latency of all tests): the steady level of each is its",
                                                   "median over the second half of the run; the warm-up ends at the first second from which both stay within %d%% of",
                                                   "their level for %d seconds in a row, at most half the run. With fewer than %d full seconds: the first 10%% of the run.",
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
    dd("SLO gates and capacity", "--slo 'p99_ms<50,get.error_rate<0.001': [TEST.]METRIC OP NUMBER over summary.csv's numeric columns, the total row by default. A gate with no data fails. Capacity (comparisons, sweeps): the highest total throughput among the runs that meet every gate. Exit status 99: a run with a failed gate; a comparison or sweep with no run meeting every gate."),
    "</dl>")
}

# Latency figures of one run, greyed when the verdict disqualifies latency.
render_run_report <- function(a, plots, gates = NULL) {
  why <- list(throughput = disqualified_why(a$verdict, "throughput"), latency = disqualified_why(a$verdict, "latency"))
  html_page(paste("Capacity report", a$run_id), c(
    sprintf("<h1>Capacity report: %s</h1>", html_escape(a$run_id)),
    finding_html(run_finding(a), a$verdict),
    run_headline(a),
    gates_table(gates),
    run_meta(a),
    flag_banner(a$checks),
    run_results_html(a, why),
    run_latency_html(a, plots, why),
    "<h2>Over time</h2>",
    html_p("The evidence for the warm-up cut and the steady-state check: the grey band is the cut; warm-up spikes above the measured range are drawn at the top of the scale."),
    html_img(plots$timeline, "throughput, mean and p90 per second"),
    blackout_list(a$blackouts),
    cpu_section(a, plots$cpu),
    "<h2>Tool overhead and client cost</h2>",
    html_img(plots$overhead, "Grinder time against witness"),
    overhead_table(a$summary),
    "<h2>Direct against thrift</h2>",
    html_p(sprintf("This run has one target (%s). Compare runs of both targets with <code>report.R RUN_DIRECT RUN_THRIFT</code>.",
                   html_escape(if (is.na(a$target)) "not recorded" else a$target))),
    run_hosts_html(a, plots),
    "<h2 id=\"trust\">Can these numbers be trusted</h2>",
    checks_table(a$checks),
    hlog_section(a$hlog),
    gap_table(a$cycles, a$files),
    "<h3>Injector hosts</h3>",
    host_table(a$hosts, a$window),
    "<h2>Input</h2>",
    input_section(a),
    "<h2>What the numbers mean</h2>",
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
  c("<h2>Results</h2>",
    if (nzchar(why_t) || nzchar(why_l)) html_p(html_escape(paste(unique(c(why_t, why_l)[nzchar(c(why_t, why_l))]), collapse = " ")), class = "why") else "",
    reference_table(s, why_throughput = why_t, why_latency = why_l),
    html_p("Grinder Test time (whole ms) over the measured window; all requests, failed ones included. Threads: ",
           if (!is.null(a$manifest$threads_total)) "from the manifest." else "distinct threads seen in the logs.", class = "meta"),
    coarse_note(s),
    if (any(s$witness_count > 0)) paste0("<h3>Witness (HBase call, microsecond resolution)", service_note(a), "</h3>",
                                         reference_table(s, "witness_", why_throughput = why_t, why_latency = why_l)) else
      html_p("The logs have no 'Witness (us)' column: only Grinder's whole-ms time is known.", class = "note"))
}

# The run page's percentile tables and latency distributions, greyed when the verdict disqualifies latency.
run_latency_html <- function(a, plots, why) {
  s <- a$summary
  service <- service_note(a)
  intended <- if (a$has_lag) {
    paste0("<h3>Latency from the intended start (pacing on)</h3>",
           percentile_table(s[, .(test, intended_count, errors, error_rate, intended_p50_ms, intended_p90_ms, intended_p95_ms, intended_p99_ms,
                                  intended_p999_ms, intended_max_ms)], prefix = "intended_", digits = 3, with_errors = FALSE))
  } else ""
  c("<h2>Percentiles and errors</h2>",
    html_disqualified(paste0("<h3>Grinder time", service, "</h3>", percentile_table(s),
                             if (any(s$witness_count > 0)) paste0("<h3>Witness", service, "</h3>", percentile_table(s, "witness_", 3)) else "",
                             intended, co_table(s, a$co)), why$latency),
    "<h2>Distributions</h2>",
    html_p("Each test in its display latency: the witness when Grinder's ms are too coarse (named in the panel), else Grinder's time."),
    html_disqualified(paste0(html_img(plots$histogram_full, "latency histogram, full range"),
                             html_img(plots$histogram_zoom, "latency histogram, zoomed"),
                             html_img(plots$percentiles, "latency percentile plot")), why$latency))
}

# The run page's host metrics and HBase's server metrics.
run_hosts_html <- function(a, plots) {
  c("<h2>Host metrics</h2>",
    if (isTRUE(a$shared)) html_p(html_escape(sprintf(paste("All injector hosts are this one machine (injector_mode %s): the injectors are",
                                                           "network namespaces or loopback agents sharing its CPU, memory and disk with HBase,",
                                                           "so their lines coincide and a busy CPU is not the client's alone."),
                                                     a$manifest$injector_mode)), class = "note") else "",
    if (!is.null(plots$host_metrics)) html_img(plots$host_metrics, "host metrics") else html_p("No metrics.csv in this run."),
    if (!is.null(a$facts$server) && !is.na(a$facts$server$kind)) "<h2 id=\"server-metrics\">HBase server metrics</h2>" else "",
    server_metrics_section(a, plots$server_metrics))
}

# Where the CPU went: the lab, the sides' load, the stacked chart and the table per role (cpu.R).
cpu_section <- function(a, plot) {
  f <- a$facts$cpu
  head <- "<h2 id=\"cpu\">Where the CPU went</h2>"
  if (is.null(f)) return(paste0(head, html_p("No cpu.csv in this run: it predates the CPU accounting, or the folder holds data logs only.", class = "note")))
  closure <- f$closure
  paste0(head,
    html_p(html_escape(sprintf(paste("%s. Over the %.0f s measured window the server side (%s) was %s%% busy and the client side (%s) %s%%;",
                                     "processes the run did not start took %s%% of the machine, steal %s%%. Counted by %s."),
                               f$lab_note, f$seconds, cpu_count_text(f$server$cpus), fmt_num(f$server$busy_pct, 0),
                               cpu_count_text(f$client$cpus), fmt_num(f$client$busy_pct, 0), fmt_num(f$other_pct, 1),
                               fmt_num(f$steal_pct, 1), f$method))),
    if (!is.null(plot)) html_img(plot, "CPU per role per second") else "",
    html_table(cpu_table_frame(f), left = 1:2),
    html_p(html_escape(sprintf(paste("CPU seconds over the measured window; %% of machine: of its %s CPUs for that time; %% of its side: of the",
                                     "side's CPUs (all of them when the lab shares); us per request: over the %s requests measured. JIT, GC,",
                                     "io (event loops) and load (the threads that make or serve requests): the JVM threads of that class;",
                                     "empty where a JVM has too many threads to read each second (HBase). Over the sampler's whole life the",
                                     "cgroup root counted %s CPU s against the kernel's %s busy (ratio %s)."),
                               fmt_num(f$cpus, 0), fmt_int(f$requests), fmt_num(closure$cgroup_root_s %if_absent% NA, 1),
                               fmt_num(closure$busy_s %if_absent% NA, 1), fmt_num(closure$root_over_busy %if_absent% NA, 3))), class = "meta"))
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
    paste0(html_p("Each run against its alike baseline (delta = run - baseline, ratio = run / baseline); the relation says how their workloads differ:"),
           html_table(data.frame(Run = rows$label, Baseline = label_of(rows$baseline), Relation = rows$baseline_relation, Type = rows$test,
                                 `delta mean (ms)` = delta(rows$delta_mean_ms, 2), `mean ratio` = ratio(rows$ratio_mean),
                                 `delta p99 (ms)` = delta(rows$delta_p99_ms, 0), `p99 ratio` = ratio(rows$ratio_p99),
                                 `delta witness mean (ms)` = delta(rows$delta_witness_mean_ms, 3), `witness mean ratio` = ratio(rows$ratio_witness_mean),
                                 `witness p99 ratio` = ratio(rows$ratio_witness_p99),
                                 `delta throughput (req/s)` = delta(rows$delta_throughput_rps, 1), `throughput ratio` = ratio(rows$ratio_throughput),
                                 check.names = FALSE), left = 1:4, nowrap = 1,
                      row_class = ifelse(rows$run %in% disq_runs | rows$baseline %in% disq_runs, "disq", total_class(rows))),
           if (any(rows$run %in% disq_runs | rows$baseline %in% disq_runs))
             html_p("Greyed rows involve a run whose verdict disqualifies comparisons.", class = "why") else "")
  } else html_p("No run has an alike baseline: nothing is set against anything.")
  listed <- if (nrow(not_compared) > 0) {
    html_p(html_escape(paste0("Not compared (different workload): ",
                              paste(sprintf("%s - %s", label_of(not_compared$run), sub("^not compared: ", "", not_compared$baseline_relation)),
                                    collapse = "; "), ".")), class = "note")
  } else ""
  paste0(table, listed)
}

compare_runs_table <- function(analyses, runs) {
  html_table(data.frame(
    Run = runs$label,
    Verdict = vapply(analyses, function(a) a$verdict$sentence, ""),
    `Window (s)` = vapply(analyses, function(a) fmt_num(a$window$window_s, 1), ""),
    `Warm-up cut (s)` = vapply(analyses, function(a) fmt_num(a$window$warmup_ms / 1000, 1), ""),
    `Flagged checks` = vapply(analyses, function(a) paste(a$checks[status == "FLAG", check], collapse = ", "), ""),
    Folder = vapply(analyses, `[[`, "", "run_dir"),
    check.names = FALSE), left = c(1, 2, 5, 6), nowrap = c(1, 6))
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
  paste0(html_table(data.frame(Ratio = contrasts$direction, Workload = contrasts$workload_den, Type = contrasts$test,
                               `Runs (numerator / denominator)` = paste(contrasts$runs_num, "/", contrasts$runs_den),
                               `Throughput ratio` = fmt_num(contrasts$throughput_ratio, 3),
                               `Throughput: difference vs spread` = contrasts$throughput_spread,
                               `Mean latency ratio` = fmt_num(contrasts$mean_ratio, 3),
                               `Mean: difference vs spread` = contrasts$mean_spread,
                               `p99 ratio` = fmt_num(contrasts$p99_ratio, 3),
                               Latency = contrasts$metric, check.names = FALSE),
                    left = c(1, 2, 3, 4, 6, 8, 10), nowrap = 1, row_class = ifelse(greyed, "disq", total_class(contrasts)),
                    cell_class = cells),
         if (any(greyed)) html_p("Greyed rows involve a run whose verdict disqualifies comparisons.", class = "why") else "",
         if (any(thr_greyed)) html_p(paste("Greyed throughput ratios: a run of the pair has its throughput disqualified by its verdict",
                                           "(shared CPU, client-bound): the ratio compares what this machine gave each setup, not HBase's or",
                                           "the service layer's own throughput. The latency ratios are not greyed by that verdict, but on a saturated shared",
                                           "machine both sides' calls include waiting for CPU."), class = "why") else "")
}

direct_thrift_section <- function(contrasts, runs, plots) {
  pairs <- if (is.null(contrasts)) NULL else contrasts[dimension == "target"]
  if (is.null(pairs) || nrow(pairs) == 0) {
    return(html_p("No workload was run on both targets (the same operations, threads, value size ... once direct and once through thrift): nothing to pair."))
  }
  order_note <- if (all(pairs$order_note == "denominator ran first")) {
    html_p(paste("Direct ran before thrift in every pair: a drift over time (warming caches, compactions, other load) would read as a",
                 "target difference. Repeat the points in alternating order (sweep.repeat) to tell them apart."), class = "note")
  } else ""
  paste0(html_p("Per workload (mixes included) and test; every ratio divides thrift by direct, medians of repeats."),
         contrast_table(pairs, runs), order_note, html_img(plots$direct_thrift, "direct against thrift"))
}

knee_text <- function(scaling) {
  knees <- scaling[knee == TRUE]
  if (nrow(knees) == 0) {
    return(html_p(sprintf("No knee named: it needs %d or more thread counts of one workload.", KNEE_MIN_POINTS), class = "meta"))
  }
  html_p("Knee (highest throughput / mean latency): ",
         html_escape(paste(sprintf("%s at %s threads (%s req/s, mean %s ms; %s)", knees$series, fmt_int(knees$threads),
                                   fmt_num(knees$throughput_median, 1), fmt_num(knees$mean_median, 3), knees$runs),
                           collapse = "; ")), ".")
}

capacity_box <- function(cap, slo) {
  if (is.null(cap)) return(html_p("No --slo given: no capacity. Give gates (e.g. --slo 'p99_ms<50,error_rate<0.001') to name the highest throughput that meets them.", class = "meta"))
  if (is.na(cap$throughput_rps)) {
    return(sprintf("<div class=\"verdict v-no-capacity\"><b>Capacity</b>: none of the %d runs meets every gate (%s); report.R exits 99.</div>",
                   cap$runs, html_escape(slo)))
  }
  sprintf("<div class=\"headline\"><div%s>Capacity under %s<b>%s req/s%s</b>%s (%d of %d runs meet every gate; verdict: %s)</div></div>",
          if (cap$verdict %in% VALID_KINDS) "" else " class=\"disq\"", html_escape(slo), fmt_num(cap$throughput_rps, 0),
          if (isTRUE(cap$lower_bound)) " at least" else "",
          html_escape(cap$label), cap$runs_meeting, cap$runs, html_escape(cap$verdict))
}

compare_gates_table <- function(gate_results, runs) {
  if (length(gate_results) == 0) return("")
  rows <- data.table::rbindlist(lapply(names(gate_results), function(id) gate_results[[id]][, run := id]))
  classes <- matrix(NA_character_, nrow(rows), 5)
  classes[, 5] <- ifelse(rows$status == "pass", "pass", "fail")
  html_table(data.frame(Run = runs$label[match(rows$run, runs$run)], Gate = rows$term, Test = rows$test,
                        Value = fmt_num(rows$value, 4), Status = rows$status, check.names = FALSE),
             left = 1:3, nowrap = 1, cell_class = classes)
}

# The scaling charts are greyed when a run they draw has its throughput disqualified.
scaling_why <- function(scaling, runs) throughput_disqualified_why(runs[group %in% scaling$group])

USL_INTRO <- paste(
  "The Universal Scalability Law, X(N) = &lambda;N / (1 + &sigma;(N &minus; 1) + &kappa;N(N &minus; 1)), fitted by least squares on",
  "log X (R's nls, port algorithm, bounds &lambda; &gt; 0, 0 &le; &sigma; &le; 1, &kappa; &ge; 0) to every run's total throughput, per",
  "workload and target; repeats are points of their own. &lambda;: throughput per client without contention; &sigma;: contention",
  "(work queueing for something shared: throughput levels off); &kappa;: coherency (every client's cost to every other: throughput",
  "falls past the peak N* = &radic;((1 &minus; &sigma;) / &kappa;)). Intervals are %d%%, from the fit's standard errors; those of N* and",
  "X(N*) are read at the corners of &lambda;'s, &sigma;'s and &kappa;'s. With %d or more distinct N only. Mean latency follows by",
  "Little's law for a closed loop, R(N) = N / X(N): a client's whole cycle, its time between requests included, so a prediction",
  "against a mean-latency gate errs on the safe side. The curve beyond the N measured is an extrapolation.")

# The fits of one kind as a table: estimates with their intervals, greyed rows for disqualified workloads.
usl_table <- function(models, over) {
  interval <- function(x, lo, hi, f) ifelse(is.na(x) & is.na(lo), "", sprintf("%s [%s, %s]", f(x), f(lo), f(hi)))
  peak <- ifelse(models$peak_position %in% "none",
                 ifelse(is.finite(models$peak_n_low), sprintf("none [%s, unbounded]", fmt_n(models$peak_n_low)), "none"),
                 interval(models$peak_n, models$peak_n_low, models$peak_n_high, fmt_n))
  cells <- data.frame(Workload = models$workload, Status = models$status, Runs = models$points,
                      `N measured (distinct)` = ifelse(is.na(models$n_min), "", sprintf("%s to %s (%d)", fmt_int(models$n_min),
                                                                                fmt_int(models$n_max), models$distinct_n)),
                      `lambda (req/s per unit)` = interval(models$lambda, models$lambda_low, models$lambda_high, fmt_sig),
                      sigma = interval(models$sigma, models$sigma_low, models$sigma_high, fmt_sig),
                      kappa = interval(models$kappa, models$kappa_low, models$kappa_high, fmt_sig),
                      `peak N*` = peak,
                      `X(N*) (req/s)` = ifelse(models$peak_position %in% "none", "",
                                               interval(models$peak_throughput, models$peak_throughput_low, models$peak_throughput_high, fmt_n)),
                      `R squared` = ifelse(is.na(models$r_squared), "", formatC(models$r_squared, format = "f", digits = 3)),
                      check.names = FALSE, stringsAsFactors = FALSE)
  names(cells)[5] <- sprintf("lambda (req/s per %s)", sub("s$", "", USL_OVER[[over]]$few))
  html_table(cells, left = 1:2, nowrap = 1, row_class = ifelse(models$disqualified, "disq", NA))
}

# The capacity model under the scaling charts: per workload and target its chart, its sentence,
# and under gates what it predicts beside what was measured; greyed with the verdicts' reason.
usl_section <- function(models, plots, over) {
  if (is.null(models) || nrow(models) == 0) return("")
  words <- USL_OVER[[over]]
  blocks <- vapply(seq_len(nrow(models)), function(k) {
    m <- models[k]
    gate <- if (over == "threads") m$latency_gate[[1]] else NULL
    said <- c(m$message, if (!is.null(gate)) gate$message,
              if (over == "region_servers") m$servers_needed_message)
    body <- paste0(html_img(plots[[k]], sprintf("%s: throughput against %s, with the USL fit", m$workload, words$many)),
                   paste0(vapply(said, function(x) html_p("<b>", html_escape(m$workload), "</b>: ", html_escape(x), ".", class = "usl"), ""),
                          collapse = ""))
    paste0("<h4>", html_escape(m$workload), "</h4>", html_disqualified(body, m$why))
  }, "")
  paste0(paste(blocks, collapse = "\n"), usl_table(models, over),
         if (any(models$disqualified)) html_p("Greyed rows: workloads whose runs' verdicts disqualify their throughput.", class = "why") else "")
}

render_compare_report <- function(cmp) {
  analyses <- cmp$analyses
  runs <- cmp$runs
  title <- if (!is.na(cmp$sweep_id)) paste("Sweep", cmp$sweep_id) else paste("Comparison", paste(runs$run, collapse = " / "))
  html_page(title, c(
    sprintf("<h1>%s</h1>", html_escape(title)),
    finding_html(compare_finding(cmp), cmp$verdict),
    if (!is.null(thrift_cost(cmp))) paste0("<h2>What the thrift layer costs</h2>", thrift_cost_table(thrift_cost(cmp)),
      html_p(paste("Per workload run both ways: throughput thrift / direct as the ratio of the medians, with the range its repeats allow",
                   "(lowest thrift / highest direct to highest / lowest); witness p50 and p99 added by thrift (medians); CPU per",
                   "request of the server side (HBase, gateway, shim) and of the client side, from each run's cpu.csv. Greyed: a",
                   "workload whose runs' verdicts do not all let their figures stand."), class = "meta")) else "",
    warmups_html(sweep_warmups(analyses, cmp$sweep_id)),
    capacity_box(cmp$capacity, cmp$slo),
    study_html(cmp$study),
    compare_runs_table(analyses, runs),
    if (nrow(cmp$skipped_runs) > 0) html_p(html_escape(paste0("Skipped: ", paste(sprintf("%s (%s)", cmp$skipped_runs$run, cmp$skipped_runs$reason), collapse = "; "), ".")), class = "flag") else "",
    html_p("Latencies: Grinder's whole-ms time; the witness columns are the HBase call at microsecond resolution (service time: closed loop). Runs are named by id, target, operations and threads.", class = "meta"),
    if (length(cmp$gate_results) > 0) paste0("<h2>SLO gates</h2>", compare_gates_table(cmp$gate_results, runs)) else "",
    "<h2>Side by side</h2>",
    compare_side_by_side(cmp$compared, runs),
    if (any(nzchar(runs$disqualifies))) html_p("Greyed rows: runs whose verdict disqualifies their figures (see the Verdict column).", class = "why") else "",
    "<h2>Like with like: deltas and ratios</h2>",
    compare_deltas(cmp$compared, runs),
    "<h3>Repeats of one workload</h3>",
    repeats_section(cmp$gstats),
    if (!is.null(cmp$contrasts) && nrow(cmp$contrasts[dimension != "target"]) > 0)
      paste0("<h3>Between workloads one dimension apart</h3>", contrast_table(cmp$contrasts[dimension != "target"], runs)) else "",
    "<h2>Percentile curves</h2>",
    html_img(cmp$plots$percentiles, "percentile curves of all runs"),
    if (nrow(cmp$scaling) > 0) paste0("<h2>Scaling</h2>",
                                      html_disqualified(paste0(html_img(cmp$plots$scaling_throughput, "throughput against threads"),
                                                               html_img(cmp$plots$scaling_latency, "latency against throughput"),
                                                               knee_text(cmp$scaling)),
                                                        scaling_why(cmp$scaling, runs)),
                                      if (!is.null(cmp$models$threads)) paste0(
                                        "<h3>Capacity model: the Universal Scalability Law over concurrent clients</h3>",
                                        html_p(sprintf(USL_INTRO, round(100 * USL_CONFIDENCE), USL_MIN_DISTINCT_N), class = "meta"),
                                        usl_section(cmp$models$threads, cmp$plots$usl, "threads")) else "")
    else html_p("One thread count per workload: no scaling chart and no knee.", class = "meta"),
    if (!is.null(cmp$models$servers)) paste0(
      "<h2>Capacity model over region servers</h2>",
      html_p(paste("The same law over cluster sizes (hbaseload.region.servers, recorded in the runs' manifests): each size's point is its",
                   "best measured concurrency (the thread count with the highest median throughput; sweep each size past its knee).",
                   "The servers a throughput needs are read from the fitted law (the target: the --slo throughput_rps gate), with the",
                   "interval at the corners of the parameters' intervals; beyond the sizes measured it is an extrapolation."), class = "meta"),
      usl_section(cmp$models$servers, cmp$plots$usl_servers, "region_servers")) else "",
    "<h2>Direct against thrift</h2>",
    direct_thrift_section(cmp$contrasts, runs, cmp$plots),
    "<h2 id=\"trust\">Can these numbers be trusted</h2>",
    html_p("Each run's checks; open the run's own report (report.R RUN) for the details."),
    html_table(data.table::rbindlist(lapply(seq_along(analyses), function(k) {
      analyses[[k]]$checks[, .(Run = runs$label[k], Check = check, Status = status, Result = result)]
    })), left = 1:4, nowrap = 1),
    "<h2>What the numbers mean</h2>",
    definitions(),
    html_p(sprintf("Generated %s by r-analysis/report.R; machine-readable: report.json.", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")), class = "meta")
  ))
}
