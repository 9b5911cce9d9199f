# The verdict: read from the checks, with its thresholds; what it disqualifies.

test_that("a client-bound run: the off-timer gap exceeds the HBase time", {
  dir <- tempfile("client-bound-")
  # 10 threads, 15 s, every request 2 ms (witness 1,950 us) then 3 ms off the timer: cycle 5 ms.
  # Per thread: gap = 5,000 - 1,950 = 3,050 us per request >= 1,950 us of HBase time -> client-bound.
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), gap_ms = 3)
  a <- analyse_run(run_target(dir))
  expect_equal(a$facts$client$gap_us, 3050)
  expect_equal(a$facts$client$hbase_us, 1950)
  expect_equal(a$checks[check == "client cost", status], "FLAG")
  expect_equal(a$checks[check == "client cost", value], 3050 / 1950)
  expect_equal(a$verdict$kind, "client-bound")
  expect_match(a$verdict$sentence, "^client-bound: the off-timer gap \\(3,050 us per request\\) exceeds the HBase time \\(1,950 us\\); throughput and comparisons between runs measure the injectors, not HBase")
  expect_equal(a$verdict$disqualifies, c("comparison", "throughput"))
  expect_match(disqualified_why(a$verdict, "throughput"), "client-bound")
  expect_equal(disqualified_why(a$verdict, "latency"), "")
})

test_that("a clean run is trustworthy, and its sentence says why", {
  dir <- tempfile("clean-")
  # the same without the gap: cycle 2 ms, gap 2,000 - 1,950 = 50 us (ratio 0.026), steady, no errors.
  # The last request ends at 15.000 s: 15 full seconds, all in the window (cut 0), 1,000 completions each.
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  a <- analyse_run(run_target(dir))
  expect_equal(a$facts$client$gap_us, 50)
  expect_equal(a$checks[check == "client cost", status], "ok")
  expect_equal(a$verdict$kind, "trustworthy")
  expect_equal(a$verdict$disqualifies, character())
  expect_match(a$verdict$sentence, "^trustworthy: steady over 15 s \\(throughput \\+0.0% first to last third\\), 0.00% errors, client cost 50 us per request \\(3% of the HBase time of 1,950 us\\)")
  expect_equal(disqualified_why(a$verdict, "throughput"), "")
})

test_that("the same client-bound numbers on a paced run are not a verdict (the gap holds the intended waits)", {
  checks <- check_row("client cost", "info", "", "", value = 1.5)
  expect_equal(run_verdict(checks, list())$kind, "trustworthy")
  cycles <- data.table(requests = 100, cycle_us = 5000, gap_us = 3050, witness_based = TRUE)
  summary <- data.table(test = "total", witness_mean_ms = 1.95, mean_ms = 2)
  expect_equal(check_client_cost(cycles, summary, pacing = TRUE)$status, "info")
  expect_equal(check_client_cost(cycles, summary, pacing = FALSE)$status, "FLAG")
})

test_that("errors over 1% give the errors verdict; an incomplete manifest comes first", {
  dir <- tempfile("errors-")
  # every 50th request failed: 2.00% > 1%
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), error_every = 50)
  a <- analyse_run(run_target(dir))
  expect_equal(a$checks[check == "errors", value], 0.02)
  expect_equal(a$verdict$kind, "errors")
  expect_match(a$verdict$sentence, "^errors: 2.00% of requests failed \\(limit 1%\\)")
  dir2 <- tempfile("incomplete-")
  write_closed_loop_run(dir2, threads = 10, latency_ms = rep(2, 15), error_every = 50,
                        manifest = list(status = "incomplete", extra = list(reason = "worker died")))
  b <- analyse_run(run_target(dir2))
  expect_equal(b$verdict$kind, "incomplete run")
  expect_equal(b$verdict$kinds, c("incomplete run", "errors"))
  expect_match(b$verdict$sentence, "^incomplete run: the run did not end cleanly \\(manifest status incomplete \\(worker died\\)\\).*; also errors \\(2.00% of requests failed")
  dir3 <- tempfile("degraded-")
  write_closed_loop_run(dir3, threads = 10, latency_ms = rep(2, 15), manifest = list(status = "degraded",
                        extra = list(reason = "30 of 9000 requests failed (0.333%): CallDeadlineException=30; 12 second(s) without a successful request, from 20 s after the first")))
  d <- analyse_run(run_target(dir3))
  expect_equal(d$verdict$kinds, "degraded run")
  expect_equal(d$verdict$sentence, paste0("degraded run: the run went to its end through failures (30 of 9000 requests failed (0.333%): ",
                                          "CallDeadlineException=30; 12 second(s) without a successful request, from 20 s after the first); ",
                                          "its figures mix service with failures or an outage; the timeline shows when"))
})

