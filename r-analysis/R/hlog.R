# hlog.R - the workers' HdrHistogram interval logs (<host>-<n>.hlog: the witness of every
# request, per test, one interval a second), merged exactly by the run's finaliser into
# <run>/report-input/: hlog-summary.csv (per test and total: count, errors, mean, sd and
# percentiles in us, the data logs' count beside), hlog-seconds.csv (per second and test) and
# hlog-workers.csv (per worker, against its data log). Here they are read, cross-checked against
# the data logs, and, for a run that wrote no data log (hbaseload.datalog=off), made into the
# summary on their own.

HLOG_INPUT_DIR <- "report-input"
# HdrHistogram with 3 significant digits: exact below 2048 us, and above it a value is reported
# as the highest of its bucket, at most 1/1024 above the true value.
HLOG_RELATIVE_PRECISION <- 1 / 1024
HLOG_QUANTITIES <- c("count", "mean", "p50", "p90", "p95", "p99", "p999", "max")   # names(PERCENTS), summarise.R

# list(summary, seconds, workers) from <run>/report-input, or NULL when the run has no interval logs.
read_hlog_input <- function(run_dir) {
  path <- function(name) file.path(run_dir, HLOG_INPUT_DIR, name)
  if (!file.exists(path("hlog-summary.csv"))) return(NULL)
  read <- function(name) {
    if (!file.exists(path(name))) return(NULL)
    table <- tryCatch(data.table::fread(path(name)),
                      error = function(e) stop_report("cannot read ", path(name), ": ", one_line(conditionMessage(e))))
    if ("test" %in% names(table)) table[, test := as.character(test)]
    table
  }
  summary <- read("hlog-summary.csv")
  need <- c("test", "name", "count", "errors", "mean_us", paste0(names(PERCENTS), "_us"), "max_us", "datalog_count")
  missing <- setdiff(need, names(summary))
  if (length(missing) > 0) stop_report(path("hlog-summary.csv"), " lacks the column(s) ", paste(missing, collapse = ", "))
  list(summary = summary, seconds = read("hlog-seconds.csv"), workers = read("hlog-workers.csv"))
}

# Whether an HdrHistogram value h stands for the exact value d: equal, or above it by less than
# its bucket's width.
hlog_agrees <- function(h, d) {
  !is.na(h) & !is.na(d) & h >= d & (h - d) <= pmax(0, floor(d * HLOG_RELATIVE_PRECISION))
}

# The witness statistics of every request in the data logs (no warm-up cut: the interval logs
# hold every request too), per test and total, in microseconds.
datalog_witness_stats <- function(requests) {
  if (is.null(requests) || nrow(requests) == 0 || !"witness_us" %in% names(requests)) return(NULL)
  stats <- stats_from_counts(latency_counts(requests, "witness_us"))
  if (is.null(stats)) return(NULL)
  stats[, test := data.table::fifelse(is.na(test), "total", as.character(test))]
  stats[]
}

# One row per test and quantity: the interval logs' value beside the data logs', and whether
# they agree (counts exactly; mean within 0.1%; percentiles and max within HdrHistogram's
# precision). datalog: datalog_witness_stats(), or NULL when the run wrote no data log.
hlog_crosscheck <- function(hlog, datalog) {
  s <- hlog$summary
  long <- data.table::rbindlist(lapply(HLOG_QUANTITIES, function(q) {
    column <- if (q == "count") "count" else paste0(q, "_us")
    data.table::data.table(test = s$test, name = s$name, quantity = q, hlog = as.numeric(s[[column]]))
  }))
  if (is.null(datalog)) {
    long[, `:=`(datalog = NA_real_, agree = NA)]
    return(long[])
  }
  d <- data.table::melt(datalog[, c("test", HLOG_QUANTITIES), with = FALSE], id.vars = "test",
                        variable.name = "quantity", value.name = "datalog", variable.factor = FALSE)
  out <- merge(long, d, by = c("test", "quantity"), all.x = TRUE, sort = FALSE)
  out[, agree := data.table::fifelse(quantity == "count", !is.na(datalog) & hlog == datalog,
                 data.table::fifelse(quantity == "mean", !is.na(datalog) & abs(hlog - datalog) <= pmax(0.001, datalog * HLOG_RELATIVE_PRECISION),
                                     hlog_agrees(hlog, datalog)))]
  out[, order := match(quantity, HLOG_QUANTITIES)]
  data.table::setorder(out, test, order)
  out[, order := NULL][]
}

