# Steady state: the warm-up cut detected from the per-second series, and the trend check.

test_that("settling: the first second that stays within 20% of the second-half level for 3 seconds", {
  # second-half median of (10, 50, 90, 100, 95, 105, 100, 100) is median(95, 105, 100, 100) = 100;
  # band [80, 120]: seconds 2.. are inside and stay -> 2
  expect_equal(settling_second(c(10, 50, 90, 100, 95, 105, 100, 100)), 2L)
  # a single lucky second does not settle: 90 at second 1, then 40, then inside from second 3 on
  expect_equal(settling_second(c(10, 90, 40, 100, 100, 100, 100, 100)), 3L)
  # never inside for 3 seconds in a row -> NA; a missing second (no completion) is outside
  expect_true(is.na(settling_second(c(10, 100, 10, 100, 10, 100, 10, 100))))
  expect_equal(settling_second(c(100, NA, 100, 100, 100, 100)), 2L)
})

test_that("settling one way: only a slow second is outside for the warm-up cut", {
  # level 100 (median of the second half); the first three seconds run faster
  fast_start <- c(200, 200, 190, 100, 100, 100, 100, 100)
  expect_equal(settling_second(fast_start), 3L)                     # both ways: outside until second 3
  expect_equal(settling_second(fast_start, outside = "below"), 0L)  # throughput above its level is no warm-up
  expect_equal(settling_second(fast_start, outside = "above"), 3L)  # as a latency it would be one
  expect_equal(settling_second(c(10, 50, 90, 100, 95, 105, 100, 100), outside = "below"), 2L)
  expect_equal(settling_second(c(10, 5, 2, 1, 1, 1.1, 1, 1), outside = "above"), 3L)
})

test_that("a run that starts fast and slows down is not cut: the trend check gives not steady", {
  dir <- tempfile("slowing-")
  # 10 threads at 5 ms for 6 s, then 10 ms for 12 s (18 s): 2000 completions a second, then 1000.
  # Second-half level (s9..s17) = 1000; throughput never below 800 and latency never above 12 ms
  # -> no cut. Both ways the first 6 s would be outside and cut (6 s), hiding the change.
  # Window s0..s17: first third s0..s5 at 2000, last third s12..s17 at 1000: -50%.
  write_closed_loop_run(dir, threads = 10, latency_ms = c(rep(5, 6), rep(10, 12)))
  a <- analyse_run(run_target(dir))
  expect_equal(a$window$warmup_ms, 0)
  expect_match(a$window$warmup_rule, "throughput settled at 0 s, latency at 0 s \\(no more than 20% slower")
  expect_equal(a$trend$throughput_change, -0.5)
  expect_equal(a$checks[check == "steady state", status], "FLAG")
  expect_equal(a$verdict$kind, "not steady")
})

test_that("the warm-up cut of a ramp-then-flat run is where the ramp ends, and the window is steady", {
  dir <- tempfile("ramp-")
  # 10 threads, latency by second 40, 20, 10 ms, then 5 ms for 12 s (15 s in all), no gap.
  # Completions by second (a thread's last request of a second ends on the next boundary):
  # s0: 24 x 10 = 240; s1: 1 + 49 = 50 x 10 = 500; s2: 1 + 99 = 100 x 10 = 1000; s3..s14: 200 x 10 = 2000.
  # The last request ends at 15.000 s: 15 full seconds (0..14); second-half median (s7..s14) = 2000,
  # band [1600, 2400]: s3 is the first inside, and stays -> throughput settles at 3.
  # Witness = time - 50 us; mean per second s3 = (9.95 + 199 x 4.95) / 200 = 4.975 ms against the
  # level 4.95: inside; s2 = (19.95 + 99 x 9.95) / 100 = 10.05: outside -> latency settles at 3. Cut: 3 s.
  write_closed_loop_run(dir, threads = 10, latency_ms = c(40, 20, 10, rep(5, 12)))
  a <- analyse_run(run_target(dir))
  expect_equal(a$levels$requests[1:5], c(240, 500, 1000, 2000, 2000))
  expect_equal(nrow(a$levels), 15)
  expect_equal(a$window$warmup_ms, 3000)
  expect_true(a$window$warmup_detected)
  expect_match(a$window$warmup_rule, "throughput settled at 3 s, latency at 3 s")
  # measured: requests starting at 3.000 s or later: 12 s x 200 x 10 = 24,000
  expect_equal(a$window$measured_requests, 24000)
  # window 3..14: 12 seconds, thirds s3..s6 and s11..s14, all 2000 -> change 0
  expect_equal(a$trend$seconds, 12)
  expect_equal(a$trend$throughput_change, 0)
  expect_equal(a$checks[check == "steady state", status], "ok")
  expect_equal(a$verdict$kind, "trustworthy")
  # --warmup overrides the detection
  b <- analyse_run(run_target(dir), warmup_s = 1)
  expect_equal(b$window$warmup_ms, 1000)
  expect_false(b$window$warmup_detected)
  expect_equal(b$window$warmup_rule, "--warmup 1 s")
})

