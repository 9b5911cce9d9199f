# Loaded by testthat before the tests, into an environment whose parent is the namespace of the
# package hbasegrinder (tests/run-tests.R), so the tests see its internal functions: small fixture
# writers.
suppressPackageStartupMessages({
  library(data.table)
  library(ggplot2)
})

r_analysis_dir <- normalizePath(file.path(testthat::test_path(), "..", ".."))
set_progress(quiet = TRUE)

fixture_dir <- function(name = "run-fixture") testthat::test_path("fixtures", name)

LOG_HEADER <- "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)"

# Write lines (or raw bytes) as a data log; newline = FALSE leaves the last line unterminated.
write_log <- function(path, lines, newline = TRUE) {
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  con <- file(path, "wb")
  on.exit(close(con))
  for (k in seq_along(lines)) {
    piece <- lines[[k]]
    if (is.character(piece)) piece <- charToRaw(piece)
    writeBin(piece, con)
    if (k < length(lines) || newline) writeBin(charToRaw("\n"), con)
  }
  invisible(path)
}

# A copy of a fixture run in a temp folder, optionally without some files.
copy_fixture <- function(name = "run-fixture", drop = character(), dest = tempfile("run-")) {
  dir.create(dest)
  file.copy(list.files(fixture_dir(name), full.names = TRUE), dest, recursive = TRUE)
  unlink(file.path(dest, drop), recursive = TRUE)
  dest
}

run_target <- function(dir) list(kind = "run", id = basename(dir), dir = normalizePath(dir))

# Run report.R as the CLI does; returns exit status, stdout and stderr lines.
run_cli <- function(args, env = character()) {
  out <- tempfile()
  err <- tempfile()
  status <- system2(file.path(R.home("bin"), "Rscript"), c(file.path(r_analysis_dir, "report.R"), shQuote(args)),
                    stdout = out, stderr = err, env = env)
  list(status = status, stdout = readLines(out, warn = FALSE), stderr = readLines(err, warn = FALSE))
}

# A closed-loop data log written from a plan, for hand-worked fixtures. Each of `threads` threads
# sends back-to-back requests: in second s (0-based) each takes latency_ms[s + 1] whole ms (its
# witness witness_short_us less) and the thread waits gap_ms before the next, so it starts
# 1000 / (latency + gap) requests in that second (the cycle must divide 1000). error_every = k
# marks every k-th request of a thread as failed.
write_closed_loop_log <- function(path, threads, latency_ms, gap_ms = 0, witness_short_us = 50, error_every = 0,
                                  test = 1L, t0 = 1763712000000) {
  rows <- rbindlist(lapply(seq_along(latency_ms), function(i) {
    cycle <- latency_ms[[i]] + gap_ms
    stopifnot(1000 %% cycle == 0)
    k <- seq_len(1000 / cycle) - 1
    data.table(start = t0 + (i - 1) * 1000 + k * cycle, time = latency_ms[[i]])
  }))
  log <- rbindlist(lapply(seq_len(threads) - 1L, function(thread) {
    rows[, .(Thread = thread, Run = seq_len(.N) - 1L, Test = test, Start = start, Time = time,
             Errors = if (error_every > 0) as.integer(seq_len(.N) %% error_every == 0) else 0L,
             Witness = time * 1000 - witness_short_us)]
  }))
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  writeLines(LOG_HEADER, path)
  fwrite(log, path, append = TRUE, col.names = FALSE)
  invisible(log)
}

# manifest.json as ./suite run writes it (the fields the report reads).
write_manifest <- function(dir, threads, target = "direct", operations = "get:100", status = "complete",
                           value_size = "1000", injector_mode = NULL, extra = list(), properties = list()) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  manifest <- c(list(run_id = basename(dir), status = status, target = target, threads_total = threads,
                     injector_mode = injector_mode, tests = list(`1` = "get", `2` = "put"), pacing = FALSE,
                     properties = c(list(hbaseload.operations = operations, hbaseload.target = target,
                                         hbaseload.value.size = value_size, hbaseload.key.distribution = "uniform",
                                         hbaseload.rows = "100000", hbaseload.rate.per.thread = "0",
                                         hbaseload.thrift.host = "127.0.0.1", hbaseload.thrift.port = "9092",
                                         hbaseload.thrift.transport = "buffered", hbaseload.thrift.protocol = "binary"),
                                    properties)),
                extra)
  jsonlite::write_json(manifest[!vapply(manifest, is.null, NA)], file.path(dir, "manifest.json"), auto_unbox = TRUE)
  invisible(dir)
}

# A whole run folder: manifest + one closed-loop data log.
write_closed_loop_run <- function(dir, threads, latency_ms, gap_ms = 0, ..., manifest = list()) {
  do.call(write_manifest, c(list(dir = dir, threads = threads), manifest))
  write_closed_loop_log(file.path(dir, "injectors", "inj1", "inj1-0-data.log"), threads, latency_ms, gap_ms, ...)
  invisible(dir)
}

read_json_report <- function(dir) jsonlite::fromJSON(file.path(dir, "report.json"), simplifyVector = TRUE)

