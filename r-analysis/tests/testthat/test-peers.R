# ./suite bench peers: PE's log parsed into operations and time, the suite's run measured on the
# same terms, CPU files read, rounds paired into ratios. Expected values worked out by hand.

test_that("a captured PE log gives rows x cycles over the longest client", {
  pe <- parse_pe_log(fixture_dir("pe/randomRead-8-threads.log"))
  # 8 clients x 12,500 rows x 3 cycles ("Cycle=2 of 3"); longest client TestClient-3, 28,108 ms.
  expect_equal(pe$cycles, 3L)
  expect_equal(nrow(pe$clients), 8L)
  expect_equal(pe$operations, 300000)
  expect_equal(pe$longest_s, 28.108)
  expect_equal(pe$throughput_rps, 300000 / 28.108)
  # PE's own "Avg TPS/QPS 3562" counts one cycle of rows only: a third of the truth here.
  expect_equal(pe$throughput_rps / 3, 3562, tolerance = 0.01)
  # Every client measured 37,497 requests; means 741.74 .. 744.89 us, weighted equally.
  expect_equal(pe$mean_us, mean(c(741.74, 743.47, 743.35, 744.49, 743.93, 743.47, 743.96, 744.89)), tolerance = 1e-9)
  # The worst client's p99 (PE never merges its clients' histograms); not 99.9th or 99.99th.
  expect_equal(pe$p99_us, 2874.14)
})

test_that("a PE log without the cycle lines takes the cycles from its argument header", {
  path <- tempfile(fileext = ".log")
  lines <- readLines(fixture_dir("pe/randomRead-8-threads.log"))
  writeLines(lines[!grepl("Cycle=", lines)], path)
  expect_equal(parse_pe_log(path)$operations, 300000)
})

test_that("a PE log with no finished client is a one-line error", {
  path <- tempfile(fileext = ".log")
  writeLines(c("# pe: --rows=10 randomRead 1", "java.io.IOException: connection refused"), path)
  expect_error(parse_pe_log(path), "no finished client", class = "report_error")
})

test_that("a suite run is measured on PE's terms: every request, first start to last end, witness", {
  m <- suite_run_measures(fixture_dir())
  expect_equal(m$operations, 8L)
  expect_equal(m$errors, 1L)
  expect_equal(m$span_s, 0.021)                 # first start +0 ms, last end 13 + 8 = 21 ms
  expect_equal(m$throughput_rps, 8 / 0.021)
  expect_equal(m$mean_us, 34900 / 8)
  expect_equal(m$p99_us, 7900)                  # nearest rank ceiling(0.99 x 8) = 8th
  # Gaps (span of starts - the time of the requests before the last) / (requests - 1):
  # inj1 t0 (3000 - 900 - 1800) / 2 = 150, inj1 t1 (4000 - 3900) / 1 = 100, inj2 t0 (13000 - 5900 - 6800) / 2 = 150.
  # (Cycle minus the mean witness of all made them -367, -350 and -367: the last request counted in a span it is not in.)
  expect_equal(m$gap_us, mean(c(150, 100, 150)), tolerance = 1e-9)
  expect_true(is.na(m$time_to_steady_s))        # 21 ms: no full second to settle in
})

test_that("the injector bench's window counts the requests started after the warm-up and ended inside it", {
  # from t0 + 1 ms to t0 + 8 ms: (start 1, 2 ms) and (3, 3 ms) only; (4, 5 ms) ends at 9, (6, 7 ms) at 13
  w <- data_log_window(fixture_dir(), warm_s = 0.001, span_s = 0.007)
  expect_equal(w$in_window, 2L)
  expect_equal(w$errors, 1L)
  expect_equal(w$all, 8L)
  expect_equal(data_log_window(fixture_dir(), 0, 1)$in_window, 8L)
  expect_equal(peers_cli(c("--window", fixture_dir(), "0.001")), 1L)
  expect_output(expect_equal(peers_cli(c("--window", fixture_dir(), "0.001", "0.007")), 0L), "^2 1 8")
})

