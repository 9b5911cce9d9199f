# Repeats that disagree because the server changed between them (repeat-drift.R): hand-built
# analyses first, then two analysed runs whose server metrics differ only in GC and memstore.

drift_analysis <- function(run, rps, gc, memstore = NA_real_, role = "regionserver") {
  stats <- data.table(role = c("master", role), answered = c(0L, 15L), gc_ms_per_s = c(NA, gc), memstore_mb_last = c(NA, memstore))
  list(run_id = run, facts = list(throughput_rps = rps, server = list(stats = stats)))
}

test_that("the slower repeat's server paused twice as long for GC: named with both runs and their memstores", {
  a <- list(drift_analysis("run-5", 10970, 13.5, 510.3), drift_analysis("run-8", 7476, 48.9, 902.5))
  expect_equal(repeat_drift_clause(a), paste("in run-8 HBase paused for GC 49 ms a second against 14 in run-5",
                                             "(memstore 902 against 510 MB): the server changed between them"))
  # the order of the runs does not matter; without memstores the clause leaves them out
  b <- list(drift_analysis("run-8", 7476, 48.9), drift_analysis("run-5", 10970, 13.5))
  expect_equal(repeat_drift_clause(b), "in run-8 HBase paused for GC 49 ms a second against 14 in run-5: the server changed between them")
})

test_that("no clause when the repeats agree, the GC did not double, it stayed under 10 ms/s, or no server metrics", {
  # 10,000 / 9,200 = x1.087 < 1.10
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 10000, 5), drift_analysis("run-2", 9200, 40))), "")
  # x1.47 but 48.9 < 2 x 25
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 10970, 25), drift_analysis("run-2", 7476, 48.9))), "")
  # doubled, but 8 ms/s is under the 10 ms/s floor
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 10970, 2), drift_analysis("run-2", 7476, 8))), "")
  # a run without region server metrics (only a master answered)
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 10970, 2), drift_analysis("run-2", 7476, 40, role = "master"))), "")
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 10970, 2))), "")
})

test_that("two analysed repeats: the comparison's verdict names the server's change after their spread", {
  root <- tempfile("drift-")
  fast <- file.path(root, "run-1")
  slow <- file.path(root, "run-2")
  # the same workload; run-2 at half the rate (4 ms a request: 2,500 req/s against 5,000), its HBase pausing 40 ms/s against 5
  write_closed_loop_run(fast, threads = 10, latency_ms = rep(2, 15))
  write_closed_loop_run(slow, threads = 10, latency_ms = rep(4, 15))
  write_server_csv(fast, active = rep(5, 15), queue = rep(0, 15), gc = rep(5, 15))
  write_server_csv(slow, active = rep(5, 15), queue = rep(0, 15), gc = rep(40, 15))
  analyses <- list(analyse_run(run_target(fast)), analyse_run(run_target(slow)))
  expect_equal(analyses[[1]]$facts$server$stats[role == "regionserver", memstore_mb_last], 12.5)
  cmp <- compare_runs(analyses)
  expect_match(cmp$verdict$sentence, paste0("2 runs of [^:]*: throughput 2,500-5,000 req/s \\(max / min x2.00; in run-2 HBase paused ",
                                            "for GC 40 ms a second against 5 in run-1 \\(memstore 12 against 12 MB\\): the server changed ",
                                            "between them\\)"))
})

test_that("the repeats clause names the widest disagreements first", {
  gstats <- data.table(group = 1:4, test = "total", n_runs = 2L, group_label = c("a", "b", "c", "d"),
                       throughput_min = c(100, 100, 100, 100), throughput_max = c(104, 132, 115, 123))
  expect_equal(repeats_clause(gstats), paste("2 runs of b: throughput 100-132 req/s (max / min x1.32);",
                                             "2 runs of d: throughput 100-123 req/s (max / min x1.23);",
                                             "2 runs of c: throughput 100-115 req/s (max / min x1.15) and 1 more"))
})

# A hand-built analysis with CPU accounting: steal and other (of the machine), the server side's JIT
# share and HBase's CPU per request.
cpu_drift_analysis <- function(run, rps, steal = 0, other = 0, jit = 0, hbase_us = 100) {
  a <- drift_analysis(run, rps, gc = 2)
  a$facts$cpu <- list(steal_pct = steal, other_pct = other, server = list(jit_pct = jit),
                      roles = data.table(role = c("hbase", "worker"), side = c("server", "client"), us_per_request = c(hbase_us, 50)))
  a
}

test_that("repeats that disagree without a GC change: the CPU accounting's difference, or that nothing recorded differs", {
  # 9,000 / 7,000 = x1.29; run-2 lost 12 points of the machine to steal and other processes (13 against 1)
  expect_equal(repeat_drift_clause(list(cpu_drift_analysis("run-1", 9000, steal = 0.5, other = 0.5),
                                        cpu_drift_analysis("run-2", 7000, steal = 12, other = 1))),
               "in run-2 steal and processes the run did not start took 13.0% of the machine against 1.0% in run-1: the machine changed between them")
  # HBase's JIT 8 points higher in the slower
  expect_equal(repeat_drift_clause(list(cpu_drift_analysis("run-1", 9000, jit = 1), cpu_drift_analysis("run-2", 7000, jit = 9))),
               "in run-2 HBase's JIT took 9.0% of the server side's CPU against 1.0% in run-1: the server was still compiling")
  # 4 points more steal is under the 5-point floor: nothing named, each run's HBase CPU per request given
  expect_equal(repeat_drift_clause(list(cpu_drift_analysis("run-1", 9000, hbase_us = 71), cpu_drift_analysis("run-2", 7000, steal = 4, hbase_us = 96))),
               paste("nothing recorded differs enough to say why (HBase's GC, steal, other processes, JIT); HBase's CPU per request",
                     "96 us in run-2 against 71 in run-1"))
  # a run without accounting: no clause (as before)
  expect_equal(repeat_drift_clause(list(drift_analysis("run-1", 9000, 2), cpu_drift_analysis("run-2", 7000, steal = 20))), "")
})
