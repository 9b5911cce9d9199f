# compare.R - several runs' summaries -> side-by-side table, deltas and ratios against
# the first run, scaling table with the knee, direct against thrift.

COMPARE_METRICS <- c(mean = "mean_ms", p90 = "p90_ms", p99 = "p99_ms", throughput = "throughput_rps",
                     witness_mean = "witness_mean_ms", witness_p90 = "witness_p90_ms", witness_p99 = "witness_p99_ms")

# One row per run and test (total included), in run order.
stack_summaries <- function(analyses) {
  data.table::rbindlist(lapply(seq_along(analyses), function(k) {
    a <- analyses[[k]]
    a$summary[, `:=`(run = a$run_id, run_order = k, target = a$target, sweep_id = a$sweep_id)]
  }), use.names = TRUE, fill = TRUE)
}

# Deltas (run - baseline) and ratios (run / baseline) of each metric, baseline = first run.
add_deltas <- function(stacked) {
  out <- data.table::copy(stacked)
  baseline_run <- out$run[out$run_order == min(out$run_order)][1]
  base <- out[run == baseline_run, c("test", unname(COMPARE_METRICS)), with = FALSE]
  data.table::setnames(base, unname(COMPARE_METRICS), paste0("base_", names(COMPARE_METRICS)))
  out <- merge(out, base, by = "test", all.x = TRUE, sort = FALSE)
  for (k in seq_along(COMPARE_METRICS)) {
    col <- COMPARE_METRICS[[k]]
    b <- out[[paste0("base_", names(COMPARE_METRICS)[k])]]
    out[, paste0("delta_", col) := get(col) - b]
    out[, paste0("ratio_", names(COMPARE_METRICS)[k]) := data.table::fifelse(b != 0, get(col) / b, NA_real_)]
  }
  out[, (paste0("base_", names(COMPARE_METRICS))) := NULL]
  data.table::setorder(out, run_order, test_number, na.last = TRUE)
  out[, baseline := baseline_run]
  out[]
}

# Kleinrock's optimal operating point: the run maximising throughput / mean latency.
knee_index <- function(throughput_rps, mean_latency_ms) {
  power <- throughput_rps / mean_latency_ms
  if (all(is.na(power))) return(NA_integer_)
  which.max(power)
}

# Per test, a latency that is precise in every run: the witness when Grinder is too
# coarse in any run and every run has a witness; else Grinder's time.
comparison_display <- function(stacked) {
  stacked[, .(metric = if (any(grinder_coarse %in% TRUE) && all(witness_count > 0)) "witness" else "grinder"),
          by = test]
}

scaling_table <- function(stacked) {
  display <- comparison_display(stacked)
  s <- merge(stacked, display, by = "test")
  s[, `:=`(mean_display_ms = data.table::fifelse(metric == "witness", witness_mean_ms, mean_ms),
           p90_display_ms = data.table::fifelse(metric == "witness", witness_p90_ms, p90_ms))]
  data.table::setorder(s, test_number, threads, na.last = TRUE)
  s[, knee := seq_len(.N) == knee_index(throughput_rps, mean_display_ms), by = .(test, target)]
  s[, test := paste0(test, " (", metric, ")")]
  s[]
}

# Pairs of rows with the same test and thread count, one direct and one thrift.
direct_vs_thrift <- function(stacked) {
  if (!all(c("direct", "thrift") %in% stacked$target)) return(NULL)
  pick <- function(target_name) {
    stacked[target == target_name, .SD[1], by = .(test, threads),
            .SDcols = c("run", "mean_ms", "p90_ms", "p99_ms", "witness_mean_ms", "witness_p90_ms", "throughput_rps")]
  }
  pairs <- merge(pick("direct"), pick("thrift"), by = c("test", "threads"), suffixes = c("_direct", "_thrift"))
  if (nrow(pairs) == 0) return(NULL)
  pairs[, `:=`(mean_ratio = mean_ms_thrift / mean_ms_direct,
               witness_mean_ratio = witness_mean_ms_thrift / witness_mean_ms_direct,
               throughput_ratio = throughput_rps_thrift / throughput_rps_direct)]
  pairs[]
}

# Percentile curves of all runs, per test in the comparison's display latency.
comparison_curves <- function(analyses, display) {
  data.table::rbindlist(lapply(analyses, function(a) {
    curves <- a$curves[display, on = c("test", latency = "metric"), nomatch = NULL]
    curves[, `:=`(run = a$run_id, target = if (is.na(a$target)) "unknown" else a$target,
                  test = paste0(test, " (", latency, ")"))]
  }), use.names = TRUE)
}
