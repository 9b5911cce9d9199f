#!/usr/bin/env Rscript
# The tables of ./suite bench scale (bench/scale.sh), from its sweep's run folders: one row per run
# and injector host into SWEEP_DIR/bench-scale.csv (the console's statistics, the console's CPU and
# peak memory, the host's agent, from injectors/HOST/agent.pid, and that agent's workers, the
# processes whose parent it is, from each run's cpu.json), then the throughput and resources tables.
# Operations with ';' for ',' (get:70;put:30), so every field is plain CSV.
# Exit 1 when no run of the sweep completed.
suppressPackageStartupMessages({
  library(data.table)
  library(jsonlite)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1 || !file.exists(file.path(args[1], "sweep.json"))) {
  stop("usage: Rscript bench/scale-summary.R SWEEP_DIR (a sweep folder with its sweep.json)", call. = FALSE)
}
sweep_dir <- normalizePath(args[1])
`%||%` <- function(a, b) if (is.null(a)) b else a  # base R's from 4.4, the same meaning
read_json_or_null <- function(path) if (file.exists(path)) tryCatch(fromJSON(path, simplifyVector = FALSE), error = function(e) NULL)

# The console's statistics.csv summed over its tests: requests (with errors), errors, TPS, mean.
console_totals <- function(run_dir) {
  path <- file.path(run_dir, "console", "statistics.csv")
  stats <- if (file.exists(path)) tryCatch(fread(path), error = function(e) NULL)
  if (is.null(stats) || !nrow(stats)) return(list(requests = 0, errors = 0, tps = 0, mean_ms = NA_real_))
  list(requests = sum(stats$count + stats$errors), errors = sum(stats$errors), tps = round(sum(stats$tps)),
       mean_ms = if (sum(stats$count) > 0) round(sum(stats$count * stats$mean_ms) / sum(stats$count), 2) else NA_real_)
}

# CPU seconds (0.1 s) and summed peak MB of the processes of a role matching keep().
role_use <- function(cpu, role, keep = function(p) TRUE) {
  if (is.null(cpu)) return(c(NA, NA))
  procs <- Filter(function(p) !is.null(p$pid) && keep(p), cpu$roles[[role]]$processes)
  c(round(sum(vapply(procs, function(p) p$cpu_s %||% 0, 0)), 1),
    round(sum(vapply(procs, function(p) p$rss_peak_mb %||% 0, 0))))
}

host_rows <- function(run_dir) {
  plan <- read_json_or_null(file.path(run_dir, "plan.json"))
  manifest <- read_json_or_null(file.path(run_dir, "manifest.json"))
  cpu <- read_json_or_null(file.path(run_dir, "cpu.json"))
  totals <- console_totals(run_dir)
  hosts <- basename(list.dirs(file.path(run_dir, "injectors"), recursive = FALSE))
  if (!length(hosts)) hosts <- NA_character_   # a run that failed before its hosts: still a row
  console <- role_use(cpu, "console")
  rbindlist(lapply(hosts, function(host) {
    pid_file <- file.path(run_dir, "injectors", host, "agent.pid")
    agent <- if (file.exists(pid_file)) as.integer(readLines(pid_file, n = 1, warn = FALSE)) else NA_integer_
    agent_use <- role_use(cpu, "agent", function(p) identical(as.integer(p$pid), agent))
    workers <- role_use(cpu, "worker", function(p) identical(as.integer(p$ppid %||% NA), agent))
    data.table(run = basename(run_dir), threads = plan$threads_total %||% NA,
               operations = gsub(",", ";", plan$properties[["hbaseload.operations"]] %||% ""),
               status = manifest$status %||% "unknown", requests = totals$requests, errors = totals$errors,
               tps = totals$tps, mean_ms = totals$mean_ms, console_cpu_s = console[1], console_rss_mb = console[2],
               host = host, agent_cpu_s = agent_use[1], agent_rss_mb = agent_use[2],
               workers_cpu_s = workers[1], workers_rss_mb = workers[2])
  }))
}

options(width = 200)
sweep <- fromJSON(file.path(sweep_dir, "sweep.json"))
rows <- rbindlist(lapply(file.path(dirname(sweep_dir), unlist(sweep$runs)), host_rows))
fwrite(rows, file.path(sweep_dir, "bench-scale.csv"), na = "NA", quote = FALSE)

if (nrow(rows)) {
  cat("throughput (the console's, over every injector)\n")
  print(unique(rows[, .(run, threads, operations, status, requests, errors, tps, mean_ms)]), row.names = FALSE)
  cat("\nresources (CPU seconds over the run, peak RSS MB; workers = the worker JVMs of that agent)\n")
  print(rows[, .(run, host, console_cpu_s, console_rss_mb, agent_cpu_s, agent_rss_mb, workers_cpu_s, workers_rss_mb)],
        row.names = FALSE)
}
runs <- unique(rows[, .(run, status)])
completed <- sum(runs$status == "complete")
cat(sprintf("\n%d of %d runs complete (%s)\n", completed, length(unlist(sweep$runs)), file.path(sweep_dir, "bench-scale.csv")))
if (completed == 0) quit(status = 1)
