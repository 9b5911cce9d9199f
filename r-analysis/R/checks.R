# checks.R - "can these numbers be trusted": each check is a small pure function
# returning one row (check, status, result, meaning, value, unit). status: ok | FLAG | info | n/a.
# value is the check's headline number (NA when it has none), in unit; report.json carries both.
# The verdict (verdict.R) is read from these rows.

LITTLE_TOLERANCE <- 0.10
GAP_LIMIT_US <- 50
INJECTOR_CPU_LIMIT_PCT <- 85
CLOCK_TOLERANCE_MS <- 1000
MAX_ERROR_RATE <- 0.01          # above 1% failed requests, latencies and throughput describe failures
MIN_WINDOW_S <- 10              # a shorter measured window cannot show a steady level
MIN_MEASURED_REQUESTS <- 1000   # fewer requests make p99 a handful of samples
CLIENT_BOUND_GAP_RATIO <- 1.0   # off-timer gap >= HBase time per request: the injector sets the pace
OVERHEAD_LIMIT_FRACTION <- 0.10 # tool overhead flagged above 10% of the witness mean
# manifest injector_mode values whose injector hosts are all this one machine
SHARED_MACHINE_MODES <- c("namespaces", "loopback")
SHARED_BUSY_PCT <- 75           # shared machine's mean CPU busy over the window: HBase and the
                                # injectors then compete for it (README, ./suite bench peers)

check_row <- function(check, status, result, meaning, value = NA_real_, unit = "") {
  data.table::data.table(check = check, status = status, result = result, meaning = meaning,
                         value = as.numeric(value), unit = unit)
}

# TRUE when the manifest says every injector host is this one machine (namespaces, loopback).
shared_machine <- function(manifest) isTRUE(as.character(manifest$injector_mode %if_absent% "") %in% SHARED_MACHINE_MODES)

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
            paste("Statistics use only requests that started at or after the cut; the window runs from the first such start",
                  "to the last such end. The cut is detected from the per-second throughput and latency (see 'What the numbers",
                  "mean'); --warmup SECONDS overrides it."),
            value = window$warmup_ms / 1000, unit = "s")
}

check_window <- function(window) {
  short <- window$window_s < MIN_WINDOW_S || window$measured_requests < MIN_MEASURED_REQUESTS
  check_row("window length", if (short) "FLAG" else "ok",
            sprintf("measured window %.1f s, %s requests (minimum %d s and %s requests)", window$window_s,
                    fmt_int(window$measured_requests), MIN_WINDOW_S, fmt_int(MIN_MEASURED_REQUESTS)),
            "A shorter window cannot show a steady level, and a few requests make the tail percentiles a handful of samples.",
            value = window$window_s, unit = "s")
}

check_errors <- function(summary) {
  total <- summary[test == "total"]
  status <- if (total$error_rate > MAX_ERROR_RATE) "FLAG" else "ok"
  check_row("errors", status,
            sprintf("%s of %s requests failed (%s; limit %s)", fmt_int(total$errors), fmt_int(total$count),
                    fmt_pct(total$error_rate, 3), fmt_pct(MAX_ERROR_RATE, 0)),
            "Latency statistics include failed requests; above the limit they describe failures as much as service.",
            value = total$error_rate, unit = "fraction")
}

# The same law once each thread's time between requests is counted: the sum over threads of
# 1 / mean cycle (start to next start). Explains a shortfall when it lands within tolerance.
littles_law_with_cycles <- function(cycles, throughput_rps) {
  if (is.null(cycles) || nrow(cycles) == 0 || anyNA(cycles$cycle_us) || any(cycles$cycle_us <= 0)) return(NULL)
  predicted <- sum(1e6 / cycles$cycle_us)
  deviation <- throughput_rps / predicted - 1
  # The cycle printed is the one the prediction uses: threads / predicted (harmonic mean of the cycles).
  list(predicted_rps = predicted, deviation = deviation, mean_cycle_ms = nrow(cycles) / predicted * 1000,
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
    "; counting the time between requests (threads / sum of 1 / cycle: mean cycle %s ms; mean off-timer gap %s ms): %s req/s (%+.1f%%): %s",
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
                  if (pacing) "Pacing was on, so threads wait on purpose and the law is only indicative." else ""),
            value = law$deviation, unit = "fraction")
}

