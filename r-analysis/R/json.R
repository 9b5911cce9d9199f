# json.R - report.json: what the HTML says, for machines (CI gates, later models). One versioned
# structure for runs, comparisons and sweeps; every field is documented in r-analysis/README.md.
# Adding fields keeps schema 1; renaming or removing one bumps it.

REPORT_JSON_SCHEMA <- 1L

# Tables become arrays of objects; NaN and infinities become null like NA.
json_rows <- function(dt) {
  if (is.null(dt) || nrow(dt) == 0) return(list())
  out <- as.data.frame(dt, stringsAsFactors = FALSE)
  for (col in names(out)) if (is.double(out[[col]])) out[[col]][!is.finite(out[[col]])] <- NA
  out
}

json_number <- function(x) if (is.null(x) || length(x) == 0 || !is.finite(x)) NA_real_ else unname(x)

# The CPU accounting in the first and the last third of the trend (cpu_thirds), or null.
cpu_thirds_json <- function(t) {
  if (is.null(t)) return(NULL)
  side <- function(x) list(jit_pct = json_number(x$jit_pct), gc_pct = json_number(x$gc_pct), us_per_request = json_number(x$us_per_request))
  third <- function(x) list(steal_pct = json_number(x$steal_pct), other_pct = json_number(x$other_pct),
                            server = side(x$server), client = side(x$client))
  list(first = third(t$first), last = third(t$last))
}

json_time <- function(ms) if (is.na(ms)) NA_character_ else format(as.POSIXct(ms / 1000, origin = "1970-01-01", tz = "UTC"), "%Y-%m-%dT%H:%M:%OS3Z")

# A run's verdict also carries its reasons: each flagged kind, its check and the clause it gave.
verdict_json <- function(v) {
  out <- list(kind = v$kind, sentence = v$sentence, kinds = I(v$kinds), disqualifies = I(v$disqualifies))
  if (!is.null(v$reasons)) out$reasons <- json_rows(v$reasons)
  out
}

checks_json <- function(checks) {
  json_rows(checks[, .(name = check, status, value, unit, detail = result, meaning)])
}

gates_json <- function(slo, gates) {
  if (is.null(gates)) return(NULL)
  list(expression = slo, terms = json_rows(gates))
}

gate_results_json <- function(results) {
  if (is.null(results)) return(NULL)
  json_rows(results[, .(term, test, metric, op, threshold, value, status)])
}

# One run's part: identity, workload, verdict, window, steady state, client cost, checks, tests, gates.
run_json <- function(a, gate_results = NULL) {
  w <- a$window
  total <- a$summary[test == "total"]
  out <- list(
    run = a$run_id, label = a$label, dir = a$run_dir, target = a$target, sweep_id = a$sweep_id,
    status = if (is.null(a$manifest$status)) NA_character_ else as.character(a$manifest$status),
    workload = as.list(a$workload),
    verdict = verdict_json(a$verdict),
    window = list(run_start = json_time(w$run_start_ms), run_end = json_time(w$run_end_ms), run_s = w$run_s,
                  warmup_s = w$warmup_ms / 1000, warmup_rule = w$warmup_rule, warmup_detected = w$warmup_detected,
                  window_start = json_time(w$window_start_ms), window_end = json_time(w$window_end_ms), window_s = w$window_s,
                  measured_requests = w$measured_requests, warmup_requests = w$warmup_requests),
    steady_state = list(judged = a$trend$judged, seconds = a$trend$seconds,
                        time_to_steady_s = json_number(a$trend$time_to_steady_s),
                        throughput_change = json_number(a$trend$throughput_change),
                        latency_change = json_number(a$trend$latency_change), tolerance = STEADY_TREND_TOLERANCE),
    client_cost = list(offtimer_gap_us = json_number(a$facts$client$gap_us), hbase_us = json_number(a$facts$client$hbase_us),
                       gap_ratio = json_number(a$facts$client$ratio), client_bound_ratio = CLIENT_BOUND_GAP_RATIO,
                       overhead_us = json_number(total$overhead_us), overhead_ci95_us = json_number(total$overhead_ci95_us)),
    closed_loop = !isTRUE(a$pacing),
    cpu = cpu_json(a$facts$cpu),
    checks = checks_json(a$checks),
    tests = json_rows(a$summary),
    gates = gate_results_json(gate_results),
    gates_met = if (is.null(gate_results)) NA else all(gate_results$met)
  )
  out$steady_state$cpu_thirds <- cpu_thirds_json(a$facts$trend_cpu)   # runs with CPU accounting only
  if (!is.null(a$facts$audit)) out$audit <- audit_json(a$facts$audit)   # audited runs only: others' report.json is unchanged
  out$faults <- faults_json(a$faults)   # only a run with a fault schedule has the field
  out
}

# report.json's faults: the schedule, the definitions' constants and one row per action (faults.R); NULL without.
faults_json <- function(faults) {
  if (is.null(faults)) return(NULL)
  list(schedule = faults$schedule, deadline_ms = faults$deadline_ms, baseline_s = FAULT_BASELINE_S,
       recovered_share = FAULT_RECOVERED_SHARE, recovery_hold_s = FAULT_RECOVERY_HOLD_S, actions = json_rows(faults$effects))
}

