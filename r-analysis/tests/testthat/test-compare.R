# Comparisons and sweeps.

test_that("the knee is the run with the highest throughput / mean latency", {
  # power: 10, 20, 25, 16
  expect_equal(knee_index(c(100, 200, 300, 320), c(10, 10, 12, 20)), 3)
  expect_true(is.na(knee_index(c(NA, NA), c(1, 2))))
})

test_that("deltas and ratios are against the first run, test by test", {
  row <- function(run, order, test, mean, p90, tput) {
    data.table(run = run, run_order = order, test = test, test_number = if (test == "total") NA_integer_ else 1L,
               mean_ms = mean, p90_ms = p90, p99_ms = p90 * 2, throughput_rps = tput,
               witness_mean_ms = mean / 2, witness_p90_ms = NA_real_, witness_p99_ms = NA_real_)
  }
  stacked <- rbind(row("run-41", 1, "get", 4, 8, 1000), row("run-41", 1, "total", 4, 8, 1000),
                   row("run-42", 2, "get", 6, 10, 800), row("run-42", 2, "total", 5, 9, 900))
  d <- add_deltas(stacked)
  get42 <- d[run == "run-42" & test == "get"]
  expect_equal(c(get42$delta_mean_ms, get42$ratio_mean), c(2, 1.5))
  expect_equal(c(get42$delta_p90_ms, get42$ratio_p90), c(2, 1.25))
  expect_equal(c(get42$delta_throughput_rps, get42$ratio_throughput), c(-200, 0.8))
  expect_equal(d[run == "run-41" & test == "get", ratio_mean], 1)
  expect_equal(unique(d$baseline), "run-41")
})

