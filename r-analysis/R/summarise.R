# summarise.R - requests -> statistics. Pure functions over data.table.
#
# Percentiles are by nearest rank over the merged requests of all injectors. Each latency
# is reduced once to a table of counts per (test, value) - Grinder times are whole ms and
# witness times whole us, so these tables are small - and every percentile, mean, sd,
# histogram and percentile curve, per test and in total, is read from those counts.
# No request-level sort is repeated per test or per percentile; the counts themselves are
# tabulated, not sorted, when the values are integers in a range that fits (tabulated_counts).

PERCENTS <- c(p50 = 50, p90 = 90, p95 = 95, p99 = 99, p999 = 99.9)

# Grinder's whole-millisecond time cannot resolve tests whose p90 is below this.
COARSE_P90_MS <- 5

DEFAULT_WARMUP_FRACTION <- 0.10

# Rank of the nearest-rank percentile: ceiling(P/100 * n), computed on integers so that
# e.g. 99.9% of 1000 is exactly rank 999 (no floating-point ceiling surprises).
nearest_rank_index <- function(n, percent) {
  pmax(1, ceiling(round(percent * 1e4) * n / 1e6))
}

# Nearest-rank percentiles of a raw vector (NA ignored); a partial sort places just those ranks.
nearest_rank <- function(x, percent) {
  if (anyNA(x)) x <- x[!is.na(x)]
  if (length(x) == 0) return(rep(NA_real_, length(percent)))
  idx <- nearest_rank_index(length(x), percent)
  sort.int(x, partial = unique(idx))[idx]
}

# Nearest-rank percentiles from ascending distinct values and their counts.
percentiles_from_counts <- function(value, count, percent) {
  cumulative <- cumsum(as.numeric(count))
  rank <- nearest_rank_index(cumulative[length(cumulative)], percent)
  value[findInterval(rank - 1, cumulative) + 1L]
}

# Latency from the intended start in us (lag + Grinder's time). Integers when both columns are and
# every sum fits: its counts then group 4-byte keys rather than 8 (the same values either way).
intended_latency_us <- function(lag_us, time_ms) {
  if (is.integer(lag_us) && is.integer(time_ms)) {
    largest <- max(abs(min_max(lag_us))) + 1000 * max(abs(min_max(time_ms)))
    if (is.finite(largest) && largest <= .Machine$integer.max) return(lag_us + time_ms * 1000L)
  }
  lag_us + time_ms * 1000
}

# Count of requests per (test, value) of one latency column; NA values dropped.
latency_counts <- function(requests, column) {
  counts <- tabulated_counts(requests$test, requests[[column]])
  if (!is.null(counts)) {
    data.table::setnames(counts, "group", "test")
    return(data.table::setkeyv(counts, c("test", "value"))[])
  }
  counts <- requests[, .N, keyby = c("test", column)]
  data.table::setnames(counts, column, "value")
  counts[!is.na(value)]
}

# At most this many (group, value) cells are tabulated (64 MB); wider ranges are grouped by sorting.
TABULATE_MAX_CELLS <- 2^24

# Counts per (group, value) of two integer vectors, ascending by group then value, NA values left
# out: one tabulate() over the requests where a grouping sorts them (a few times faster on 10M).
# NULL when either is not integer, a group is NA, or the groups' range x the values' range would
# pass TABULATE_MAX_CELLS (or a cell's number the integers).
tabulated_counts <- function(group, value) {
  if (!is.integer(group) || !is.integer(value) || length(value) == 0 || anyNA(group)) return(NULL)
  if (anyNA(value) && all(is.na(value))) return(NULL)
  g <- min_max(group)
  v <- min_max(value)
  span <- as.numeric(v[2]) - v[1] + 1
  cells <- (as.numeric(g[2]) - g[1] + 1) * span
  if (cells > TABULATE_MAX_CELLS || max(abs(g)) * span + max(abs(v)) > .Machine$integer.max) return(NULL)
  span <- as.integer(span)
  offset <- g[1] * span + v[1] - 1L
  N <- tabulate(value + group * span - offset, nbins = cells)
  at <- which(N > 0L) - 1L
  data.table::data.table(group = at %/% span + g[1], value = at %% span + v[1], N = N[at + 1L])
}