report_json_document <- function(report, id, verdict, runs, slo = NA_character_, gates = NULL, exit_status = 0L,
                                 capacity = NULL, comparison = NULL) {
  doc <- list(schema = REPORT_JSON_SCHEMA, report = report, id = id,
              generated_at = format(Sys.time(), "%Y-%m-%dT%H:%M:%SZ", tz = "UTC"), generator = "r-analysis/report.R",
              verdict = verdict_json(verdict), gates = gates_json(slo, gates), exit_status = exit_status, runs = runs)
  if (report != "run") {
    doc$capacity <- capacity
    doc$comparison <- comparison
  }
  doc
}

write_report_json <- function(doc, path) {
  writeLines(jsonlite::toJSON(doc, auto_unbox = TRUE, na = "null", null = "null", digits = NA, pretty = TRUE), path, useBytes = TRUE)
  invisible(path)
}

capacity_json <- function(cap) {
  if (is.null(cap)) return(NULL)
  list(throughput_rps = json_number(cap$throughput_rps), lower_bound = cap$lower_bound, run = cap$run, label = cap$label, verdict = cap$verdict,
       runs_meeting_gates = cap$runs_meeting, runs = cap$runs, by_workload = json_rows(cap$by_workload))
}

comparison_json <- function(cmp) {
  knees <- if (nrow(cmp$scaling) > 0) cmp$scaling[knee == TRUE] else NULL
  list(
    baselines = json_rows(cmp$baselines),
    groups = json_rows(cmp$gstats[, .(group, workload = group_label, test, runs, n_runs, threads, latency = metric,
                                      throughput_min, throughput_median, throughput_max, mean_ms_min = mean_min,
                                      mean_ms_median = mean_median, mean_ms_max = mean_max, p99_ms_min = p99_min,
                                      p99_ms_median = p99_median, p99_ms_max = p99_max)]),
    contrasts = if (is.null(cmp$contrasts)) list() else json_rows(cmp$contrasts[, .(
      dimension, direction, workload_numerator = workload_num, workload_denominator = workload_den, test,
      runs_numerator = runs_num, runs_denominator = runs_den, latency = metric,
      throughput_ratio, mean_ratio, p99_ratio, throughput_spread, mean_spread, order = order_note)]),
    scaling = if (nrow(cmp$scaling) == 0) list() else json_rows(cmp$scaling[, .(
      workload = scaling_label, test, threads, runs, latency = metric, throughput_median, throughput_min, throughput_max,
      mean_ms_median = mean_median, p90_ms_median = p90_median, p99_ms_median = p99_median, knee)]),
    knee = if (is.null(knees) || nrow(knees) == 0) list() else json_rows(knees[, .(
      workload = scaling_label, test, threads, runs, throughput_rps = throughput_median, mean_ms = mean_median)]),
    usl = usl_json(cmp$models$threads, "threads"),
    usl_servers = usl_json(cmp$models$servers, "servers"),
    skipped_runs = json_rows(cmp$skipped_runs)
  )
}

# The capacity model: one object per workload and target. peak: "threads" (peak_threads) or
# "servers" (peak_servers). Infinite values (no peak, an unbounded interval) are null.
usl_json <- function(models, peak) {
  if (is.null(models) || nrow(models) == 0) return(list())
  lapply(seq_len(nrow(models)), function(k) {
    m <- models[k]
    out <- list(workload = m$workload, target = m$target, runs = m$runs, status = m$status, message = m$message,
                points = m$points, distinct_n = m$distinct_n, n_min = json_number(m$n_min), n_max = json_number(m$n_max),
                confidence = m$confidence)
    for (col in c("lambda", "lambda_low", "lambda_high", "sigma", "sigma_low", "sigma_high", "kappa", "kappa_low", "kappa_high")) {
      out[[col]] <- json_number(m[[col]])
    }
    for (suffix in c("", "_low", "_high")) out[[paste0("peak_", peak, suffix)]] <- json_number(m[[paste0("peak_n", suffix)]])
    for (suffix in c("", "_low", "_high")) out[[paste0("peak_throughput", suffix)]] <- json_number(m[[paste0("peak_throughput", suffix)]])
    out$peak_position <- m$peak_position
    out$dominant_cost <- m$dominant_cost
    out$r_squared <- json_number(m$r_squared)
    out$disqualified <- m$disqualified
    out$why <- m$why
    if (peak == "threads") {
      gate <- m$latency_gate[[1]]
      out["latency_gate"] <- list(if (is.null(gate)) NULL else list(
        status = gate$status, gates = I(gate$gates), message = gate$message, threads = json_number(gate$threads),
        threads_low = json_number(gate$threads_low), threads_high = json_number(gate$threads_high),
        throughput_rps = json_number(gate$throughput_rps), extrapolation = gate$extrapolation,
        best_threads = json_number(gate$best_threads), best_throughput_rps = json_number(gate$best_throughput_rps),
        measured_threads = json_number(gate$measured_threads), measured_throughput_rps = json_number(gate$measured_throughput_rps),
        measured_runs = gate$measured_runs))
    } else {
      out$target_throughput_rps <- json_number(m$target_throughput_rps)
      out$servers_needed <- json_number(m$servers_needed)
      out$servers_needed_low <- json_number(m$servers_needed_low)
      out$servers_needed_high <- json_number(m$servers_needed_high)
      out$servers_needed_status <- m$servers_needed_status
      out$servers_needed_message <- m$servers_needed_message
    }
    out
  })
}