check_overhead <- function(summary) {
  rows <- summary[!is.na(overhead_us)]
  if (nrow(rows) == 0) return(check_row("tool overhead", "n/a", "no witness column in the logs", ""))
  heavy <- rows[test != "total" & overhead_us > OVERHEAD_LIMIT_FRACTION * witness_mean_ms * 1000]
  below_zero <- rows[overhead_us + data.table::fcoalesce(overhead_ci95_us, 0) < 0]
  check_row("tool overhead", if (nrow(heavy) > 0) "FLAG" else "ok",
            paste0(paste(sprintf("%s %s us", rows$test, fmt_pm(rows$overhead_us, rows$overhead_ci95_us, 1)), collapse = "; "),
                   if (nrow(below_zero) > 0) sprintf(" (below zero beyond its interval for %s: the ms clock ran slow against nanoTime)",
                                                     paste(below_zero$test, collapse = ", ")) else ""),
            paste("Mean over requests of Grinder time x 1000 - witness, in microseconds: what the tool adds inside its timer",
                  "around the HBase call, with its 95% interval (1.96 sd / sqrt(n) of the per-request differences).",
                  "Grinder's time is whole ms, so each request's difference is off by up to 1 ms and only the mean of many",
                  "means something; a negative value within its interval is zero. Flagged above 10% of the witness mean.",
                  "The time the client spends between requests is the off-timer gap, below."),
            value = rows[test == "total", overhead_us], unit = "us")
}

# x +- half-width, e.g. "3.1 +- 2.0"; just x when there is no interval.
fmt_pm <- function(x, half, digits = 1) {
  ifelse(is.na(half), fmt_num(x, digits), paste0(fmt_num(x, digits), " \u00b1 ", fmt_num(half, digits)))
}

# Per thread: the cycle resolution is 1 ms / (requests - 1) since start times are whole ms.
offtimer_gap <- function(cycles) {
  if (nrow(cycles) == 0) return(NULL)
  resolution_us <- 1000 / (cycles$requests - 1)
  over <- cycles$gap_us - resolution_us > GAP_LIMIT_US
  # a thread's requests follow one another: a gap below zero beyond the resolution means its
  # timings disagree (the witness longer than the time between starts), not a fast client
  under <- cycles$gap_us + resolution_us < 0
  list(threads = nrow(cycles), mean_us = mean(cycles$gap_us), median_us = stats::median(cycles$gap_us),
       max_us = max(cycles$gap_us), min_us = min(cycles$gap_us), threads_over = sum(over), threads_under = sum(under),
       witness_based = all(cycles$witness_based))
}

check_offtimer_gap <- function(cycles, pacing = FALSE) {
  gap <- offtimer_gap(cycles)
  if (is.null(gap)) return(check_row("off-timer gap", "n/a", "no thread with 2 or more measured requests", ""))
  status <- if (gap$threads_under > 0) "FLAG" else if (pacing) "info" else if (gap$threads_over > 0) "FLAG" else "ok"
  check_row("off-timer gap", status,
            sprintf("mean %s us, median %s us, worst %s us over %d threads; %d above %d us%s%s",
                    fmt_num(gap$mean_us, 1), fmt_num(gap$median_us, 1), fmt_num(gap$max_us, 1), gap$threads,
                    gap$threads_over, GAP_LIMIT_US,
                    if (gap$threads_under > 0) sprintf("; %d below zero beyond the ms resolution (lowest %s us): the witness is longer than the time between starts, the timings disagree",
                                                       gap$threads_under, fmt_num(gap$min_us, 1)) else "",
                    if (gap$witness_based) "" else " (no witness: from Grinder's whole-ms mean, coarse)"),
            paste("Per thread: (last start - first start - the witnesses of every request but the last) / (requests - 1):",
                  "time between the end of one request and the start of the next, Grinder's overhead included.",
                  "It silently lowers the offered load when the script is slow. A thread is flagged when its gap",
                  "exceeds 50 us beyond the ms-timestamp resolution, and when it is below zero beyond it (timings that disagree).",
                  if (pacing) "Pacing was on: the gap includes intended waits." else ""),
            value = gap$mean_us, unit = "us")
}