# The same counts over all tests, tagged test = NA (the total row).
total_counts <- function(counts) {
  counts[, .(N = sum(N)), keyby = value][, test := NA_integer_][, .(test, value, N)]
}

# count, mean, sample sd (n - 1), nearest-rank percentiles and max for each test and the total.
stats_from_counts <- function(counts, percents = PERCENTS) {
  one_group <- function(value, N) {
    n <- sum(as.numeric(N))
    mean <- sum(as.numeric(value) * N) / n
    sd <- if (n > 1) sqrt(sum(N * (value - mean)^2) / (n - 1)) else NA_real_
    q <- percentiles_from_counts(value, N, percents)
    c(list(count = n, mean = mean, sd = sd), as.list(stats::setNames(as.numeric(q), names(percents))),
      list(max = as.numeric(value[length(value)])))
  }
  if (is.null(counts) || nrow(counts) == 0) return(NULL)
  per_test <- counts[, one_group(value, N), keyby = test]
  total <- total_counts(counts)[, one_group(value, N), by = test]
  rbind(per_test, total)
}

# Warm-up cut and measured window, from request start and end times (ms since epoch).
# cut: list(warmup_ms, rule) from warmup_cut() (steady.R); without it, --warmup SECONDS or the
# first DEFAULT_WARMUP_FRACTION of the run (first start to last end). The measured window runs
# from the first start at or after the cut to the last end among those requests.
measurement_window <- function(start_ms, end_ms, warmup_s = NA_real_, cut = NULL) {
  run_start <- min(start_ms)
  run_end <- max(end_ms)
  if (is.null(cut)) {
    cut <- if (is.na(warmup_s)) list(warmup_ms = DEFAULT_WARMUP_FRACTION * (run_end - run_start), rule = "first 10% of the run")
           else list(warmup_ms = warmup_s * 1000, rule = sprintf("--warmup %g s", warmup_s))
  }
  warmup_ms <- cut$warmup_ms
  cut_ms <- run_start + warmup_ms
  measured <- start_ms >= cut_ms
  if (!any(measured) && is.na(warmup_s)) {
    # buffered puts: every request starts at once, the last flush ends the run (PE's autoflush=false
    # tiny runs on a busy machine): no request to cut to, so the whole run is the window, said so
    cut <- list(warmup_ms = 0, rule = sprintf("no cut: every request started in the first %.1f s of a %.1f s run",
                                              (max(start_ms) - run_start) / 1000, (run_end - run_start) / 1000))
    warmup_ms <- 0
    cut_ms <- run_start
    measured <- rep(TRUE, length(start_ms))
  }
  if (!any(measured)) {
    stop_report(sprintf("the warm-up cut (%.1f s) removes every request: the run lasts %.1f s",
                        warmup_ms / 1000, (run_end - run_start) / 1000))
  }
  every <- all(measured)   # no cut: the run's own bounds, without copying the times
  window_start <- if (every) run_start else min(start_ms[measured])
  window_end <- if (every) run_end else max(end_ms[measured])
  list(run_start_ms = run_start, run_end_ms = run_end, run_s = (run_end - run_start) / 1000,
       warmup_ms = warmup_ms, warmup_rule = cut$rule, warmup_detected = isTRUE(cut$detected),
       cut_ms = cut_ms, window_start_ms = window_start, window_end_ms = window_end,
       window_s = (window_end - window_start) / 1000,
       measured_requests = sum(measured), warmup_requests = sum(!measured),
       measured = measured)
}

throughput_rps <- function(count, window_s) if (is.na(window_s) || window_s <= 0) rep(NA_real_, length(count)) else count / window_s