test_that("precedence and thresholds: each rule fires on its own check only", {
  row <- function(name, status, value = NA_real_) check_row(name, status, "r", "m", value = value)
  facts <- list(window = list(window_s = 5, measured_requests = 500))
  expect_equal(run_verdict(rbind(row("window length", "FLAG"), row("errors", "FLAG", 0.5)), facts)$kind, "too short")
  # a flag outside the verdict's rules (Little's law) does not change the kind, it is listed
  v <- run_verdict(rbind(row("Little's law", "FLAG"), row("errors", "ok", 0)), list())
  expect_equal(v$kind, "trustworthy")
  expect_match(v$sentence, "other flags, not disqualifying: Little's law")
  expect_equal(VERDICT_RULES$kind, c("lost writes", "incomplete run", "under faults", "degraded run", "too short", "errors", "contended", "warming", "client-bound",
                                     "client-bound", "shared CPU", "not steady", "server-bound"))
  expect_equal(VERDICT_RULES[kind == "client-bound", check], c("client cost", "client CPU"))
  # both client-bound checks flagged: one kind, named once, its clause from the first
  both <- run_verdict(rbind(row("client CPU", "FLAG"), row("client cost", "FLAG")),
                      list(client = list(gap_us = 300, hbase_us = 200, ratio = 1.5)))
  expect_equal(both$kinds, "client-bound")
  expect_match(both$sentence, "^client-bound: the off-timer gap")
  expect_equal(c(MIN_WINDOW_S, MIN_MEASURED_REQUESTS, MAX_ERROR_RATE, CLIENT_BOUND_GAP_RATIO, STEADY_TREND_TOLERANCE),
               c(10, 1000, 0.01, 1, 0.15))
})

