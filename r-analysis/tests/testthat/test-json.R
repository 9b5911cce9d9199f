# report.json: the structure documented in README.md, with the values the report computes.

test_that("a run's report.json holds the verdict, every check, the tests, the window and the client cost", {
  dir <- tempfile("clean-")
  # 10 threads x 2 ms (witness 1,950 us) for 15 s: 10 x 500 x 15 = 75,000 requests, cut 0,
  # last end 14.998 + 2 ms = 15.000 s -> 5,000 req/s; gap 2,000 - 1,950 = 50 us; overhead 2,000 - 1,950 = 50 us
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  res <- run_cli(c("--quiet", "--no-plots", "--slo", "throughput_rps>=4000,get.witness_p99_ms<2", dir))
  expect_equal(res$status, 0)
  expect_true(all(file.exists(file.path(dir, "report", c("index.html", "summary.csv", "report.json")))))
  doc <- read_json_report(file.path(dir, "report"))
  expect_equal(doc$schema, 1)
  expect_equal(doc$report, "run")
  expect_equal(doc$generator, "r-analysis/report.R")
  expect_equal(doc$verdict$kind, "trustworthy")
  expect_match(doc$verdict$sentence, "^trustworthy: steady over 15 s")
  expect_equal(doc$exit_status, 0)
  expect_equal(doc$gates$expression, "throughput_rps>=4000,get.witness_p99_ms<2")
  expect_equal(doc$gates$terms$metric, c("throughput_rps", "witness_p99_ms"))
  run <- doc$runs
  expect_equal(nrow(run), 1)
  expect_equal(run$workload$operations, "get:100")
  expect_equal(run$workload$threads, "10")
  expect_equal(run$window$warmup_s, 0)
  expect_true(run$window$warmup_detected)
  expect_equal(run$window$window_s, 15)
  expect_equal(run$window$measured_requests, 75000)
  expect_equal(run$steady_state$throughput_change, 0)
  expect_equal(run$client_cost$offtimer_gap_us, 50)
  expect_equal(run$client_cost$hbase_us, 1950)
  expect_equal(run$client_cost$overhead_us, 50)
  expect_equal(run$client_cost$overhead_ci95_us, 0)
  expect_true(run$closed_loop)
  checks <- run$checks[[1]]
  expect_equal(names(checks), c("name", "status", "value", "unit", "detail", "meaning"))
  expect_true(all(c("warm-up cut", "steady state", "window length", "errors", "Little's law", "tool overhead",
                    "off-timer gap", "client cost", "injector CPU", "manifest") %in% checks$name))
  expect_true(all(checks$status %in% c("ok", "FLAG", "info", "n/a")))
  expect_equal(checks$value[checks$name == "client cost"], 50 / 1950)
  tests <- run$tests[[1]]
  expect_equal(tests$test, c("get", "total"))
  expect_equal(tests$count, c(75000, 75000))
  expect_equal(tests$throughput_rps, c(5000, 5000))
  expect_equal(tests$witness_p99_ms, c(1.95, 1.95))
  expect_true(all(c(SUMMARY_COLUMNS, SUMMARY_EXTRA_COLUMNS) %in% names(tests)))
  expect_equal(run$gates[[1]]$status, c("pass", "pass"))
  expect_true(run$gates_met)
  expect_null(doc$capacity)   # runs have no capacity; comparisons and sweeps do
})

test_that("a comparison pairs direct with thrift per workload and labels every run", {
  runs <- tempfile("runs-")
  # get direct 8 x 2 ms (4,000 req/s), get thrift 8 x 4 ms (2,000), put direct 8 x 5 ms (1,600),
  # put thrift 8 x 8 ms (1,000): thrift / direct throughput = 0.5 for get and 0.625 for put.
  write_closed_loop_run(file.path(runs, "run-1"), 8, rep(2, 12), manifest = list(target = "direct", operations = "get:100"))
  write_closed_loop_run(file.path(runs, "run-2"), 8, rep(4, 12), manifest = list(target = "thrift", operations = "get:100"))
  write_closed_loop_run(file.path(runs, "run-3"), 8, rep(5, 12), manifest = list(target = "direct", operations = "put:100"), test = 2L)
  write_closed_loop_run(file.path(runs, "run-4"), 8, rep(8, 12), manifest = list(target = "thrift", operations = "put:100"), test = 2L)
  out <- tempfile("cmp-")
  res <- run_cli(c("--quiet", "--no-plots", "--out", out, "--baseline", "run-3", "run-1", "run-2", "run-3", "run-4"),
                 env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 0)
  doc <- read_json_report(out)
  expect_equal(doc$report, "comparison")
  expect_equal(doc$runs$label, c("run-1: direct, get, 8 threads", "run-2: thrift, get, 8 threads",
                                 "run-3: direct, put, 8 threads", "run-4: thrift, put, 8 threads"))
  b <- doc$comparison$baselines
  expect_equal(b$baseline, c(NA, "run-1", "run-3", "run-3"))
  c <- doc$comparison$contrasts
  expect_equal(unique(c$direction), "thrift / direct")
  expect_equal(c$throughput_ratio[c$test == "total"], c(0.5, 0.625))
  expect_equal(c$workload_denominator[c$test == "total"], c("direct, get, 8 threads", "direct, put, 8 threads"))
  expect_equal(c$order[c$test == "total"], c("denominator ran first", "denominator ran first"))
  expect_equal(length(doc$comparison$scaling), 0)   # one thread count: no scaling table
  # the verdict names what the alike pairs say; total latency is the witness (Grinder's 2 ms p90 is too coarse):
  # get 3.95 / 1.95 = x2.03, put 7.95 / 4.95 = x1.61
  expect_equal(doc$verdict$kind, "trustworthy")
  expect_match(doc$verdict$sentence, paste0("^trustworthy: all 4 runs are complete, long enough, error-free, HBase-bound and steady; ",
                                            "2 of 3 runs set against an alike baseline \\(run-1: different workload\\); ",
                                            "thrift / direct \\(get, 8 threads\\): throughput x0.50, mean latency x2.03, no repeats to weigh it against; ",
                                            "thrift / direct \\(put, 8 threads\\): throughput x0.62, mean latency x1.61"))
  expect_null(doc$capacity)
  summary <- fread(file.path(out, "summary.csv"))
  expect_true(all(c("label", "baseline", "baseline_relation") %in% names(summary)))
  expect_equal(summary[run == "run-4" & test == "total", ratio_throughput], 0.625)
  html <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl("Direct ran before thrift in every pair", html, fixed = TRUE))
  expect_true(grepl("<td class=\"l nw\">run-4: thrift, put, 8 threads</td>", html, fixed = TRUE))
  expect_false(grepl("<h2>Scaling</h2>", html, fixed = TRUE))
})