test_that("a run that ramps to its end flags steady state and gives the not-steady verdict", {
  dir <- tempfile("ramping-")
  # 10 threads, latency falling over 20 s: 50 50 40 40 25 25 20 20 10 10 8 8 5 5 4 4 2 2 1 1 ms, so
  # throughput per thread climbs 20 -> 1000 req/s. Second-half level (s10..s19) is the median of
  # 1250 1250 2000 2000 2500 2500 5000 5000 10000 10000 (about) = 2500; within 20% for 3 s in a row
  # never happens (2000, 2500, 2500, 5000 ...), so the cut is capped at half the run: 10 s.
  # Window s10..s19: first third s10..s12 ~ 1250-2000 req/s, last third s17..s19 ~ 5000-10000: far over 15%.
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(c(50, 40, 25, 20, 10, 8, 5, 4, 2, 1), each = 2))
  a <- analyse_run(run_target(dir))
  expect_equal(a$window$warmup_ms, 10000)
  expect_match(a$window$warmup_rule, "not settled")
  expect_gt(a$trend$throughput_change, STEADY_TREND_TOLERANCE)
  expect_lt(a$trend$latency_change, -STEADY_TREND_TOLERANCE)
  expect_equal(a$checks[check == "steady state", status], "FLAG")
  expect_equal(a$verdict$kind, "not steady")
  expect_match(a$verdict$sentence, "^not steady: throughput moved \\+[0-9.]+% and mean latency -[0-9.]+% from the first to the last third")
  expect_equal(sort(a$verdict$disqualifies), c("comparison", "latency", "throughput"))
})

test_that("too few seconds fall back to the first 10% and cannot be judged", {
  # 5 s at 10 ms: 5 full seconds < 6 -> 10% of the 5.0 s run = 0.5 s; the window is too short for a trend
  dir <- tempfile("short-")
  write_closed_loop_run(dir, threads = 4, latency_ms = rep(10, 5))
  a <- analyse_run(run_target(dir))
  expect_equal(a$window$warmup_ms, 500)
  expect_match(a$window$warmup_rule, "^first 10% of the run: 5 full seconds are too few")
  expect_false(a$trend$judged)
  expect_equal(a$checks[check == "steady state", status], "n/a")
  # 4 threads x 100 req/s x 4.5 s = 1,800 requests in a 4.5 s window: too short (under 10 s)
  expect_equal(a$verdict$kind, "too short")
  expect_match(a$verdict$sentence, "^too short: the measured window is 4\\.5 s with 1,800 requests")
})

test_that("over-time plots cap warm-up spikes at the measured range", {
  data <- data.table(panel = "p", second = 0:5, value = c(40, 10, 3, 2, 2.5, 2))
  capped <- cap_warmup_spikes(data, cut_s = 2)
  # measured seconds 2..5: max 3 -> top 3.3; warm-up seconds 0 and 1 (40, 10) are drawn at 3.3
  expect_equal(capped$value, c(3.3, 3.3, 3, 2, 2.5, 2))
  expect_equal(capped$capped, c(TRUE, TRUE, FALSE, FALSE, FALSE, FALSE))
})

test_that("a run where neither throughput nor latency ever settles is cut at half, without a warning", {
  # 20 seconds alternating 1 and 100 requests (latency 100 and 1 ms): never within 20% of the
  # second-half median for 3 s in a row, by either measure.
  levels <- data.table(second = 0:19, requests = rep(c(1L, 100L), 10), latency_ms = rep(c(100, 1), 10))
  expect_silent(cut <- warmup_cut(levels, 20000))
  expect_equal(cut$warmup_ms, 10000)
  expect_match(cut$rule, "not settled .* cut at half \\(10 s\\)")
})
