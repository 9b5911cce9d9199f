#!/usr/bin/env Rscript
# The summary of ./suite bench warm (bench/warm.sh): rows.csv, a row per point of every sweep.
# Per mode and point: medians over the rounds (with their range) of the worker JVM's JIT CPU over
# the run, its time to steady state, its throughput in the measured window and CPU per request;
# per mode: the sweep's wall time and its share outside the load. Then warm against fresh, and
# the issue's targets: a warm point's JIT at most a tenth of its sweep's first point's (median
# of the rounds), time to steady state at most 5 s.
suppressPackageStartupMessages(library(data.table))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1 || !file.exists(args[1])) {
  stop("usage: Rscript bench/warm-summary.R ROWS_CSV (bench/warm.sh writes it)", call. = FALSE)
}
rows <- fread(args[1], na.strings = "NA")
rows[, throughput := window_requests / window_s]

spread <- function(x, digits = 2) {
  x <- x[!is.na(x)]
  if (!length(x)) return("NA")
  sprintf("%s (%s-%s)", format(round(median(x), digits), nsmall = digits),
          format(round(min(x), digits), nsmall = digits), format(round(max(x), digits), nsmall = digits))
}

# each point's JIT against its own sweep's first point
rows[, jit_vs_first := worker_jit_s / worker_jit_s[point == 1], by = .(round, mode)]

cat(sprintf("%d round(s); medians over the rounds, (min-max)\n\n", uniqueN(rows$round)))
per_point <- rows[, .(workload = workload[1], jit_s = spread(worker_jit_s), jit_vs_first = spread(jit_vs_first),
                      steady_s = spread(time_to_steady_s, 0), throughput = spread(throughput, 0),
                      us_per_request = spread(worker_us_per_request, 0)), by = .(mode, point)]
print(per_point, row.names = FALSE)

sweeps <- unique(rows[, .(round, mode, sweep_wall_s, sweep_outside_load_share)])
cat("\nper sweep:\n")
print(sweeps[, .(wall_s = spread(sweep_wall_s, 0), outside_load = spread(100 * sweep_outside_load_share, 0)), by = mode],
      row.names = FALSE)

# warm / fresh, point by point and round by round, then medians
paired <- merge(rows[mode == "warm"], rows[mode == "fresh"], by = c("round", "point"), suffixes = c(".warm", ".fresh"))
paired[, `:=`(jit = worker_jit_s.warm / worker_jit_s.fresh, tput = throughput.warm / throughput.fresh,
              cpu = worker_us_per_request.warm / worker_us_per_request.fresh)]
cat("\nwarm / fresh, points after the first (per round and point):\n")
later <- paired[point > 1]
cat(sprintf("  worker JIT CPU x%s; throughput x%s; worker CPU per request x%s\n",
            spread(later$jit), spread(later$tput), spread(later$cpu)))
wall <- merge(sweeps[mode == "warm"], sweeps[mode == "fresh"], by = "round")
cat(sprintf("  sweep wall time x%s\n", spread(wall$sweep_wall_s.x / wall$sweep_wall_s.y)))

warm_later <- rows[mode == "warm" & point > 1]
jit_target <- median(warm_later$jit_vs_first, na.rm = TRUE) <= 0.1
steady <- median(rows[mode == "warm"]$time_to_steady_s, na.rm = TRUE)
cat(sprintf("\ntarget: a warm point's JIT <= 0.1 of its sweep's first: %s (median %.2f)\n",
            if (jit_target) "met" else "MISSED", median(warm_later$jit_vs_first, na.rm = TRUE)))
cat(sprintf("target: time to steady state <= 5 s (warm, median of the points): %s (%s s)\n",
            if (!is.na(steady) && steady <= 5) "met" else "MISSED", format(steady)))
