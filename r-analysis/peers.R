#!/usr/bin/env Rscript
# peers.R - the results of `./suite bench peers` (bench/peers.sh) from its folder.
#   Rscript peers.R BENCH_DIR [--out PREFIX] [--command TEXT]
#       reads BENCH_DIR/rounds.csv, writes PREFIX.md (the table, the targets, where the suite's
#       CPU went) and PREFIX.csv (one row per measured run); prints the markdown.
#       Exit 0 when every target is met, 99 when one is missed, 1 on bad input.
#   Rscript peers.R --pe-rate PE_LOG
#       prints a PE run's operations per second (the bench calibrates its row counts with it).

local({
  args <- commandArgs(trailingOnly = FALSE)
  file_arg <- sub("^--file=", "", args[grepl("^--file=", args)])
  assign("REPORT_SCRIPT_DIR", if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd(), envir = globalenv())
})
suppressPackageStartupMessages(library(data.table))
for (source_file in sort(list.files(file.path(REPORT_SCRIPT_DIR, "R"), pattern = "\\.R$", full.names = TRUE))) {
  source(source_file)
}

peers_main <- function(args) {
  usage <- "usage: Rscript peers.R BENCH_DIR [--out PREFIX] [--command TEXT] | --pe-rate PE_LOG"
  if (length(args) == 0 || args[1] %in% c("-h", "--help")) {
    cat(usage, "\n")
    return(0L)
  }
  if (args[1] == "--pe-rate") {
    if (length(args) != 2) stop_report(usage)
    cat(sprintf("%.1f\n", parse_pe_log(args[2])$throughput_rps))
    return(0L)
  }
  dir <- args[1]
  option <- function(name, default) {
    at <- match(name, args)
    if (is.na(at)) return(default)
    if (at == length(args)) stop_report(name, " needs a value (", usage, ")")
    args[at + 1]
  }
  known <- c("--out", "--command")
  unknown <- setdiff(args[-1][startsWith(args[-1], "--")], known)
  if (length(unknown) > 0) stop_report("unknown option ", unknown[1], " (", usage, ")")
  prefix <- option("--out", file.path(dir, "peers"))
  command <- option("--command", "./suite bench peers")
  index_file <- file.path(dir, "rounds.csv")
  if (!file.exists(index_file)) stop_report("no rounds.csv in ", dir, " (not a bench-peers folder?)")
  index <- data.table::fread(index_file, colClasses = c(ref = "character", cpu_file = "character"))
  if (nrow(index) == 0) stop_report(index_file, " lists no run")
  set_progress(quiet = TRUE)
  rounds <- peers_rounds(index)
  summary <- peers_summary(rounds)
  targets <- peers_targets(summary)
  measured <- format(file.mtime(index_file), "%Y-%m-%d %H:%M UTC", tz = "UTC")
  md <- peers_markdown(summary, targets, peers_cpu_breakdown(rounds), rounds, command, when = measured)
  data.table::fwrite(rounds, paste0(prefix, ".csv"))
  writeLines(md, paste0(prefix, ".md"))
  writeLines(md)
  message(sprintf("peers.R: wrote %s.md and %s.csv", prefix, prefix))
  if (all(targets$met %in% TRUE)) 0L else 99L
}

status <- tryCatch(peers_main(commandArgs(trailingOnly = TRUE)),
  report_error = function(e) { message("peers.R: ", one_line(conditionMessage(e))); 1L },
  error = function(e) { message("peers.R: internal error: ", one_line(conditionMessage(e))); 1L })
quit(save = "no", status = status)
