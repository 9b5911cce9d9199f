# HBase server metrics (hbase/server-metrics.csv): the loader, the finding in the verdict, the
# section, on small hand-made files over write_closed_loop_run's 15 s run (t0 = 1763712000000,
# 2 ms per request, no warm-up cut: the measured window is t0 .. t0 + 15 s). write_server_csv: helper-report.R.

T0 <- SERVER_T0

test_that("R's server-metrics columns are the sampler's (lifecycle ServerMetric.java), in order", {
  java <- readLines(file.path(r_analysis_dir, "..", "lifecycle", "src", "main", "java", "io", "github", "hbasegrindersuite",
                              "lifecycle", "servermetrics", "ServerMetric.java"))
  columns <- sub('^ *[A-Z0-9_]+\\("([a-z0-9_]+)".*$', "\\1", grep('^  [A-Z0-9_]+\\("[a-z0-9_]+"', java, value = TRUE))
  expect_equal(columns, SERVER_METRIC_COLUMNS)
})

test_that("all handlers busy with calls queued: server-bound, and the silent master is named", {
  dir <- tempfile("server-bound-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  # 6 of 15 s: 30 of 30 handlers busy and calls queued (up to 57, queue p99 up to 230 ms); 6 >= 25% of 15
  busy <- c(rep(FALSE, 5), rep(TRUE, 6), rep(FALSE, 4))
  write_server_csv(dir, active = ifelse(busy, 30, 5), queue = ifelse(busy, c(0, 0, 0, 0, 0, 12, 30, 57, 44, 20, 9, 0, 0, 0, 0), 0),
                   queue_p99 = ifelse(busy, 230, 3))
  a <- analyse_run(run_target(dir))
  f <- a$facts$server
  expect_equal(f$kind, "server-bound")
  rs <- f$stats[role == "regionserver"]
  expect_equal(rs$answered, 15L)
  expect_equal(rs$all_busy_queued, 6L)
  expect_equal(rs$queue_max, 57)
  expect_equal(rs$handlers_active_mean, (6 * 30 + 9 * 5) / 15)
  expect_equal(f$stats[role == "master", answered], 0L)
  expect_equal(f$missing, "master 127.0.0.1:16010 (no answer: ConnectException: Connection refused)")
  expect_match(a$verdict$sentence, paste0("; HBase: server-bound: the RPC call queue grew while all handlers were busy ",
                                          "\\(regionserver 127.0.0.1:16030: all 30 handlers busy with calls queued in 6 of 15 s, ",
                                          "up to 57 calls queued, queue time p99 up to 230 ms\\); no metrics from master 127.0.0.1:16010 ",
                                          "\\(no answer: ConnectException: Connection refused\\)$"))
  expect_equal(a$verdict$kind, "trustworthy")  # a finding about HBase, not a flaw of the measurement
  expect_equal(a$checks[check == "HBase server", status], "info")
  html <- html_string(server_metrics_section(a, NULL))
  expect_match(html, "no answer: ConnectException: Connection refused", fixed = TRUE)
  expect_match(html, "<td class=\"l nw\">regionserver 127.0.0.1:16030</td><td>15 / 15</td><td>30</td><td>30 / 15.0</td><td>6</td><td>6 / 57</td>", fixed = TRUE)
})

test_that("each server's own CPU and its machine's load: mean and max over the window, in the table", {
  dir <- tempfile("server-cpu-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  # the first row has no CPU (a rate needs a previous sample); 14 rows of 40 and one of 95 % of a core
  write_server_csv(dir, active = rep(3, 15), queue = rep(0, 15), master = FALSE,
                   cpu = c(NA, rep(40, 13), 95), load = c(rep(2, 10), rep(4.5, 5)))
  rs <- analyse_run(run_target(dir))$facts$server$stats[role == "regionserver"]
  expect_equal(rs$cpu_pct_mean, (13 * 40 + 95) / 14)
  expect_equal(rs$cpu_pct_max, 95)
  expect_equal(rs$host_load1_mean, (10 * 2 + 5 * 4.5) / 15)
  html <- html_string(server_metrics_section(analyse_run(run_target(dir)), NULL))
  expect_match(html, "<th>CPU % of a core mean / max</th><th>host load</th>", fixed = TRUE)
  expect_match(html, "<td>44 / 95</td><td>2.8</td>", fixed = TRUE)
  expect_false(grepl("/jmx requests", html, fixed = TRUE))   # notes from before the count: nothing said
  # the notes' request count: 10 requests over the region server's 2 samples (the master's 1)
  jsonlite::write_json(list(interval_ms = 1000, jmx_requests = 10, servers = data.frame(role = c("master", "regionserver"), samples = c(1, 2))),
                       file.path(dir, "hbase", "server-metrics.json"), auto_unbox = TRUE)
  expect_match(html_string(server_metrics_section(analyse_run(run_target(dir)), NULL)),
               "The sampling asked the servers 10 /jmx requests over the run, 5.0 a sample, served on their own CPU and counted in it.", fixed = TRUE)
  # a file from before the columns: empty cells, not NaN
  write_server_csv(dir, active = rep(3, 15), queue = rep(0, 15), master = FALSE)
  old <- analyse_run(run_target(dir))
  expect_true(is.na(old$facts$server$stats$cpu_pct_mean))
  expect_false(grepl("NaN|NA /", html_string(server_metrics_section(old, NULL))))
})

test_that("few handlers busy and an empty queue: not handler-bound; blocked updates and GC pauses are named", {
  dir <- tempfile("not-bound-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  # queued in 1 of 15 s (under 25%); 2 s of 300 ms/s blocked updates; GC 60 ms/s on average
  write_server_csv(dir, active = c(rep(3, 14), 8), queue = c(rep(0, 14), 2), blocked = c(rep(0, 13), 300, 300),
                   gc = rep(60, 15), master = FALSE)
  a <- analyse_run(run_target(dir))
  expect_equal(a$facts$server$kind, "not handler-bound")
  expect_equal(a$facts$server$missing, character())
  expect_equal(a$facts$server$sentence, paste(
    "not handler-bound (regionserver 127.0.0.1:16030: up to 8 of 30 handlers active, calls queued in 1 of 15 s;",
    "mean RPC queue time 1.0 ms, processing 2.0 ms (HBase's whole ms)); updates blocked for 600 ms on regionserver 127.0.0.1:16030",
    "(memstore over its limit); GC paused regionserver 127.0.0.1:16030 for 60 ms per second"))
})

test_that("rows outside the measured window are left out, and a server that answered part of it is named", {
  dir <- tempfile("window-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  rows <- write_server_csv(dir, active = rep(30, 15), queue = rep(5, 15), master = FALSE)
  # before the run: all busy (would be server-bound); inside: 3 of 15 rows missing
  extra <- copy(rows[1:5])[, time_ms := time_ms - 20000]
  rows <- rbind(extra, rows)
  rows[time_ms %in% (T0 + 500 + 1000 * c(0:14)), `:=`(handlers_active = 4, rpc_queue_calls = 0)]
  rows[time_ms %in% (T0 + 500 + 1000 * c(3, 4, 5)), `:=`(status = "no answer: SocketTimeoutException: Read timed out",
                                                          handlers_active = NA, rpc_queue_calls = NA)]
  fwrite(rows[, SERVER_CSV_HEADER, with = FALSE], file.path(dir, "hbase", "server-metrics.csv"))
  f <- analyse_run(run_target(dir))$facts$server
  expect_equal(f$kind, "not handler-bound")
  expect_equal(f$stats$samples, 15L)
  expect_equal(f$stats$answered, 12L)
  expect_match(f$sentence, "regionserver 127.0.0.1:16030 answered 12 of 15 samples$")
})

test_that("a run without server-metrics.csv: no finding, n/a check, no verdict clause, a note instead of the section", {
  dir <- tempfile("no-server-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  expect_null(read_server_metrics(dir))
  a <- analyse_run(run_target(dir))
  expect_true(is.na(a$facts$server$kind))
  expect_equal(a$checks[check == "HBase server", status], "n/a")
  expect_false(grepl("HBase:", a$verdict$sentence, fixed = TRUE))
  expect_match(html_string(server_metrics_section(a, NULL)), "^<p class=\"note\">No HBase server metrics: this run has no hbase/server-metrics.csv")
  out <- tempfile("report-")
  write_run_report(a, out)
  page <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_false(grepl("<h2 id=\"server-metrics\">HBase server metrics</h2>", page, fixed = TRUE))
  expect_false(file.exists(file.path(out, "server-metrics.png")))
})

test_that("a report with server metrics draws them and shows the section", {
  dir <- tempfile("drawn-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  write_server_csv(dir, active = rep(3, 15), queue = rep(0, 15))
  out <- tempfile("report-")
  write_run_report(analyse_run(run_target(dir)), out)
  page <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_true(file.exists(file.path(out, "server-metrics.png")))
  expect_match(page, "<h2 id=\"server-metrics\">HBase server metrics</h2>", fixed = TRUE)
  expect_match(page, "alt=\"HBase server metrics\"", fixed = TRUE)
  json <- read_json_report(out)
  expect_match(json$verdict$sentence, "; HBase: not handler-bound \\(regionserver 127.0.0.1:16030: up to 3 of 30 handlers active")
})

test_that("a cluster whose servers could not be found: the notes' reason is the finding", {
  dir <- tempfile("no-servers-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  dir.create(file.path(dir, "hbase"))
  writeLines(paste(SERVER_CSV_HEADER, collapse = ","), file.path(dir, "hbase", "server-metrics.csv"))
  jsonlite::write_json(list(interval_ms = 1000, discovery = "discovery failed, no server sampled: Connection refused", servers = list()),
                       file.path(dir, "hbase", "server-metrics.json"), auto_unbox = TRUE)
  a <- analyse_run(run_target(dir))
  expect_equal(a$facts$server$kind, "no metrics")
  expect_match(a$verdict$sentence, "; HBase: no server metrics \\(discovery failed, no server sampled: Connection refused\\)$")
  expect_match(html_string(server_metrics_section(a, NULL)), "HBase: no server metrics (discovery failed", fixed = TRUE)
})

test_that("a local cluster: each region server is its own row, and regions that moved are named with their counts", {
  dir <- tempfile("cluster-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  # two region servers with 4 regions each; the first is killed after its 7th answer (k = 0..6), and
  # the second holds its 4 regions from k = 9 on; a third lost 2 regions and got them back
  first <- write_server_csv(dir, active = rep(3, 15), queue = rep(0, 15), master = FALSE)
  second <- copy(first)[, `:=`(server = "127.0.0.1:16031", regions = c(rep(4, 9), rep(8, 6)))]
  third <- copy(first)[, `:=`(server = "127.0.0.1:16032", regions = c(4, 4, 3, 2, 2, 3, 4, rep(4, 8)))]
  first[8:15, `:=`(status = "no answer: ConnectException: Connection refused", handlers_active = NA, rpc_queue_calls = NA, regions = NA)]
  rows <- rbind(first, second, third)
  fwrite(rows[order(time_ms, server), SERVER_CSV_HEADER, with = FALSE], file.path(dir, "hbase", "server-metrics.csv"))
  a <- analyse_run(run_target(dir))
  f <- a$facts$server
  stats <- f$stats[order(server)]
  expect_equal(stats$label, c("regionserver 127.0.0.1:16030", "regionserver 127.0.0.1:16031", "regionserver 127.0.0.1:16032"))
  expect_equal(stats$answered, c(7L, 15L, 15L))
  expect_equal(stats$regions_first, c(4, 4, 4))
  expect_equal(stats$regions_last, c(4, 8, 4))
  expect_equal(stats$regions_min, c(4, 4, 2))
  expect_match(f$sentence, paste0("; regions moved: regionserver 127.0.0.1:16031 4 -> 8, ",
                                  "regionserver 127.0.0.1:16032 4 -> 4 \\(2 to 4 between\\); "))
  expect_match(f$sentence, "regionserver 127.0.0.1:16030 answered 7 of 15 samples$")
  html <- html_string(server_metrics_section(a, NULL))
  expect_match(html, "<td>4 / 8</td>", fixed = TRUE)
})

test_that("a server-metrics.csv from before the regions column: no regions, no clause", {
  dir <- tempfile("old-csv-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  rows <- write_server_csv(dir, active = rep(3, 15), queue = rep(0, 15), master = FALSE)
  fwrite(rows[, setdiff(SERVER_CSV_HEADER, "regions"), with = FALSE], file.path(dir, "hbase", "server-metrics.csv"))
  f <- analyse_run(run_target(dir))$facts$server
  expect_true(is.na(f$stats$regions_first))
  expect_false(grepl("regions moved", f$sentence, fixed = TRUE))
})
