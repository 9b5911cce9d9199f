# compare.R - several runs' summaries -> like-with-like comparisons: each run against a baseline
# of the same workload (or one differing in a single comparable dimension, named), repeats of one
# workload summarised as min / median / max, contrasts between workload groups (thrift / direct,
# 16 / 8 threads) judged against the spread of their repeats, the scaling table and the knee.

COMPARE_METRICS <- c(mean = "mean_ms", p50 = "p50_ms", p90 = "p90_ms", p95 = "p95_ms", p99 = "p99_ms",
                     throughput = "throughput_rps", witness_mean = "witness_mean_ms", witness_p50 = "witness_p50_ms",
                     witness_p90 = "witness_p90_ms", witness_p95 = "witness_p95_ms", witness_p99 = "witness_p99_ms")

# A knee needs a curve: with fewer thread counts, "the best throughput / latency" is just a point.
KNEE_MIN_POINTS <- 3

# One row per run: order, workload dimensions, label, workload group (identical workload =
# same group), the group's label, and the run's verdict.
comparison_runs <- function(analyses) {
  workloads <- data.table::rbindlist(lapply(analyses, `[[`, "workload"), use.names = TRUE, fill = TRUE)
  runs <- cbind(data.table::data.table(run = vapply(analyses, `[[`, "", "run_id"), run_order = seq_along(analyses)),
                workloads)
  runs[, label := run_labels(run, workloads)]
  runs[, group := match(workload_key(workloads), unique(workload_key(workloads)))]
  runs[, group_label := sub("^[^:]*: ", "", label)]
  runs[, scaling_key := workload_key(workloads, without = "threads")]
  runs[, scaling_label := sub(", [^,]*threads( not recorded)?", "", group_label)]
  # the same over region servers: what the runs of one workload on several cluster sizes share
  runs[, servers_key := workload_key(workloads, without = c("threads", "region_servers"))]
  runs[, servers_label := sub(", region servers [^,]*", "", scaling_label)]
  runs[, paced := vapply(analyses, function(a) isTRUE(a$pacing), NA)]
  runs[, verdict := vapply(analyses, function(a) a$verdict$kind, "")]
  runs[, disqualifies := vapply(analyses, function(a) paste(a$verdict$disqualifies, collapse = ","), "")]
  runs[]
}

# One row per run and test (total included), in run order, with the run's label and group.
stack_summaries <- function(analyses, runs = NULL) {
  stacked <- data.table::rbindlist(lapply(seq_along(analyses), function(k) {
    a <- analyses[[k]]
    a$summary[, `:=`(run = a$run_id, run_order = k, target = a$target, sweep_id = a$sweep_id)]
  }), use.names = TRUE, fill = TRUE)
  if (!is.null(runs)) stacked[runs, on = "run", `:=`(label = i.label, group = i.group, group_label = i.group_label,
                                                      verdict = i.verdict, verdict_disqualifies = i.disqualifies)]
  stacked[]
}

# Each run's baseline: the --baseline run (default: the first) when its workload is alike (the
# same, or one comparable dimension apart), else the first earlier run of the same workload, else
# the first earlier run one comparable dimension apart; none when nothing is alike, and the
# relation says why. Returns data.table(run, baseline, relation).
like_baselines <- function(runs, baseline = NA_character_) {
  base_run <- if (is.na(baseline)) runs$run[1] else baseline
  if (!base_run %in% runs$run) stop_report("--baseline ", base_run, " is not among the runs compared (", paste(runs$run, collapse = ", "), ")")
  workload <- function(id) runs[run == id]
  data.table::rbindlist(lapply(seq_len(nrow(runs)), function(i) {
    me <- runs[i]
    if (me$run == base_run) return(data.table::data.table(run = me$run, baseline = me$run, relation = "baseline"))
    candidates <- unique(c(base_run, runs[run_order < me$run_order & run != base_run, run]))
    diffs <- lapply(candidates, function(c) workload_differences(workload(c), me))
    alike <- vapply(diffs, function(d) comparable_workloads(NULL, NULL, d), NA)
    same <- which(lengths(diffs) == 0)
    pick <- if (alike[1] && length(diffs[[1]]) == 0) 1L else if (length(same) > 0) same[1] else if (any(alike)) which(alike)[1] else NA_integer_
    if (is.na(pick)) {
      return(data.table::data.table(run = me$run, baseline = NA_character_,
                                    relation = paste0("not compared: no alike run; against ", base_run, ": ",
                                                      describe_differences(workload(base_run), me, diffs[[1]]))))
    }
    chosen <- candidates[[pick]]
    data.table::data.table(run = me$run, baseline = chosen,
                           relation = if (length(diffs[[pick]]) == 0) paste("same workload as", chosen)
                                      else describe_differences(workload(chosen), me, diffs[[pick]]))
  }))
}

