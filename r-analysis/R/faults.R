# faults.R - a run's fault schedule (runs/run-N/faults.csv, written by lifecycle's FaultExecutor:
# lifecycle/README.md, "faults.csv") set against its requests: where each action fell on the run's
# timeline and what it did to the service until the next action (or the run's end).
#
# Per action: time to the first failed request, seconds without a successful one, time back to
# FAULT_RECOVERED_SHARE of the successful throughput of the FAULT_BASELINE_S before it (held for
# FAULT_RECOVERY_HOLD_S seconds), errors, calls past their deadline (Test time over hbaseload.timeout.ms)
# and past its bound (over the deadline plus the worker's watchdog grace, 10%, at least 100 ms, at
# most 1 s, plus the time its interrupt takes to land: such a call was not bounded as promised).
# Seconds are counted from the action, whole seconds only; a request belongs to the second it ended in.

FAULT_BASELINE_S <- 10
FAULT_RECOVERED_SHARE <- 0.9
FAULT_RECOVERY_HOLD_S <- 3
# The worker's watchdog interrupts a call this long after its deadline (README, hbaseload.timeout.ms),
# and its interrupt lands within FAULT_INTERRUPT_SLACK_MS (16-80 ms measured here, 2026-11-27, on
# calls to a killed region server): a call longer than past_bound_ms() was not bounded as promised.
watchdog_grace_ms <- function(deadline_ms) min(max(0.1 * deadline_ms, 100), 1000)
FAULT_INTERRUPT_SLACK_MS <- 100
past_bound_ms <- function(deadline_ms) deadline_ms + watchdog_grace_ms(deadline_ms) + FAULT_INTERRUPT_SLACK_MS
FAULT_COLUMNS <- c("at_s", "time_ms", "action", "regionserver", "for_s", "pid", "outcome", "load_start_ms", "detail")

# faults.csv as a data.table in time order (NULL when the run has none); rows that did not happen have no time.
read_faults <- function(run_dir) {
  path <- file.path(run_dir, "faults.csv")
  if (!file.exists(path)) return(NULL)
  f <- data.table::fread(path, colClasses = list(numeric = c("at_s", "time_ms", "for_s", "pid", "load_start_ms"),
                                                 character = c("action", "outcome", "detail"), integer = "regionserver"))
  missing <- setdiff(FAULT_COLUMNS, names(f))
  if (length(missing) > 0) stop_report(path, " lacks the column(s) ", paste(missing, collapse = ", "))
  data.table::setorder(f, time_ms, at_s, na.last = TRUE)
  f[]
}

# The faults' effects. faults: read_faults(); end_ms, failed, time_ms: one entry per request (its end,
# whether it failed, its Grinder time); run_start_ms: the first request's start; deadline_ms: the
# client's bound on a call. One row per action (resumes are the end of their pause, not actions).
fault_effects <- function(faults, end_ms, failed, time_ms, run_start_ms, deadline_ms = NA_real_) {
  actions <- faults[action != "resume"]
  actions[, fault := seq_len(.N)]
  done <- actions[outcome == "done" & !is.na(time_ms)]
  run_end_ms <- max(end_ms) + 1   # the last request is inside the last action's span
  ok_end <- sort(end_ms[!failed])
  rows <- lapply(seq_len(nrow(actions)), function(k) {
    a <- actions[k]
    if (a$outcome != "done" || is.na(a$time_ms)) return(fault_row(a, run_start_ms))
    later <- done[time_ms > a$time_ms, time_ms]
    next_ms <- if (length(later) > 0) min(later) else run_end_ms
    fault_row(a, run_start_ms, fault_window(a$time_ms, next_ms, end_ms, failed, time_ms, ok_end, run_start_ms, deadline_ms),
              if (length(later) > 0) "the next action" else "the run's end")
  })
  data.table::rbindlist(rows, use.names = TRUE)
}

# One action's row; window: fault_window() of an action that happened, NULL otherwise.
fault_row <- function(a, run_start_ms, window = NULL, until = NA_character_) {
  na <- NA_real_
  w <- if (is.null(window)) list(window_s = na, baseline_rps = na, baseline_s = na, first_error_s = na, no_success_s = na,
                                 recovery_s = na, recovered = NA, min_rps = na, requests = na, errors = na, past_deadline = na,
                                 past_bound = na) else window
  data.table::data.table(
    fault = a$fault, at_s = a$at_s, second = if (is.na(a$time_ms)) na else (a$time_ms - run_start_ms) / 1000,
    action = a$action, regionserver = a$regionserver, for_s = a$for_s, pid = a$pid, outcome = a$outcome, detail = a$detail,
    until = until, window_s = w$window_s, baseline_rps = w$baseline_rps, baseline_s = w$baseline_s, first_error_s = w$first_error_s,
    no_success_s = w$no_success_s, recovery_s = w$recovery_s, recovered = w$recovered, min_rps = w$min_rps,
    requests = w$requests, errors = w$errors, past_deadline = w$past_deadline, past_bound = w$past_bound)
}

