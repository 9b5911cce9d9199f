# Like with like: workloads from manifests, baselines, repeats, direct / thrift contrasts, scaling.

# A runs table as comparison_runs() builds it, from (run, target, operations, threads) by hand.
runs_table <- function(spec) {
  workloads <- rbindlist(lapply(seq_len(nrow(spec)), function(i) {
    workload_of(list(target = spec$target[i], properties = list(hbaseload.operations = spec$operations[i],
                                                                hbaseload.value.size = "1000")), spec$threads[i])
  }))
  runs <- cbind(data.table(run = spec$run, run_order = seq_len(nrow(spec))), workloads)
  runs[, label := run_labels(run, workloads)]
  runs[, group := match(workload_key(workloads), unique(workload_key(workloads)))]
  runs[, group_label := sub("^[^:]*: ", "", label)]
  runs[, scaling_key := workload_key(workloads, without = "threads")]
  runs[, scaling_label := sub(", [^,]*threads( not recorded)?", "", group_label)]
  runs[, `:=`(verdict = "trustworthy", disqualifies = "")]
  runs[]
}

demo_spec <- data.table(
  run = c("run-1", "run-2", "run-3", "run-4", "run-5", "run-6", "run-7"),
  target = c("direct", "thrift", "direct", "thrift", "direct", "direct", "thrift"),
  operations = c("get:100", "get:100", "put:100", "put:100", "get:100", "get:70,put:30", "get:70,put:30"),
  threads = c(8, 8, 8, 8, 16, 8, 8))

test_that("workloads come from the manifest; labels name target, operations and threads", {
  w <- workload_of(list(target = "thrift", properties = list(hbaseload.operations = "get:70,put:30", hbaseload.thrift.host = "h",
                                                             hbaseload.thrift.port = "9092")), 8)
  expect_equal(w$operations, "get:70,put:30")
  expect_equal(w$threads, "8")
  expect_equal(w$endpoint, "h:9092 ?/?")
  runs <- runs_table(demo_spec)
  expect_equal(runs$label[c(1, 2, 6)], c("run-1: direct, get, 8 threads", "run-2: thrift, get, 8 threads",
                                         "run-6: direct, get:70,put:30, 8 threads"))
  expect_equal(workload_differences(runs[1], runs[2]), "target")   # the endpoint goes with the target
  expect_equal(describe_differences(runs[1], runs[5]), "threads 8 -> 16")
  expect_false(comparable_workloads(runs[1], runs[3]))           # get against put: never alike
  expect_true(comparable_workloads(runs[1], runs[5]))
})

test_that("each run is set against an alike baseline; a get run is never compared with a put run", {
  runs <- runs_table(demo_spec)
  b <- like_baselines(runs)
  expect_equal(b$baseline, c("run-1", "run-1", NA, "run-3", "run-1", NA, "run-6"))
  expect_equal(b$relation[c(1, 2, 5)], c("baseline", "target direct -> thrift", "threads 8 -> 16"))
  expect_match(b$relation[3], "^not compared: no alike run; against run-1: operations get:100 -> put:100")
  # --baseline run-3 (put): gets are not alike to it; run-4 (put, thrift) is
  b3 <- like_baselines(runs, "run-3")
  expect_equal(b3$baseline, c(NA, "run-1", "run-3", "run-3", "run-1", NA, "run-6"))
  expect_error(like_baselines(runs, "run-9"), "--baseline run-9 is not among the runs", class = "report_error")
  # a repeat of run-1 later on is compared with it as the same workload
  rep_runs <- runs_table(rbind(demo_spec[1:2], data.table(run = "run-8", target = "direct", operations = "get:100", threads = 8)))
  expect_equal(like_baselines(rep_runs)[run == "run-8", relation], "same workload as run-1")
})

test_that("deltas are taken against each run's own baseline, test by test", {
  runs <- runs_table(demo_spec[c(1, 3, 4)])
  stacked <- data.table(run = c("run-1", "run-1", "run-3", "run-3", "run-4", "run-4"), run_order = c(1, 1, 2, 2, 3, 3),
                        test = c("get", "total", "put", "total", "put", "total"), test_number = c(1L, NA, 2L, NA, 2L, NA),
                        mean_ms = c(1, 1, 2, 2, 3, 3), throughput_rps = c(1000, 1000, 800, 800, 400, 400))
  d <- add_deltas(stacked, like_baselines(runs))
  # run-4 (put, thrift) against run-3 (put, direct): 3 / 2 and 400 / 800; never against run-1's gets
  expect_equal(d[run == "run-4" & test == "put", c(ratio_mean, ratio_throughput)], c(1.5, 0.5))
  expect_equal(d[run == "run-4" & test == "total", baseline], "run-3")
  expect_true(all(is.na(d[run == "run-3", ratio_mean])))
})

