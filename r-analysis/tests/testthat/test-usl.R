# The capacity model: the Universal Scalability Law fitted to throughput against concurrency (usl.R,
# scalability.R), its sentences, what it predicts under gates, report.json and the HTML.

# Points on a known curve: lambda 1000 req/s per client, sigma 0.02, kappa 0.0005, so the peak is at
# N* = sqrt(0.98 / 0.0005) = 44.27 clients with X(N*) = 15,681 req/s.
TRUE_USL <- list(lambda = 1000, sigma = 0.02, kappa = 0.0005)
TRUE_PEAK_N <- sqrt((1 - TRUE_USL$sigma) / TRUE_USL$kappa)
SWEEP_N <- c(1, 2, 4, 8, 16, 32, 64)
true_x <- function(n) usl_throughput(n, TRUE_USL$lambda, TRUE_USL$sigma, TRUE_USL$kappa)

# A model row as scalability.R builds it, from parameters: for the sentences.
model_row <- function(l, s, k, n) {
  row <- usl_row(n, USL_STATUS[["fitted"]])
  row[, `:=`(lambda = l, lambda_low = l, lambda_high = l, sigma = s, sigma_low = s, sigma_high = s, kappa = k, kappa_low = k, kappa_high = k)]
  row <- usl_add_peak(row)
  row[, `:=`(measured_n = list(n), peak_position = usl_peak_position(peak_n, n_min, n_max))]
  row[]
}

test_that("points on a known curve, without noise, give back lambda, sigma, kappa and N* within 1e-6", {
  fit <- fit_usl(SWEEP_N, true_x(SWEEP_N))
  expect_equal(fit$status, "fitted")
  expect_equal(fit$lambda, 1000, tolerance = 1e-6)
  expect_equal(fit$sigma, 0.02, tolerance = 1e-6)
  expect_equal(fit$kappa, 0.0005, tolerance = 1e-6)
  expect_equal(fit$peak_n, 44.27189, tolerance = 1e-6)
  expect_equal(fit$peak_throughput, 15680.89, tolerance = 1e-6)
  expect_gt(fit$r_squared, 1 - 1e-9)
  expect_equal(c(fit$points, fit$distinct_n, fit$n_min, fit$n_max), c(7, 7, 1, 64))
  # without a one-client point the start (X / N at the smallest N) is off; the fit still finds the
  # curve: lambda 500, sigma 0.05, kappa 1e-4 measured from 4 to 128 clients, N* = sqrt(0.95 / 1e-4) = 97.47
  n <- c(4, 8, 16, 32, 64, 128)
  far <- fit_usl(n, usl_throughput(n, 500, 0.05, 1e-4))
  expect_equal(c(far$lambda, far$sigma, far$kappa, far$peak_n), c(500, 0.05, 1e-4, sqrt(0.95 / 1e-4)), tolerance = 1e-6)
  expect_equal(usl_peak_position(far$peak_n, far$n_min, far$n_max), "inside")
})

test_that("with seeded noise (3% per run, three repeats per point) the fit is close and its intervals hold the truth", {
  n <- rep(SWEEP_N, each = 3)
  set.seed(16)
  fit <- fit_usl(n, true_x(n) * (1 + stats::rnorm(length(n), 0, 0.03)))
  expect_equal(fit$status, "fitted")
  expect_equal(fit$points, 21)
  expect_equal(fit$distinct_n, 7)
  # tolerances: 25% for sigma, 20% for kappa, 10% for N* (over 200 seeds, 99% of fits were within 26%, 20% and 12%)
  expect_equal(fit$sigma, 0.02, tolerance = 0.25)
  expect_equal(fit$kappa, 0.0005, tolerance = 0.20)
  expect_equal(fit$peak_n, TRUE_PEAK_N, tolerance = 0.10)
  expect_true(fit$lambda_low <= 1000 && 1000 <= fit$lambda_high)
  expect_true(fit$sigma_low <= 0.02 && 0.02 <= fit$sigma_high)
  expect_true(fit$kappa_low <= 0.0005 && 0.0005 <= fit$kappa_high)
  expect_true(fit$peak_n_low <= TRUE_PEAK_N && TRUE_PEAK_N <= fit$peak_n_high)
  expect_true(fit$peak_throughput_low <= true_x(TRUE_PEAK_N) && true_x(TRUE_PEAK_N) <= fit$peak_throughput_high)
  expect_lt(fit$peak_n_low, fit$peak_n)
  expect_gt(fit$peak_n_high, fit$peak_n)
})

