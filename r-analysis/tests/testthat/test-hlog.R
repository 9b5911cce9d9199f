# The interval logs' summary (report-input/, written by the finaliser) read back, cross-checked
# against the data logs, and a report made from it alone when a run wrote no data log.

HLOG_SUMMARY_HEADER <- "test,name,count,errors,mean_us,sd_us,min_us,p50_us,p90_us,p95_us,p99_us,p999_us,max_us,datalog_count,counts_equal"

# A small run: 10 gets with witness 100, 200, ..., 1000 us (one failed), and 4 puts of 3000 us.
write_hlog_fixture_run <- function(dir, with_data_log = TRUE, summary_rows = NULL) {
  write_manifest(dir, threads = 2, operations = "get:70,put:30")
  log <- file.path(dir, "injectors", "inj1", "inj1-0-data.log")
  if (with_data_log) {
    t0 <- 1763712000000
    get <- sprintf("%d, %d, 1, %.0f, %d, %d, %d", 0L, 0:9, t0 + 100 * (0:9), c(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L),
                   c(0L, 0L, 0L, 1L, 0L, 0L, 0L, 0L, 0L, 0L), 100L * (1:10))
    put <- sprintf("%d, %d, 2, %.0f, %d, 0, %d", 1L, 0:3, t0 + 200 * (0:3), 3L, 3000L)
    write_log(log, c(LOG_HEADER, get, put))
  } else {
    write_log(log, character(), newline = FALSE)
  }
  # Computed by hand. get: mean 550, p50 rank 5 -> 500, p90 rank 9 -> 900, p95/p99/p99.9 rank 10 -> 1000.
  # put: four times 3000 us, which HdrHistogram keeps as 3001 (its bucket of width 2 above 2048 us).
  # total: the 14 values; p50 rank 7 -> 700, p90 rank ceil(12.6) = 13 -> 3000 (3001).
  rows <- summary_rows %if_absent% c("1,get,10,1,550.000,287.228,100,500,900,1000,1000,1000,1000,10,true",
                              "2,put,4,0,3001.000,0.000,3000,3001,3001,3001,3001,3001,3001,4,true",
                              "total,total,14,1,1250.286,1175.872,100,700,3001,3001,3001,3001,3001,14,true")
  dir.create(file.path(dir, "report-input"), recursive = TRUE, showWarnings = FALSE)
  writeLines(c(HLOG_SUMMARY_HEADER, rows), file.path(dir, "report-input", "hlog-summary.csv"))
  writeLines(c("second,test,name,count,errors", "1763712000,1,get,10,1", "1763712000,2,put,3,0", "1763712001,2,put,1,0"),
             file.path(dir, "report-input", "hlog-seconds.csv"))
  writeLines(c("host,worker,count,errors,datalog_count,counts_equal,problem", "inj1,inj1-0,14,1,14,true,"),
             file.path(dir, "report-input", "hlog-workers.csv"))
  invisible(dir)
}

test_that("HdrHistogram's values agree with exact ones within a bucket's width, and only above them", {
  expect_true(hlog_agrees(300, 300))
  expect_false(hlog_agrees(301, 300))          # exact below 2048 us
  expect_true(hlog_agrees(3001, 3000))         # bucket width 2 between 2048 and 4095
  expect_true(hlog_agrees(5003, 5000))         # floor(5000 / 1024) = 4
  expect_false(hlog_agrees(5006, 5000))
  expect_false(hlog_agrees(4999, 5000))        # never below the true value
  expect_false(hlog_agrees(NA, 5000))
})

