#!/usr/bin/env Rscript
# peers.R - the results of `./suite bench peers` (bench/peers.sh) from its folder.
#   Rscript peers.R BENCH_DIR [--out PREFIX] [--command TEXT]
#       reads BENCH_DIR/rounds.csv, writes PREFIX.md (the table, the targets, where the suite's
#       CPU went) and PREFIX.csv (one row per measured run); prints the markdown.
#       Exit 0 when every target is met, 99 when one is missed, 1 on bad input.
#   Rscript peers.R --pe-rate PE_LOG
#       prints a PE run's operations per second (the bench calibrates its row counts with it).
#   Rscript peers.R --window RUN_DIR WARM_S SPAN_S
#       prints "IN_WINDOW ERRORS ALL" of the data logs below RUN_DIR: requests started from the first
#       start + WARM_S and ended within SPAN_S after it, the Errors column summed, every request
#       (./suite bench injector's measured window).
#   Rscript peers.R --injector RESULTS_CSV MIN_RATIO
#       prints ./suite bench injector's medians (throughput, client CPU per request) and Grinder's
#       ratio to plain Java over its rounds; exit 1 when the ratio is below MIN_RATIO.

# The code is the package hbasegrinder (R/peers.R, R/cli.R), installed by ./suite setup.
script_dir <- local({
  file_arg <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
  if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
})
source(file.path(script_dir, "install.R"))
suppressPackageStartupMessages(use_hbasegrinder("peers.R", script_dir))
quit(save = "no", status = hbasegrinder::peers_cli(commandArgs(trailingOnly = TRUE)))