test_that("the run page opens with the verdict, and disqualified figures are greyed with the reason", {
  dir <- tempfile("client-bound-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), gap_ms = 3, manifest = list(injector_mode = "namespaces"))
  res <- run_cli(c("--quiet", dir))
  expect_equal(res$status, 0)
  html <- paste(readLines(file.path(dir, "report", "index.html"), warn = FALSE), collapse = "\n")
  # the finding first, then the verdict folded under it with its whole sentence
  finding_at <- regexpr("<p class=\"finding\">Not a capacity figure: the run is client-bound: its throughput is the injector's. Measured", html, fixed = TRUE)
  verdict_at <- regexpr("<details class=\"verdict v-client-bound\"><summary><b>Verdict: client-bound</b>", html, fixed = TRUE)
  expect_gt(finding_at, 0)
  expect_gt(verdict_at, finding_at)
  expect_true(grepl("</summary>client-bound: the off-timer gap", html, fixed = TRUE))
  expect_lt(verdict_at, regexpr("<h2>Results</h2>", html, fixed = TRUE))
  has <- function(text) grepl(text, html, fixed = TRUE)
  expect_true(has("<p class=\"why\">Greyed: the run is client-bound: its throughput is the injector's.</p>"))
  # 30,000 requests from 0 to the last end, 14.995 + 2 ms: 30,000 / 14.997 s = 2,000.4 req/s, greyed
  expect_true(has("<td class=\"disq\">2,000.4</td>"))
  # the witness latencies stay clear: HBase time is still measured
  expect_true(has("<td>1.950</td>"))
  expect_true(has("All injector hosts are this one machine (injector_mode namespaces)"))
})

# metrics.csv of one machine: one row a second over the run's 15 s, CPU user + sys = busy %.
write_machine_metrics <- function(dir, busy_pct, t0 = 1763712000000) {
  path <- file.path(dir, "injectors", "inj1", "metrics.csv")
  seconds <- 0:15
  fwrite(data.table(time_ms = t0 + seconds * 1000 + 500, cpu_user_pct = busy_pct * 0.6, cpu_sys_pct = busy_pct * 0.4,
                    cpu_iowait_pct = 0, cpu_idle_pct = 100 - busy_pct, load1 = 2, mem_used_mb = 5000, mem_free_mb = 1000,
                    disk_read_kbs = 0, disk_write_kbs = 0, net_rx_kbs = 0, net_tx_kbs = 0, tcp_retrans_s = 0, conntrack_pct = 0),
         path)
}

test_that("injectors on the HBase machine with its CPU saturated: shared CPU, throughput a lower bound", {
  # The clean run above (trustworthy on its own), its injector a namespace of the HBase machine,
  # that machine 95% busy in every second of the 15 s window: mean 95% >= 75%.
  dir <- tempfile("shared-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), manifest = list(injector_mode = "namespaces"))
  write_machine_metrics(dir, busy_pct = 95)
  a <- analyse_run(run_target(dir))
  expect_equal(a$checks[check == "shared CPU", status], "FLAG")
  expect_equal(a$checks[check == "shared CPU", value], 95)
  expect_equal(a$verdict$kind, "shared CPU")
  expect_equal(a$verdict$disqualifies, "throughput")
  expect_match(a$verdict$sentence, "^shared CPU: the injectors run on the HBase machine and its CPU was 95% busy over the measured window \\(client cost 50 us per request off the timer\\); its throughput is what this machine gave HBase and the injectors together, a lower bound of HBase's own")
  expect_true(verdict_disqualifies("shared CPU", "throughput"))
  expect_false(verdict_disqualifies("shared CPU", "latency"))
  # The same machine at 70% (under 75%): trustworthy.
  write_machine_metrics(dir, busy_pct = 70)
  b <- analyse_run(run_target(dir))
  expect_equal(b$checks[check == "shared CPU", status], "ok")
  expect_equal(b$verdict$kind, "trustworthy")
  # Injectors on other hosts (ssh): the check does not apply, however busy they are.
  dir2 <- tempfile("remote-")
  write_closed_loop_run(dir2, threads = 10, latency_ms = rep(2, 15), manifest = list(injector_mode = "ssh"))
  write_machine_metrics(dir2, busy_pct = 95)
  c2 <- analyse_run(run_target(dir2))
  expect_equal(c2$checks[check == "shared CPU", status], "n/a")
  expect_false(c2$verdict$kind == "shared CPU")
})

test_that("the terminal table brackets a throughput the verdict greys, and says why", {
  rows <- data.table(run = c("run-1", "run-2", "run-2"), target = c("direct", "thrift", "thrift"), test = c("get", "get", "total"),
                     count = c(1000, 2000, 2000), errors = 0, throughput_rps = c(1234.4, 2345.6, 2345.6),
                     witness_mean_ms = c(0.5, 0.25, 0.25), witness_p90_ms = c(0.9, 0.4, 0.4), overhead_us = c(1.25, 2, 2),
                     verdict = c("trustworthy", "shared CPU", "shared CPU"), verdict_disqualifies = c("", "throughput", "throughput"))
  lines <- text_table(rows)
  expect_equal(length(lines), 4L)                 # header, two test rows (no total), the note
  expect_match(lines[2], "^run-1 +direct +get +1,000 +0 +1,234 +0.500 +0.900 +1.2us  trustworthy$")
  expect_match(lines[3], "^run-2 +thrift +get +2,000 +0 +\\(2,346\\) +0.250 +0.400 +2.0us  shared CPU$")
  expect_match(lines[4], "^\\(req/s\\): greyed by the run's verdict")
  expect_equal(length(text_table(rows[1])), 2L)   # nothing greyed: no note
})

test_that("a degraded or interrupted run is flagged like an incomplete one; a complete one is not", {
  for (status in c("degraded", "interrupted", "running")) {
    expect_equal(check_manifest(list(found = TRUE, error = NA, status = status, reason = "r"))$status, "FLAG", info = status)
  }
  expect_equal(check_manifest(list(found = TRUE, error = NA, status = "complete"))$status, "ok")
})

test_that("a comparison's verdict names the runs a kind covers and reads as one sentence", {
  runs <- data.table(run = c("run-1", "run-2", "run-3"), verdict = c("shared CPU", "shared CPU", "client-bound"))
  baselines <- data.table(run = runs$run, baseline = c(NA, "run-1", "run-1"), relation = c("baseline", "target direct -> thrift", "threads 8 -> 16"))
  analyses <- list(list(run_id = "run-3", facts = list(client = list(ratio = 1.4, gap_us = 700, hbase_us = 500))))
  expect_equal(compare_verdict(runs[1:2], baselines[1:2], analyses)$sentence,
               paste("shared CPU: 2 of 2 runs (run-1, run-2); their throughput is what this machine gave HBase and the injectors together,",
                     "a lower bound of HBase's own; compare it only with runs of the same injector setup; 1 of 1 runs set against an alike baseline"))
  expect_match(compare_verdict(runs, baselines, analyses)$sentence,
               paste0("^client-bound: 1 of 3 runs \\(run-3\\) \\(worst run-3: off-timer gap 700 us per request against 500 us of HBase time\\); ",
                      "for them throughput and comparisons between runs measure the injectors, not HBase .*; also shared CPU: run-1, run-2; "))
  # the folded verdict's summary counts every kind, the first by precedence
  expect_equal(compare_verdict(runs, baselines, analyses)$summary, "client-bound: 1 of 3 runs; also shared CPU 2")
  expect_equal(compare_verdict(runs[1:2], baselines[1:2], analyses)$summary, "shared CPU: 2 of 2 runs")
  expect_true(grepl("<summary><b>Verdict: client-bound: 1 of 3 runs; also shared CPU 2</b>",
                    html_string(finding_html("f", compare_verdict(runs, baselines, analyses))), fixed = TRUE))
})

test_that("a run's folded verdict in a table is coloured by its main kind: a valid run is not drawn as an alarm", {
  cell <- html_verdict(list(kind = "trustworthy", kinds = "trustworthy", sentence = "trustworthy: steady"))
  expect_match(cell, '<details class="verdict v-trustworthy">', fixed = TRUE)
  cell <- html_verdict(list(kind = "not steady", kinds = c("not steady", "warming"), sentence = "not steady: ..."))
  expect_match(cell, '<details class="verdict v-not-steady">', fixed = TRUE)
  expect_match(cell, "<summary>not steady; also warming</summary>", fixed = TRUE)
})