test_that("the 95% intervals of sigma and kappa hold the true values in about 95% of noisy sweeps", {
  # 100 seeds: nominal 95 each; 88 is three binomial standard deviations below. A fit by least
  # squares on X itself (not log X) held them in 84% and 78% of 200 such sweeps.
  n <- rep(SWEEP_N, each = 3)
  held <- vapply(1:100, function(seed) {
    set.seed(seed)
    fit <- fit_usl(n, true_x(n) * (1 + stats::rnorm(length(n), 0, 0.03)))
    c(sigma = fit$sigma_low <= 0.02 && 0.02 <= fit$sigma_high, kappa = fit$kappa_low <= 0.0005 && 0.0005 <= fit$kappa_high)
  }, c(sigma = NA, kappa = NA))
  expect_gte(sum(held["sigma", ]), 88)
  expect_gte(sum(held["kappa", ]), 88)
})

test_that("fewer than 4 distinct N is not fitted, repeats or not, and says so", {
  n <- c(1, 2, 4, 1, 2, 4)
  fit <- fit_usl(n, true_x(n))
  expect_equal(fit$status, "too few points")
  expect_true(is.na(fit$sigma))
  expect_equal(c(fit$points, fit$distinct_n), c(6, 3))
  points <- data.table(model_key = "k", workload = "direct, get", target = "direct", run = paste0("run-", 1:6), n = n,
                       throughput_rps = true_x(n), paced = FALSE, verdict = "trustworthy", disqualifies = "")
  m <- usl_models(points)
  expect_equal(m$message, "not fitted: 3 distinct thread counts (1, 2, 4); the model needs 4 or more: only the measured points are drawn")
  expect_equal(m$runs, "run-1, run-2, run-3, run-4, run-5, run-6")
  # paced runs: throughput is the pace, never fitted
  paced <- usl_models(rbind(points, data.table(model_key = "k", workload = "direct, get", target = "direct", run = "run-7", n = 8,
                                               throughput_rps = true_x(8), paced = TRUE, verdict = "trustworthy", disqualifies = "")))
  expect_equal(paced$status, "paced")
  expect_match(paced$message, "^not fitted: the runs are paced")
})

test_that("a fit that does not converge says so, with nls's reason", {
  # throughput that falls and rises again (a U) is no curve of the law: the port algorithm gives up
  u <- fit_usl(c(1, 2, 4, 8), c(1e6, 1, 1, 1e6))
  expect_equal(u$status, "did not converge")
  expect_equal(u$reason, "false convergence (8)")
  expect_true(is.na(u$kappa))
  row <- cbind(u, measured_n = list(list(c(1, 2, 4, 8))))
  expect_equal(usl_message(row, USL_OVER$threads), "the fit did not converge (false convergence (8)): only the measured points are drawn")
  # a sound curve with one iteration allowed
  set.seed(3)
  short <- fit_usl(SWEEP_N, true_x(SWEEP_N) * (1 + stats::rnorm(7, 0, 0.03)), max_iterations = 1)
  expect_equal(short$status, "did not converge")
  expect_equal(short$reason, "iteration limit reached without convergence (10)")
})