test_that("a sweep report compares its runs, with scaling curves and direct against thrift", {
  runs <- tempfile("runs-")
  dir.create(runs)
  for (spec in list(c("run-1", "direct", "2"), c("run-2", "thrift", "2"), c("run-3", "direct", "4"))) {
    dir <- copy_fixture(dest = file.path(runs, spec[1]))
    manifest <- jsonlite::fromJSON(file.path(dir, "manifest.json"))
    manifest$run_id <- spec[1]
    manifest$target <- spec[2]
    manifest$threads_total <- as.integer(spec[3])
    jsonlite::write_json(manifest, file.path(dir, "manifest.json"), auto_unbox = TRUE)
  }
  dir.create(file.path(runs, "sweep-1"))
  writeLines('{"sweep_id": "sweep-1", "runs": ["run-1", "run-2", "run-3"]}', file.path(runs, "sweep-1", "sweep.json"))
  res <- run_cli(c("--quiet", "--warmup", "0", "sweep-1"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 0)
  out <- file.path(runs, "sweep-1", "report")
  expect_true(all(file.exists(file.path(out, c("index.html", "summary.csv", "percentiles-compare.png",
                                                "scaling-throughput.png", "scaling-latency.png", "direct-vs-thrift.png")))))
  summary <- fread(file.path(out, "summary.csv"))
  expect_equal(summary[test == "total", run], c("run-1", "run-2", "run-3"))
  expect_equal(summary[test == "total", threads], c(2, 2, 4))
  expect_equal(summary[test == "total", ratio_mean], c(1, 1, 1))

  compare <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", "run-1", "run-2"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(compare$status, 0)
  expect_match(compare$stdout[1], "compare-run-1-run-2/report/index.html")
})

test_that("a comparison skips a missing run and says so; nothing valid is an error", {
  runs <- tempfile("runs-")
  dir.create(runs)
  copy_fixture(dest = file.path(runs, "run-41"))
  env <- paste0("SUITE_RUNS_DIR=", runs)
  res <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", "run-41", "run-404"), env = env)
  expect_equal(res$status, 0)
  expect_match(res$stderr, "skipping run-404: run 'run-404' not found", all = FALSE)
  html <- paste(readLines(file.path(runs, "compare-run-41-run-404", "report", "index.html"), warn = FALSE), collapse = "\n")
  expect_match(html, "Skipped: run-404", fixed = TRUE)
  none <- run_cli(c("--quiet", "run-404", "run-405"), env = env)
  expect_equal(none$status, 1)
  expect_match(none$stderr[length(none$stderr)], "^report.R: no run in the comparison has valid requests")
})

test_that("a sweep's runs are the runs beside it, not same-named runs of SUITE_RUNS_DIR", {
  # The sweep and its run-1 in one folder; SUITE_RUNS_DIR (another folder) has a run-1 of its own
  # with another thread count: the report is of the sweep's own run.
  theirs <- tempfile("sweep-runs-")
  other <- tempfile("other-runs-")
  dir.create(theirs)
  dir.create(other)
  for (where in list(c(theirs, "3"), c(other, "8"))) {
    dir <- copy_fixture(dest = file.path(where[1], "run-1"))
    manifest <- jsonlite::fromJSON(file.path(dir, "manifest.json"))
    manifest$run_id <- "run-1"
    manifest$threads_total <- as.integer(where[2])
    jsonlite::write_json(manifest, file.path(dir, "manifest.json"), auto_unbox = TRUE)
  }
  dir.create(file.path(theirs, "sweep-1"))
  writeLines('{"sweep_id": "sweep-1", "runs": ["run-1"]}', file.path(theirs, "sweep-1", "sweep.json"))
  res <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", file.path(theirs, "sweep-1")), env = paste0("SUITE_RUNS_DIR=", other))
  expect_equal(res$status, 0)
  summary <- fread(file.path(theirs, "sweep-1", "report", "summary.csv"))
  expect_equal(unique(summary[test == "total", threads]), 3)
})

test_that("a comparison's runs are analysed side by side only when each is small enough to hold two", {
  dir <- tempfile("jobs-")
  run <- function(id, requests) {
    d <- file.path(dir, id)
    dir.create(d, recursive = TRUE)
    if (!is.na(requests)) jsonlite::write_json(list(datalog_requests = requests), file.path(d, "manifest.json"), auto_unbox = TRUE)
    list(kind = "run", id = id, dir = d)
  }
  small <- list(run("run-1", 150000), run("run-2", 90000), run("run-3", NA))
  old <- options(hbasegrinder.jobs = 2)
  on.exit(options(old), add = TRUE)
  expect_equal(report_jobs(small), if (.Platform$OS.type == "unix") 2L else 1L)
  expect_equal(report_jobs(small[1]), 1L)
  expect_equal(target_requests(small[[3]]), 0)
  expect_equal(target_requests(list(kind = "missing", id = "run-9", dir = NA_character_)), 0)
  expect_equal(report_jobs(c(small, list(run("run-4", 3e6)))), 1L)
  options(hbasegrinder.jobs = 1)
  expect_equal(report_jobs(small), 1L)
})

test_that("runs mapped side by side come back in their order, a failed process as its run's report_error", {
  targets <- lapply(1:4, function(k) list(kind = "run", id = paste0("run-", k), dir = NA_character_))
  old <- options(hbasegrinder.jobs = 2)
  on.exit(options(old), add = TRUE)
  analyse <- function(target) {
    if (target$id == "run-3") stop("boom in run-3")
    if (target$id == "run-2") return(report_error("no data logs"))
    list(id = target$id, pid = Sys.getpid())
  }
  for (jobs in c(2, 1)) {
    options(hbasegrinder.jobs = jobs)
    if (jobs == 1) analyse_seq <- function(target) tryCatch(analyse(target), error = function(e) report_error(conditionMessage(e)))
    got <- map_runs(targets, if (jobs == 1) analyse_seq else analyse)
    expect_equal(length(got), 4)
    expect_equal(c(got[[1]]$id, got[[4]]$id), c("run-1", "run-4"))
    expect_s3_class(got[[2]], "report_error")
    expect_s3_class(got[[3]], "report_error")
    expect_match(conditionMessage(got[[3]]), "boom in run-3")
    if (jobs == 2 && .Platform$OS.type == "unix") expect_false(got[[1]]$pid == Sys.getpid())
  }
})