prefix_stats <- function(stats, prefix, scale) {
  if (is.null(stats)) return(NULL)
  out <- data.table::copy(stats)
  value_cols <- setdiff(names(out), c("test", "count"))
  out[, (value_cols) := lapply(.SD, function(x) x / scale), .SDcols = value_cols]
  data.table::setnames(out, c("count", value_cols), paste0(prefix, c("count", value_cols)))
  out
}

# Overhead = mean over requests with a witness of (Grinder ms * 1000 - witness us), per test and
# total, with the half-width of its 95% interval: 1.96 * sd / sqrt(n) of those per-request
# differences (Grinder's whole ms make each difference off by up to a millisecond; the mean of
# many is still unbiased, and the interval says how many are enough).
OVERHEAD_Z95 <- 1.96

overhead_by_test <- function(measured) {
  differences <- quote({
    d <- time_ms * 1000 - witness_us
    .(n = .N, mean = mean(d), var = if (.N > 1) stats::var(d) else NA_real_)
  })
  # subset only when some request has no witness: the subset copies three columns of every request
  by_test <- if (anyNA(measured$witness_us)) measured[!is.na(witness_us), eval(differences), keyby = test] else
    measured[, eval(differences), keyby = test]
  if (nrow(by_test) == 0) {
    return(data.table::data.table(test = integer(), overhead_us = numeric(), overhead_ci95_us = numeric()))
  }
  # pooled over tests: within-test variance plus the spread of the test means
  total <- by_test[, {
    grand <- sum(n * mean) / sum(n)
    pooled <- if (sum(n) > 1) (sum((n - 1) * data.table::fcoalesce(var, 0)) + sum(n * (mean - grand)^2)) / (sum(n) - 1) else NA_real_
    .(test = NA_integer_, n = sum(n), mean = grand, var = pooled)
  }]
  rbind(by_test, total)[, .(test, overhead_us = mean, overhead_ci95_us = OVERHEAD_Z95 * sqrt(var / n))]
}

# The coordinated-omission estimate's columns (omission.R), NA for paced runs.
CO_COLUMNS <- c("co_added", "co_mean_ms", paste0("co_", names(PERCENTS), "_ms"))

SUMMARY_COLUMNS <- c("test", "threads", "count", "errors", "mean_ms", "sd_ms", "p50_ms", "p90_ms", "p95_ms",
                     "p99_ms", "p999_ms", "max_ms", "throughput_rps", "witness_mean_ms", "witness_sd_ms",
                     "witness_p50_ms", "witness_p90_ms", "witness_p95_ms", "witness_p99_ms",
                     "witness_p999_ms", "witness_max_ms", "overhead_us")

# summary.csv's columns after the contract's, in order.
SUMMARY_EXTRA_COLUMNS <- c("test_number", "error_rate", "witness_count", "grinder_coarse", "window_s", "overhead_ci95_us",
                           "intended_count", paste0("intended_", c("mean", "sd", names(PERCENTS), "max"), "_ms"), CO_COLUMNS)