test_that("the sentence follows sigma against kappa and where N* lies against the N measured", {
  over <- USL_OVER$threads
  # inside: N* = 44.3 within 1..64; at N*, kappa N* = 0.022 > sigma = 0.02: coherency dominates
  expect_equal(usl_message(model_row(1000, 0.02, 0.0005, SWEEP_N), over),
               "throughput peaks near 44 concurrent clients at about 16,000 req/s; beyond that, adding clients lowers it: coherency costs dominate")
  # inside, but at N* = 95.4 the contention term is larger: kappa N* = 0.0095 < sigma = 0.09
  expect_equal(usl_message(model_row(1000, 0.09, 0.0001, c(10, 50, 100, 200)), over),
               paste("throughput peaks near 95 concurrent clients at about 9,200 req/s; beyond that, adding clients lowers it:",
                     "contention costs most, and coherency turns the curve down"))
  # above: N* = sqrt(0.95 / 1e-5) = 308 beyond the 16 measured, X(308) = 308,000 / 17.30 = 17,808;
  # at 16, kappa 16 = 0.00016 < sigma 0.05
  expect_equal(usl_message(model_row(1000, 0.05, 1e-5, c(1, 2, 4, 8, 16)), over),
               paste("throughput still grows at the 16 concurrent clients measured (contention costs dominate there);",
                     "the model puts its peak near 308 concurrent clients (interval 308 to 308) at about 18,000 req/s: an extrapolation"))
  # below: N* = 44 under the 64 to 256 measured
  expect_equal(usl_message(model_row(1000, 0.02, 0.0005, c(64, 128, 192, 256)), over),
               paste("throughput peaks near 44 concurrent clients (interval 44 to 44) at about 16,000 req/s, below the 64 to 256 measured: an extrapolation;",
                     "over the measured range adding clients lowers it: coherency costs dominate"))
  # kappa = 0: no peak; levelling off at lambda / sigma = 10,000, or almost linear (X(16) = 99% of 16 lambda)
  expect_equal(usl_message(model_row(1000, 0.1, 0, c(1, 8, 32, 64)), over),
               "no peak within the model: throughput levels off towards about 10,000 req/s (lambda / sigma) as clients are added: contention costs dominate")
  expect_equal(usl_message(model_row(1000, 0.0005, 0, c(1, 2, 8, 16)), over),
               "throughput grows almost linearly up to the 16 concurrent clients measured; no peak within the model")
  expect_equal(usl_message(model_row(1000, 0.1, 0, c(1, 2, 3, 4)), USL_OVER$region_servers),
               "no peak within the model: throughput levels off towards about 10,000 req/s (lambda / sigma) as servers are added: contention costs dominate")
})

test_that("Little's law inverted: the largest N under a mean latency, the smallest N reaching a throughput", {
  # lambda 200, sigma = kappa = 0.025: R(N) = 5 (1 + 0.025 (N - 1) + 0.025 N (N - 1)) ms; R(14) = 29.375, R(15) = 33
  expect_equal(usl_mean_latency_ms(c(1, 14, 15), 200, 0.025, 0.025), c(5, 29.375, 33))
  expect_equal(usl_largest_n_within(30, "<", 200, 0.025, 0.025), 14)
  expect_equal(usl_largest_n_within(29.375, "<=", 200, 0.025, 0.025), 14)
  expect_equal(usl_largest_n_within(29.375, "<", 200, 0.025, 0.025), 13)
  expect_equal(usl_largest_n_within(4, "<", 200, 0.025, 0.025), 0)        # one client already takes 5 ms
  expect_equal(usl_largest_n_within(30, "<", 200, 0, 0), Inf)             # linear: the latency never grows
  expect_equal(usl_largest_n_within(7.5, "<=", 200, 0.5, 0), 2)           # kappa 0: 5 (1 + 0.5 (N - 1)) <= 7.5
  # X(4) = 800 / 1.375 = 581.8, X(5) = 1000 / 1.6 = 625; the peak is 640.5, so 700 is out of reach
  expect_equal(usl_smallest_n_reaching(600, ">=", 200, 0.025, 0.025), 5)
  expect_equal(usl_smallest_n_reaching(625, ">=", 200, 0.025, 0.025), 5)
  expect_equal(usl_smallest_n_reaching(625, ">", 200, 0.025, 0.025), 6)
  expect_equal(usl_smallest_n_reaching(700, ">=", 200, 0.025, 0.025), Inf)
  expect_equal(usl_smallest_n_reaching(150, ">=", 200, 0.025, 0.025), 1)
  # kappa 0, sigma 0.5: X = 2 lambda N / (N + 1) -> 1,900 of lambda 1,000 at N = 19; 2,000 never
  expect_equal(usl_smallest_n_reaching(1900, ">=", 1000, 0.5, 0), 19)
  expect_equal(usl_smallest_n_reaching(2000, ">=", 1000, 0.5, 0), Inf)
})