test_that("the injector bench's summary: each client's medians over its rounds and Grinder's ratio to plain Java", {
  # java 1000, 1200, 1100 req/s -> 1100 (CPU 50, 60, 55 us -> 55); grinder 1000, 900, 1050, 980 -> 990 (the
  # two middle values' mean; CPU 70, 80, 75, 90 -> 77.5); ratio 990 / 1100 = 0.9
  path <- tempfile(fileext = ".csv")
  writeLines(c("round,client,requests,throughput_rps,cpu_us_per_request",
               "1,java,20000,1000,50", "1,grinder,20000,1000,70", "2,grinder,18000,900,80", "2,java,24000,1200,60",
               "3,java,22000,1100,55", "3,grinder,21000,1050,75", "4,grinder,19600,980,90"), path)
  s <- injector_summary(data.table::fread(path), 0.9)
  expect_equal(s[c("java_rps", "grinder_rps", "java_cpu_us", "grinder_cpu_us", "ratio", "met")],
               list(java_rps = 1100, grinder_rps = 990, java_cpu_us = 55, grinder_cpu_us = 77.5, ratio = 0.9, met = TRUE))
  expect_false(injector_summary(data.table::fread(path), 0.95)$met)
  expect_output(expect_equal(peers_cli(c("--injector", path, "0.9")), 0L),
                "plain Java median 1100/s, Grinder median 990/s, ratio 0.900 \\(target >= 0.9\\).*Java 55 us, Grinder 77.5 us")
  expect_message(expect_output(expect_equal(peers_cli(c("--injector", path, "0.95")), 1L)),
                 "Grinder reached 0.900 of the plain Java loop, below 0.95")
  expect_message(expect_equal(peers_cli(c("--injector", path)), 1L), "usage")
  only_java <- tempfile(fileext = ".csv")
  writeLines(c("round,client,requests,throughput_rps,cpu_us_per_request", "1,java,20000,1000,50"), only_java)
  expect_message(expect_equal(peers_cli(c("--injector", only_java, "0.9")), 1L), "both clients")
})

test_that("cpu-meter files give the total and the CPU per process kind", {
  path <- tempfile(fileext = ".csv")
  writeLines(c("scope,label,pid,cpu_s", "total,cgroup-v1,,10.500",
               "process,java:net.grinder.Console,11,1.5", "process,java:net.grinder.Grinder,12,0.5",
               "process,java:net.grinder.engine.process.WorkerProcessEntryPoint,13,7.0",
               "process,java:io.github.hbasegrindersuite.lifecycle.Main,14,1.0",
               "process,bash,15,0.2", "process,awk,16,0.1", "leftover,sleep,17,"), path)
  cpu <- read_cpu_meter(path)
  expect_equal(cpu$cpu_s, 10.5)
  expect_equal(cpu$method, "cgroup-v1")
  by_kind <- setNames(cpu$by_kind$cpu_s, cpu$by_kind$kind)
  expect_equal(by_kind[["console"]], 1.5)
  expect_equal(by_kind[["agent"]], 0.5)
  expect_equal(by_kind[["worker"]], 7.0)
  expect_equal(by_kind[["lifecycle"]], 1.0)
  expect_equal(by_kind[["shell and samplers"]], 0.3, tolerance = 1e-9)
  expect_equal(cpu$leftovers, "sleep")
})

rounds_fixture <- function() {
  data.table(round = rep(1:3, each = 2), op = "get", threads = 8L, lab = "shared", tool = rep(c("pe", "suite"), 3),
             throughput_rps = c(1000, 900, 1200, 1260, 800, 760),
             steady_rps = c(1100, 1045, 1300, 1300, 900, 990), time_to_steady_s = c(NA, 4, NA, 6, NA, 3),
             jit_share = c(0.25, 0.30, 0.24, 0.31, 0.26, 0.29),
             mean_us = c(700, 720, 650, 640, 800, 790), p99_us = c(3000, 3100, 2900, 2800, 3500, 3600),
             cpu_us_per_op = c(80, 100, 90, 99, 100, 150), gap_us = c(NA, 20, NA, 30, NA, 60),
             errors = 0, exit = 0L, leftovers = "", cpu_method = "cgroup-v1",
             cpu_s = c(24, 27, 32, 37, 24, 34),
             cpu_by_kind = c("pe=24", "worker=20;console=7", "pe=32", "worker=30;console=7", "pe=24", "worker=28;console=6"))
}

