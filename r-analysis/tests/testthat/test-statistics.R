# Statistics against hand-computed values.

test_that("nearest-rank index is ceiling(P/100 * n) without floating-point surprises", {
  expect_equal(nearest_rank_index(10, 90), 9)
  expect_equal(nearest_rank_index(1000, 99.9), 999)
  expect_equal(nearest_rank_index(3, 50), 2)
  expect_equal(nearest_rank_index(20, 95), 19)
  expect_equal(nearest_rank_index(100, 99), 99)
  expect_equal(nearest_rank_index(7, 99.9), 7)
  expect_equal(nearest_rank_index(1, 50), 1)
  expect_equal(nearest_rank_index(5, 0), 1)
})

test_that("nearest-rank percentiles of a raw vector (textbook example)", {
  # 15 20 35 40 50: P5 -> rank 1, P30 -> rank 2, P40 -> rank 2, P50 -> rank 3, P100 -> rank 5
  expect_equal(nearest_rank(c(50, 35, 20, 15, 40), c(5, 30, 40, 50, 100)), c(15, 20, 20, 35, 50))
  expect_equal(nearest_rank(c(3L, NA, 1L, 2L), 50), 2L)
  expect_true(is.na(nearest_rank(c(NA_real_, NA_real_), 90)))
})

test_that("percentiles from counts equal percentiles of the expanded requests", {
  # values 1 (x3), 2 (x1), 5 (x6): sorted 1 1 1 2 5 5 5 5 5 5
  expect_equal(percentiles_from_counts(c(1, 2, 5), c(3, 1, 6), c(30, 40, 50, 90)), c(1, 2, 5, 5))
  set.seed(7)
  x <- sample(0:40, 2001, replace = TRUE)
  counts <- data.table(x = x)[, .N, keyby = x]
  p <- c(1, 25, 50, 90, 95, 99, 99.9, 100)
  expect_equal(percentiles_from_counts(counts$x, counts$N, p), nearest_rank(x, p))
})

test_that("mean, sample sd and percentiles per test and in total, from counts", {
  # get: 1 2 4 6 7 -> mean 4, sd sqrt(26/4); put: 3 5 8 -> mean 16/3, sd sqrt(((3-16/3)^2+(5-16/3)^2+(8-16/3)^2)/2)
  counts <- data.table(test = c(1L, 1L, 1L, 1L, 1L, 2L, 2L, 2L), value = c(1L, 2L, 4L, 6L, 7L, 3L, 5L, 8L), N = 1L)
  stats <- stats_from_counts(counts)
  get <- stats[test == 1]
  expect_equal(get$count, 5)
  expect_equal(get$mean, 4)
  expect_equal(get$sd, sqrt(6.5))
  expect_equal(c(get$p50, get$p90, get$p99, get$max), c(4, 7, 7, 7))
  put <- stats[test == 2]
  expect_equal(put$sd, sd(c(3, 5, 8)))
  total <- stats[is.na(test)]
  expect_equal(c(total$count, total$mean, total$sd), c(8, 4.5, sqrt(6)))
  expect_equal(c(total$p50, total$p90, total$p95), c(4, 8, 8))
})

test_that("warm-up cut and throughput window", {
  start <- 1763712000000 + seq(0, 9000, by = 1000)   # 10 requests, one per second
  end <- start + 500
  # default cut: 10% of 9.5 s = 0.95 s -> 9 requests from 1 s; window 1.0 s .. 9.5 s = 8.5 s
  w <- measurement_window(start, end)
  expect_equal(w$cut_ms - w$run_start_ms, 950)
  expect_equal(w$measured_requests, 9)
  expect_equal(w$window_s, 8.5)
  expect_equal(throughput_rps(w$measured_requests, w$window_s), 9 / 8.5)
  # --warmup 2: requests starting at 2 s and later (8), window 2.0 .. 9.5 s
  w2 <- measurement_window(start, end, warmup_s = 2)
  expect_equal(c(w2$measured_requests, w2$warmup_requests, w2$window_s), c(8, 2, 7.5))
  expect_equal(w2$warmup_rule, "--warmup 2 s")
  # --warmup 0 keeps everything
  expect_equal(measurement_window(start, end, warmup_s = 0)$measured_requests, 10)
  expect_error(measurement_window(start, end, warmup_s = 60), class = "report_error")
  expect_true(is.na(throughput_rps(5, 0)))
})

test_that("Little's law is flagged beyond 10%", {
  # 10 threads, 5 ms mean -> 2000 req/s predicted
  expect_equal(littles_law(10, 5, 1900)$predicted_rps, 2000)
  expect_equal(littles_law(10, 5, 1900)$deviation, -0.05)
  expect_false(littles_law(10, 5, 1900)$flagged)
  expect_true(littles_law(10, 5, 1700)$flagged)
  expect_true(littles_law(10, 5, 2300)$flagged)
  expect_false(littles_law(10, 5, 2199)$flagged)
})