test_that("a sweep over 5 thread counts (two repeated) gets its usl entry in report.json, the curve and the sentence in the HTML", {
  runs <- tempfile("runs-")
  # helper-report.R: the fixture lies on lambda 200, sigma = kappa = 0.025 (N* 6.245, 640.5 req/s);
  # runs at 1, 5, 11, 19, 31 threads, and 5 and 19 again: 7 points at 5 distinct N.
  write_usl_sweep(runs, repeats = c(5, 19))
  res <- run_cli(c("--quiet", "--slo", "mean_ms<30,p99_ms<60", "sweep-1"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 0)
  out <- file.path(runs, "sweep-1", "report")
  doc <- read_json_report(out)
  expect_equal(doc$schema, 1)
  usl <- doc$comparison$usl
  expect_equal(nrow(usl), 1)
  expect_equal(usl$workload, "direct, get")
  expect_equal(usl$target, "direct")
  expect_equal(usl$status, "fitted")
  expect_equal(c(usl$points, usl$distinct_n, usl$n_min, usl$n_max), c(7, 5, 1, 31))
  expect_equal(c(usl$lambda, usl$sigma, usl$kappa), c(200, 0.025, 0.025), tolerance = 1e-6)
  expect_equal(c(usl$peak_threads, usl$peak_throughput), c(sqrt(0.975 / 0.025), 640.5126), tolerance = 1e-6)
  expect_true(all(c("lambda_low", "lambda_high", "sigma_low", "sigma_high", "kappa_low", "kappa_high", "peak_threads_low",
                    "peak_threads_high", "peak_throughput_low", "peak_throughput_high", "confidence") %in% names(usl)))
  expect_true(usl$sigma_low <= usl$sigma && usl$sigma <= usl$sigma_high)
  expect_equal(usl$r_squared, 1, tolerance = 1e-9)
  expect_equal(usl$peak_position, "inside")
  expect_equal(usl$dominant_cost, "coherency")
  expect_false(usl$disqualified)
  expect_equal(usl$message, "throughput peaks near 6 concurrent clients at about 640 req/s; beyond that, adding clients lowers it: coherency costs dominate")
  # mean_ms < 30: R(14) = 29.375 ms, so 14 clients at X(14) = 2,800 / 5.875 = 476.6 req/s; the most within it is
  # the peak (6.245 clients); measured: run-3 (11 threads, 20 ms) met both gates, 19 threads (50 ms) did not
  gate <- usl$latency_gate
  expect_equal(gate$status, "predicted")
  expect_equal(gate$gates[[1]], "mean_ms<30")
  expect_equal(gate$threads, 14)
  expect_equal(gate$throughput_rps, 2800 / 5.875, tolerance = 1e-6)
  expect_equal(gate$best_threads, sqrt(0.975 / 0.025), tolerance = 1e-6)
  expect_false(gate$extrapolation)
  expect_equal(c(gate$measured_threads, gate$measured_throughput_rps), c(11, 550))
  expect_equal(gate$measured_runs, "run-3")
  expect_match(gate$message, "^model prediction: up to 14 concurrent clients meet mean_ms<30 \\(interval 14 to 14\\), at about 480 req/s; ")
  expect_match(gate$message, "measured: the largest thread count that met every gate is 11 (run-3, 550 req/s)", fixed = TRUE)
  expect_match(gate$message, "p99_ms<60: the model predicts the mean latency of all tests (Little's law), not percentiles", fixed = TRUE)
  expect_equal(length(doc$comparison$usl_servers), 0)
  expect_true(file.exists(file.path(out, "usl-threads-1.png")))
  expect_true(any(res$stdout == paste("report.R: usl: direct, get: throughput peaks near 6 concurrent clients at about 640 req/s;",
                                      "beyond that, adding clients lowers it: coherency costs dominate")))
  html <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl(paste0("<p class=\"usl\"><b>direct, get</b>: throughput peaks near 6 concurrent clients at about 640 req/s; ",
                           "beyond that, adding clients lowers it: coherency costs dominate.</p>"), html, fixed = TRUE))
  expect_true(grepl("<b>direct, get</b>: model prediction: up to 14 concurrent clients meet mean_ms&lt;30", html, fixed = TRUE))
  expect_true(grepl("Capacity model: the Universal Scalability Law over concurrent clients", html, fixed = TRUE))
  # under the scaling charts, and the curve's image inlined
  expect_lt(regexpr("<h2>Scaling</h2>", html), regexpr("Capacity model: the Universal", html))
  expect_true(grepl("<img alt=\"direct, get: throughput against concurrent clients, with the USL fit\" src=\"data:image/png;base64,", html, fixed = TRUE))
})

