# steady.R - where the warm-up ends and whether the measured window is steady, from the
# per-second series of the run (completions per second and mean latency per second).
#
# Warm-up rule (settling, as a control engineer reads a step response): the steady level of a
# series is its median over the second half of the run; the warm-up ends at the first second from
# which the series stays no more than STEADY_BAND slower than that level (throughput below it,
# latency above it) for STEADY_HOLD_S seconds in a row: a faster start is not a warm-up.
# Throughput and latency are both read; the later of the two wins. The cut is at most
# MAX_WARMUP_FRACTION of the run: a run that has not settled by then is judged by the trend check.
# Trend rule: the medians of the first and the last third of the measured window's full seconds,
# for throughput and for mean latency; flagged when either moves by more than STEADY_TREND_TOLERANCE.

STEADY_BAND <- 0.20             # within 20% of the steady level: per-second noise here is ~10%
STEADY_HOLD_S <- 3              # ... for 3 seconds in a row (one lucky second is not settling)
STEADY_MIN_SECONDS <- 6         # fewer full seconds cannot show a level: fall back / cannot judge
MAX_WARMUP_FRACTION <- 0.5      # never cut more than half the run as warm-up
STEADY_TREND_TOLERANCE <- 0.15  # first third -> last third; ~2 sigma of the medians' noise here

# Full seconds since the first start (the last, partial second left out): completions of all
# tests and their mean latency in ms (the witness when every request has one, else Grinder's).
per_second_levels <- function(timeline, run_start_ms, run_end_ms, use_witness) {
  n_full <- as.integer((run_end_ms - run_start_ms) %/% 1000)
  grid <- data.table::data.table(second = seq_len(n_full) - 1L)
  if (n_full == 0) return(grid[, `:=`(requests = integer(), latency_ms = numeric())])
  per_second <- timeline[, .(requests = sum(requests),
                             latency_ms = sum(requests * (if (use_witness) witness_mean_ms else mean_ms)) / sum(requests)),
                         keyby = second]
  grid[per_second, on = "second", `:=`(requests = i.requests, latency_ms = i.latency_ms)]
  grid[is.na(requests), requests := 0L]
  grid[]
}

# First second (0-based) from which x stays within `band` of its second-half median for `hold`
# seconds; NA when it never does. Missing values (no completion that second) are outside.
# outside = "below" or "above": only that side of the level is outside (a warm-up is slow: fewer
# completions, higher latency); "both" (the default) reads the band both ways.
settling_second <- function(x, band = STEADY_BAND, hold = STEADY_HOLD_S, outside = "both") {
  n <- length(x)
  if (n < hold) return(NA_integer_)
  level <- stats::median(x[(n %/% 2 + 1):n], na.rm = TRUE)
  if (is.na(level) || level <= 0) return(NA_integer_)
  off <- x / level - 1
  inside <- !is.na(x) & switch(outside, both = abs(off) <= band, below = off >= -band, above = off <= band)
  held <- data.table::frollsum(as.integer(inside), hold, align = "left")
  first <- which(held == hold)[1]
  if (is.na(first)) NA_integer_ else first - 1L
}

# The warm-up cut: --warmup when given, else detected from the levels, else (too few seconds)
# the first DEFAULT_WARMUP_FRACTION of the run. Returns list(warmup_ms, rule, detected).
warmup_cut <- function(levels, run_ms, warmup_s = NA_real_) {
  if (!is.na(warmup_s)) return(list(warmup_ms = warmup_s * 1000, rule = sprintf("--warmup %g s", warmup_s), detected = FALSE))
  n <- nrow(levels)
  if (n < STEADY_MIN_SECONDS) {
    return(list(warmup_ms = DEFAULT_WARMUP_FRACTION * run_ms, detected = FALSE,
                rule = sprintf("first 10%% of the run: %d full seconds are too few to detect the warm-up (need %d)",
                               n, STEADY_MIN_SECONDS)))
  }
  # Only slow seconds are warm-up: a run that starts faster than it ends has changed regime, and its
  # fast start stays in the window, where the trend check sees it (a cut would hide it).
  by_throughput <- settling_second(levels$requests, outside = "below")
  by_latency <- settling_second(levels$latency_ms, outside = "above")
  limit <- floor(n * MAX_WARMUP_FRACTION)
  settled <- c(throughput = by_throughput, latency = by_latency)
  capped <- anyNA(settled) || max(settled) > limit  # NA when neither settled: no max to take
  cut <- if (anyNA(settled)) limit else max(settled)
  if (capped) cut <- limit
  rule <- if (capped) {
    sprintf("detected: not settled (no more than %d%% slower than its level) by half the run; cut at half (%d s)",
            round(100 * STEADY_BAND), cut)
  } else {
    sprintf("detected: throughput settled at %d s, latency at %d s (no more than %d%% slower than the second-half level for %d s)",
            by_throughput, by_latency, round(100 * STEADY_BAND), STEADY_HOLD_S)
  }
  list(warmup_ms = cut * 1000, rule = rule, detected = TRUE)
}

# Seconds from the first request until throughput stays within STEADY_BAND of its steady level
# (settling_second of the completions per second); NA when it never does or the run is too short.
time_to_steady <- function(levels) {
  if (nrow(levels) < STEADY_MIN_SECONDS) return(NA_integer_)
  settling_second(levels$requests)
}

# Throughput and latency of the first against the last third of the measured window's full seconds.
steady_trend <- function(levels, cut_ms) {
  window <- levels[second >= ceiling(cut_ms / 1000)]
  n <- nrow(window)
  if (n < STEADY_MIN_SECONDS) return(list(seconds = n, judged = FALSE, flagged = FALSE))
  third <- n %/% 3
  first <- window[seq_len(third)]
  last <- window[(n - third + 1):n]
  change <- function(a, b) {
    ma <- stats::median(a, na.rm = TRUE)
    if (is.na(ma) || ma <= 0) NA_real_ else stats::median(b, na.rm = TRUE) / ma - 1
  }
  throughput <- change(first$requests, last$requests)
  latency <- change(first$latency_ms, last$latency_ms)
  list(seconds = n, judged = TRUE, third_s = third, first_s = range(first$second), last_s = range(last$second),
       first_rps = stats::median(first$requests), last_rps = stats::median(last$requests),
       throughput_change = throughput, latency_change = latency,
       flagged = isTRUE(abs(throughput) > STEADY_TREND_TOLERANCE) || isTRUE(abs(latency) > STEADY_TREND_TOLERANCE))
}

check_steady_state <- function(trend) {
  if (!trend$judged) {
    return(check_row("steady state", "n/a",
                     sprintf("%d full seconds in the measured window: too few to judge (need %d)", trend$seconds, STEADY_MIN_SECONDS),
                     "", value = NA_real_, unit = "fraction"))
  }
  worst <- if (isTRUE(abs(trend$latency_change) > abs(trend$throughput_change))) trend$latency_change else trend$throughput_change
  check_row("steady state", if (trend$flagged) "FLAG" else "ok",
            sprintf("first third -> last third of %d s: throughput %s -> %s req/s (%+.1f%%), mean latency %+.1f%%; tolerance %d%%",
                    trend$seconds, fmt_int(trend$first_rps), fmt_int(trend$last_rps), 100 * trend$throughput_change,
                    100 * trend$latency_change, round(100 * STEADY_TREND_TOLERANCE)),
            paste("Medians of the per-second throughput and mean latency over the first and the last third of the measured",
                  "window. A window that still trends mixes two regimes: its means and percentiles describe neither."),
            value = worst, unit = "fraction")
}