test_that("Little's law check uses the witness mean when Grinder's ms are too coarse", {
  row <- data.table(test = "total", threads = 4, mean_ms = 0.2, witness_mean_ms = 0.5, grinder_coarse = TRUE,
                    throughput_rps = 8000)
  check <- check_littles_law(row)
  expect_equal(check$status, "ok")   # 4 / 0.5 ms = 8000 req/s
  expect_match(check$result, "witness mean")
  row$grinder_coarse <- FALSE          # 4 / 0.2 ms = 20000 req/s vs 8000: flagged
  expect_equal(check_littles_law(row)$status, "FLAG")
})

test_that("a Little's law shortfall is tried again with the threads' cycles", {
  # 3 threads, 30 ms mean -> 100 req/s by threads / mean; cycles 50, 40, 40 ms -> 20 + 25 + 25 = 70 req/s
  cycles <- data.table(cycle_us = c(50000, 40000, 40000), gap_us = c(20000, 10000, 10000))
  law <- littles_law_with_cycles(cycles, 70)
  expect_equal(law$predicted_rps, 70)
  expect_equal(law$mean_gap_ms, 40 / 3)
  expect_true(law$explains)
  row <- data.table(test = "total", threads = 3, mean_ms = 30, witness_mean_ms = NA_real_, grinder_coarse = FALSE,
                    throughput_rps = 70)
  check <- check_littles_law(row, cycles = cycles)
  expect_equal(check$status, "FLAG")   # still below threads / mean: the offered load was lower than the threads suggest
  expect_match(check$result, "70.0 req/s \\(\\+0.0%\\): the shortfall is the off-timer gap")
  row$throughput_rps <- 50             # 50 / 70 - 1 = -28.6%: the cycles do not explain it
  expect_match(check_littles_law(row, cycles = cycles)$result, "\\(-28.6%\\): not explained by the off-timer gap either")
  row$throughput_rps <- 100            # no shortfall: nothing to explain
  expect_false(grepl("cycle", check_littles_law(row, cycles = cycles)$result))
  expect_null(littles_law_with_cycles(cycles[0], 70))
})

test_that("off-timer gap per thread: cycle minus witness, flagged above 50 us", {
  measured <- data.table(
    file_id = 1L, thread = rep(0:1, each = 101),
    start_ms = c(1e12 + seq(0, 100), 1e12 + seq(0, 100)),   # both threads: 1 request per ms -> cycle 1000 us
    time_ms = 1L, witness_us = c(rep(900L, 101), rep(990L, 101)))
  cycles <- thread_cycles(measured)
  expect_equal(cycles[thread == 0, cycle_us], 1000)
  expect_equal(cycles[thread == 0, gap_us], 100)
  expect_equal(cycles[thread == 1, gap_us], 10)
  gap <- offtimer_gap(cycles)
  expect_equal(gap$mean_us, 55)
  expect_equal(gap$threads_over, 1)   # 100 - 10 us resolution > 50; 10 is not
  expect_equal(check_offtimer_gap(cycles)$status, "FLAG")
  expect_equal(check_offtimer_gap(cycles[thread == 1])$status, "ok")
})

test_that("the off-timer gap leaves out the last request's time, which is not in the span of starts", {
  # starts 0, 1, 2 ms; 900 us each, then a last request that waits out a 5-s deadline (a killed server).
  # The span of 2 ms holds the first two requests and their gaps: (2000 - 1800) / 2 = 100 us.
  # (A mean over all 3 witnesses made it 1000 - 1,667,267 = minus 1.67 s.)
  measured <- data.table(file_id = 1L, thread = 0L, start_ms = 1e12 + c(0, 1, 2), time_ms = c(1L, 1L, 5000L),
                         witness_us = c(900L, 900L, 5000000L))
  cycles <- thread_cycles(measured)
  expect_equal(cycles$gap_us, 100)
  expect_equal(cycles$cycle_us, 1000)
  # log order breaks a tie of starts: the long request logged last is the last, whatever its start
  tied <- data.table(file_id = 1L, thread = 0L, start_ms = 1e12 + c(0, 1, 1), time_ms = c(0L, 0L, 5000L),
                     witness_us = c(400L, 400L, 5000000L))
  expect_equal(thread_cycles(tied)$gap_us, (1000 - 800) / 2)
  # without a witness, Grinder's whole ms
  expect_equal(thread_cycles(measured[, witness_us := NA_integer_])$gap_us, (2000 - 2000) / 2)
})

test_that("a gap below zero beyond the resolution is flagged: the timings disagree", {
  # 101 requests 1 ms apart, each 1,200 us by its witness: impossible for one thread (gap -200 us, resolution 10 us)
  measured <- data.table(file_id = 1L, thread = 0L, start_ms = 1e12 + seq(0, 100), time_ms = 1L, witness_us = 1200L)
  check <- check_offtimer_gap(thread_cycles(measured))
  expect_equal(check$status, "FLAG")
  expect_match(check$result, "1 below zero beyond the ms resolution \\(lowest -200.0 us\\)")
  # within the resolution it is zero, not a disagreement: -5 us with 10 us of resolution
  measured[, witness_us := 1005L]
  expect_equal(check_offtimer_gap(thread_cycles(measured))$status, "ok")
})

