# gates.R - service-level gates (--slo) and the capacity they define, as k6's thresholds do:
# the report is always written; report.R exits 99 when a gate fails.
#
#   --slo 'p99_ms<50,error_rate<0.001,throughput_rps>=2000,get.witness_p99_ms<=5'
# A term is [TEST.]METRIC OP NUMBER: TEST a test name of the run (get, put, batch-get ...; default
# total), METRIC any numeric summary.csv column, OP one of < <= > >=. A gate whose test or value is
# missing from a run cannot hold there: it fails ("no data").

GATE_OPERATORS <- c("<=", ">=", "<", ">")
GATE_FAILED_STATUS <- 99L

# Numeric summary.csv columns a gate may name.
gate_metrics <- function() setdiff(c(SUMMARY_COLUMNS, SUMMARY_EXTRA_COLUMNS), c("test", "test_number", "grinder_coarse"))

# "p99_ms<50,get.error_rate<0.001" -> data.table(term, test, metric, op, threshold). A bad term is
# a report_error naming it.
parse_slo <- function(text) {
  terms <- trimws(strsplit(text, ",", fixed = TRUE)[[1]])
  if (grepl(",\\s*$", text)) terms <- c(terms, "")   # strsplit drops a trailing empty term
  if (length(terms) == 0 || !nzchar(trimws(text))) stop_report("--slo is empty; want e.g. 'p99_ms<50,error_rate<0.001'")
  pattern <- "^(?:([A-Za-z0-9_-]+)\\.)?([A-Za-z0-9_]+)\\s*(<=|>=|<|>)\\s*([-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?)$"
  rows <- lapply(terms, function(term) {
    if (!nzchar(term)) stop_report("bad --slo term '' (an empty term: a stray comma?) in '", text, "'")
    m <- regmatches(term, regexec(pattern, term, perl = TRUE))[[1]]
    if (length(m) == 0) {
      stop_report("bad --slo term '", term, "': want [TEST.]METRIC OP NUMBER with OP one of < <= > >= (e.g. get.p99_ms<5)")
    }
    if (!m[3] %in% gate_metrics()) {
      stop_report("bad --slo term '", term, "': unknown metric '", m[3], "' (a numeric summary.csv column: ",
                  paste(gate_metrics(), collapse = ", "), ")")
    }
    data.table::data.table(term = term, test = if (nzchar(m[2])) m[2] else "total", metric = m[3], op = m[4],
                           threshold = as.numeric(m[5]))
  })
  data.table::rbindlist(rows)
}

compare_op <- function(value, op, threshold) {
  switch(op, "<" = value < threshold, "<=" = value <= threshold, ">" = value > threshold, ">=" = value >= threshold)
}

# Every gate against one run's summary: value, met, status pass | fail | no data.
evaluate_gates <- function(gates, summary) {
  if (is.null(gates) || nrow(gates) == 0) return(NULL)
  out <- data.table::copy(gates)
  # looked up outside data.table scoping: summary has a "test" column of its own
  row_of <- match(out$test, summary$test)
  out[, value := vapply(seq_len(.N), function(i) {
    if (is.na(row_of[i]) || !metric[i] %in% names(summary)) NA_real_ else as.numeric(summary[[metric[i]]][row_of[i]])
  }, 0)]
  out[, met := !is.na(value) & mapply(compare_op, value, op, threshold)]
  out[, status := data.table::fifelse(is.na(value), "no data", data.table::fifelse(met, "pass", "fail"))]
  out[]
}

# Capacity: the highest total throughput among the runs meeting every gate, overall and per
# workload (all dimensions but threads). runs: comparison_runs(); gate_results: per run.
capacity <- function(runs, stacked, gate_results) {
  if (length(gate_results) == 0) return(NULL)
  met <- vapply(runs$run, function(id) isTRUE(all(gate_results[[id]]$met)), NA)
  totals <- stacked[test == "total", .(run, throughput_rps)]
  eligible <- runs[met][totals, on = "run", nomatch = NULL]
  none <- list(throughput_rps = NA_real_, run = NA_character_, label = NA_character_, verdict = NA_character_,
               lower_bound = NA, runs_meeting = 0L, runs = nrow(runs), by_workload = NULL)
  if (nrow(eligible) == 0) return(none)
  best <- eligible[which.max(throughput_rps)]
  by_workload <- eligible[, .SD[which.max(throughput_rps)], by = scaling_key][, .(workload = scaling_label, run, label, threads = as.numeric(threads),
                                                                                   throughput_rps, verdict)]
  list(throughput_rps = best$throughput_rps, run = best$run, label = best$label, verdict = best$verdict,
       lower_bound = best$verdict %in% LOWER_BOUND_KINDS,
       runs_meeting = nrow(eligible), runs = nrow(runs), by_workload = by_workload)
}

# Exit status: a run fails when any gate fails; a comparison or sweep when no run meets every
# gate (no capacity). Without gates: 0.
gates_exit_status <- function(gate_results, mode) {
  if (length(gate_results) == 0) return(0L)
  met <- vapply(gate_results, function(g) isTRUE(all(g$met)), NA)
  failed <- if (mode == "run") !all(met) else !any(met)
  if (failed) GATE_FAILED_STATUS else 0L
}