# The summary.csv table: one row per test plus "total", contract columns first.
# counts: list(grinder, witness, intended) of latency_counts() tables (witness/intended may be empty).
summary_table <- function(counts, errors, overhead, threads, window_s, test_names, co = NULL) {
  grinder <- stats_from_counts(counts$grinder)
  data.table::setnames(grinder, c("mean", "sd", names(PERCENTS), "max"), paste0(c("mean", "sd", names(PERCENTS), "max"), "_ms"))
  witness <- prefix_stats(stats_from_counts(counts$witness), "witness_", 1000)
  intended <- prefix_stats(stats_from_counts(counts$intended), "intended_", 1000)
  table <- grinder
  for (extra in list(witness, intended, errors, overhead, co)) {
    if (!is.null(extra) && nrow(extra) > 0) table <- merge(table, extra, by = "test", all.x = TRUE, sort = FALSE)
  }
  stat_names <- c("mean", "sd", names(PERCENTS), "max")
  for (col in c("witness_count", paste0("witness_", stat_names), "errors", "overhead_us", "overhead_ci95_us",
                "intended_count", paste0("intended_", stat_names), CO_COLUMNS)) {
    if (!col %in% names(table)) table[, (col) := NA_real_]
  }
  data.table::setnames(table, paste0("witness_", stat_names), paste0("witness_", stat_names, "_ms"))
  data.table::setnames(table, paste0("intended_", stat_names), paste0("intended_", stat_names, "_ms"))
  table[is.na(errors), errors := 0]
  table[is.na(witness_count), witness_count := 0]
  table[, `:=`(
    test_number = test,
    test = data.table::fifelse(is.na(test), "total", test_names_for(test, test_names)),
    threads = threads,
    throughput_rps = throughput_rps(count, window_s),
    error_rate = errors / count,
    grinder_coarse = witness_count > 0 & p90_ms < COARSE_P90_MS,
    window_s = window_s
  )]
  data.table::setorder(table, test_number, na.last = TRUE)
  table[, c(SUMMARY_COLUMNS, SUMMARY_EXTRA_COLUMNS), with = FALSE]
}

# mean(x, na.rm = TRUE), NA when every value is missing; copies x only when it has missing values.
mean_present <- function(x) {
  if (!anyNA(x)) return(mean(x))
  if (all(is.na(x))) NA_real_ else mean(x, na.rm = TRUE)
}

# Requests, mean and p90 completing in each second since the run start, per test.
per_second_timeline <- function(requests, run_start_ms) {
  second <- as.integer((requests$start_ms + requests$time_ms - run_start_ms) %/% 1000)
  timeline <- requests[, .(requests = .N, mean_ms = mean(time_ms), witness_mean_ms = mean_present(witness_us) / 1000,
                           witness_p90_ms = nearest_rank(witness_us, 90) / 1000),
                       keyby = .(second, test)]
  data.table::set(timeline, j = "p90_ms", value = per_second_p90_ms(requests, second, timeline))
  data.table::setcolorder(timeline, c("second", "test", "requests", "mean_ms", "p90_ms", "witness_mean_ms", "witness_p90_ms"))
  timeline[]
}

# Grinder's p90 per (second, test), in the timeline's rows: the nearest rank read from tabulated
# counts of its whole ms (a partial sort per group took ~0.9 s on 10M), else from a partial sort.
per_second_p90_ms <- function(requests, second, timeline) {
  tests <- min_max(requests$test)
  t_span <- tests[2] - tests[1] + 1L
  cell <- if (as.numeric(max(second) + 1) * t_span <= .Machine$integer.max) second * t_span + (requests$test - tests[1])
  counts <- if (!is.null(cell)) tabulated_counts(cell, requests$time_ms)
  if (is.null(counts)) return(requests[, as.numeric(nearest_rank(time_ms, 90)), keyby = .(second, test)]$V1)
  p90 <- counts[, .(p90_ms = as.numeric(percentiles_from_counts(value, N, 90))), by = group]
  p90$p90_ms[match(timeline$second * t_span + (timeline$test - tests[1]), p90$group)]
}

# First start and last end of each thread (file + thread number) over the whole run.
thread_spans <- function(requests) {
  requests[, .(first_start_ms = min(start_ms), last_end_ms = max(start_ms + time_ms), requests = .N),
           by = .(file_id, thread)]
}

# Threads between their first start and last end, for each second since the run start.
active_threads_per_second <- function(spans, run_start_ms, n_seconds) {
  first <- as.integer((spans$first_start_ms - run_start_ms) %/% 1000)
  last <- as.integer((spans$last_end_ms - run_start_ms) %/% 1000)
  cumsum(tabulate(first + 1L, n_seconds) - tabulate(last + 2L, n_seconds + 1L)[seq_len(n_seconds)])
}