# The client's cost per request against the HBase time: mean off-timer gap / mean witness (or
# Grinder mean without a witness). At or above CLIENT_BOUND_GAP_RATIO the injector, not HBase,
# sets the pace of a closed loop.
client_cost <- function(cycles, summary) {
  gap <- offtimer_gap(cycles)
  total <- summary[test == "total"]
  hbase_us <- if (!is.na(total$witness_mean_ms)) total$witness_mean_ms * 1000 else total$mean_ms * 1000
  if (is.null(gap) || is.na(hbase_us) || hbase_us <= 0) return(NULL)
  list(gap_us = gap$mean_us, hbase_us = hbase_us, ratio = gap$mean_us / hbase_us,
       hbase_source = if (!is.na(total$witness_mean_ms)) "witness" else "Grinder mean")
}

check_client_cost <- function(cycles, summary, pacing = FALSE) {
  cost <- client_cost(cycles, summary)
  if (is.null(cost)) return(check_row("client cost", "n/a", "no thread with 2 or more measured requests", "", unit = "ratio"))
  status <- if (pacing) "info" else if (cost$ratio >= CLIENT_BOUND_GAP_RATIO) "FLAG" else "ok"
  check_row("client cost", status,
            sprintf("%s us per request off the timer against %s us of HBase time (%s): ratio %s; client-bound at %s",
                    fmt_num(cost$gap_us, 0), fmt_num(cost$hbase_us, 0), cost$hbase_source, fmt_num(cost$ratio, 2),
                    fmt_num(CLIENT_BOUND_GAP_RATIO, 2)),
            paste("The mean off-timer gap is what the client costs per request on top of the HBase call. When it is as long",
                  "as the call itself, the threads spend at least half their time in the injector: throughput and",
                  "comparisons then measure the injector, not HBase.",
                  if (pacing) "Pacing was on: the gap includes intended waits, so this is only indicative." else ""),
            value = cost$ratio, unit = "ratio")
}

# Injectors on the HBase machine, and that machine's CPU busy through the measured window:
# throughput is then what the machine gives HBase and the injectors together, and every CPU
# second of the injector is one HBase did not get (measured: the suite reached 0.7-0.9 of PE's
# throughput on this 2-core machine while its client CPU per request was 1.3-1.8x PE's).
# isolated: the lab's note when HBase has CPUs of its own (then nothing is shared with it).
check_shared_cpu <- function(metrics, window, shared, isolated = NULL) {
  if (!is.null(isolated)) return(check_row("shared CPU", "n/a", paste("an isolated lab:", isolated), "", unit = "%"))
  if (!shared) return(check_row("shared CPU", "n/a", "the injectors are not on one machine with HBase", "", unit = "%"))
  if (is.null(metrics)) return(check_row("shared CPU", "n/a", "no metrics.csv in the run", "", unit = "%"))
  # every host's metrics are this machine's: one value a second is enough
  during <- metrics[time_ms >= window$window_start_ms & time_ms <= window$window_end_ms & !is.na(cpu_busy_pct)]
  if (nrow(during) == 0) return(check_row("shared CPU", "n/a", "no host metrics in the measured window", "", unit = "%"))
  busy <- mean(during[, .(busy = max(cpu_busy_pct)), by = .(second = time_ms %/% 1000)]$busy)
  check_row("shared CPU", if (busy >= SHARED_BUSY_PCT) "FLAG" else "ok",
            sprintf("the machine running HBase and the injectors was %s%% busy on average over the measured window (flagged from %d%%)",
                    fmt_num(busy, 0), SHARED_BUSY_PCT),
            paste("The injectors are namespaces or loopback agents of the machine that runs HBase. When its CPU is busy,",
                  "HBase and the injectors compete for it: throughput is what the machine gives both, a lower bound of HBase's own,",
                  "and a cheaper or dearer injector moves it. Compare runs of the same injector setup; put the injectors on",
                  "other hosts to measure HBase's capacity."),
            value = busy, unit = "%")
}