# A sweep folder listing runs already written under runs_dir (./suite sweep's sweep.json).
write_sweep <- function(runs_dir, sweep_id, run_ids) {
  dir.create(file.path(runs_dir, sweep_id), recursive = TRUE, showWarnings = FALSE)
  jsonlite::write_json(list(sweep_id = sweep_id, status = "complete", runs = run_ids),
                       file.path(runs_dir, sweep_id, "sweep.json"), auto_unbox = TRUE)
  invisible(file.path(runs_dir, sweep_id))
}

# A sweep over threads lying exactly on the USL curve lambda = 200 req/s per client, sigma = kappa =
# 0.025 (peak N* = sqrt(0.975 / 0.025) = 6.245 at X = 640.5 req/s): closed loops of 15 s, no gap,
# each thread's cycle = its latency = 1000 N / X(N) ms = 5 (1 + 0.025 (N - 1) + 0.025 N (N - 1)) ms:
#   N       1    5   11   19    31
#   ms      5    8   20   50   125
#   req/s 200  625  550  380   248
# `repeats` names thread counts run twice (a second run of the same workload); `gap_ms` per thread
# count (a named vector) adds an off-timer gap to that point's first run (2 + 3 ms: client-bound).
USL_FIXTURE_POINTS <- data.table::data.table(threads = c(1, 5, 11, 19, 31), latency_ms = c(5, 8, 20, 50, 125))

write_usl_sweep <- function(runs_dir, sweep_id = "sweep-1", points = USL_FIXTURE_POINTS, repeats = numeric(),
                            manifest = list(), client_bound = numeric()) {
  plan <- rbind(points, points[threads %in% repeats])
  ids <- sprintf("run-%d", seq_len(nrow(plan)))
  for (k in seq_len(nrow(plan))) {
    bound <- plan$threads[k] %in% client_bound && k <= nrow(points)
    write_closed_loop_run(file.path(runs_dir, ids[k]), threads = plan$threads[k],
                          latency_ms = rep(if (bound) plan$latency_ms[k] - 3 else plan$latency_ms[k], 15),
                          gap_ms = if (bound) 3 else 0,
                          manifest = utils::modifyList(list(extra = list(sweep_id = sweep_id)), manifest))
  }
  write_sweep(runs_dir, sweep_id, ids)
}

# A sweep folder of a published study (sweep.json + the project's reference CSV), for study-*.R tests.
write_study_sweep <- function(scenario, scale = "tiny") {
  sweep <- tempfile("sweep-")
  dir.create(file.path(sweep, "scenarios", "reference"), recursive = TRUE)
  file.copy(file.path(r_analysis_dir, "..", "scenarios", "reference", paste0(scenario, ".csv")),
            file.path(sweep, "scenarios", "reference"))
  jsonlite::write_json(list(sweep_id = basename(sweep), scenario = scenario, scale = scale,
                            scenario_file = file.path(sweep, "scenarios", paste0(scenario, ".properties")), runs = list()),
                       file.path(sweep, "sweep.json"), auto_unbox = TRUE)
  sweep
}

# hbase/server-metrics.csv for write_closed_loop_run's 15 s run (test-server.R, test-repeat-drift.R).
SERVER_T0 <- 1763712000000

SERVER_CSV_HEADER <- c("time_ms", "server", "role", "status", "handlers", SERVER_METRIC_COLUMNS)

# One row per second k = 0..14 at t0 + 500 + 1000 k for the region server; the master never answers.
write_server_csv <- function(dir, active, queue, queue_p99 = rep(3, 15), blocked = rep(0, 15), gc = rep(0, 15), master = TRUE,
                             regions = rep(4, 15), cpu = rep(NA_real_, 15), load = rep(NA_real_, 15)) {
  n <- length(active)
  rs <- data.table(time_ms = SERVER_T0 + 500 + 1000 * (seq_len(n) - 1), server = "127.0.0.1:16030", role = "regionserver", status = "ok",
                   handlers = 30, rpc_queue_calls = queue, rpc_queue_bytes = 100 * queue, rpc_queue_time_mean_ms = 1,
                   rpc_queue_time_p99_ms = queue_p99, rpc_process_time_mean_ms = 2, rpc_process_time_p99_ms = 9,
                   handlers_active = active, read_requests_per_s = 4000, write_requests_per_s = 1000, memstore_mb = 12.5,
                   flush_queue = 0, compaction_queue = 0, block_cache_hit_ratio = 0.99, store_files = 8,
                   updates_blocked_ms_per_s = blocked, blocked_requests_per_s = 0, gc_pause_ms_per_s = gc, regions = regions,
                   process_cpu_pct = cpu, host_load1 = load)
  out <- if (master) {
    m <- data.table(time_ms = rs$time_ms + 3, server = "127.0.0.1:16010", role = "master",
                    status = "no answer: ConnectException: Connection refused")
    rbind(rs, m, fill = TRUE)
  } else rs
  dir.create(file.path(dir, "hbase"), recursive = TRUE, showWarnings = FALSE)
  fwrite(out[order(time_ms)][, SERVER_CSV_HEADER, with = FALSE], file.path(dir, "hbase", "server-metrics.csv"))
  invisible(out)
}