# One row per second: completed requests, running threads, blackout (threads running, none completed).
blackout_seconds <- function(timeline, spans, window) {
  n_seconds <- as.integer((window$run_end_ms - window$run_start_ms) %/% 1000) + 1L
  completed <- timeline[, .(requests = sum(requests)), keyby = second]
  seconds <- data.table::data.table(second = seq_len(n_seconds) - 1L)
  seconds[completed, requests := i.requests, on = "second"]
  seconds[is.na(requests), requests := 0L]
  seconds[, active_threads := active_threads_per_second(spans, window$run_start_ms, n_seconds)]
  seconds[, blackout := active_threads > 0 & requests == 0]
  seconds[, measured := window$run_start_ms + second * 1000 >= window$cut_ms]
  seconds[]
}

# Consecutive blackout seconds -> intervals (start second, length).
blackout_intervals <- function(seconds) {
  runs <- seconds[, .(start = second[1], seconds = .N, blackout = blackout[1], measured = measured[1]),
                  by = .(run = data.table::rleid(blackout))]
  runs[blackout == TRUE, .(start_s = start, seconds, in_measured_window = measured)]
}

# Per thread over the measured window: mean cycle (first to last start) and the off-timer gap.
# The span from a thread's first start to its last holds every request before the last (its time
# and the gap after it), not the last one's time: gap = (span - the time of the requests before the
# last) / (requests - 1). A mean over all requests instead counts the last one's time against a
# span it is not in; a run whose last requests wait out a deadline (a region server killed) then
# showed gaps of minus seconds. The time of a request is its witness, or Grinder's whole ms
# without one. Grouped in log order, not sorted by start (a sorted copy of every column of 10M
# requests was the report's peak memory): a thread's last request is its last-logged one among its
# latest starts.
thread_cycles <- function(measured) {
  took_us <- function(witness_us, time_ms) data.table::fifelse(is.na(witness_us), time_ms * 1000, as.numeric(witness_us))
  cycles <- measured[, {
    last <- max(start_ms)
    took <- took_us(witness_us, time_ms)
    .(requests = .N, first_start_ms = min(start_ms), last_start_ms = last,
      witness_mean_us = mean(witness_us, na.rm = TRUE), grinder_mean_ms = mean(time_ms),
      before_last_us = sum(took) - took[[max(which(start_ms == last))]])
  }, keyby = .(file_id, thread)][requests >= 2]
  data.table::setkey(cycles, NULL)
  cycles[, cycle_us := (last_start_ms - first_start_ms) * 1000 / (requests - 1)]
  cycles[, gap_us := ((last_start_ms - first_start_ms) * 1000 - before_last_us) / (requests - 1)]
  cycles[, witness_based := !(is.nan(witness_mean_us) | is.na(witness_mean_us))]
  cycles[, before_last_us := NULL][]
}

# Per injector host (file-name host): workers, threads, requests and time span.
host_spans <- function(spans, files) {
  spans[files, on = "file_id", nomatch = NULL][, .(
    workers = data.table::uniqueN(file_id), threads = .N, requests = sum(requests),
    first_start_ms = min(first_start_ms), last_end_ms = max(last_end_ms)), keyby = host]
}

# Which latency a test is best read in: the witness when Grinder's ms are too coarse.
display_metric <- function(summary) {
  data.table::data.table(test_number = summary$test_number, test = summary$test,
                         metric = data.table::fifelse(summary$grinder_coarse %in% TRUE, "witness", "grinder"))
}

# Counts in milliseconds of the display latency of each test.
display_counts <- function(counts, metrics) {
  parts <- lapply(seq_len(nrow(metrics)), function(i) {
    if (is.na(metrics$test_number[[i]])) return(NULL)
    if (metrics$metric[[i]] == "witness") {
      counts$witness[test == metrics$test_number[[i]], .(test, value_ms = value / 1000, N)]
    } else {
      counts$grinder[test == metrics$test_number[[i]], .(test, value_ms = as.numeric(value), N)]
    }
  })
  data.table::rbindlist(parts)
}