test_that("a run's interval logs agree with its data logs: counts equal, percentiles within precision", {
  dir <- write_hlog_fixture_run(tempfile("run-"))
  a <- analyse_run(run_target(dir))
  cross <- a$hlog$cross
  expect_equal(cross[test == "1" & quantity == "count", c(hlog, datalog)], c(10, 10))
  expect_equal(cross[test == "1" & quantity == "p90", c(hlog, datalog)], c(900, 900))
  expect_equal(cross[test == "2" & quantity == "p50", c(hlog, datalog)], c(3001, 3000))
  expect_equal(cross[test == "total" & quantity == "p50", c(hlog, datalog)], c(700, 700))
  expect_equal(cross[test == "total" & quantity == "mean", datalog], (5500 + 12000) / 14)
  expect_true(all(cross$agree))
  check <- a$checks[check == "interval logs"]
  expect_equal(check$status, "ok")
  expect_equal(check$result, "14 requests in both; mean, percentiles and max agree within 0.1%")
})

test_that("a count or a percentile that differs is flagged and named, not hidden", {
  dir <- write_hlog_fixture_run(tempfile("run-"), summary_rows = c(
    "1,get,9,1,550.000,287.228,100,500,910,1000,1000,1000,1000,10,false",
    "2,put,4,0,3001.000,0.000,3000,3001,3001,3001,3001,3001,3001,4,true",
    "total,total,13,1,1250.286,1175.872,100,700,3001,3001,3001,3001,3001,14,false"))
  a <- analyse_run(run_target(dir))
  check <- a$checks[check == "interval logs"]
  expect_equal(check$status, "FLAG")
  expect_equal(check$value, 3)
  expect_match(check$result, "get count: 9 against 10; get p90: 910 against 900; total count: 13 against 14", fixed = TRUE)
  html <- html_string(hlog_section(a$hlog))
  expect_match(html, "<td class=\"FLAG\">NO</td>", fixed = TRUE)
})

test_that("a run without interval logs says so and reports as before", {
  dir <- write_hlog_fixture_run(tempfile("run-"))
  unlink(file.path(dir, "report-input"), recursive = TRUE)
  a <- analyse_run(run_target(dir))
  expect_equal(a$checks[check == "interval logs", status], "n/a")
  expect_match(html_string(hlog_section(a$hlog)), "No interval logs", fixed = TRUE)
})

test_that("with the data log off, summary.csv is made from the interval logs alone and says so", {
  dir <- write_hlog_fixture_run(tempfile("run-"), with_data_log = FALSE)
  out <- tempfile("report-")
  a <- analyse_run(run_target(dir))
  expect_true(isTRUE(a$hlog_only))
  result <- write_run_report(a, out)
  expect_equal(result$exit_status, 0L)
  s <- data.table::fread(file.path(out, "summary.csv"))
  expect_equal(s$test, c("get", "put", "total"))
  expect_equal(s$count, c(10, 4, 14))
  expect_equal(s$errors, c(1, 0, 1))
  expect_equal(s$witness_p90_ms, c(0.9, 3.001, 3.001))
  expect_equal(s$witness_mean_ms, c(0.55, 3.001, 1.2503))   # summary.csv keeps 4 decimals of ms
  expect_equal(s$throughput_rps, c(10, 4, 14) / 2)    # two seconds with requests
  expect_true(all(is.na(s$p50_ms)))                    # Grinder's time needs the data log
  expect_equal(unique(s$source), "interval logs")
  html <- paste(readLines(file.path(out, "index.html")), collapse = "\n")
  expect_match(html, "This run wrote no data logs (hbaseload.datalog=off)", fixed = TRUE)
})

test_that("the report's CLI writes a data-log-free run's report", {
  dir <- write_hlog_fixture_run(tempfile("run-"), with_data_log = FALSE)
  out <- tempfile("report-")
  res <- run_cli(c(dir, "--out", out, "--quiet"))
  expect_equal(res$status, 0L)
  expect_true(file.exists(file.path(out, "summary.csv")))
  expect_match(paste(res$stdout, collapse = "\n"), "summary from the interval logs alone", fixed = TRUE)
})

test_that("a summary without its columns is a one-line error naming the file", {
  dir <- write_hlog_fixture_run(tempfile("run-"), with_data_log = FALSE)
  writeLines(c("test,name,count", "1,get,3"), file.path(dir, "report-input", "hlog-summary.csv"))
  expect_error(read_hlog_input(dir), "hlog-summary.csv lacks the column\\(s\\) errors, mean_us")
})
