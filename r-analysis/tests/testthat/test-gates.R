# SLO gates: parsing, evaluation, exit codes through the real CLI, and the capacity of a sweep.

test_that("good gate expressions parse into test, metric, operator and threshold", {
  g <- parse_slo("p99_ms<50,error_rate<0.001,throughput_rps>=2000")
  expect_equal(g$test, c("total", "total", "total"))
  expect_equal(g$metric, c("p99_ms", "error_rate", "throughput_rps"))
  expect_equal(g$op, c("<", "<", ">="))
  expect_equal(g$threshold, c(50, 0.001, 2000))
  g2 <- parse_slo(" get.witness_p99_ms <= 5 , batch-get.count>1e3,put.mean_ms>.5")
  expect_equal(g2$test, c("get", "batch-get", "put"))
  expect_equal(g2$metric, c("witness_p99_ms", "count", "mean_ms"))
  expect_equal(g2$op, c("<=", ">", ">"))
  expect_equal(g2$threshold, c(5, 1000, 0.5))
})

test_that("a bad gate expression is a one-line error naming it", {
  expect_error(parse_slo("p99<50"), "bad --slo term 'p99<50': unknown metric 'p99'", class = "report_error")
  expect_error(parse_slo("p99_ms=50"), "bad --slo term 'p99_ms=50': want \\[TEST.\\]METRIC OP NUMBER", class = "report_error")
  expect_error(parse_slo("p99_ms<fast"), "bad --slo term 'p99_ms<fast'", class = "report_error")
  expect_error(parse_slo("p99_ms<50,"), "an empty term", class = "report_error")
  expect_error(parse_slo(""), "--slo is empty", class = "report_error")
  expect_error(parse_slo("grinder_coarse<1"), "unknown metric 'grinder_coarse'", class = "report_error")
})

test_that("gates hold, fail, or fail for want of data", {
  s <- data.table(test = c("get", "total"), p99_ms = c(4, 9), error_rate = c(0, 0.002))
  r <- evaluate_gates(parse_slo("p99_ms<10,get.p99_ms<4,error_rate<=0.002,put.p99_ms<100"), s)
  expect_equal(r$value, c(9, 4, 0.002, NA))
  expect_equal(r$status, c("pass", "fail", "pass", "no data"))
  expect_equal(gates_exit_status(list(r), "run"), 99L)
  expect_equal(gates_exit_status(list(r[status == "pass"]), "run"), 0L)
  expect_equal(gates_exit_status(list(), "run"), 0L)
  # a comparison fails only when no run meets every gate
  expect_equal(gates_exit_status(list(r, r[status == "pass"]), "compare"), 0L)
  expect_equal(gates_exit_status(list(r, r), "compare"), 99L)
})

