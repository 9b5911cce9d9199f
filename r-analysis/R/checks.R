# checks.R - "can these numbers be trusted": each check is a small pure function
# returning one row (check, status, result, meaning). status: ok | FLAG | info | n/a.

LITTLE_TOLERANCE <- 0.10
GAP_LIMIT_US <- 50
INJECTOR_CPU_LIMIT_PCT <- 85
CLOCK_TOLERANCE_MS <- 1000

check_row <- function(check, status, result, meaning) {
  data.table::data.table(check = check, status = status, result = result, meaning = meaning)
}

# Closed loop: every thread always has one request in flight, so X = N / R.
littles_law <- function(threads, mean_ms, throughput_rps) {
  predicted <- threads / (mean_ms / 1000)
  deviation <- throughput_rps / predicted - 1
  list(predicted_rps = predicted, deviation = deviation,
       flagged = !is.na(deviation) && abs(deviation) > LITTLE_TOLERANCE)
}

# The mean a latency check should use: Grinder's, unless its whole ms are too coarse.
precise_mean_ms <- function(row) {
  if (isTRUE(row$grinder_coarse) && !is.na(row$witness_mean_ms)) {
    list(value = row$witness_mean_ms, source = "witness mean (Grinder ms too coarse)")
  } else {
    list(value = row$mean_ms, source = "Grinder mean")
  }
}

check_warmup <- function(window) {
  check_row("warm-up cut", "info",
            sprintf("cut %.1f s after the first start (%s): %s requests dropped (%s), %s kept; measured window %.1f s of a %.1f s run",
                    window$warmup_ms / 1000, window$warmup_rule, fmt_int(window$warmup_requests),
                    fmt_pct(window$warmup_requests / (window$warmup_requests + window$measured_requests), 1),
                    fmt_int(window$measured_requests), window$window_s, window$run_s),
            "Statistics use only requests that started at or after the cut; the window runs from the first such start to the last such end.")
}

# The same law once each thread's time between requests is counted: the sum over threads of
# 1 / mean cycle (start to next start). Explains a shortfall when it lands within tolerance.
littles_law_with_cycles <- function(cycles, throughput_rps) {
  if (is.null(cycles) || nrow(cycles) == 0 || anyNA(cycles$cycle_us) || any(cycles$cycle_us <= 0)) return(NULL)
  predicted <- sum(1e6 / cycles$cycle_us)
  deviation <- throughput_rps / predicted - 1
  list(predicted_rps = predicted, deviation = deviation, mean_cycle_ms = mean(cycles$cycle_us) / 1000,
       mean_gap_ms = mean(cycles$gap_us) / 1000, explains = !is.na(deviation) && abs(deviation) <= LITTLE_TOLERANCE)
}

check_littles_law <- function(total, pacing = FALSE, cycles = NULL) {
  mean <- precise_mean_ms(total)
  law <- littles_law(total$threads, mean$value, total$throughput_rps)
  if (is.na(law$deviation)) {
    return(check_row("Little's law", "n/a", "no mean time or throughput", ""))
  }
  status <- if (pacing) "info" else if (law$flagged) "FLAG" else "ok"
  with_cycles <- if (law$flagged) littles_law_with_cycles(cycles, total$throughput_rps) else NULL
  cause <- if (is.null(with_cycles)) "" else sprintf(
    "; counting the time between requests (mean cycle %s ms, of which %s ms off the timer): %s req/s (%+.1f%%): %s",
    fmt_num(with_cycles$mean_cycle_ms, 3), fmt_num(with_cycles$mean_gap_ms, 3), fmt_num(with_cycles$predicted_rps, 1),
    100 * with_cycles$deviation,
    if (with_cycles$explains) "the shortfall is the off-timer gap" else "not explained by the off-timer gap either")
  check_row("Little's law", status,
            sprintf("threads / mean = %s / %s ms = %s req/s; measured %s req/s (%+.1f%%, tolerance 10%%; %s)%s",
                    fmt_int(total$threads), fmt_num(mean$value, 3), fmt_num(law$predicted_rps, 1),
                    fmt_num(total$throughput_rps, 1), 100 * law$deviation, mean$source, cause),
            paste("A closed loop of N threads each waiting for its request gives throughput = N / mean time.",
                  "Measured below that: threads spent time outside the timed call (script, think time, off-timer gap),",
                  "were idle or starting, or the thread count is wrong. When flagged, the law is tried again with",
                  "each thread's measured cycle (start to next start); if that matches, the time went between",
                  "requests: on a saturated injector, threads wait there for CPU (more injectors or fewer threads per worker).",
                  if (pacing) "Pacing was on, so threads wait on purpose and the law is only indicative." else ""))
}

