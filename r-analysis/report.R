#!/usr/bin/env Rscript
# report.R - Grinder data logs of a run -> capacity-planning report.
#   Rscript report.R run-42                  one run: <run>/report/index.html, summary.csv, *.png
#   Rscript report.R run-41 run-42 | sweep-3 comparison (runs/compare-.../report or <sweep>/report)
# Options: --warmup SECONDS (default: detected), --slo GATES, --baseline RUN, --out DIR, --quiet, --help.
# Exit 0 when a report was written; 99 when it was written and an SLO gate failed; 1 with
# "report.R: <reason>" on stderr when nothing valid exists or an option's value is bad; 2 for an
# unknown option or one without its value.

local({
  args <- commandArgs(trailingOnly = FALSE)
  file_arg <- sub("^--file=", "", args[grepl("^--file=", args)])
  script_dir <- if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
  assign("REPORT_SCRIPT_DIR", script_dir, envir = globalenv())
})

suppressPackageStartupMessages({
  library(data.table)
  library(ggplot2)
})
# data.table uses half the cores by default; a report run owns the machine.
if (!nzchar(Sys.getenv("R_DATATABLE_NUM_THREADS"))) setDTthreads(0)
# R's JIT byte-compiles each function at its first call, and most of these run once while their
# work is done in data.table's C: the compiling cost 3-4 s of CPU on 10M requests (a fifth of the
# report), more than interpreting them. A package is compiled once, when it is installed.
invisible(compiler::enableJIT(0))

for (source_file in sort(list.files(file.path(REPORT_SCRIPT_DIR, "R"), pattern = "\\.R$", full.names = TRUE))) {
  source(source_file)
}

exit_status <- tryCatch({
  main(commandArgs(trailingOnly = TRUE))
}, usage_error = function(e) {
  message("report.R: ", one_line(conditionMessage(e)))
  2L
}, report_error = function(e) {
  message("report.R: ", one_line(conditionMessage(e)))
  1L
}, error = function(e) {
  message("report.R: internal error: ", one_line(conditionMessage(e)))
  1L
})
quit(save = "no", status = exit_status)