test_that("the CLI exits 0 when every gate holds, 99 when one fails (report written), 1 on a bad expression", {
  # fixture: 8 requests; total p99 8 ms (nearest rank 8 of 8), error rate 1/8
  out <- tempfile("gates-")
  pass <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", "--out", out, "--slo", "count>=8,p99_ms<=8,get.error_rate<0.01", fixture_dir()))
  expect_equal(pass$status, 0)
  doc <- read_json_report(out)
  expect_equal(doc$exit_status, 0)
  expect_equal(doc$runs$gates[[1]]$status, c("pass", "pass", "pass"))
  expect_true(doc$runs$gates_met)

  out2 <- tempfile("gates-")
  fail <- run_cli(c("--quiet", "--no-plots", "--warmup", "0", "--out", out2, "--slo", "p99_ms<8,error_rate<0.1", fixture_dir()))
  expect_equal(fail$status, 99)
  expect_true(all(file.exists(file.path(out2, c("index.html", "summary.csv", "report.json")))))
  expect_match(fail$stderr, "SLO gate failed", all = FALSE)
  doc2 <- read_json_report(out2)
  expect_equal(doc2$exit_status, 99)
  expect_equal(doc2$runs$gates[[1]]$value, c(8, 0.125))
  expect_equal(doc2$runs$gates[[1]]$status, c("fail", "fail"))
  html <- paste(readLines(file.path(out2, "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl("SLO gates (--slo): 0 of 2 hold; report.R exits 99.", html, fixed = TRUE))

  bad <- run_cli(c("--quiet", "--slo", "p99<8", fixture_dir()))
  expect_equal(bad$status, 1)
  expect_length(bad$stderr, 1)
  expect_match(bad$stderr, "^report.R: bad --slo term 'p99<8': unknown metric 'p99'")
  lonely <- run_cli(c("--quiet", "--baseline", "run-1", fixture_dir()))
  expect_equal(lonely$status, 1)
  expect_match(lonely$stderr, "^report.R: --baseline is for comparisons")
  help <- run_cli("--help")
  expect_equal(help$status, 0)
  expect_true(all(c("--warmup SECONDS", "--slo GATES", "--baseline RUN", "--out DIR", "--quiet") %in%
                    regmatches(paste(help$stdout, collapse = "\n"), gregexpr("--[a-z]+( [A-Z]+)?", paste(help$stdout, collapse = "\n")))[[1]]))
})

test_that("the capacity of a 3-point sweep is the highest throughput meeting every gate, named", {
  runs <- tempfile("runs-")
  # Closed loops of 15 s, no gap: throughput = threads / latency, p99 = the latency.
  #   run-1:  2 threads x 10 ms: 2 x 100 x 15 = 3,000 requests; last end 14.990 + 10 ms = 15.000 s -> 200 req/s, p99 10 ms
  #   run-2:  8 threads x 20 ms: 8 x 50 x 15 = 6,000 requests / 15.000 s = 400 req/s, p99 20 ms
  #   run-3: 16 threads x 40 ms: 16 x 25 x 15 = 6,000 requests / 15.000 s = 400 req/s, p99 40 ms
  # Gate p99_ms<30: run-1 and run-2 meet it; capacity 400 req/s at run-2. Gate p99_ms<5: none -> exit 99.
  write_closed_loop_run(file.path(runs, "run-1"), threads = 2, latency_ms = rep(10, 15), manifest = list(extra = list(sweep_id = "sweep-1")))
  write_closed_loop_run(file.path(runs, "run-2"), threads = 8, latency_ms = rep(20, 15), manifest = list(extra = list(sweep_id = "sweep-1")))
  write_closed_loop_run(file.path(runs, "run-3"), threads = 16, latency_ms = rep(40, 15), manifest = list(extra = list(sweep_id = "sweep-1")))
  dir.create(file.path(runs, "sweep-1"))
  writeLines('{"sweep_id": "sweep-1", "status": "complete", "runs": ["run-1", "run-2", "run-3"]}', file.path(runs, "sweep-1", "sweep.json"))
  env <- paste0("SUITE_RUNS_DIR=", runs)
  res <- run_cli(c("--quiet", "--no-plots", "--slo", "p99_ms<30", "sweep-1"), env = env)
  expect_equal(res$status, 0)
  doc <- read_json_report(file.path(runs, "sweep-1", "report"))
  expect_equal(doc$report, "sweep")
  expect_equal(doc$capacity$run, "run-2")
  expect_equal(doc$capacity$throughput_rps, 400)
  expect_equal(doc$capacity$label, "run-2: direct, get, 8 threads")
  expect_equal(doc$capacity$runs_meeting_gates, 2)
  expect_false(doc$capacity$lower_bound)      # run-2 is trustworthy: its throughput is HBase's
  expect_equal(doc$runs$gates_met, c(TRUE, TRUE, FALSE))
  # the scaling table: one workload at 2, 8, 16 threads; knee = highest throughput / mean latency:
  # 200 / 10 = 20, 400 / 20 = 20, 400 / 40 = 10 -> the first maximum, 2 threads
  expect_equal(doc$comparison$scaling$threads[doc$comparison$scaling$test == "total"], c(2, 8, 16))
  expect_equal(doc$comparison$knee$threads[doc$comparison$knee$test == "total"], 2)
  html <- paste(readLines(file.path(runs, "sweep-1", "report", "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl("Capacity under p99_ms&lt;30<b>400 req/s</b>run-2: direct, get, 8 threads", html, fixed = TRUE))

  # no run meets p99_ms<5: no capacity, exit status 99 (computed in-process: the CLI path is the one above)
  analyses <- lapply(c("run-1", "run-2", "run-3"), function(id) slim_analysis(analyse_run(run_target(file.path(runs, id)))))
  none <- compare_runs(analyses, "sweep-1", gates = parse_slo("p99_ms<5"), slo = "p99_ms<5")
  expect_true(is.na(none$capacity$throughput_rps))
  expect_equal(none$capacity$runs_meeting, 0)
  expect_equal(none$exit_status, 99L)
  expect_match(html_string(capacity_box(none$capacity, none$slo)), "none of the 3 runs meets every gate")

  # The capacity run's verdict greys its throughput (shared CPU): the capacity is a lower bound.
  shared <- compare_runs(analyses, "sweep-1", gates = parse_slo("p99_ms<30"), slo = "p99_ms<30")
  shared$capacity$verdict <- "shared CPU"
  shared$capacity$lower_bound <- "shared CPU" %in% LOWER_BOUND_KINDS
  expect_true(shared$capacity$lower_bound)
  expect_false("too short" %in% LOWER_BOUND_KINDS)   # greyed, but not a bound of anything
  expect_match(html_string(capacity_box(shared$capacity, shared$slo)), "<b>400 req/s at least</b>", fixed = TRUE)
})