# Histogram bins from counts: equal width over [0, upper]; whole-ms data keeps whole-ms bins.
histogram_bins <- function(value_ms, N, upper, whole_ms, n_bins = 80) {
  keep <- value_ms <= upper
  if (whole_ms) {
    width <- max(1, ceiling(upper / n_bins))
    bin <- value_ms[keep] %/% width
    dt <- data.table::data.table(bin = bin, N = N[keep])[, .(N = sum(N)), keyby = bin]
    return(dt[, .(xmin = bin * width - 0.5, xmax = (bin + 1) * width - 0.5, N)])
  }
  width <- if (upper > 0) upper / n_bins else 1
  bin <- pmin(value_ms[keep] %/% width, n_bins - 1)
  dt <- data.table::data.table(bin = bin, N = N[keep])[, .(N = sum(N)), keyby = bin]
  dt[, .(xmin = bin * width, xmax = (bin + 1) * width, N)]
}

# Full-range and zoomed histograms per test. The zoom fits the bulk: everything up to the p99
# (ZOOM_PERCENT), so the body of the distribution fills the panel whatever its scale.
ZOOM_PERCENT <- 99

histograms <- function(counts_ms, metrics) {
  parts <- list()
  for (i in seq_len(nrow(metrics))) {
    number <- metrics$test_number[[i]]
    if (is.na(number)) next
    one <- counts_ms[test == number]
    if (nrow(one) == 0) next
    whole_ms <- metrics$metric[[i]] == "grinder"
    bulk <- percentiles_from_counts(one$value_ms, one$N, ZOOM_PERCENT)
    zoom_upper <- if (bulk > 0) bulk else max(one$value_ms)
    full <- histogram_bins(one$value_ms, one$N, max(one$value_ms), whole_ms)
    zoom <- histogram_bins(one$value_ms, one$N, zoom_upper, whole_ms)
    label <- sprintf("%s (%s)", metrics$test[[i]], metrics$metric[[i]])
    parts[[length(parts) + 1]] <- full[, `:=`(test = label, range = "full")]
    parts[[length(parts) + 1]] <- zoom[, `:=`(test = label, range = sprintf("under p%g = %g ms", ZOOM_PERCENT, signif(zoom_upper, 3)))]
  }
  data.table::rbindlist(parts)
}

# Latency at log-spaced percentiles, from the counts of one test (up to rank n = the max).
percentile_curve <- function(value, N, points = 250) {
  n <- sum(as.numeric(N))
  p <- unique(c(1 - 10^(-seq(0, log10(max(n, 1)), length.out = points))))
  data.table::data.table(percentile = 100 * p, value = percentiles_from_counts(value, N, 100 * p))
}

# Percentile curves of every latency we have, per test, in ms.
percentile_curves <- function(counts, summary) {
  names_of <- stats::setNames(summary$test, summary$test_number)
  sources <- list(grinder = list(counts$grinder, 1), witness = list(counts$witness, 1000),
                  `intended start` = list(counts$intended, 1000))
  parts <- list()
  for (source in names(sources)) {
    table <- sources[[source]][[1]]
    if (is.null(table) || nrow(table) == 0) next
    curves <- table[, percentile_curve(value / sources[[source]][[2]], N), by = .(number = test)]
    parts[[source]] <- curves[, .(test = unname(names_of[as.character(number)]), latency = source, percentile, value)]
  }
  data.table::rbindlist(parts, use.names = TRUE)
}

# Joint counts of Grinder ms (y) and witness ms (x), up to each test's p99.9, for the overhead plot.
# Each request's tile is one integer, counted with tabulate() a million requests at a time: a
# grouping of every request by three keys took seconds and a few hundred MB here.
TILE_CHUNK_ROWS <- 1e6