test_that("rounds pair into medians and per-round ratios with their range", {
  s <- peers_summary(rounds_fixture())
  expect_equal(nrow(s), 1L)
  # Ratios per round: 0.90, 1.05, 0.95 -> median 0.95; CPU 1.25, 1.10, 1.50 -> median 1.25.
  expect_equal(s$throughput_ratio, 0.95)
  expect_equal(c(s$throughput_ratio_min, s$throughput_ratio_max), c(0.90, 1.05))
  expect_equal(s$cpu_ratio, 1.25)
  expect_equal(c(s$cpu_ratio_min, s$cpu_ratio_max), c(1.10, 1.50))
  expect_equal(c(s$pe_rps, s$suite_rps), c(1000, 900))
  expect_equal(s$suite_gap_us, 30)
  # steady ratios 0.95, 1.00, 1.10 -> median 1.00; PE's JIT share 0.25, the suite's 0.30; 4 s to steady
  expect_equal(s$steady_ratio, 1.00)
  expect_equal(c(s$steady_ratio_min, s$steady_ratio_max), c(0.95, 1.10))
  expect_equal(c(s$pe_jit, s$suite_jit), c(0.25, 0.30))
  expect_equal(s$suite_time_to_steady_s, 4)
  expect_true(is.na(s$pe_time_to_steady_s))
  expect_equal(peers_reference_steady_lines(s), character())
  s2 <- peers_summary(rounds_fixture()[tool == "pe", time_to_steady_s := c(9, 7, 8)])
  expect_equal(s2$pe_time_to_steady_s, 8)
  expect_equal(peers_reference_steady_lines(s2)[1],
               "PE's own time to steady state by the same rule (median of its runs): get, 8 threads, shared lab: 8 s (the suite: 4 s).")
})

test_that("targets are judged on the default suite only, at the documented thread counts", {
  rounds <- rbind(rounds_fixture(), copy(rounds_fixture())[tool == "suite", tool := "suite-c1"])
  t <- peers_targets(peers_summary(rounds))
  expect_equal(nrow(t), 4L)                        # throughput, CPU, time to steady, gap; not the variant's
  expect_true(t[startsWith(target, "time to steady")]$met)  # 4 <= 5
  expect_true(t[startsWith(target, "throughput")]$met)      # 0.95 >= 0.95
  expect_true(t[startsWith(target, "client CPU")]$met)      # 1.25 <= 1.3
  expect_true(t[startsWith(target, "off-timer")]$met)       # 30 <= 50
  slow <- rounds_fixture()[tool == "suite", throughput_rps := throughput_rps * 0.9]
  expect_false(peers_targets(peers_summary(slow))[startsWith(target, "throughput")]$met)
})

test_that("the markdown carries the command, the table, the targets and where the CPU went", {
  rounds <- rounds_fixture()
  s <- peers_summary(rounds)
  md <- peers_markdown(s, peers_targets(s), peers_cpu_breakdown(rounds), rounds, "./suite bench peers --rounds 3", when = "2026-11-23")
  expect_true(any(grepl("`./suite bench peers --rounds 3`", md, fixed = TRUE)))
  expect_true(any(grepl("| get | 8 | shared | suite | 1,000 | 900 | **0.95** (0.90-1.05) | 1.00 (0.95-1.10) |", md, fixed = TRUE)))
  expect_true(any(grepl("| n/a / 4 | 25% / 30% |", md, fixed = TRUE)))
  expect_true(any(grepl("worker 28.0 s (81%), console 7.0 s (19%)", md, fixed = TRUE)))
})

