# A run's fault schedule (faults.csv) against its requests: the per-fault statistics on a fixture
# computed by hand, the timeline and report.json, and the verdict naming the schedule.

T0 <- 1795000000000

# The fixture (times from T0, the first request's start; one thread, 50 ms successes):
#   0-10 s   10 successes a second (100): the kill's baseline is 10 req/s over 10 s
#   10 s     kill regionserver=2. Second 0 after it: 4 successes, a failure ending at +0.5 s;
#            second 1: 2 failures, one of 6000 ms (over the 5000 ms deadline and its 500 ms grace);
#            second 2: nothing; seconds 3-5: 10 successes each
#   16 s     start regionserver=2; 10 successes a second for 4 s, the last ending at 19.95 s
#   pause regionserver=1 at 18 s: not done (the run ended first)
# Kill: first error 0.5 s, 2 s without success (seconds 1, 2), below 9 req/s from second 0, back from
# second 3 (3, 4, 5 at 10), lowest 0, 37 requests, 3 errors, 1 past the deadline and its bound.
# Start: baseline over 6-16 s = (40 + 4 + 30) / 10 = 7.4 req/s, never below 6.66: recovery 0; 40 requests.
fault_fixture <- function(dir = tempfile("faults-")) {
  ok <- function(end) sprintf("0, 0, 1, %.0f, 50, 0, 50000", T0 + end - 50)
  failed <- function(end, ms) sprintf("0, 0, 2, %.0f, %d, 1, %d", T0 + end - ms, ms, ms * 1000)
  lines <- c(ok(as.vector(outer(seq(50, 950, 100), seq(0, 9000, 1000), `+`))),
             ok(c(10100, 10300, 10600, 10800)), failed(10500, 100), failed(11200, 6000), failed(11700, 100),
             ok(13050 + 100 * 0:29), ok(16050 + 100 * 0:39))
  write_manifest(dir, threads = 1, status = "degraded", properties = list(hbaseload.timeout.ms = "5000"),
                 extra = list(reason = "degraded by its fault schedule (at=10s kill regionserver=2; ...), as asked",
                              faults = list(schedule = "at=10s kill regionserver=2; at=16s start regionserver=2; at=18s pause regionserver=1 for=2s")))
  write_log(file.path(dir, "injectors", "inj1", "inj1-0-data.log"), c(LOG_HEADER, lines))
  writeLines(c("at_s,time_ms,action,regionserver,for_s,pid,outcome,load_start_ms,detail",
               sprintf("16,%.0f,start,2,,5151,done,%.0f,\"started again; its RPC port listened 8.0 s later\"", T0 + 16000, T0 - 1000),
               sprintf("10,%.0f,kill,2,,4242,done,%.0f,\"SIGKILL; gone 0.1 s later\"", T0 + 10000, T0 - 1000),
               sprintf("18,,pause,1,2,,not done,%.0f,\"the run ended first\"", T0 - 1000)),
             file.path(dir, "faults.csv"))
  dir
}

test_that("each fault's effects match the hand-computed figures", {
  dir <- fault_fixture()
  requests <- load_run(dir, "run-f")$requests
  f <- read_faults(dir)
  expect_equal(f$action, c("kill", "start", "pause"))   # time order, the action not done last
  e <- fault_effects(f, requests$start_ms + requests$time_ms, requests$errors > 0, requests$time_ms, min(requests$start_ms), 5000)
  expect_equal(e$fault, 1:3)
  kill <- e[1]
  expect_equal(kill$second, 10)
  expect_equal(kill$baseline_rps, 10)
  expect_equal(kill$baseline_s, 10)
  expect_equal(kill$first_error_s, 0.5)
  expect_equal(kill$no_success_s, 2)
  expect_equal(kill$recovery_s, 3)
  expect_true(kill$recovered)
  expect_equal(kill$min_rps, 0)
  expect_equal(kill$requests, 37)
  expect_equal(kill$errors, 3)
  expect_equal(kill$past_deadline, 1)
  expect_equal(kill$past_bound, 1)
  expect_equal(kill$window_s, 6)
  expect_equal(kill$until, "the next action")
  start <- e[2]
  expect_equal(start$baseline_rps, 7.4)
  expect_true(is.na(start$first_error_s))
  expect_equal(start$no_success_s, 0)
  expect_equal(start$recovery_s, 0)
  expect_equal(start$requests, 40)
  expect_equal(start$errors, 0)
  expect_equal(start$until, "the run's end")
  pause <- e[3]
  expect_equal(pause$outcome, "not done")
  expect_true(is.na(pause$second) && is.na(pause$errors) && is.na(pause$recovered))
})