test_that("a workload whose runs' verdicts grey their throughput keeps its fit, greyed with the reason", {
  runs <- tempfile("runs-")
  # the 1-thread run waits 3 ms off the timer after each 2 ms request (same 5 ms cycle, same
  # throughput): client-bound, so its throughput is the injector's and the whole fit is greyed
  write_usl_sweep(runs, client_bound = 1)
  res <- run_cli(c("--quiet", "sweep-1"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 0)
  out <- file.path(runs, "sweep-1", "report")
  doc <- read_json_report(out)
  expect_equal(doc$runs$verdict$kind[1], "client-bound")
  usl <- doc$comparison$usl
  expect_equal(usl$status, "fitted")
  # its window ends 3 ms early (the last request's gap is not timed): 3,000 / 14.997 s = 200.04 req/s
  expect_equal(usl$sigma, 0.025, tolerance = 0.01)
  expect_true(usl$disqualified)
  expect_equal(usl$why, paste("Greyed: the verdicts of run-1 disqualify their throughput (client-bound). The model fitted to them",
                              "describes that, not HBase's scaling (the run is client-bound: its throughput is the injector's)."))
  raw <- jsonlite::fromJSON(file.path(out, "report.json"), simplifyVector = FALSE)$comparison$usl[[1]]
  expect_true("latency_gate" %in% names(raw))
  expect_null(raw$latency_gate)   # no --slo: null
  html <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl(paste0("<h4>direct, get</h4><p class=\"why\">Greyed: the verdicts of run-1 disqualify their throughput (client-bound). ",
                           "The model fitted to them describes that, not HBase's scaling"), html, fixed = TRUE))
  expect_true(grepl("</p><div class=\"disq\"><img alt=\"direct, get: throughput against concurrent clients", html, fixed = TRUE))
  expect_true(any(grepl("^report.R: usl: direct, get: .* \\(greyed by the verdicts\\)$", res$stdout)))
})

