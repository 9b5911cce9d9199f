# Merging across hosts, workers and threads; columns matched by header name.

test_that("log names give host and worker", {
  parsed <- parse_log_name(c("inj1-0-data.log", "inj-2.example.org-13-data.log", "data.log", "odd-data.log"))
  expect_equal(parsed$host, c("inj1", "inj-2.example.org", "unknown", "odd"))
  expect_equal(parsed$worker, c(0L, 13L, NA, NA))
})

test_that("logs of all hosts are merged and percentiles come from the merged requests", {
  run <- load_run(fixture_dir())
  expect_equal(nrow(run$requests), 8)
  expect_equal(sort(unique(run$files$host)), c("inj1", "inj2"))
  expect_equal(nrow(unique(run$requests[, .(file_id, thread)])), 3)
  # merged total p90 is 8; averaging the per-host p90s (5 and 8) would give 6.5
  a <- analyse_run(run_target(fixture_dir()), warmup_s = 0)
  expect_equal(a$summary[test == "total", p90_ms], 8)
  per_host <- run$requests[run$files, on = "file_id", nomatch = NULL][, .(p90 = nearest_rank(time_ms, 90)), by = host]
  expect_equal(mean(per_host$p90), 6.5)
  expect_equal(a$hosts$requests, c(5L, 3L))
})

test_that("a worker with zero requests is kept as a note, not an error", {
  run <- load_run(fixture_dir())
  empty <- run$files[basename(path) == "inj2-1-data.log"]
  expect_equal(empty$requests, 0L)
  expect_equal(empty$note, "no requests (header only)")
})

test_that("without a manifest the thread count is the distinct host + worker + thread count", {
  dir <- copy_fixture(drop = "manifest.json")
  a <- analyse_run(run_target(dir), warmup_s = 0)
  expect_equal(unique(a$summary$threads), 3)
  expect_equal(a$summary$test, c("get", "put", "total"))
})

test_that("the same host and worker in two folders stay distinct threads", {
  dir <- tempfile("run-")
  lines <- readLines(file.path(fixture_dir(), "injectors", "inj1", "inj1-0-data.log"))
  write_log(file.path(dir, "injectors", "a", "inj1-0-data.log"), lines)
  write_log(file.path(dir, "injectors", "b", "inj1-0-data.log"), lines)
  run <- load_run(dir)
  expect_equal(nrow(run$requests), 10)
  expect_equal(unique(run$files$host), "inj1")
  expect_equal(nrow(thread_spans(run$requests)), 4)
})

test_that("columns are matched by name: reordered, extra and missing columns", {
  dir <- tempfile("run-")
  write_log(file.path(dir, "h1-0-data.log"), c(
    "Test, Witness (us), Errors, Thread, Test time, Run, Start time (ms since Epoch), Custom",
    "1, 1500, 0, 0, 2, 0, 1763712000000, x",
    "2, 2500, 1, 0, 3, 1, 1763712000002, y"))
  # an HTTP-plugin style log from another Grinder version: no witness, extra columns
  write_log(file.path(dir, "h2-0-data.log"), c(
    "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, HTTP response code, HTTP response length, HTTP response errors, Time to resolve host, Time to establish connection, Time to first byte, New connections",
    "0, 0, 1, 1763712000001, 4, 0, 200, 512, 0, 0, 1, 3, 1"))
  run <- load_run(dir)
  r <- run$requests[order(start_ms)]
  expect_equal(r$test, c(1L, 1L, 2L))
  expect_equal(r$time_ms, c(2, 4, 3))
  expect_equal(r$errors, c(0L, 0L, 1L))
  expect_equal(r$witness_us, c(1500, NA, 2500))
  expect_equal(run$files$has_witness, c(TRUE, FALSE))
  expect_match(run$files$note[2], "no Witness")
  a <- analyse_run(run_target(dir), warmup_s = 0)
  get <- a$summary[test == "get"]
  expect_equal(c(get$count, get$witness_count), c(2, 1))
  expect_equal(get$mean_ms, 3)
  # overhead over the requests that have a witness only: 2 ms - 1500 us
  expect_equal(get$overhead_us, 500)
  expect_equal(a$checks[check == "witness", status], "FLAG")
})

test_that("manifest test names win; unknown numbers are test-<n>", {
  expect_equal(test_names_for(c(1L, 2L, 7L, 9L)), c("get", "put", "increment", "test-9"))
  expect_equal(test_names_for(c(1L, 9L), list(`9` = "check-and-put")), c("get", "check-and-put"))
})
