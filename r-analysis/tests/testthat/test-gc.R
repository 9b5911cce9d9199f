# The workers' GC logs (-Xlog:gc:file=...:utctime): every pause read with its UTC time, judged in the window.

test_that("pauses are read with their UTC time and judged inside the measured window only", {
  dir <- tempfile("gc-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  t0 <- 1763712000000   # write_closed_loop_run's first request: 2025-11-21T08:00:00.000Z
  log <- file.path(dir, "injectors", "inj1", "inj1-gc.4242.log")
  writeLines(c("[2025-11-21T07:59:58.000+0000] Using Serial",
               "[2025-11-21T07:59:59.500+0000] GC(0) Pause Full (Metadata GC Threshold) 122M->34M(495M) 289.425ms",
               "[2025-11-21T09:00:07.250+0100] GC(1) Pause Young (Allocation Failure) 170M->40M(495M) 4.500ms",
               "[2025-11-21T08:00:09.000+0000] GC(2) Pause Young (Allocation Failure) 170M->41M(495M) 3.000ms",
               "a line that is not a pause"), log)
  gc <- read_gc_logs(dir)
  expect_equal(nrow(gc), 3)
  expect_equal(gc$time_ms, t0 + c(-500, 7250, 9000))   # +0100 is an hour ahead of UTC
  expect_equal(gc$pause_ms, c(289.425, 4.5, 3))
  expect_equal(gc$kind, c("Pause Full", "Pause Young", "Pause Young"))
  expect_equal(gc$worker, rep("4242", 3))
  a <- analyse_run(run_target(dir))
  row <- a$checks[check == "worker GC"]
  expect_equal(row$status, "ok")
  expect_equal(row$value, 4.5)
  # 7.5 ms paused in a window of 15 s for 1 worker: 0.05%.
  expect_equal(row$result, "inj1 (pid 4242): 2 pauses, 7.5 ms in all, longest 4.5 ms; 0.05% of the window; before the window: 1 pause, longest 289 ms (Pause Full)")
  # A 150 ms pause inside the window is flagged.
  cat("[2025-11-21T08:00:10.000+0000] GC(3) Pause Full (Allocation Failure) 400M->40M(495M) 150.000ms\n", file = log, append = TRUE)
  expect_equal(analyse_run(run_target(dir))$checks[check == "worker GC", status], "FLAG")
})

test_that("a run without GC logs says so", {
  a <- analyse_run(run_target(copy_fixture()))
  expect_equal(a$checks[check == "worker GC", status], "n/a")
})

test_that("the timeline's GC series is every second, 0 without a pause", {
  gc <- data.table(host = "inj1", worker = "1", time_ms = 1000 * c(2.2, 2.7, 5.1), pause_ms = c(3, 4, 10), kind = "Pause Young")
  s <- gc_per_second(gc, list(run_start_ms = 0, run_end_ms = 6000), margin_s = 1)
  expect_equal(s$second, -1:7)
  expect_equal(s$value, c(0, 0, 0, 7, 0, 0, 10, 0, 0))
})