test_that("the markdown says whether the tables were settled before every run, and for how long", {
  rounds <- rounds_fixture()
  s <- peers_summary(rounds)
  unsettled <- peers_markdown(s, peers_targets(s), peers_cpu_breakdown(rounds), rounds, "x", when = "2026-11-29")
  expect_true(any(grepl("tables were left as the runs before left them", unsettled, fixed = TRUE)))
  rounds[, settle_s := c(2.0, 3.5, 4.0, 2.5, 9.5, 3.0)]   # median 3.25, at most 9.5
  settled <- peers_markdown(s, peers_targets(s), peers_cpu_breakdown(rounds), rounds, "x", when = "2026-11-29")
  expect_true(any(grepl("both tables were flushed and HBase's compactions waited for (`lifecycle table-settle`, median 3.2 s, at most 9.5 s)",
                        settled, fixed = TRUE)))
})

test_that("a run's taken share is steal and processes of no role over every second of the machine", {
  path <- tempfile(fileext = ".csv")
  writeLines(c("time_ms,interval_s,role,side,processes,cpu_s,jit_s,gc_s,io_s,load_s",
               "1,1.000,hbase,server,1,0.6,0,0,,", "1,1.000,peer,client,1,0.8,0.2,0,,",
               "1,1.000,steal,,0,0.3,0,0,,", "1,1.000,other,,0,0.1,0,0,,", "1,1.000,idle,,0,0.2,0,0,,",
               "2,1.000,hbase,server,1,0.7,0,0,,", "2,1.000,peer,client,1,0.9,0.1,0,,",
               "2,1.000,steal,,0,0.0,0,0,,", "2,1.000,other,,0,0.0,0,0,,", "2,1.000,idle,,0,0.4,0,0,,"), path)
  expect_equal(taken_pct(path), 100 * 0.4 / 4.0)   # (0.3 + 0.1) of 4.0 CPU-seconds
  expect_true(is.na(taken_pct(file.path(tempdir(), "no-such.csv"))))
})

test_that("pairs with a run above the contended share are listed by round; none gives one line saying so", {
  rounds <- rounds_fixture()
  s <- peers_summary(rounds)
  rounds[, taken_pct := c(0.5, 1.0, 12.4, 3.0, 0.2, 0.1)]
  md <- peers_markdown(s, peers_targets(s), peers_cpu_breakdown(rounds), rounds, "x", when = "2026-11-29")
  expect_true(any(grepl("- round 2, get, 8 threads, shared lab: pe 12.4%, suite 3.0%;", md, fixed = TRUE)))
  expect_false(any(grepl("- round 1,", md, fixed = TRUE)))
  rounds[, taken_pct := c(0.5, 1.0, 2.4, 3.0, 0.2, 0.1)]
  quiet <- peers_markdown(s, peers_targets(s), peers_cpu_breakdown(rounds), rounds, "x", when = "2026-11-29")
  expect_true(any(grepl("None: in every run they took at most 3.0%.", quiet, fixed = TRUE)))
})

test_that("PE's steady rate counts the cycles that start after the first third of each client's time", {
  path <- tempfile(fileext = ".log")
  line <- function(t, client, text) sprintf("2026-11-23 19:02:%s INFO  [TestClient-%d] hbase.PerformanceEvaluation: %s", t, client, text)
  writeLines(c("# pe: --table=t --rows=1000 --cycles=3 randomRead 2",
               line("00,000", 0, "Cycle=0 of 3"), line("00,000", 1, "Cycle=0 of 3"),
               line("10,000", 0, "Cycle=1 of 3"), line("05,000", 1, "Cycle=1 of 3"),
               line("20,000", 0, "Cycle=2 of 3"), line("10,000", 1, "Cycle=2 of 3"),
               line("30,000", 0, "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 30000ms at offset 0 for 1000 rows"),
               line("15,000", 1, "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 15000ms at offset 1000 for 1000 rows")),
             path)
  pe <- parse_pe_log(path)
  # client 0: from 10 s on, cycles 1 and 2: 2,000 rows over 20 s = 100/s; client 1: from 5 s on, 2,000 over 10 s = 200/s
  expect_equal(pe$steady_rps, 300)
  expect_equal(pe$throughput_rps, 6000 / 30)
})