grinder_witness_tiles <- function(measured, summary, n_bins = 60) {
  limits <- summary[!is.na(test_number) & witness_count > 0,
                    .(test = test_number, label = test, w_limit_us = witness_p999_ms * 1000, g_limit = p999_ms)]
  if (nrow(limits) == 0) return(NULL)
  limits[, `:=`(w_width = pmax(w_limit_us, 1) / n_bins, g_width = pmax(1, ceiling(g_limit / n_bins)))]
  n_codes <- nrow(limits) * n_bins * (n_bins + 1)
  N <- integer(n_codes)
  for (chunk in seq_len(ceiling(nrow(measured) / TILE_CHUNK_ROWS))) {
    rows <- ((chunk - 1) * TILE_CHUNK_ROWS + 1):min(nrow(measured), chunk * TILE_CHUNK_ROWS)
    codes <- tile_codes(measured$test[rows], measured$witness_us[rows], measured$time_ms[rows], limits, n_bins)
    N <- N + tabulate(codes + 1, nbins = n_codes)
  }
  tiles <- tiles_from_codes(which(N > 0L) - 1, N, limits, n_bins)
  tiles[limits, on = "test", `:=`(
    label = i.label,
    witness_ms = (w_bin + 0.5) * i.w_width / 1000, witness_width_ms = i.w_width / 1000,
    grinder_ms = g_bin * i.g_width + (i.g_width - 1) / 2, grinder_height_ms = i.g_width)]
  tiles[]
}

# A request's tile as one integer: ((test's row in limits - 1) * n_bins + witness bin) * (n_bins + 1)
# + Grinder bin (0..n_bins, as time <= limit); nothing for requests beyond their test's limits.
tile_codes <- function(test, witness_us, time_ms, limits, n_bins) {
  idx <- row_in_limits(test, limits)
  keep <- which(witness_us <= limits$w_limit_us[idx] & time_ms <= limits$g_limit[idx])   # NA (no witness) left out
  idx <- idx[keep]
  w_bin <- pmin(n_bins - 1, witness_us[keep] %/% limits$w_width[idx])
  g_bin <- time_ms[keep] %/% limits$g_width[idx]
  ((idx - 1L) * n_bins + w_bin) * (n_bins + 1) + g_bin
}

# Each request's row in limits (NA: a test without limits). Test numbers are >= 0 (drop_implausible):
# a vector indexed by test number when they are small, where match() hashes every request.
row_in_limits <- function(test, limits) {
  if (max(limits$test) >= 65536) return(match(test, limits$test))
  row_of_test <- rep(NA_integer_, max(limits$test) + 1)
  row_of_test[limits$test + 1] <- seq_len(nrow(limits))
  row_of_test[test + 1]   # NA beyond the vector's end
}

# The counted tiles back to (test, w_bin, g_bin, N), keyed as a grouping by the three would be.
tiles_from_codes <- function(codes, N, limits, n_bins) {
  rest <- codes %/% (n_bins + 1)
  tiles <- data.table::data.table(test = limits$test[rest %/% n_bins + 1], w_bin = rest %% n_bins,
                                  g_bin = codes %% (n_bins + 1), N = N[codes + 1])
  data.table::setkeyv(tiles, c("test", "w_bin", "g_bin"))
  tiles
}

# Requests with at least one error, per test and in total (a request counts once).
errors_by_test <- function(measured) {
  failed <- measured[errors > 0L, .(errors = .N), keyby = test]
  rbind(failed, data.table::data.table(test = NA_integer_, errors = sum(failed$errors)))
}

# Per-second series for plotting: every second of every test (0 requests where none
# completed), mean and p90 in the test's display latency.
timeline_series <- function(timeline, display, n_seconds) {
  tests <- display[!is.na(test_number)]
  grid <- data.table::CJ(test = tests$test_number, second = seq_len(n_seconds) - 1L)
  series <- timeline[grid, on = c("test", "second")]
  series[is.na(requests), requests := 0L]
  series[tests, on = c(test = "test_number"), `:=`(series = paste0(i.test, " (", i.metric, ")"), metric = i.metric)]
  series[, `:=`(mean = data.table::fifelse(metric == "witness", witness_mean_ms, mean_ms),
                p90 = data.table::fifelse(metric == "witness", witness_p90_ms, p90_ms))]
  series[]
}
