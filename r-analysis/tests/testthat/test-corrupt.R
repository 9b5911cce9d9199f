# Bad input: corrupt, binary, truncated lines; empty and foreign logs; the CLI's exit codes.

test_that("corrupt lines are skipped and counted by reason", {
  path <- tempfile("inj1-0-", fileext = "-data.log")
  write_log(path, list(
    LOG_HEADER,
    "0, 0, 1, 1763712000000, 2, 0, 1900",
    as.raw(c(0x00, 0xff, 0x13, 0x80, 0x2c, 0x41)),          # binary garbage
    "0, 1, 1, 17637x2000003, 2, 0, 1800",                   # non-numeric field
    "0, 2, 1, 1763712000005",                               # too few fields
    LOG_HEADER,                                             # a worker restarted and wrote its header again
    "",                                                      # blank line
    "0, 3, 2, 1763712000006, -4, 0, 1700",                  # impossible negative time
    "1, 0, 2, 1763712000001, 3, 0, 2800",
    "1, 1, 2, 17637120"                                      # truncated last line (no newline)
  ), newline = FALSE)
  log <- read_data_log(path)
  expect_equal(nrow(log$data), 2)
  expect_equal(log$data$time_ms, c(2, 3))
  reasons <- setNames(log$skipped$lines, log$skipped$reason)
  expect_equal(sum(log$skipped$lines), 7)
  expect_equal(unname(reasons[c("binary or non-text bytes", "non-numeric or corrupt field", "wrong number of fields",
                                "repeated header line", "blank line", "truncated last line")]), rep(1L, 6))
  expect_equal(unname(reasons[grep("^implausible", names(reasons))]), 1L)
})

test_that("a clean file is read in one pass with nothing skipped", {
  log <- read_data_log(file.path(fixture_dir(), "injectors", "inj1", "inj1-0-data.log"))
  expect_equal(nrow(log$data), 5)
  expect_equal(nrow(log$skipped), 0)
  expect_true(log$has_witness)
})

test_that("empty, header-only and foreign logs yield no requests and say why", {
  dir <- tempfile("run-")
  write_log(file.path(dir, "a-0-data.log"), character(), newline = FALSE)
  write_log(file.path(dir, "b-0-data.log"), LOG_HEADER)
  write_log(file.path(dir, "c-0-data.log"), c("time,value", "1,2", "3,4"))
  expect_equal(read_data_log(file.path(dir, "a-0-data.log"))$note, "empty file")
  expect_equal(read_data_log(file.path(dir, "b-0-data.log"))$note, "no requests (header only)")
  foreign <- read_data_log(file.path(dir, "c-0-data.log"))
  expect_null(foreign$data)
  expect_match(foreign$note, "not a Grinder 3 data log")
  expect_equal(foreign$skipped$lines, 2)
  expect_error(analyse_run(run_target(dir)), "no valid requests", class = "report_error")
})

test_that("the CLI reports a fixture and writes summary.csv", {
  out <- tempfile("report-")
  res <- run_cli(c("--warmup", "0", "--out", out, fixture_dir()))
  expect_equal(res$status, 0)
  expect_true(any(grepl("wrote .*index.html", res$stdout)))
  summary <- fread(file.path(out, "summary.csv"))
  expect_equal(names(summary)[seq_along(SUMMARY_COLUMNS)], SUMMARY_COLUMNS)
  expect_equal(summary$p90_ms, c(7, 8, 8))
  html <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_match(html, "90% percentile line (ms)", fixed = TRUE)
  expect_match(html, "Can these numbers be trusted", fixed = TRUE)
  expect_match(html, "data:image/png;base64,", fixed = TRUE)
  expect_true(all(file.exists(file.path(out, c("histogram-full.png", "histogram-zoom.png", "percentiles.png",
                                                "timeline.png", "overhead.png", "host-metrics.png")))))
  expect_false(grepl("Charts not drawn", html, fixed = TRUE))

  # --no-plots: the same figures, no chart, and the page says so
  bare <- tempfile("report-")
  res <- run_cli(c("--no-plots", "--warmup", "0", "--out", bare, fixture_dir()))
  expect_equal(res$status, 0)
  expect_equal(list.files(bare, pattern = "[.]png$"), character())
  expect_equal(fread(file.path(bare, "summary.csv")), summary)
  without_time <- function(dir) { j <- read_json_report(dir); j$generated_at <- NULL; j }
  expect_equal(without_time(bare), without_time(out))
  bare_html <- paste(readLines(file.path(bare, "index.html"), warn = FALSE), collapse = "\n")
  expect_match(bare_html, "Charts not drawn (report.R --no-plots): the figures and tables are complete.", fixed = TRUE)
  expect_false(grepl("data:image/png", bare_html, fixed = TRUE))
  expect_match(bare_html, "Can these numbers be trusted", fixed = TRUE)
})