test_that("PE's steady rate of a single pass comes from its progress lines after the first third", {
  path <- tempfile(fileext = ".log")
  line <- function(t, client, text) sprintf("2026-11-23 19:02:%s INFO  [TestClient-%d] hbase.PerformanceEvaluation: %s", t, client, text)
  row <- function(t, client, current) line(t, client, sprintf("row [start=0, current=%d, last=1000], latency [mean=1.0, min=1.0]", current))
  writeLines(c("# pe: --table=t --rows=1000 --cycles=1 randomRead 2",
               line("00,000", 0, "Timed test starting in thread TestClient-0"), line("00,000", 1, "Timed test starting in thread TestClient-1"),
               row("06,000", 0, 200), row("12,000", 0, 500), row("18,000", 0, 800),
               row("02,000", 1, 300), row("04,000", 1, 600),
               line("24,000", 0, "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 24000ms at offset 0 for 1000 rows"),
               line("06,000", 1, "Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in 6000ms at offset 1000 for 1000 rows")),
             path)
  pe <- parse_pe_log(path)
  # client 0: a third of 24 s is 8 s; from the 12 s line (500 done): 500 rows over 12 s = 41.67/s;
  # client 1: a third of 6 s is 2 s; from the 2 s line (300 done): 700 rows over 4 s = 175/s
  expect_equal(pe$steady_rps, 500 / 12 + 175)
  # no progress lines (an old log): not known
  writeLines(grep("row \\[", readLines(path), value = TRUE, invert = TRUE), path)
  expect_true(is.na(parse_pe_log(path)$steady_rps))
})

test_that("PE's time to steady: its clients' progress lines interpolated per second, summed, by the suite's rule", {
  path <- tempfile(fileext = ".log")
  line <- function(t, client, text) sprintf("2026-11-23 19:02:%s INFO  [TestClient-%d] hbase.PerformanceEvaluation: %s", t, client, text)
  row <- function(t, client, current) line(t, client, sprintf("row [start=0, current=%d, last=1000], latency [mean=1.0, min=1.0]", current))
  finished <- function(t, client, ms) line(t, client, sprintf("Finished class org.apache.hadoop.hbase.PerformanceEvaluation$RandomReadTest in %dms at offset 0 for 1000 rows", ms))
  writeLines(c("# pe: --table=t --rows=1000 --cycles=1 randomRead 2",
               line("00,000", 0, "Timed test starting in thread TestClient-0"), line("00,000", 1, "Timed test starting in thread TestClient-1"),
               # client 0: 50 rows/s for 4 s, then 100/s until its end at 12 s
               row("02,000", 0, 100), row("04,000", 0, 200), sapply(3:9, function(k) row(sprintf("%02d,000", k + 2), 0, 100 * k)),
               finished("12,000", 0, 12000L),
               # client 1: 100 rows/s from the start, its lines half a second off the second (milliseconds count)
               sapply(1:9, function(k) row(sprintf("%02d,500", k - 1), 1, 100 * k - 50)), finished("10,000", 1, 10000L)),
             path)
  lines <- readLines(path)
  levels <- pe_levels_from_progress(pe_client_progress(lines, 1L))
  # seconds 0-3: 50 + 100; 4-9: 100 + 100; 10-11: client 0 alone. The second half's median is 200,
  # and from second 4 on three seconds in a row are within 20% of it.
  expect_equal(levels$requests, c(rep(150, 4), rep(200, 6), 100, 100))
  expect_equal(parse_pe_log(path)$time_to_steady_s, 4L)
  expect_equal(pe_stamp("2026-11-23 19:02:05,250 INFO") %% 60, 5.25)
  # a put's log has no progress lines: not known
  writeLines(grep("row \\[", lines, value = TRUE, invert = TRUE), path)
  expect_true(is.na(parse_pe_log(path)$time_to_steady_s))
})