test_that("blackout seconds: threads running, nothing completed", {
  base <- 1763712000000
  window <- list(run_start_ms = base, run_end_ms = base + 4999, cut_ms = base + 500)
  # completions in seconds 0, 1 and 4 only; one thread runs from 0 to 4.999 s
  timeline <- data.table(second = c(0L, 1L, 4L), test = 1L, requests = c(10L, 5L, 3L))
  spans <- data.table(first_start_ms = base, last_end_ms = base + 4999)
  seconds <- blackout_seconds(timeline, spans, window)
  expect_equal(seconds$requests, c(10L, 5L, 0L, 0L, 3L))
  expect_equal(seconds$blackout, c(FALSE, FALSE, TRUE, TRUE, FALSE))
  expect_equal(seconds$measured, c(FALSE, TRUE, TRUE, TRUE, TRUE))
  intervals <- blackout_intervals(seconds)
  expect_equal(intervals$start_s, 2L)
  expect_equal(intervals$seconds, 2L)
  # no thread running -> no blackout
  spans_idle <- data.table(first_start_ms = base, last_end_ms = base + 1999)
  expect_equal(blackout_seconds(timeline, spans_idle, window)$blackout, c(FALSE, FALSE, FALSE, FALSE, FALSE))
})

test_that("active threads per second from thread spans", {
  spans <- data.table(first_start_ms = c(0, 1500, 0), last_end_ms = c(2500, 3200, 999))
  expect_equal(active_threads_per_second(spans, 0, 4), c(2, 2, 2, 1))
})

test_that("the run summary of the fixture matches the hand computation", {
  a <- analyse_run(run_target(fixture_dir()), warmup_s = 0)
  s <- a$summary
  expect_equal(names(s)[seq_along(SUMMARY_COLUMNS)], SUMMARY_COLUMNS)
  expect_equal(s$test, c("get", "put", "total"))
  expect_equal(s$threads, c(3, 3, 3))
  expect_equal(s$count, c(5, 3, 8))
  expect_equal(s$errors, c(0, 1, 1))
  expect_equal(s$error_rate, c(0, 1 / 3, 1 / 8))
  expect_equal(s$mean_ms, c(4, 16 / 3, 4.5))
  expect_equal(s$p90_ms, c(7, 8, 8))
  # window: first start ...000 to last end ...021 (13 + 8 ms) = 0.021 s
  expect_equal(s$throughput_rps, c(5, 3, 8) / 0.021)
  # witness (us -> ms): get 900 1800 3900 5900 6800, put 2900 4800 7900
  expect_equal(s$witness_mean_ms, c(3.86, 5.2, 4.3625))
  expect_equal(s$witness_p50_ms, c(3.9, 4.8, 3.9))
  expect_equal(s$witness_max_ms, c(6.8, 7.9, 7.9))
  # overhead = mean Grinder ms * 1000 - mean witness us
  expect_equal(s$overhead_us, c(140, 16000 / 3 - 5200, 137.5))
  expect_false(any(s$grinder_coarse))
})

test_that("the percentile curve reads its points by the one nearest-rank rule, from the counts", {
  # values 10, 20, 30, 40 once each, 50 six times (n = 10): p50 is rank 5 (50), p30 rank 3 (30), p90 rank 9 (50)
  curve <- percentile_curve(c(10, 20, 30, 40, 50), c(1, 1, 1, 1, 6), points = 50)
  expect_equal(curve$value, percentiles_from_counts(c(10, 20, 30, 40, 50), c(1, 1, 1, 1, 6), curve$percentile))
  expect_equal(curve$value, nearest_rank(c(10, 20, 30, 40, rep(50, 6)), curve$percentile))
  expect_equal(curve$value[1], 10)                         # percentile 0: rank 1
  expect_equal(utils::tail(curve$percentile, 1), 90)       # the grid stops at 1 - 1/n
  expect_equal(utils::tail(curve$value, 1), 50)
})

test_that("a run whose every request starts inside the warm-up cut is measured whole, and says so; a --warmup past them still stops", {
  # 2000 buffered puts start in the first 0.2 s; the last flush ends the run at 2.4 s: 10% of it cuts them all
  start <- seq(0, 200, length.out = 2000)
  end <- start + 5
  end[2000] <- 2400
  w <- measurement_window(start, end)
  expect_equal(w$warmup_ms, 0)
  expect_equal(w$measured_requests, 2000)
  expect_equal(w$window_s, 2.4)
  expect_equal(w$warmup_rule, "no cut: every request started in the first 0.2 s of a 2.4 s run")
  expect_error(measurement_window(start, end, warmup_s = 1), "the warm-up cut \\(1.0 s\\) removes every request: the run lasts 2.4 s")
})