# The statistics of the span [at_ms, next_ms): see the file's opening comment.
fault_window <- function(at_ms, next_ms, end_ms, failed, time_ms, ok_end, run_start_ms, deadline_ms) {
  inside <- end_ms >= at_ms & end_ms < next_ms
  errors_at <- end_ms[inside & failed]
  base_from <- max(at_ms - FAULT_BASELINE_S * 1000, run_start_ms)
  baseline_s <- (at_ms - base_from) / 1000
  baseline_n <- sum(ok_end >= base_from & ok_end < at_ms)
  baseline_rps <- if (baseline_s > 0) baseline_n / baseline_s else NA_real_
  n_bins <- as.integer((next_ms - at_ms) %/% 1000)
  ok_in <- ok_end[ok_end >= at_ms & ok_end < at_ms + n_bins * 1000]
  per_second <- tabulate(as.integer((ok_in - at_ms) %/% 1000) + 1L, nbins = n_bins)
  recovery <- recovery_second(per_second, FAULT_RECOVERED_SHARE * baseline_rps)
  list(window_s = (next_ms - at_ms) / 1000, baseline_rps = baseline_rps, baseline_s = baseline_s,
       first_error_s = if (length(errors_at) > 0) (min(errors_at) - at_ms) / 1000 else NA_real_,
       no_success_s = sum(per_second == 0), recovery_s = recovery$second, recovered = recovery$recovered,
       min_rps = if (n_bins > 0) min(per_second) else NA_real_,
       requests = sum(inside), errors = length(errors_at),
       past_deadline = if (is.na(deadline_ms)) NA_real_ else sum(inside & time_ms > deadline_ms),
       past_bound = if (is.na(deadline_ms)) NA_real_ else sum(inside & time_ms > past_bound_ms(deadline_ms)))
}

# The second (from the action) from which the successes per second stay at THRESHOLD or more for
# FAULT_RECOVERY_HOLD_S seconds (fewer at the window's end), after the first second below it. 0 when
# throughput never fell below it; NA (recovered FALSE) when it did not come back within the window.
recovery_second <- function(per_second, threshold) {
  if (is.na(threshold) || threshold <= 0 || length(per_second) == 0) return(list(second = NA_real_, recovered = NA))
  below <- which(per_second < threshold)
  if (length(below) == 0) return(list(second = 0, recovered = TRUE))
  n <- length(per_second)
  for (k in seq.int(below[1] + 1L, length.out = max(0L, n - below[1]))) {
    hold <- k:min(n, k + FAULT_RECOVERY_HOLD_S - 1L)
    if (all(per_second[hold] >= threshold)) return(list(second = k - 1, recovered = TRUE))
  }
  list(second = NA_real_, recovered = FALSE)
}

# The client's bound on a call (hbaseload.timeout.ms, grinder.properties' default when not recorded).
deadline_of <- function(manifest) {
  v <- suppressWarnings(as.numeric(manifest$properties[["hbaseload.timeout.ms"]] %if_absent% "10000"))
  if (is.na(v)) 10000 else v
}

# Pauses as spans on the timeline (seconds since the first request): from each pause to its resume.
pause_spans <- function(faults, run_start_ms) {
  pauses <- faults[action == "pause" & outcome == "done" & !is.na(time_ms)]
  if (nrow(pauses) == 0) return(data.table::data.table(start = numeric(), end = numeric()))
  resumes <- faults[action == "resume" & !is.na(time_ms)]
  pauses[, resumed_ms := vapply(seq_len(.N), function(i) {
    r <- resumes[pid == pauses$pid[i] & time_ms >= pauses$time_ms[i], time_ms]
    if (length(r) > 0) min(r) else pauses$time_ms[i] + 1000 * pauses$for_s[i]
  }, 0)]
  pauses[, .(start = (time_ms - run_start_ms) / 1000, end = (resumed_ms - run_start_ms) / 1000)]
}

# The check the verdict reads: FLAG when the run carried out a fault schedule (its figures then
# describe the service through the faults); the manifest's schedule, or "" for a folder without one.
check_faults <- function(effects, manifest) {
  if (is.null(effects)) return(NULL)
  schedule <- as.character(manifest$faults$schedule %if_absent% "")
  done <- sum(effects$outcome == "done")
  check_row("faults", if (done > 0) "FLAG" else "ok",
            sprintf("%d of %d actions done%s", done, nrow(effects), if (nzchar(schedule)) sprintf(" (schedule %s)", schedule) else ""),
            "The run's own fault schedule: its figures describe HBase through the faults it asked for (faults.csv, the faults table).",
            value = done, unit = "actions")
}

# The verdict's clause for a run under faults: the schedule and the worst effect.
faults_clause <- function(facts) {
  e <- facts$faults
  done <- e[outcome == "done"]
  worst <- if (nrow(done) > 0) done[order(-no_success_s, -errors)][1] else NULL
  effect <- if (is.null(worst)) "" else {
    sprintf("; after %s regionserver=%d at %.1f s: %s, %s s without a success, %s", worst$action, worst$regionserver, worst$second,
            if (is.na(worst$first_error_s)) "no error" else sprintf("first error %.1f s later", worst$first_error_s),
            fmt_int(worst$no_success_s), recovery_text(worst))
  }
  sprintf("the run went through its fault schedule (%s): %d of %d actions done, %s of %s requests failed%s",
          facts$faults_schedule %if_absent% "see faults.csv", nrow(done), nrow(e), fmt_int(sum(e$errors, na.rm = TRUE)),
          fmt_int(facts$window$measured_requests + facts$window$warmup_requests), effect)
}

recovery_text <- function(f) {
  if (isTRUE(f$recovered) && f$recovery_s == 0) return("throughput never under 90% of the 10 s before")
  if (isTRUE(f$recovered)) return(sprintf("back to 90%% of its throughput after %s s", fmt_int(f$recovery_s)))
  if (is.na(f$recovered)) return("no throughput before it to recover to")
  sprintf("not back to 90%% of its throughput before %s", f$until)
}