test_that("recovery is the first second of a hold at 90% after the first dip, else not within the span", {
  expect_equal(recovery_second(c(10, 10, 10), 9), list(second = 0, recovered = TRUE))
  expect_equal(recovery_second(c(4, 0, 9, 3, 9, 9, 9, 2), 9), list(second = 4, recovered = TRUE))
  expect_equal(recovery_second(c(4, 0, 9, 9), 9), list(second = 2, recovered = TRUE))   # the span ends within the hold
  expect_equal(recovery_second(c(4, 0, 0), 9), list(second = NA_real_, recovered = FALSE))
  expect_equal(recovery_second(c(4, 0), NA), list(second = NA_real_, recovered = NA))
  expect_equal(watchdog_grace_ms(10000), 1000)
  expect_equal(watchdog_grace_ms(500), 100)
  # a call the watchdog interrupted (deadline + grace + a few ms) is within its bound
  expect_equal(past_bound_ms(3000), 3400)
})

test_that("the report draws the faults, tables them, names the schedule in its verdict and report.json", {
  dir <- fault_fixture()
  a <- analyse_run(run_target(dir))
  expect_equal(a$verdict$kind, "under faults")
  expect_false("degraded run" %in% a$verdict$kinds)   # the degradation asked for is not a second finding
  expect_match(a$verdict$sentence, "under faults: the run went through its fault schedule (at=10s kill regionserver=2; at=16s start regionserver=2; at=18s pause regionserver=1 for=2s): 2 of 3 actions done, 3 of 177 requests failed; after kill regionserver=2 at 10.0 s: first error 0.5 s later, 2 s without a success, back to 90% of its throughput after 3 s",
               fixed = TRUE)
  expect_true(verdict_disqualifies("under faults", "throughput"))
  p <- plot_timeline(a$timeline, a$seconds, a$window, a$faults)
  built <- ggplot2::ggplot_build(p)
  labels <- unlist(lapply(built$data, function(d) if ("label" %in% names(d)) as.character(d$label)))
  expect_setequal(labels, c("kill rs2", "start rs2"))
  out <- tempfile("faults-report-")
  write_run_report(a, out)
  faults <- jsonlite::fromJSON(file.path(out, "report.json"), simplifyVector = FALSE)$runs[[1]]$faults
  expect_equal(vapply(faults$actions, function(r) r$action, ""), c("kill", "start", "pause"))
  expect_equal(faults$actions[[1]]$no_success_s, 2)
  expect_equal(faults$actions[[1]]$recovery_s, 3)
  expect_null(faults$actions[[3]]$no_success_s)
  expect_equal(faults$deadline_ms, 5000)
  expect_equal(faults$schedule, "at=10s kill regionserver=2; at=16s start regionserver=2; at=18s pause regionserver=1 for=2s")
  html <- paste(readLines(file.path(out, "index.html")), collapse = "\n")
  expect_match(html, "id=\"faults\"", fixed = TRUE)
  expect_match(html, "at=10s kill regionserver=2", fixed = TRUE)
  expect_match(html, "not done: the run ended first", fixed = TRUE)
  # a fault run's first screen: its timeline and faults table before the whole-run results
  expect_lt(regexpr("<h2>Over time</h2>", html, fixed = TRUE), regexpr("<h2>Results</h2>", html, fixed = TRUE))
  expect_lt(regexpr("id=\"faults\"", html, fixed = TRUE), regexpr("<h2>Results</h2>", html, fixed = TRUE))
})

test_that("a run without faults.csv has no faults section, check or verdict", {
  dir <- fault_fixture()
  unlink(file.path(dir, "faults.csv"))
  a <- analyse_run(run_target(dir))
  expect_null(a$faults)
  expect_false("faults" %in% a$checks$check)
  expect_equal(a$verdict$kind, "degraded run")
  out <- tempfile("no-faults-report-")
  write_run_report(a, out)
  html <- paste(readLines(file.path(out, "index.html")), collapse = "\n")
  expect_gt(regexpr("<h2>Over time</h2>", html, fixed = TRUE), regexpr("<h2>Results</h2>", html, fixed = TRUE))
})