# Deltas (run - baseline) and ratios (run / baseline) of each metric, test by test. baselines:
# like_baselines(); without it every run is set against the first run.
add_deltas <- function(stacked, baselines = NULL) {
  out <- data.table::copy(stacked)
  if (is.null(baselines)) {
    first <- out$run[out$run_order == min(out$run_order)][1]
    baselines <- data.table::data.table(run = unique(out$run), baseline = first, relation = NA_character_)
  }
  out[baselines, on = "run", `:=`(baseline = i.baseline, baseline_relation = i.relation)]
  metrics <- intersect(unname(COMPARE_METRICS), names(out))
  short <- names(COMPARE_METRICS)[match(metrics, COMPARE_METRICS)]
  base <- out[, c("run", "test", metrics), with = FALSE]
  data.table::setnames(base, c("baseline", "test", paste0("base_", short)))
  out <- merge(out, base, by = c("baseline", "test"), all.x = TRUE, sort = FALSE)
  for (k in seq_along(metrics)) {
    b <- out[[paste0("base_", short[k])]]
    out[, paste0("delta_", metrics[k]) := get(metrics[k]) - b]
    out[, paste0("ratio_", short[k]) := data.table::fifelse(b != 0, get(metrics[k]) / b, NA_real_)]
  }
  out[, (paste0("base_", short)) := NULL]
  data.table::setorder(out, run_order, test_number, na.last = TRUE)
  data.table::setcolorder(out, setdiff(names(out), c("baseline", "baseline_relation")))
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

# The stacked rows with mean / p90 / p99 in each test's display latency.
with_display_latency <- function(stacked) {
  s <- merge(stacked, comparison_display(stacked), by = "test")
  s[, `:=`(mean_display_ms = data.table::fifelse(metric == "witness", witness_mean_ms, mean_ms),
           p90_display_ms = data.table::fifelse(metric == "witness", witness_p90_ms, p90_ms),
           p99_display_ms = data.table::fifelse(metric == "witness", witness_p99_ms, p99_ms))]
  s[]
}

# Per workload group and test: its runs and min / median / max of throughput, mean and p99 (display latency).
group_stats <- function(stacked, runs) {
  s <- with_display_latency(stacked)
  s[runs, on = "run", group := i.group]
  g <- s[, .(runs = paste(run, collapse = ", "), n_runs = .N, first_order = min(run_order), threads = threads[1],
             metric = metric[1],
             throughput_min = min(throughput_rps), throughput_median = stats::median(throughput_rps), throughput_max = max(throughput_rps),
             mean_min = min(mean_display_ms), mean_median = stats::median(mean_display_ms), mean_max = max(mean_display_ms),
             p90_median = stats::median(p90_display_ms),
             p99_min = min(p99_display_ms), p99_median = stats::median(p99_display_ms), p99_max = max(p99_display_ms)),
         by = .(group, test, test_number)]
  meta <- unique(runs[, list(group, group_label, scaling_key, scaling_label, target)])
  g[meta, on = "group",
    `:=`(group_label = i.group_label, scaling_key = i.scaling_key, scaling_label = i.scaling_label, target = i.target)]
  data.table::setorder(g, first_order, test_number, na.last = TRUE)
  g[]
}

# Whether a difference between two groups is larger than the spread of their repeats: their
# min..max ranges do not overlap. Without repeats on both sides the spread is unknown.
spread_verdict <- function(a_min, a_max, a_n, b_min, b_max, b_n) {
  data.table::fifelse(a_n < 2 | b_n < 2, "spread unknown (no repeats)",
                      data.table::fifelse(a_max < b_min | b_max < a_min, "larger than the spread", "within the spread"))
}

# Order of two values of one dimension for a ratio's direction: direct before thrift, numbers ascending.
direction_order <- function(dim, a, b) {
  if (dim == "target") return(if (identical(a, "thrift") && identical(b, "direct")) -1 else 1)
  na <- suppressWarnings(as.numeric(a))
  nb <- suppressWarnings(as.numeric(b))
  if (!is.na(na) && !is.na(nb)) return(if (nb >= na) 1 else -1)
  if (is.na(a) || (!is.na(b) && b >= a)) 1 else -1
}

threads_label <- function(n) if (identical(n, "1")) "1 thread" else paste(n, "threads")

direction_label <- function(dim, numerator, denominator) {
  shown <- function(x) if (is.na(x)) "not recorded" else if (!nzchar(x)) "none" else x
  switch(dim,
         target = sprintf("%s / %s", shown(numerator), shown(denominator)),
         threads = sprintf("%s / %s", threads_label(shown(numerator)), threads_label(shown(denominator))),
         sprintf("%s %s / %s", gsub("_", " ", dim), shown(numerator), shown(denominator)))
}

# Contrasts between workload groups one comparable dimension apart, per test present in both:
# ratios of medians (numerator / denominator, direction named) and the spread verdict.
group_contrasts <- function(gstats, runs) {
  groups <- unique(runs, by = "group")
  pairs <- list()
  for (i in seq_len(nrow(groups))) for (j in seq_len(nrow(groups))) {
    if (j <= i) next
    a <- groups[i]
    b <- groups[j]
    dims <- workload_differences(a, b)
    if (length(dims) != 1 || !dims %in% COMPARABLE_DIFFERENCES) next
    if (direction_order(dims, a[[dims]], b[[dims]]) < 0) {
      swap <- a
      a <- b
      b <- swap
    }
    pairs[[length(pairs) + 1]] <- data.table::data.table(
      dimension = dims, direction = direction_label(dims, b[[dims]], a[[dims]]),
      group_den = a$group, group_num = b$group,
      order_note = if (max(runs[group == a$group, run_order]) < min(runs[group == b$group, run_order])) "denominator ran first"
                   else if (max(runs[group == b$group, run_order]) < min(runs[group == a$group, run_order])) "numerator ran first"
                   else "interleaved")
  }
  if (length(pairs) == 0) return(NULL)
  pairs <- data.table::rbindlist(pairs)
  den <- gstats[, .(group_den = group, test, workload_den = group_label, runs_den = runs, n_den = n_runs,
                    tput_den = throughput_median, tput_den_min = throughput_min, tput_den_max = throughput_max,
                    mean_den = mean_median, mean_den_min = mean_min, mean_den_max = mean_max, p99_den = p99_median, metric)]
  num <- gstats[, .(group_num = group, test, workload_num = group_label, runs_num = runs, n_num = n_runs,
                    tput_num = throughput_median, tput_num_min = throughput_min, tput_num_max = throughput_max,
                    mean_num = mean_median, mean_num_min = mean_min, mean_num_max = mean_max, p99_num = p99_median)]
  out <- merge(merge(pairs, den, by = "group_den", allow.cartesian = TRUE), num, by = c("group_num", "test"))
  out[, `:=`(throughput_ratio = tput_num / tput_den, mean_ratio = mean_num / mean_den, p99_ratio = p99_num / p99_den,
             throughput_spread = spread_verdict(tput_den_min, tput_den_max, n_den, tput_num_min, tput_num_max, n_num),
             mean_spread = spread_verdict(mean_den_min, mean_den_max, n_den, mean_num_min, mean_num_max, n_num))]
  out[, test_order := data.table::fifelse(test == "total", 2L, 1L)]
  data.table::setorder(out, dimension, group_den, group_num, test_order, test)
  out[, test_order := NULL]
  out[]
}

# Per workload (all dimensions but threads) and test with two or more thread counts: the medians
# per thread count; the knee (highest throughput / mean latency) only with KNEE_MIN_POINTS or more.
scaling_table <- function(gstats) {
  s <- data.table::copy(gstats)
  s[, n_threads := data.table::uniqueN(threads), by = .(scaling_key, test)]
  s <- s[n_threads >= 2 & !is.na(threads)]
  if (nrow(s) == 0) return(s)
  data.table::setorder(s, scaling_key, test_number, threads, na.last = TRUE)
  s[, knee := .N >= KNEE_MIN_POINTS & seq_len(.N) == knee_index(throughput_median, mean_median), by = .(scaling_key, test)]
  s[, series := paste0(scaling_label, ": ", test, " (", metric, ")")]
  s[]
}

# Percentile curves of all runs, per test in the comparison's display latency, named by run label.
comparison_curves <- function(analyses, display, runs) {
  data.table::rbindlist(lapply(analyses, function(a) {
    curves <- a$curves[display, on = c("test", latency = "metric"), nomatch = NULL]
    curves[, `:=`(run = a$run_id, label = runs[run == a$run_id, label], target = if (is.na(a$target)) "unknown" else a$target,
                  test = paste0(test, " (", latency, ")"))]
  }), use.names = TRUE)
}
