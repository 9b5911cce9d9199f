# omission.R - a closed loop's coordinated omission, estimated: what the latency distribution
# would have been had requests kept arriving on schedule while a slow one held its thread.
#
# A closed-loop thread sends its next request only when the last one returns, so a stall is
# recorded once instead of once per request that a steady client would have sent meanwhile.
# As HdrHistogram's copyCorrectedForCoordinatedOmission (recordValueWithExpectedInterval) does,
# each request of time T at least twice the thread's expected interval I gets synthetic
# companions T - I, T - 2I, ... down to the last one still >= I: floor(T / I) - 1 of them.
# I is the thread's median start-to-next-start; start times are whole ms, so when that median is
# under CO_MIN_MEDIAN_CYCLE_MS the thread's mean cycle (resolved to 1 ms / (requests - 1)) is used.
# Latency T is the witness in us (Grinder ms * 1000 for requests without one). Paced runs have
# the real thing (latency from the intended start) and get no estimate.

CO_MIN_MEDIAN_CYCLE_MS <- 2

# Per thread (file + thread number): the expected interval in whole us.
co_intervals <- function(measured, cycles) {
  medians <- measured[, .(median_cycle_ms = {
    s <- if (is.unsorted(start_ms)) sort(start_ms) else start_ms
    if (length(s) > 1) stats::median(diff(s)) else NA_real_
  }), by = .(file_id, thread)]
  out <- cycles[, .(file_id, thread, mean_cycle_us = cycle_us)][medians, on = c("file_id", "thread"), nomatch = NULL]
  out[, interval_us := round(data.table::fifelse(median_cycle_ms >= CO_MIN_MEDIAN_CYCLE_MS, median_cycle_ms * 1000, mean_cycle_us))]
  out[, from_median := median_cycle_ms >= CO_MIN_MEDIAN_CYCLE_MS]
  out[interval_us > 0]
}

# Requests that get synthetic companions: test, latency T (us), interval I (us), how many (m).
co_slow_requests <- function(measured, latency_us, intervals) {
  at <- intervals[measured[, list(file_id, thread)], on = c("file_id", "thread"), which = TRUE]
  interval <- intervals$interval_us[at]
  slow <- which(!is.na(interval) & latency_us >= 2 * interval)
  data.table::data.table(test = measured$test[slow], t_us = latency_us[slow], i_us = interval[slow],
                         m = latency_us[slow] %/% interval[slow] - 1)
}

# The synthetic values of the slow requests, as counts per (test, value): T - k I for k = 1..m.
co_synthetic_counts <- function(slow) {
  if (nrow(slow) == 0) return(data.table::data.table(test = integer(), value = numeric(), N = integer()))
  data.table::data.table(test = rep(slow$test, slow$m),
                         value = rep(slow$t_us, slow$m) - rep(slow$i_us, slow$m) * sequence(slow$m))[, .N, keyby = .(test, value)]
}

# The estimate per test and in total: synthetic values added, mean and nearest-rank percentiles
# (ms) of the real and synthetic values together. counts_us: latency_counts() of T in us.
co_estimate <- function(counts_us, slow, percents = PERCENTS) {
  if (is.null(counts_us) || nrow(counts_us) == 0) return(NULL)
  synthetic <- co_synthetic_counts(slow)
  both <- rbind(counts_us[, .(test, value = as.numeric(value), N)], synthetic)[, .(N = sum(N)), keyby = .(test, value)]
  stats <- stats_from_counts(both, percents)
  added <- rbind(synthetic[, .(co_added = sum(N)), keyby = test],
                 data.table::data.table(test = NA_integer_, co_added = sum(synthetic$N)))
  out <- stats[, c(list(test = test, co_mean_ms = mean / 1000),
                   stats::setNames(lapply(names(percents), function(p) get(p) / 1000), paste0("co_", names(percents), "_ms")))]
  out[added, on = "test", co_added := i.co_added]
  out[is.na(co_added), co_added := 0]
  data.table::setcolorder(out, c("test", "co_added"))
  out[]
}

# The whole estimate for one run's measured requests (closed loop only), or NULL.
coordinated_omission <- function(measured, cycles, counts) {
  if (is.null(cycles) || nrow(cycles) == 0) return(NULL)
  intervals <- co_intervals(measured, cycles)
  if (nrow(intervals) == 0) return(NULL)
  has_witness <- !is.na(measured$witness_us)
  if (all(has_witness)) {
    latency_us <- as.numeric(measured$witness_us)
    counts_us <- counts$witness
  } else {
    latency_us <- data.table::fcoalesce(as.numeric(measured$witness_us), measured$time_ms * 1000)
    counts_us <- latency_counts(data.table::data.table(test = measured$test, latency_us = latency_us), "latency_us")
  }
  estimate <- co_estimate(counts_us, co_slow_requests(measured, latency_us, intervals))
  if (is.null(estimate)) return(NULL)
  list(table = estimate, threads = nrow(intervals), from_median = sum(intervals$from_median),
       median_interval_us = stats::median(intervals$interval_us))
}