# CPU a hypervisor gave to other guests while this run measured: the host's clock ran on while its
# CPUs did not, so latency includes time no code ran (the study's "the OS lies" one layer down).
STEAL_MEAN_LIMIT_PCT <- 5
STEAL_SECOND_LIMIT_PCT <- 20

check_steal <- function(metrics, window) {
  if (is.null(metrics) || all(is.na(metrics$cpu_steal_pct))) {
    return(check_row("CPU steal", "n/a", "no steal column in metrics.csv (written before it was sampled, or not Linux)", "", unit = "%"))
  }
  during <- metrics[time_ms >= window$window_start_ms & time_ms <= window$window_end_ms & !is.na(cpu_steal_pct)]
  if (nrow(during) == 0) return(check_row("CPU steal", "n/a", "no host metrics in the measured window", "", unit = "%"))
  by_host <- during[, .(mean = mean(cpu_steal_pct), max = max(cpu_steal_pct)), keyby = host]
  flagged <- by_host[mean >= STEAL_MEAN_LIMIT_PCT | max >= STEAL_SECOND_LIMIT_PCT]
  check_row("CPU steal", if (nrow(flagged) > 0) "FLAG" else "ok",
            paste(sprintf("%s mean %s%%, max %s%%", by_host$host, fmt_num(by_host$mean, 1), fmt_num(by_host$max, 0)), collapse = "; "),
            sprintf(paste("Time the hypervisor ran other guests on this host's CPUs (flagged from a mean of %d%% or any second at %d%%):",
                          "latency then includes time no code ran, and throughput what the VM was given."),
                    STEAL_MEAN_LIMIT_PCT, STEAL_SECOND_LIMIT_PCT),
            value = max(by_host$mean), unit = "%")
}

# isolated: as for check_shared_cpu. The host metrics count the whole machine, the server CPUs
# too: the client CPU check (cpu.R) judges the injector side on its own CPUs instead.
check_injector_cpu <- function(metrics, window, shared = FALSE, isolated = NULL) {
  if (!is.null(isolated)) {
    return(check_row("injector CPU", "n/a", paste("an isolated lab: the client CPU check judges the injector side on its own CPUs",
                                                  "(the host metrics count the whole machine, the server CPUs too)"), "", unit = "%"))
  }
  if (is.null(metrics)) return(check_row("injector CPU", "n/a", "no metrics.csv in the run", ""))
  during <- metrics[time_ms >= window$run_start_ms & time_ms <= window$run_end_ms & !is.na(cpu_busy_pct)]
  if (nrow(during) == 0) return(check_row("injector CPU", "n/a", "no host metrics during the run", ""))
  by_host <- during[, .(max_busy = max(cpu_busy_pct), seconds_over = sum(cpu_busy_pct > INJECTOR_CPU_LIMIT_PCT)),
                    keyby = .(host, injector)]
  hot <- by_host[injector == TRUE & max_busy > INJECTOR_CPU_LIMIT_PCT]
  check_row("injector CPU", if (nrow(hot) > 0) "FLAG" else if (any(by_host$injector)) "ok" else "n/a",
            paste0(paste(sprintf("%s%s max %s%% (%d s above 85%%)", by_host$host,
                                 ifelse(by_host$injector, "", " (not an injector)"), fmt_num(by_host$max_busy, 0),
                                 by_host$seconds_over), collapse = "; "),
                   if (shared) "; every host is this one machine, shared with HBase: its CPU is HBase's too" else ""),
            paste("An injector above 85% CPU delays its own requests: latency and throughput then measure the injector.",
                  if (shared) "Here the injectors are namespaces or loopback agents of one machine that also runs HBase, so a busy CPU may be HBase's; the client cost check says whether the client itself was slow." else ""),
            value = if (any(by_host$injector)) max(by_host[injector == TRUE, max_busy]) else NA_real_, unit = "%")
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
                  "the measured p99: the injector fell behind schedule and the plain latencies understate the wait."),
            value = rows[test == "total", intended_p99_ms], unit = "ms")
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
                  "Per-second timelines merge hosts, so offsets smear them."),
            value = spread_s, unit = "s")
}