check_overhead <- function(summary) {
  rows <- summary[!is.na(overhead_us)]
  if (nrow(rows) == 0) return(check_row("tool overhead", "n/a", "no witness column in the logs", ""))
  heavy <- rows[test != "total" & overhead_us > 0.1 * witness_mean_ms * 1000]
  check_row("tool overhead", if (nrow(heavy) > 0) "FLAG" else "ok",
            paste(sprintf("%s %s us", rows$test, fmt_num(rows$overhead_us, 1)), collapse = "; "),
            paste("Mean Grinder time minus mean witness, in microseconds: what the tool adds around the HBase call.",
                  "Flagged when above 10% of the witness mean.",
                  "Grinder's time is whole ms, so this is an average, meaningful over many requests."))
}

# Per thread: the cycle resolution is 1 ms / (requests - 1) since start times are whole ms.
offtimer_gap <- function(cycles) {
  if (nrow(cycles) == 0) return(NULL)
  resolution_us <- 1000 / (cycles$requests - 1)
  over <- cycles$gap_us - resolution_us > GAP_LIMIT_US
  list(threads = nrow(cycles), mean_us = mean(cycles$gap_us), median_us = stats::median(cycles$gap_us),
       max_us = max(cycles$gap_us), threads_over = sum(over), witness_based = all(cycles$witness_based))
}

check_offtimer_gap <- function(cycles, pacing = FALSE) {
  gap <- offtimer_gap(cycles)
  if (is.null(gap)) return(check_row("off-timer gap", "n/a", "no thread with 2 or more measured requests", ""))
  status <- if (pacing) "info" else if (gap$threads_over > 0) "FLAG" else "ok"
  check_row("off-timer gap", status,
            sprintf("mean %s us, median %s us, worst %s us over %d threads; %d above %d us%s",
                    fmt_num(gap$mean_us, 1), fmt_num(gap$median_us, 1), fmt_num(gap$max_us, 1), gap$threads,
                    gap$threads_over, GAP_LIMIT_US,
                    if (gap$witness_based) "" else " (no witness: from Grinder's whole-ms mean, coarse)"),
            paste("Per thread: mean cycle (last start - first start) / (requests - 1) minus the mean witness:",
                  "time between the end of one request and the start of the next, Grinder's overhead included.",
                  "It silently lowers the offered load when the script is slow. A thread is flagged when its gap",
                  "exceeds 50 us beyond the ms-timestamp resolution.",
                  if (pacing) "Pacing was on: the gap includes intended waits." else ""))
}

check_injector_cpu <- function(metrics, window) {
  if (is.null(metrics)) return(check_row("injector CPU", "n/a", "no metrics.csv in the run", ""))
  during <- metrics[time_ms >= window$run_start_ms & time_ms <= window$run_end_ms & !is.na(cpu_busy_pct)]
  if (nrow(during) == 0) return(check_row("injector CPU", "n/a", "no host metrics during the run", ""))
  by_host <- during[, .(max_busy = max(cpu_busy_pct), seconds_over = sum(cpu_busy_pct > INJECTOR_CPU_LIMIT_PCT)),
                    keyby = .(host, injector)]
  hot <- by_host[injector == TRUE & max_busy > INJECTOR_CPU_LIMIT_PCT]
  check_row("injector CPU", if (nrow(hot) > 0) "FLAG" else if (any(by_host$injector)) "ok" else "n/a",
            paste(sprintf("%s%s max %s%% (%d s above 85%%)", by_host$host,
                          ifelse(by_host$injector, "", " (not an injector)"), fmt_num(by_host$max_busy, 0),
                          by_host$seconds_over), collapse = "; "),
            "An injector above 85% CPU delays its own requests: latency and throughput then measure the injector.")
}

check_pacing <- function(summary, has_lag, manifest_pacing) {
  if (!has_lag) {
    if (isTRUE(manifest_pacing)) {
      return(check_row("latency from intended start", "FLAG", "manifest says pacing was on, but no log has a 'Lag (us)' column",
                       "Without the lag, latencies hide the time requests waited for the injector (coordinated omission)."))
    }
    return(check_row("latency from intended start", "n/a", "pacing off (no 'Lag (us)' column)",
                     "Closed loop: each thread waits for its request, so there is no intended start to measure from."))
  }
  rows <- summary[!is.na(intended_p99_ms)]
  behind <- rows[intended_p99_ms > 1.1 * pmax(p99_ms, witness_p99_ms, na.rm = TRUE)]
  check_row("latency from intended start", if (nrow(behind) > 0) "FLAG" else "ok",
            paste(sprintf("%s p99 %s ms from intended start vs %s ms measured", rows$test,
                          fmt_num(rows$intended_p99_ms, 2), fmt_num(rows$p99_ms, 2)), collapse = "; "),
            paste("Pacing on: latency from intended start = Lag + Test time. Flagged when its p99 is over 10% above",
                  "the measured p99: the injector fell behind schedule and the plain latencies understate the wait."))
}