test_that("direct and thrift pair per workload, mixes included, ratios thrift / direct, weighed against the repeats", {
  # get: direct 1000 and 1100 req/s (two repeats), thrift 600 and 650 -> medians 1050 and 625, ratio 0.595;
  #      ranges 1000..1100 and 600..650 do not overlap: larger than the spread.
  # put: direct 500 (once), thrift 450 (once): ratio 0.9, spread unknown.
  # mix: direct 700 and 800, thrift 650 and 750: medians 750 / 700, ratio 0.933; ranges overlap: within the spread.
  spec <- data.table(run = paste0("run-", 1:10),
                     target = c("direct", "thrift", "thrift", "direct", "direct", "thrift", "direct", "thrift", "thrift", "direct"),
                     operations = c("get:100", "get:100", "get:100", "get:100", "put:100", "put:100",
                                    "get:70,put:30", "get:70,put:30", "get:70,put:30", "get:70,put:30"),
                     threads = 8)
  runs <- runs_table(spec)
  tput <- c(1000, 600, 650, 1100, 500, 450, 700, 650, 750, 800)
  stacked <- data.table(run = spec$run, run_order = 1:10, test = "total", test_number = NA_integer_, threads = 8,
                        throughput_rps = tput, mean_ms = 8000 / tput, p90_ms = 1, p99_ms = 2,
                        witness_mean_ms = NA_real_, witness_p90_ms = NA_real_, witness_p99_ms = NA_real_,
                        grinder_coarse = FALSE, witness_count = 0)
  g <- group_stats(stacked, runs)
  contrasts <- group_contrasts(g, runs)
  expect_equal(unique(contrasts$dimension), "target")
  expect_equal(unique(contrasts$direction), "thrift / direct")
  expect_equal(nrow(contrasts), 3)                                  # get, put, mix: never get against put
  get <- contrasts[workload_den == "direct, get, 8 threads"]
  expect_equal(get$throughput_ratio, 625 / 1050)
  expect_equal(get$throughput_spread, "larger than the spread")
  expect_equal(get$runs_den, "run-1, run-4")
  put <- contrasts[workload_den == "direct, put, 8 threads"]
  expect_equal(put$throughput_ratio, 0.9)
  expect_equal(put$throughput_spread, "spread unknown (no repeats)")
  mix <- contrasts[workload_den == "direct, get:70,put:30, 8 threads"]
  expect_equal(mix$throughput_ratio, 700 / 750)
  expect_equal(mix$throughput_spread, "within the spread")
  expect_equal(g[group_label == "direct, get, 8 threads", c(throughput_min, throughput_median, throughput_max)], c(1000, 1050, 1100))
})

test_that("no scaling chart or knee with one thread count; a knee needs three", {
  one <- data.table(group = 1:2, test = "total", test_number = NA_integer_, threads = c(8, 8), metric = "grinder",
                    throughput_median = c(100, 90), throughput_min = c(100, 90), throughput_max = c(100, 90),
                    mean_median = c(1, 2), p90_median = 1, runs = c("run-1", "run-2"),
                    scaling_key = c("a", "b"), scaling_label = c("direct, get", "thrift, get"))
  expect_equal(nrow(scaling_table(one)), 0)
  two <- copy(one)[, scaling_key := "a"][, threads := c(8, 16)]
  expect_equal(nrow(scaling_table(two)), 2)
  expect_false(any(scaling_table(two)$knee))
  three <- rbind(two, copy(two[1])[, `:=`(group = 3L, threads = 32, throughput_median = 95, mean_median = 5)])
  # power 100 / 1 = 100, 90 / 2 = 45, 95 / 5 = 19 -> knee at 8 threads
  expect_equal(scaling_table(three)[knee == TRUE, threads], 8)
})

test_that("a ratio's direction reads as English: one thread, several threads", {
  expect_equal(direction_label("threads", "5", "1"), "5 threads / 1 thread")
  expect_equal(direction_label("threads", "8", "4"), "8 threads / 4 threads")
  expect_equal(direction_label("target", "thrift", "direct"), "thrift / direct")
})

test_that("a direct/thrift pair greys its throughput ratio when a run's verdict disqualifies throughput, the whole row for comparisons", {
  # get: clean runs; put: the direct run is shared CPU (throughput only); mix: a thrift run is not steady (comparison).
  spec <- data.table(run = paste0("run-", 1:6), target = c("direct", "thrift", "direct", "thrift", "direct", "thrift"),
                     operations = c("get:100", "get:100", "put:100", "put:100", "get:70,put:30", "get:70,put:30"), threads = 8)
  runs <- runs_table(spec)
  runs[, disqualifies := c("", "", "throughput", "", "", "comparison,latency,throughput")]
  tput <- c(1000, 800, 500, 650, 700, 900)
  stacked <- data.table(run = spec$run, run_order = 1:6, test = "total", test_number = NA_integer_, threads = 8,
                        throughput_rps = tput, mean_ms = 8000 / tput, p90_ms = 1, p99_ms = 2,
                        witness_mean_ms = NA_real_, witness_p90_ms = NA_real_, witness_p99_ms = NA_real_,
                        grinder_coarse = FALSE, witness_count = 0)
  contrasts <- group_contrasts(group_stats(stacked, runs), runs)
  rows <- strsplit(html_string(contrast_table(contrasts, runs)), "\n", fixed = TRUE)[[1]]
  row_of <- function(workload) rows[grepl(paste0(">", workload, "<"), rows, fixed = TRUE)]
  expect_false(grepl("disq", row_of("direct, get, 8 threads")))
  put <- row_of("direct, put, 8 threads")
  expect_match(put, "<td class=\"disq\">1.300</td>", fixed = TRUE)      # 650 / 500, greyed
  expect_match(put, "<td>0.769</td>", fixed = TRUE)                     # mean latency ratio, clear
  expect_false(grepl("<tr class=\"disq\">", put, fixed = TRUE))
  expect_match(row_of("direct, get:70,put:30, 8 threads"), "^<tr class=\"disq\">")
  html <- paste(rows, collapse = "\n")
  expect_match(html, "Greyed throughput ratios: a run of the pair has its throughput disqualified", fixed = TRUE)
  expect_match(html, "Greyed rows involve a run whose verdict disqualifies comparisons.", fixed = TRUE)
})
