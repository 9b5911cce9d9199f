# repeat-drift.R - why repeats of one workload disagree, from what the suite recorded of the
# slowest and the fastest: HBase's own metrics (a memstore that fills over a sweep's puts makes the
# region server's GC pause longer and longer: bench/results/2026-11-28-demo-drift.md, 13 -> 49 ms a
# second over four runs), then the CPU accounting (steal and processes the run did not start, the
# server side's JIT). When none of them differs, the clause says so, with each run's server CPU
# per request: the repeats then disagree for a reason the suite does not see.

# Repeats this far apart (max / min throughput) are looked into.
REPEAT_DRIFT_RATIO <- 1.10
# A share of the CPU accounting (steal plus other processes, of the machine; JIT, of the server
# side) this many points higher in the slowest run than in the fastest: named as the difference.
REPEAT_DRIFT_CPU_POINTS <- 5
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

# The repeats ANALYSES (one workload's runs): "" unless their throughputs differ by REPEAT_DRIFT_RATIO;
# then what differs between the slowest and the fastest: HBase's GC (REPEAT_DRIFT_GC_FACTOR times as
# long), else the CPU accounting, else that nothing recorded does, e.g. "in run-8 HBase paused for GC
# 49 ms a second against 14 in run-5 (memstore 903 against 510 MB): the server changed between them".
repeat_drift_clause <- function(analyses) {
  if (length(analyses) < 2) return("")
  rps <- vapply(analyses, function(a) as.numeric(a$facts$throughput_rps %if_absent% NA_real_)[1], NA_real_)
  if (anyNA(rps) || min(rps) <= 0 || max(rps) / min(rps) < REPEAT_DRIFT_RATIO) return("")
  slow <- analyses[[which.min(rps)]]
  fast <- analyses[[which.max(rps)]]
  s <- run_server_state(slow)
  f <- run_server_state(fast)
  if (!is.na(s$gc) && !is.na(f$gc) && s$gc >= REPEAT_DRIFT_GC_MS && s$gc >= REPEAT_DRIFT_GC_FACTOR * f$gc) {
    memstore <- if (is.na(s$memstore) || is.na(f$memstore)) "" else
      sprintf(" (memstore %s against %s MB)", fmt_num(s$memstore, 0), fmt_num(f$memstore, 0))
    return(sprintf("in %s HBase paused for GC %s ms a second against %s in %s%s: the server changed between them",
                   slow$run_id, fmt_num(s$gc, 0), fmt_num(f$gc, 0), fast$run_id, memstore))
  }
  repeat_cpu_clause(slow, fast)
}

# The CPU accounting's part of repeat_drift_clause: "" when either run has none.
repeat_cpu_clause <- function(slow, fast) {
  s <- slow$facts$cpu
  f <- fast$facts$cpu
  if (is.null(s) || is.null(f)) return("")
  taken <- function(x) x$other_pct + x$steal_pct
  if (isTRUE(taken(s) - taken(f) >= REPEAT_DRIFT_CPU_POINTS)) {
    return(sprintf("in %s steal and processes the run did not start took %s%% of the machine against %s%% in %s: the machine changed between them",
                   slow$run_id, fmt_num(taken(s), 1), fmt_num(taken(f), 1), fast$run_id))
  }
  if (isTRUE(s$server$jit_pct - f$server$jit_pct >= REPEAT_DRIFT_CPU_POINTS)) {
    return(sprintf("in %s HBase's JIT took %s%% of the server side's CPU against %s%% in %s: the server was still compiling",
                   slow$run_id, fmt_num(s$server$jit_pct, 1), fmt_num(f$server$jit_pct, 1), fast$run_id))
  }
  us_slow <- side_us_per_request(s, "server")
  us_fast <- side_us_per_request(f, "server")
  cost <- if (us_slow > 0 && us_fast > 0) {
    sprintf("; HBase's CPU per request %s us in %s against %s in %s", fmt_num(us_slow, 0), slow$run_id, fmt_num(us_fast, 0), fast$run_id)
  } else ""
  sprintf("nothing recorded differs enough to say why (HBase's GC, steal, other processes, JIT)%s", cost)
}
