# repeat-drift.R - why repeats of one workload disagree, when HBase's own metrics say the server
# changed between them. A memstore that fills over a sweep's puts makes the region server's GC
# pause longer and longer (bench/results/2026-11-28-demo-drift.md: 13 -> 49 ms a second over four
# runs); the slower repeat then measured another server, not the tool's spread.

# Repeats this far apart (max / min throughput) are looked into.
REPEAT_DRIFT_RATIO <- 1.10
# The slowest run's region servers paused for GC at least this many times as long per second as the
# fastest run's, and at least REPEAT_DRIFT_GC_MS ms per second (1% of the time): the server changed.
REPEAT_DRIFT_GC_FACTOR <- 2
REPEAT_DRIFT_GC_MS <- 10

# One run's region servers over its measured window: GC pause ms per second (their mean) and the
# memstore they held at its end (their sum, MB); NA without server metrics.
run_server_state <- function(a) {
  stats <- a$facts$server$stats
  rs <- if (is.null(stats)) NULL else stats[role == "regionserver" & answered > 0]
  if (is.null(rs) || nrow(rs) == 0) return(list(gc = NA_real_, memstore = NA_real_))
  list(gc = mean(rs$gc_ms_per_s, na.rm = TRUE),
       memstore = if (all(is.na(rs$memstore_mb_last))) NA_real_ else sum(rs$memstore_mb_last, na.rm = TRUE))
}

# The repeats ANALYSES (one workload's runs): "" unless their throughputs differ by REPEAT_DRIFT_RATIO
# and the slowest run's server paused for GC REPEAT_DRIFT_GC_FACTOR times as long as the fastest's,
# e.g. "in run-8 HBase paused for GC 49 ms a second against 14 in run-5 (memstore 903 against 510 MB):
# the server changed between them".
repeat_drift_clause <- function(analyses) {
  if (length(analyses) < 2) return("")
  rps <- vapply(analyses, function(a) as.numeric(a$facts$throughput_rps %if_absent% NA_real_)[1], NA_real_)
  if (anyNA(rps) || min(rps) <= 0 || max(rps) / min(rps) < REPEAT_DRIFT_RATIO) return("")
  slow <- analyses[[which.min(rps)]]
  fast <- analyses[[which.max(rps)]]
  s <- run_server_state(slow)
  f <- run_server_state(fast)
  if (is.na(s$gc) || is.na(f$gc) || s$gc < REPEAT_DRIFT_GC_MS || s$gc < REPEAT_DRIFT_GC_FACTOR * f$gc) return("")
  memstore <- if (is.na(s$memstore) || is.na(f$memstore)) "" else
    sprintf(" (memstore %s against %s MB)", fmt_num(s$memstore, 0), fmt_num(f$memstore, 0))
  sprintf("in %s HBase paused for GC %s ms a second against %s in %s%s: the server changed between them",
          slow$run_id, fmt_num(s$gc, 0), fmt_num(f$gc, 0), fast$run_id, memstore)
}