# The check row: counts equal and values within precision, or what differs.
check_hlog <- function(cross, hlog) {
  meaning <- paste("Each worker also records every request's witness in an HdrHistogram interval log; merged exactly,",
                   "they must count the same requests as the data logs, with percentiles equal within HdrHistogram's 0.1%.")
  if (is.null(hlog)) return(check_row("interval logs", "n/a", "no interval logs (report-input/hlog-summary.csv) in this run", meaning))
  workers <- hlog$workers
  if (is.null(cross) || all(is.na(cross$datalog))) {
    return(check_row("interval logs", "info", sprintf("%s requests in %d interval log(s); no data log to compare with",
                                                      fmt_int(hlog$summary[test == "total", count]), if (is.null(workers)) 0L else nrow(workers)), meaning))
  }
  bad <- cross[agree %in% FALSE | is.na(agree)]
  cut <- if (!is.null(workers) && "problem" %in% names(workers)) workers[nzchar(problem) & !is.na(problem)] else NULL
  total <- cross[test == "total" & quantity == "count"]
  if (nrow(bad) == 0 && (is.null(cut) || nrow(cut) == 0)) {
    return(check_row("interval logs", "ok", sprintf("%s requests in both; mean, percentiles and max agree within 0.1%%",
                                                    fmt_int(total$hlog)), meaning, total$hlog, "requests"))
  }
  said <- sprintf("%s %s: %s against %s", bad$name, bad$quantity, as.character(round(bad$hlog, 3)), as.character(round(bad$datalog, 3)))
  if (!is.null(cut) && nrow(cut) > 0) said <- c(said, sprintf("%s %s", cut$worker, cut$problem))
  check_row("interval logs", "FLAG", paste("interval logs against data logs differ:", paste(utils::head(said, 6), collapse = "; ")),
            meaning, nrow(bad), "differences")
}

# What the report adds for a run with interval logs: the cross-check table and the check row.
hlog_for_run <- function(run_dir, requests) {
  hlog <- read_hlog_input(run_dir)
  cross <- if (is.null(hlog)) NULL else hlog_crosscheck(hlog, datalog_witness_stats(requests))
  list(input = hlog, cross = cross, check = check_hlog(cross, hlog))
}

# The cross-check as HTML: per test, each quantity from the interval logs beside the data logs'.
hlog_section <- function(h) {
  if (is.null(h) || is.null(h$input)) return(html_p("No interval logs (report-input/hlog-summary.csv) in this run.", class = "meta"))
  x <- h$cross
  fmt <- function(v, q) ifelse(is.na(v), "-", ifelse(q == "count", fmt_int(v), ifelse(q == "mean", sprintf("%.1f", v), sprintf("%.0f", v))))
  cells <- data.table::data.table(test = x$name, quantity = ifelse(x$quantity == "count", "requests", paste(x$quantity, "(us)")),
                                  `interval logs` = fmt(x$hlog, x$quantity), `data logs` = fmt(x$datalog, x$quantity),
                                  agree = ifelse(is.na(x$agree), "-", ifelse(x$agree, "yes", "NO")))
  tagList(tags$h3("Interval logs against data logs"),
         html_p("The witness of every request (whole run, no warm-up cut), from the workers' HdrHistogram interval logs merged",
                " exactly and from the data logs. Counts must be equal; a percentile from the interval logs is the highest value",
                " of its HdrHistogram bucket, exact below 2048 us and at most 0.1% above the true value beyond.", class = "meta"),
         html_table(cells, left = 2, cell_class = matrix(ifelse(cells$agree == "NO", "FLAG", NA), nrow(cells), ncol(cells))))
}