test_that("a sweep with 3 thread counts draws the points only and says why; direct and thrift get their own models", {
  runs <- tempfile("runs-")
  write_usl_sweep(runs, points = USL_FIXTURE_POINTS[threads %in% c(1, 5, 11)])
  ids <- sprintf("run-%d", 1:3)
  thrift <- file.path(runs, paste0("run-", 4:7))
  for (k in 1:4) {
    write_closed_loop_run(thrift[k], threads = USL_FIXTURE_POINTS$threads[k], latency_ms = rep(USL_FIXTURE_POINTS$latency_ms[k], 12),
                          manifest = list(target = "thrift"))
  }
  analyses <- lapply(c(file.path(runs, ids), thrift), function(dir) slim_analysis(analyse_run(run_target(dir))))
  cmp <- compare_runs(analyses, "sweep-1")
  m <- cmp$models$threads
  expect_equal(m$workload, c("direct, get", "thrift, get"))
  expect_equal(m$status, c("too few points", "fitted"))
  expect_equal(m$message[1], "not fitted: 3 distinct thread counts (1, 5, 11); the model needs 4 or more: only the measured points are drawn")
  # thrift: 1, 5, 11, 19 threads on the fixture's curve
  expect_equal(c(m$sigma[2], m$kappa[2]), c(0.025, 0.025), tolerance = 1e-6)
  html <- render_compare_report(cmp)
  expect_true(grepl("<b>direct, get</b>: not fitted: 3 distinct thread counts (1, 5, 11); the model needs 4 or more: only the measured points are drawn.",
                    html, fixed = TRUE))
  expect_true(grepl("<b>thrift, get</b>: throughput peaks near 6 concurrent clients", html, fixed = TRUE))
  # the points-only chart: no fitted line, the message as its subtitle
  chart <- plot_usl(m[1], cmp$models$thread_points[model_key == m$model_key[1]], "threads")
  expect_equal(length(chart$layers), 1)
  expect_match(chart$labels$subtitle, "^not fitted: 3 distinct thread counts")
  expect_equal(length(plot_usl(m[2], cmp$models$thread_points[model_key == m$model_key[2]], "threads")$layers), 6)
})