check_skipped <- function(skipped, files) {
  if (nrow(skipped) == 0) return(check_row("skipped lines", "ok", sprintf("none; %d data logs read", nrow(files)), "", value = 0, unit = "lines"))
  by_reason <- skipped[, .(lines = sum(lines)), by = reason]
  check_row("skipped lines", "FLAG",
            paste(sprintf("%s: %s", by_reason$reason, fmt_int(by_reason$lines)), collapse = "; "),
            "Lines that could not be read as requests were left out; see 'Input' for the files.",
            value = sum(by_reason$lines), unit = "lines")
}

check_witness <- function(files) {
  with_requests <- files[requests > 0]
  missing <- with_requests[has_witness == FALSE]
  if (nrow(missing) == 0) return(check_row("witness", "ok", "every log has a 'Witness (us)' column", "", value = 0, unit = "logs without"))
  check_row("witness", "FLAG", sprintf("%d of %d logs have no 'Witness (us)' column (%s)", nrow(missing),
                                       nrow(with_requests), paste(utils::head(missing$rel_path, 5), collapse = ", ")),
            "Without the witness only Grinder's whole-ms time is known: no overhead, no sub-ms percentiles.",
            value = nrow(missing), unit = "logs without")
}

check_threads <- function(threads_seen, manifest_threads) {
  if (is.null(manifest_threads) || is.na(manifest_threads)) {
    return(check_row("thread count", "info", sprintf("%d distinct threads (host + worker + thread) in the logs; no manifest threads_total", threads_seen), "",
                     value = threads_seen, unit = "threads"))
  }
  check_row("thread count", if (manifest_threads != threads_seen) "FLAG" else "ok",
            sprintf("manifest threads_total %d; %d distinct threads in the logs", manifest_threads, threads_seen),
            "A difference means logs are missing or threads never ran; the table uses the manifest's count.",
            value = threads_seen, unit = "threads")
}

check_blackouts <- function(seconds) {
  measured <- seconds[measured == TRUE]
  n <- sum(measured$blackout)
  check_row("blackouts", if (n > 0) "FLAG" else "ok",
            sprintf("%d blackout second%s in the measured window (%d in the whole run)", n, if (n == 1) "" else "s",
                    sum(seconds$blackout)),
            "A second with threads running and no request completed: a stall (GC, region move, network) worth explaining.",
            value = n, unit = "seconds")
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
  # complete is the only clean ending; degraded, incomplete, interrupted (and running: a run that
  # never reached its finalisation) are flagged (lifecycle/README.md).
  check_row("manifest", if (status %in% c("complete", "not recorded")) "ok" else "FLAG",
            paste0("status ", status, if (!is.null(manifest$reason)) paste0(" (", manifest$reason, ")") else ""), "")
}
