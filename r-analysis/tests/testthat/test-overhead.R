# Tool overhead with its 95% interval, and the closed loop's coordinated-omission estimate.

test_that("overhead = mean per-request difference, +- 1.96 sd / sqrt(n), per test and pooled", {
  a <- analyse_run(run_target(fixture_dir()), warmup_s = 0)
  s <- a$summary
  # get: Grinder 1 2 4 6 7 ms, witness 900 1800 3900 5900 6800 us -> d = 100 200 100 100 200:
  #      mean 140, var = (4 x 1600 ... ) = (1600 + 3600 + 1600 + 1600 + 3600) / 4 = 3000 -> 1.96 sqrt(3000 / 5) = 48.01
  # put: Grinder 3 5 8, witness 2900 4800 7900 -> d = 100 200 100: mean 133.3, var 3333.3 -> 1.96 sqrt(3333.3 / 3) = 65.33
  # total: all 8 d's: mean 137.5, var 18750 / 7 = 2678.6 -> 1.96 sqrt(2678.6 / 8) = 35.86
  expect_equal(s$overhead_us, c(140, 400 / 3, 137.5))
  expect_equal(s$overhead_ci95_us, 1.96 * sqrt(c(3000 / 5, (10000 / 3) / 3, (18750 / 7) / 8)))
  expect_equal(s[test == "total", overhead_ci95_us], 1.96 * sd(c(100, 200, 100, 100, 200, 100, 200, 100)) / sqrt(8))
})

test_that("a negative overhead is explained: zero within its interval, a slow ms clock beyond it", {
  s <- data.table(test = c("get", "total"), overhead_us = c(-1.4, -1.4), overhead_ci95_us = c(2, 2), witness_mean_ms = 1)
  within <- check_overhead(s)
  expect_equal(within$status, "ok")
  expect_match(within$result, "get -1.4 \u00b1 2.0 us; total -1.4 \u00b1 2.0 us$")
  expect_match(within$meaning, "a negative value within its interval is zero")
  beyond <- check_overhead(s[, overhead_us := -5])
  expect_match(beyond$result, "below zero beyond its interval for get, total: the ms clock ran slow against nanoTime")
})

test_that("the coordinated-omission estimate adds T - I, T - 2I, ... while >= I (HdrHistogram's rule)", {
  # one thread: starts 0 10 20 30 40 50 90 ms; witness 5 ms except the request at 50 (35 ms).
  # start-to-next-start: 10 10 10 10 10 40 -> median 10 ms (>= 2 ms: used) -> I = 10,000 us.
  # 35,000 >= 2 I: floor(35,000 / 10,000) - 1 = 2 synthetic values: 25,000 and 15,000.
  # All 9 values: 5,000 x 6, 15,000, 25,000, 35,000. Nearest rank: p50 -> 5th = 5,000;
  # p70 -> ceiling(6.3) = 7th = 15,000; p80 -> ceiling(7.2) = 8th = 25,000; p90 -> 9th = 35,000.
  # Mean: (6 x 5,000 + 35,000 + 25,000 + 15,000) / 9 = 11,666.7 us.
  measured <- data.table(file_id = 1L, thread = 0L, test = 1L, start_ms = 1e12 + c(0, 10, 20, 30, 40, 50, 90),
                         time_ms = c(5, 5, 5, 5, 5, 35, 5), witness_us = c(5000, 5000, 5000, 5000, 5000, 35000, 5000))
  cycles <- thread_cycles(measured)
  counts <- list(witness = latency_counts(measured, "witness_us"))
  intervals <- co_intervals(measured, cycles)
  expect_equal(intervals$interval_us, 10000)
  expect_true(intervals$from_median)
  slow <- co_slow_requests(measured, as.numeric(measured$witness_us), intervals)
  expect_equal(slow$m, 2)
  est <- co_estimate(counts$witness, slow, percents = c(p50 = 50, p70 = 70, p80 = 80, p90 = 90))
  total <- est[is.na(test)]
  expect_equal(total$co_added, 2)
  expect_equal(c(total$co_p50_ms, total$co_p70_ms, total$co_p80_ms, total$co_p90_ms), c(5, 15, 25, 35))
  expect_equal(total$co_mean_ms, 105000 / 9 / 1000)
  # the service-time percentiles of the same 7 requests: p70 is the 5th (5 ms), not 15
  expect_equal(percentiles_from_counts(counts$witness$value, counts$witness$N, 70), 5000)
  # exactly 2 I gives one synthetic value, I itself; under 2 I none
  expect_equal(co_slow_requests(measured[, witness_us := c(5000, 5000, 5000, 5000, 5000, 20000, 5000)],
                                as.numeric(measured$witness_us), intervals)$m, 1)
  expect_equal(nrow(co_slow_requests(measured[, witness_us := c(5000, 5000, 5000, 5000, 5000, 19999, 5000)],
                                     as.numeric(measured$witness_us), intervals)), 0)
})

test_that("whole-ms starts cannot resolve a sub-2 ms median cycle: the mean cycle is used", {
  # starts 0 0 1 1 2 2 ... 9 9 (20 requests in 9 ms): median step 0 or 1 ms -> under 2 ms;
  # mean cycle = 9 ms / 19 = 473.7 us -> interval 474 us
  measured <- data.table(file_id = 1L, thread = 0L, test = 1L, start_ms = 1e12 + rep(0:9, each = 2), time_ms = 0,
                         witness_us = 400)
  intervals <- co_intervals(measured, thread_cycles(measured))
  expect_false(intervals$from_median)
  expect_equal(intervals$interval_us, round(9000 / 19))
})

test_that("a closed-loop run carries the estimate in summary.csv; a paced run does not", {
  a <- analyse_run(run_target(fixture_dir()), warmup_s = 0)
  expect_true(all(CO_COLUMNS %in% names(a$summary)))
  expect_false(anyNA(a$summary$co_p99_ms))
  dir <- copy_fixture()
  for (log in list.files(dir, pattern = "-data\\.log$", recursive = TRUE, full.names = TRUE)) {
    lines <- readLines(log)
    lines[1] <- paste0(lines[1], ", Lag (us)")
    if (length(lines) > 1) lines[-1] <- paste0(lines[-1], ", 0")
    writeLines(lines, log)
  }
  paced <- analyse_run(run_target(dir), warmup_s = 0)
  expect_true(all(is.na(paced$summary$co_p99_ms)))
  expect_false(anyNA(paced$summary$intended_p99_ms))
})