test_that("runs that record their region servers get the model over cluster sizes and the servers a throughput gate needs", {
  runs <- tempfile("runs-")
  # Cluster sizes 1, 3, 4, 9 (as finalise records them, manifest cluster.region_servers; run-1 by the
  # hand-written property a manifest without it may carry; run-2 has both, and HBase's count wins) on X(S) = 2,000 S / (S + 1), i.e. lambda 1,000,
  # sigma 0.5, kappa 0 (no peak; levels off at lambda / sigma = 2,000):
  #   S = 1:  5 threads x 5 ms = 1,000 req/s      S = 3: 15 threads x 10 ms = 1,500 req/s
  #   S = 4:  8 threads x 5 ms = 1,600 req/s      (and 2 threads x 5 ms = 400 req/s: not its best)
  #   S = 9: 18 threads x 10 ms = 1,800 req/s
  # Target 1,900 req/s (throughput_rps>=1900): 2,000 S / (S + 1) >= 1,900 from S = 19, beyond the 9 measured.
  plan <- data.table(servers = c(1, 3, 4, 4, 9), threads = c(5, 15, 8, 2, 18), latency_ms = c(5, 10, 5, 5, 10))
  ids <- sprintf("run-%d", seq_len(nrow(plan)))
  for (k in seq_len(nrow(plan))) {
    write_closed_loop_run(file.path(runs, ids[k]), threads = plan$threads[k], latency_ms = rep(plan$latency_ms[k], 12),
                          manifest = switch(as.character(k),
                            "1" = list(properties = list(hbaseload.region.servers = "1")),
                            "2" = list(extra = list(cluster = list(region_servers = 3L)), properties = list(hbaseload.region.servers = "7")),
                            list(extra = list(cluster = list(region_servers = plan$servers[k])))))
  }
  write_sweep(runs, "sweep-9", ids)
  res <- run_cli(c("--quiet", "--no-plots", "--slo", "throughput_rps>=1900", "sweep-9"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 99)   # no run reaches 1,900 req/s: no capacity, the report is written
  doc <- read_json_report(file.path(runs, "sweep-9", "report"))
  expect_equal(doc$runs$workload$region_servers, c("1", "3", "4", "4", "9"))
  s <- doc$comparison$usl_servers
  expect_equal(nrow(s), 1)
  expect_equal(s$workload, "direct, get")
  expect_equal(s$runs, "run-1, run-2, run-3, run-5")   # run-4 (2 threads) is not its cluster's best
  expect_equal(c(s$points, s$distinct_n, s$n_min, s$n_max), c(4, 4, 1, 9))
  expect_equal(c(s$lambda, s$sigma, s$kappa), c(1000, 0.5, 0), tolerance = 1e-6)
  expect_true(is.na(s$peak_servers))
  expect_equal(s$peak_position, "none")
  expect_equal(s$target_throughput_rps, 1900)
  expect_equal(s$servers_needed, 19)
  expect_equal(s$servers_needed_status, "extrapolation")
  expect_equal(s$servers_needed_message, "1,900 req/s needs about 19 region servers (interval 19 to 19): an extrapolation beyond the 1 to 9 servers measured")
  expect_equal(s$message, "no peak within the model: throughput levels off towards about 2,000 req/s (lambda / sigma) as servers are added: contention costs dominate")
  html <- paste(readLines(file.path(runs, "sweep-9", "report", "index.html"), warn = FALSE), collapse = "\n")
  expect_true(grepl("<h2>Capacity model over region servers</h2>", html, fixed = TRUE))
  expect_true(grepl(">run-3: direct, get, 8 threads, region servers 4<", html, fixed = TRUE))   # the dimension that varies is named
  # a local cluster's sizes share one machine: the report says the law describes that machine
  expect_true(grepl("Every size ran on the local cluster on one machine", html, fixed = TRUE))
  expect_true(grepl("<b>direct, get</b>: 1,900 req/s needs about 19 region servers (interval 19 to 19): an extrapolation", html, fixed = TRUE))
  # within the sizes measured, and out of reach
  m <- data.table::as.data.table(s[, c("n_min", "n_max", "lambda", "lambda_low", "lambda_high", "sigma", "sigma_low", "sigma_high",
                                        "kappa", "kappa_low", "kappa_high")])
  m[, `:=`(status = "fitted", peak_n = Inf, peak_throughput = NA_real_)]
  within <- usl_servers_needed(m, data.table(threshold = 1700, op = ">="))
  expect_equal(within$servers_needed, 6)   # 2,000 S / (S + 1) >= 1,700 from S = 5.67
  expect_equal(within$servers_needed_status, "within the measured range")
  never <- usl_servers_needed(m, data.table(threshold = 2500, op = ">="))
  expect_equal(never$servers_needed_status, "unreachable")
  expect_equal(never$servers_needed_message, "the model never reaches 2,500 req/s: it levels off towards about 2,000 req/s")
})

test_that("a model greyed by a run whose main verdict greys nothing itself gives no empty reason", {
  # run-5: 'lost writes; also under faults': its throughput is greyed by the fault, its main kind has no reason
  drawn <- data.table::data.table(run = c("run-2", "run-5"), verdict = c("server-bound", "lost writes"),
                                  disqualifies = c("", "throughput,latency,comparison"))
  why <- usl_why(drawn)
  expect_match(why, "Greyed: the verdicts of run-5 disqualify their throughput (lost writes). The model fitted to them describes that, not HBase's scaling.", fixed = TRUE)
  expect_false(grepl("()", why, fixed = TRUE))
})

test_that("the model over region servers says when every size shared one machine's CPUs", {
  local <- function(site = "", lab = NULL) list(manifest = list(properties = list(hbaseload.hbase.site = site), lab = lab, machine = list(cores = 2)))
  isolated <- list(isolated = TRUE, server_cpus = "0")
  expect_match(html_string(local_servers_note(list(local(lab = isolated), local(lab = isolated)))),
               "Every size ran on the local cluster on the lab's server CPUs 0 of one machine: more region servers there are more JVMs on the same CPUs")
  expect_match(html_string(local_servers_note(list(local(), local()))), "on the local cluster on one machine of 2 cores, beside the injectors")
  # a cluster the suite does not manage: its sizes are its machines, nothing to say
  expect_null(local_servers_note(list(local(), local(site = "/etc/hbase/conf/hbase-site.xml"))))
})