# Requests before the run started (by the manifest's clock) or after it ended show a host
# clock offset; the spread of first starts across hosts hints at one.
check_clock_offsets <- function(hosts, manifest) {
  start_ms <- parse_iso8601_ms(manifest$start_time)
  end_ms <- parse_iso8601_ms(manifest$end_time)
  if (nrow(hosts) < 2 && is.na(start_ms) && is.na(end_ms)) {
    return(check_row("clock offsets", "n/a", "one host and no manifest start/end time: offsets not visible", ""))
  }
  early <- if (is.na(start_ms)) rep(NA_real_, nrow(hosts)) else start_ms - hosts$first_start_ms
  late <- if (is.na(end_ms)) rep(NA_real_, nrow(hosts)) else hosts$last_end_ms - end_ms
  offending <- (!is.na(early) & early > CLOCK_TOLERANCE_MS) | (!is.na(late) & late > CLOCK_TOLERANCE_MS)
  spread_s <- (max(hosts$first_start_ms) - min(hosts$first_start_ms)) / 1000
  details <- sprintf("%s first start %+.3f s%s", hosts$host, (hosts$first_start_ms - min(hosts$first_start_ms)) / 1000,
                     ifelse(!is.na(early) & early > CLOCK_TOLERANCE_MS, sprintf(" (%.1f s before the run started: clock behind)", early / 1000),
                            ifelse(!is.na(late) & late > CLOCK_TOLERANCE_MS, sprintf(" (%.1f s after the run ended: clock ahead)", late / 1000), "")))
  check_row("clock offsets", if (any(offending)) "FLAG" else if (spread_s > 1) "info" else "ok",
            paste(details, collapse = "; "),
            paste("Each host stamps starts with its own clock. Requests outside the manifest's start/end show an offset;",
                  "first starts spread over more than 1 s across hosts may be an offset or a staggered start.",
                  "Per-second timelines merge hosts, so offsets smear them."))
}

check_skipped <- function(skipped, files) {
  if (nrow(skipped) == 0) return(check_row("skipped lines", "ok", sprintf("none; %d data logs read", nrow(files)), ""))
  by_reason <- skipped[, .(lines = sum(lines)), by = reason]
  check_row("skipped lines", "FLAG",
            paste(sprintf("%s: %s", by_reason$reason, fmt_int(by_reason$lines)), collapse = "; "),
            "Lines that could not be read as requests were left out; see 'Input' for the files.")
}

check_witness <- function(files) {
  with_requests <- files[requests > 0]
  missing <- with_requests[has_witness == FALSE]
  if (nrow(missing) == 0) return(check_row("witness", "ok", "every log has a 'Witness (us)' column", ""))
  check_row("witness", "FLAG", sprintf("%d of %d logs have no 'Witness (us)' column (%s)", nrow(missing),
                                       nrow(with_requests), paste(utils::head(missing$rel_path, 5), collapse = ", ")),
            "Without the witness only Grinder's whole-ms time is known: no overhead, no sub-ms percentiles.")
}

check_threads <- function(threads_seen, manifest_threads) {
  if (is.null(manifest_threads) || is.na(manifest_threads)) {
    return(check_row("thread count", "info", sprintf("%d distinct threads (host + worker + thread) in the logs; no manifest threads_total", threads_seen), ""))
  }
  check_row("thread count", if (manifest_threads != threads_seen) "FLAG" else "ok",
            sprintf("manifest threads_total %d; %d distinct threads in the logs", manifest_threads, threads_seen),
            "A difference means logs are missing or threads never ran; the table uses the manifest's count.")
}

check_blackouts <- function(seconds) {
  measured <- seconds[measured == TRUE]
  n <- sum(measured$blackout)
  check_row("blackouts", if (n > 0) "FLAG" else "ok",
            sprintf("%d blackout second%s in the measured window (%d in the whole run)", n, if (n == 1) "" else "s",
                    sum(seconds$blackout)),
            "A second with threads running and no request completed: a stall (GC, region move, network) worth explaining.")
}

check_resolution <- function(summary) {
  coarse <- summary[grinder_coarse == TRUE & test != "total", test]
  if (length(coarse) == 0) return(check_row("Grinder resolution", "ok", "Grinder p90 >= 5 ms (or no witness) for every test", ""))
  check_row("Grinder resolution", "info", sprintf("too coarse for %s: read the witness percentiles", paste(coarse, collapse = ", ")),
            "Grinder's Test time is whole ms; below a p90 of 5 ms its percentiles are steps of 1 ms.")
}

check_manifest <- function(manifest) {
  if (!isTRUE(manifest$found)) return(check_row("manifest", "info", "no manifest.json: thread count from the logs, no run times", ""))
  if (!is.na(manifest$error)) return(check_row("manifest", "FLAG", paste("manifest.json unreadable:", manifest$error), ""))
  status <- if (is.null(manifest$status)) "not recorded" else as.character(manifest$status)
  check_row("manifest", if (identical(status, "incomplete")) "FLAG" else "ok",
            paste0("status ", status, if (!is.null(manifest$reason)) paste0(" (", manifest$reason, ")") else ""), "")
}
