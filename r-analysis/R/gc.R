# gc.R - the workers' own garbage-collection pauses (injectors/<host>/<host>-gc.<pid>.log, written by
# -Xlog:gc:file=...:utctime, see lifecycle RunPlanner.workerJvmArguments): a pause stops every
# thread of the worker, so its requests in flight take that much longer, the tool's time, not HBase's.

GC_LINE <- "^\\[([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3})([+-][0-9]{4})\\] GC\\([0-9]+\\) (Pause [A-Za-z ]+?) (\\(.*\\) )?.*[^0-9.]([0-9.]+)ms$"
GC_MAX_PAUSE_MS <- 100      # one pause this long is a latency spike of the tool's own making
GC_MAX_SHARE <- 0.02        # share of the measured window a worker spent paused

# Every pause of every worker: host, worker (pid), time_ms (UTC, end of the pause), pause_ms, kind.
read_gc_logs <- function(run_dir) {
  paths <- list.files(run_dir, pattern = "-gc\\.[0-9]+\\.log$", recursive = TRUE, full.names = TRUE)
  parts <- lapply(paths, function(path) {
    lines <- tryCatch(readLines(path, warn = FALSE), error = function(e) character())
    hits <- regmatches(lines, regexec(GC_LINE, lines, perl = TRUE))
    hits <- hits[lengths(hits) > 0]
    if (length(hits) == 0) return(NULL)
    m <- do.call(rbind, hits)
    offset_min <- (as.integer(substr(m[, 3], 2, 3)) * 60 + as.integer(substr(m[, 3], 4, 5))) * ifelse(substr(m[, 3], 1, 1) == "-", -1, 1)
    stamp <- as.POSIXct(m[, 2], format = "%Y-%m-%dT%H:%M:%OS", tz = "UTC")
    data.table::data.table(host = basename(dirname(path)), worker = sub("^.*-gc\\.([0-9]+)\\.log$", "\\1", basename(path)),
                           time_ms = round((as.numeric(stamp) - offset_min * 60) * 1000),
                           pause_ms = as.numeric(m[, 6]), kind = trimws(m[, 4]))
  })
  gc <- data.table::rbindlist(parts)
  if (nrow(gc) == 0) NULL else gc[!is.na(time_ms) & !is.na(pause_ms)]
}

check_worker_gc <- function(gc, window, workers) {
  if (is.null(gc)) return(check_row("worker GC", "n/a", "no worker GC logs (<host>-gc.<pid>.log) in the run", "", unit = "ms"))
  during <- gc[time_ms >= window$window_start_ms & time_ms <= window$window_end_ms]
  window_ms <- window$window_end_ms - window$window_start_ms
  n_workers <- max(1L, workers, data.table::uniqueN(gc[, .(host, worker)]))
  before <- gc[time_ms < window$window_start_ms]
  outside <- if (nrow(before) > 0) sprintf("; before the window: %d pause%s, longest %s ms (%s)", nrow(before), if (nrow(before) == 1) "" else "s",
                                           fmt_num(max(before$pause_ms), 0), before[which.max(pause_ms), kind]) else ""
  if (nrow(during) == 0) {
    return(check_row("worker GC", "ok", paste0("no pause in the measured window", outside), gc_meaning(), value = 0, unit = "ms"))
  }
  by_worker <- during[, .(n = .N, total = sum(pause_ms), longest = max(pause_ms)), keyby = .(host, worker)]
  share <- sum(by_worker$total) / (n_workers * window_ms)
  check_row("worker GC", if (max(by_worker$longest) > GC_MAX_PAUSE_MS || share > GC_MAX_SHARE) "FLAG" else "ok",
            paste0(paste(sprintf("%s (pid %s): %d pause%s, %s ms in all, longest %s ms", by_worker$host, by_worker$worker, by_worker$n,
                                 ifelse(by_worker$n == 1, "", "s"), fmt_num(by_worker$total, 1), fmt_num(by_worker$longest, 1)),
                         collapse = "; "),
                   sprintf("; %s of the window", fmt_pct(share, 2)), outside),
            gc_meaning(), value = max(by_worker$longest), unit = "ms")
}

gc_meaning <- function() sprintf(paste("A GC pause stops every thread of the worker: requests in flight take that much longer, the tool's time.",
                            "Flagged for a pause over %d ms or pauses over %s of the measured window."),
                      GC_MAX_PAUSE_MS, fmt_pct(GC_MAX_SHARE, 0))

# Pause milliseconds per worker host and second, for the host-metrics timeline: every second of
# the run and 30 s either side, 0 where there was none (a line between two pauses would be drawn).
gc_per_second <- function(gc, window, margin_s = 30) {
  if (is.null(gc)) return(NULL)
  paused <- gc[, .(value = sum(pause_ms)), by = .(host, second = floor((time_ms - window$run_start_ms) / 1000))]
  every <- data.table::CJ(host = unique(gc$host), second = seq(-margin_s, ceiling((window$run_end_ms - window$run_start_ms) / 1000) + margin_s))
  paused[every, on = .(host, second)][is.na(value), value := 0][]
}