# ---- a run without data logs (hbaseload.datalog=off): the summary from the interval logs alone

# summary.csv's rows from hlog-summary.csv: counts, errors and the witness statistics; the
# columns of Grinder's Test time, the warm-up cut and the per-thread figures stay NA, since
# only the data log has them. Throughput over the seconds the interval logs cover.
hlog_summary_table <- function(hlog, threads) {
  s <- data.table::copy(hlog$summary)
  seconds <- hlog$seconds
  window_s <- if (is.null(seconds) || nrow(seconds) == 0) NA_real_ else
    as.numeric(nrow(seconds[count > 0, .N, by = second]))
  ms <- function(column) as.numeric(s[[column]]) / 1000
  table <- data.table::data.table(test = ifelse(s$test == "total", "total", s$name), threads = threads, count = as.numeric(s$count),
                                  errors = as.numeric(s$errors))
  for (col in c("mean_ms", "sd_ms", paste0(names(PERCENTS), "_ms"), "max_ms", "overhead_us")) table[, (col) := NA_real_]
  table[, `:=`(throughput_rps = throughput_rps(count, window_s), witness_mean_ms = ms("mean_us"), witness_sd_ms = ms("sd_us"))]
  for (p in c(names(PERCENTS), "max")) table[, (paste0("witness_", p, "_ms")) := ms(paste0(p, "_us"))]
  table[, `:=`(test_number = suppressWarnings(as.integer(s$test)), error_rate = errors / count, witness_count = count,
               window_s = window_s, source = "interval logs")]
  table[, c(SUMMARY_COLUMNS, "test_number", "error_rate", "witness_count", "window_s", "source"), with = FALSE]
}

# The report of a run that wrote no data logs: summary.csv and a short index.html from the
# interval logs, saying what is missing. Returns write_run_report's shape.
write_hlog_only_report <- function(run_dir, run_id, manifest, out_dir) {
  hlog <- read_hlog_input(run_dir)
  if (is.null(hlog)) stop_report("no valid requests in ", run_dir, " and no interval logs (report-input/hlog-summary.csv)")
  threads <- suppressWarnings(as.integer(manifest$threads_total %if_absent% NA))
  summary <- hlog_summary_table(hlog, threads)
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(out_dir)) stop_report("cannot create ", out_dir)
  write_summary_csv(summary, file.path(out_dir, "summary.csv"))
  h <- list(input = hlog, cross = hlog_crosscheck(hlog, NULL), check = check_hlog(NULL, hlog))
  note <- paste("This run wrote no data logs (hbaseload.datalog=off): every figure comes from the workers' interval logs,",
                "the witness of every request over the whole run. Grinder's Test time, the warm-up cut, the per-thread",
                "cycles and the tool's overhead need the data logs and are not shown.")
  html <- html_page(paste("Capacity report", run_id), html_lines(
    tags$h1(paste("Capacity report:", run_id)),
    html_p(note, class = "note"),
    tags$h2("Results (interval logs)"),
    percentile_table(summary, "witness_", 3),
    html_p(sprintf("Throughput: requests over the %s seconds in which the interval logs recorded requests.",
                   fmt_int(summary$window_s[1])), class = "meta"),
    tags$h2(id = "trust", "Can these numbers be trusted"),
    checks_table(h$check),
    hlog_section(h)))
  writeLines(html, file.path(out_dir, "index.html"), useBytes = TRUE)
  list(written = file.path(out_dir, c("index.html", "summary.csv")), exit_status = 0L,
       said = "verdict: none (no data logs; summary from the interval logs alone)", table = character())
}
