#!/usr/bin/env Rscript
# report.R - Grinder data logs of a run -> capacity-planning report.
#   Rscript report.R run-42                  one run: <run>/report/index.html, summary.csv, *.png
#   Rscript report.R run-41 run-42 | sweep-3 comparison (runs/compare-.../report or <sweep>/report)
# Options: --warmup SECONDS (default: detected), --slo GATES, --baseline RUN, --out DIR, --quiet, --table,
# --no-plots, --help.
# Exit 0 when a report was written; 99 when it was written and an SLO gate failed; 1 with
# "report.R: <reason>" on stderr when nothing valid exists or an option's value is bad; 2 for an
# unknown option or one without its value.

# The report's code is the package hbasegrinder (R/ here), installed in the project's own library
# by ./suite setup; install.R reinstalls it first when R/ changed since.
script_dir <- local({
  file_arg <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
  if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
})
source(file.path(script_dir, "install.R"))
suppressPackageStartupMessages(use_hbasegrinder("report.R", script_dir))

# data.table uses half the cores by default; a report run owns the machine.
if (!nzchar(Sys.getenv("R_DATATABLE_NUM_THREADS"))) data.table::setDTthreads(0)
# R's JIT byte-compiles each function at its first call, and most of these run once while their
# work is done in data.table's C: the compiling cost 3-4 s of CPU on 10M requests (a fifth of the
# report), more than interpreting them. The package was compiled once, when it was installed.
invisible(compiler::enableJIT(0))

quit(save = "no", status = hbasegrinder::report_cli(commandArgs(trailingOnly = TRUE), repo_root = dirname(script_dir)))