test_that("the CLI builds the report from the valid lines and says how many were skipped", {
  dir <- copy_fixture(drop = "manifest.json")
  write_log(file.path(dir, "injectors", "inj2", "inj2-2-data.log"),
            c(LOG_HEADER, "0, 0, 1, 1763712000002, 3, 0, 2950", "garbage, line"), newline = FALSE)
  res <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", "--out", file.path(dir, "report"), dir))
  expect_equal(res$status, 0)
  summary <- fread(file.path(dir, "report", "summary.csv"))
  expect_equal(summary[test == "total", count], 9)
  html <- paste(readLines(file.path(dir, "report", "index.html"), warn = FALSE), collapse = "\n")
  expect_match(html, "1 lines skipped", fixed = TRUE)
  expect_match(html, "truncated last line", fixed = TRUE)
})

test_that("the CLI exits 1 with a one-line reason when nothing valid exists", {
  missing <- run_cli(c("--quiet", "run-does-not-exist"), env = paste0("SUITE_RUNS_DIR=", tempdir()))
  expect_equal(missing$status, 1)
  expect_length(missing$stderr, 1)
  expect_match(missing$stderr, "^report.R: run 'run-does-not-exist' not found")

  empty <- tempfile("run-")
  dir.create(empty)
  no_logs <- run_cli(c("--quiet", empty))
  expect_equal(no_logs$status, 1)
  expect_match(no_logs$stderr, "^report.R: no Grinder data logs")

  write_log(file.path(empty, "x-0-data.log"), list(LOG_HEADER, as.raw(c(0x01, 0x02, 0x03))))
  corrupt <- run_cli(c("--quiet", empty))
  expect_equal(corrupt$status, 1)
  expect_length(corrupt$stderr, 1)
  expect_match(corrupt$stderr, "^report.R: no valid requests .*binary or non-text bytes")

  bad_option <- run_cli(c("--warmup", "soon", fixture_dir()))
  expect_equal(bad_option$status, 1)
  expect_match(bad_option$stderr, "^report.R: --warmup wants a number")
})

test_that("a start time years away from the run is dropped, not stretched over the timeline", {
  dir <- tempfile("run-")
  write_log(file.path(dir, "h-0-data.log"), c(
    LOG_HEADER,
    "0, 0, 1, 1763712000000, 2, 0, 1900",
    "0, 1, 1, 1763712000002, 3, 0, 2900",
    "0, 2, 1, 3786912000000, 2, 0, 1900",       # 2090: plausible alone, not in this run
    "0, 3, 1, 1763712000005, 99999999999, 0, 5"))  # a Test time of three years
  run <- load_run(dir)
  expect_equal(nrow(run$requests), 2)
  expect_equal(run$files$requests, 2L)
  expect_equal(run$files$skipped_lines, 2L)
  expect_setequal(run$skipped$reason, c("implausible value (start over a week from the run's median start)",
                                        "implausible value (negative time, time over a day, start outside 2000-2100)"))
  a <- analyse_run(run_target(dir), warmup_s = 0)
  expect_equal(nrow(a$seconds), 1)
})

test_that("a command line that cannot be right exits 2 with one line; a bad value exits 1", {
  unknown <- run_cli(c("--frobnicate", fixture_dir()))
  expect_equal(unknown$status, 2)
  expect_length(unknown$stderr, 1)
  expect_match(unknown$stderr, "^report.R: unknown option '--frobnicate'; usage: ")
  expect_equal(run_cli(c(fixture_dir(), "--warmup"))$status, 2)
  expect_equal(run_cli(character())$status, 2)
  expect_equal(run_cli(c("--warmup", "soon", fixture_dir()))$status, 1)
})
