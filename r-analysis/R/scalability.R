# scalability.R - the capacity model of a comparison or sweep: the Universal Scalability Law
# (usl.R) fitted per workload and target to total throughput against concurrent clients (threads
# over all injectors), and, when runs record their cluster size (hbaseload.region.servers), against
# region servers; the sentence each fit earns, whether the verdicts grey it, what it predicts under
# the --slo gates (the largest N meeting a mean-latency gate; the servers a throughput gate needs).

# What the model is fitted over, and the words its sentences use.
USL_OVER <- list(
  threads = list(many = "concurrent clients", few = "clients", counts = "thread counts"),
  region_servers = list(many = "region servers", few = "servers", counts = "cluster sizes")
)

# Gates the model can predict: the mean latency of all tests (Little's law gives a mean of the
# whole cycle, not a percentile, and not one test of a mix).
USL_MEAN_GATE_METRICS <- c("mean_ms", "witness_mean_ms")

# "about 7,900": two significant figures are all a model read off a few runs can claim.
fmt_about <- function(x) fmt_int(signif(x, 2))
# Three significant figures, in plain digits down to 0.001 (sigma, kappa and lambda side by side).
fmt_sig <- function(x, digits = 3) {
  plain <- trimws(formatC(signif(x, digits), digits = digits, format = "fg", big.mark = ","))
  ifelse(is.na(x), "", ifelse(x == 0 | abs(x) >= 1e-3, plain, trimws(formatC(x, digits = digits, format = "g"))))
}
fmt_n <- function(x) ifelse(is.na(x), "", ifelse(is.finite(x), fmt_int(ifelse(is.finite(x), x, NA)), "unbounded"))

# Total throughput of each run, beside its workload: the points of every fit.
run_throughputs <- function(runs, stacked) {
  totals <- stacked[test == "total", .(run, throughput_rps)]
  runs[totals, on = "run", nomatch = NULL]
}

# One point per run of a workload (all dimensions but threads) run at two or more thread counts:
# n = threads, x = total throughput; repeats are points of their own.
usl_thread_points <- function(runs, stacked) {
  p <- run_throughputs(runs, stacked)[!is.na(threads)]
  p[, n := as.numeric(threads)]
  p[, distinct := data.table::uniqueN(n), by = scaling_key]
  p[distinct >= 2, .(model_key = scaling_key, workload = scaling_label, target, run, n, threads = n, throughput_rps,
                     paced, verdict, disqualifies)]
}

# One point per run at the best thread count (highest median throughput) of each cluster size of a
# workload (all dimensions but threads and region servers) run on two or more cluster sizes: a
# cluster's capacity is what its best concurrency gave, so sweep each size past its knee.
usl_server_points <- function(runs, stacked) {
  p <- run_throughputs(runs, stacked)[!is.na(region_servers)]
  if (nrow(p) == 0) return(data.table::data.table())
  p[, n := as.numeric(region_servers)]
  best <- p[, .(median_rps = stats::median(throughput_rps)), by = .(servers_key, n, group)][
    order(-median_rps), .SD[1], by = .(servers_key, n)]
  p <- p[group %in% best$group]
  p[, distinct := data.table::uniqueN(n), by = servers_key]
  p[distinct >= 2, .(model_key = servers_key, workload = servers_label, target, run, n, threads = as.numeric(threads),
                     throughput_rps, paced, verdict, disqualifies)]
}

# The sentence of one model row. over: a USL_OVER entry.
usl_message <- function(m, over) {
  counts <- function() paste(fmt_int(sort(unique(m$measured_n[[1]]))), collapse = ", ")
  if (m$status == USL_STATUS[["too_few"]]) {
    return(sprintf("not fitted: %d distinct %s (%s); the model needs %d or more: only the measured points are drawn",
                   m$distinct_n, over$counts, counts(), USL_MIN_DISTINCT_N))
  }
  if (m$status == USL_STATUS[["paced"]]) {
    return(paste("not fitted: the runs are paced (hbaseload.rate.per.thread), so their throughput follows the pace, not the",
                 "capacity: only the measured points are drawn"))
  }
  if (m$status == USL_STATUS[["no_convergence"]]) {
    return(sprintf("the fit did not converge (%s): only the measured points are drawn", m$reason))
  }
  cost <- function(n) sprintf("%s costs dominate", usl_dominant_cost(n, m$sigma, m$kappa))
  # an extrapolated peak carries its interval: beyond the N measured it is only as good as that
  peak <- function(interval = FALSE) {
    sprintf("near %s %s%s at about %s req/s", fmt_int(m$peak_n), over$many,
            if (interval) sprintf(" (interval %s to %s)", fmt_n(m$peak_n_low), fmt_n(m$peak_n_high)) else "", fmt_about(m$peak_throughput))
  }
  switch(m$peak_position,
    none = if (usl_throughput(m$n_max, m$lambda, m$sigma, m$kappa) >= USL_LINEAR_EFFICIENCY * m$lambda * m$n_max) {
      sprintf("throughput grows almost linearly up to the %s %s measured; no peak within the model", fmt_int(m$n_max), over$many)
    } else {
      sprintf("no peak within the model: throughput levels off towards about %s req/s (lambda / sigma) as %s are added: contention costs dominate",
              fmt_about(m$lambda / m$sigma), over$few)
    },
    inside = sprintf("throughput peaks %s; beyond that, adding %s lowers it: %s", peak(), over$few,
                     if (usl_dominant_cost(m$peak_n, m$sigma, m$kappa) == "coherency") "coherency costs dominate"
                     else "contention costs most, and coherency turns the curve down"),
    above = sprintf("throughput still grows at the %s %s measured (%s there); the model puts its peak %s: an extrapolation",
                    fmt_int(m$n_max), over$many, cost(m$n_max), peak(interval = TRUE)),
    below = sprintf("throughput peaks %s, below the %s to %s measured: an extrapolation; over the measured range adding %s lowers it: %s",
                    peak(interval = TRUE), fmt_int(m$n_min), fmt_int(m$n_max), over$few, cost(m$n_min)))
}

# Fit one workload's points. A paced run's throughput is its pace: no fit.
usl_model <- function(p, over) {
  fit <- if (any(p$paced)) usl_row(p$n, USL_STATUS[["paced"]]) else fit_usl(p$n, p$throughput_rps)
  row <- cbind(data.table::data.table(model_key = p$model_key[1], workload = p$workload[1], target = p$target[1],
                                      runs = paste(p$run, collapse = ", ")), fit)
  row[, measured_n := list(list(p$n))]
  row[, `:=`(peak_position = if (status == USL_STATUS[["fitted"]]) usl_peak_position(peak_n, n_min, n_max) else NA_character_,
             dominant_cost = if (status == USL_STATUS[["fitted"]]) usl_dominant_cost(pmax(pmin(peak_n, n_max), n_min), sigma, kappa)
                             else NA_character_)]
  row[, message := usl_message(row, over)]
  row[, why := usl_why(p)]
  row[, disqualified := nzchar(why)]
  row[]
}

# Greyed with the reason of the verdicts that grey the points' throughput: a model of the
# injector's limit (or of a window too short to plan on) is not HBase's.
usl_why <- function(p) {
  drawn <- unique(p[, .(run, verdict, disqualifies)])
  why <- throughput_disqualified_why(drawn)
  if (!nzchar(why)) return("")
  kinds <- intersect(names(DISQUALIFY_WHY), drawn$verdict)
  # a main kind that greys nothing itself (lost writes) has no reason of its own to give
  if (length(kinds) == 0) return(sprintf("%s The model fitted to them describes that, not HBase's scaling.", why))
  sprintf("%s The model fitted to them describes that, not HBase's scaling (%s).", why, paste(DISQUALIFY_WHY[kinds], collapse = "; "))
}

# Every workload's model over `over` ("threads" or "region_servers"): one row each.
usl_models <- function(points, over = "threads") {
  if (nrow(points) == 0) return(NULL)
  data.table::rbindlist(lapply(split(points, by = "model_key", sorted = FALSE), usl_model, over = USL_OVER[[over]]))
}

# The total mean-latency gates the model can predict, and the gates it cannot.
usl_gate_split <- function(gates) {
  mean_gate <- gates$test == "total" & gates$metric %in% USL_MEAN_GATE_METRICS & gates$op %in% c("<", "<=")
  list(mean = gates[mean_gate], other = gates[!mean_gate])
}

# The largest N the model predicts to meet every mean gate, at the parameters and at the
# pessimistic (low) and optimistic (high) corners of their intervals.
usl_gate_threads <- function(m, mean_gates) {
  at <- function(lambda, sigma, kappa) {
    min(vapply(seq_len(nrow(mean_gates)), function(i) {
      usl_largest_n_within(mean_gates$threshold[i], mean_gates$op[i], lambda, sigma, kappa)
    }, 0))
  }
  c(n = at(m$lambda, m$sigma, m$kappa), low = at(m$lambda_low, m$sigma_high, m$kappa_high),
    high = at(m$lambda_high, m$sigma_low, m$kappa_low))
}

# Per model row, with --slo gates: the largest N predicted to meet the mean-latency gates (a model
# prediction), beside the largest N measured whose run met every gate. NULL without gates.
usl_gate_prediction <- function(m, points, gates, gate_results) {
  if (is.null(gates) || nrow(gates) == 0) return(NULL)
  p <- points[model_key == m$model_key]
  met <- vapply(p$run, function(id) isTRUE(all(gate_results[[id]]$met)), NA)
  measured_n <- if (any(met)) max(p$n[met]) else NA_real_
  measured <- p[met & n == measured_n]
  out <- list(status = "no mean gate", gates = character(), threads = NA_real_, threads_low = NA_real_, threads_high = NA_real_,
              throughput_rps = NA_real_, extrapolation = NA, best_threads = NA_real_, best_throughput_rps = NA_real_,
              measured_threads = measured_n, measured_runs = paste(measured$run, collapse = ", "),
              measured_throughput_rps = if (nrow(measured) > 0) stats::median(measured$throughput_rps) else NA_real_)
  split <- usl_gate_split(gates)
  out$gates <- split$mean$term
  said_measured <- if (is.na(measured_n)) "measured: no run met every gate" else {
    sprintf("measured: the largest thread count that met every gate is %s (%s, %s req/s)", fmt_int(measured_n), out$measured_runs,
            fmt_int(out$measured_throughput_rps))
  }
  cannot <- if (nrow(split$other) > 0) {
    sprintf("%s: the model predicts the mean latency of all tests (Little's law), not percentiles or other figures, so it cannot predict %s",
            paste(split$other$term, collapse = ", "), if (nrow(split$other) == 1) "it" else "them")
  } else character()
  if (m$status != USL_STATUS[["fitted"]]) {
    out$status <- "not fitted"
    out$message <- paste(c("no model prediction (no fit)", said_measured), collapse = "; ")
    return(out)
  }
  if (nrow(split$mean) == 0) {
    out$message <- paste(c(paste("no model prediction:", cannot), said_measured), collapse = "; ")
    return(out)
  }
  n <- usl_gate_threads(m, split$mean)
  out$status <- "predicted"
  out$threads <- n[["n"]]
  out$threads_low <- n[["low"]]
  out$threads_high <- n[["high"]]
  out$extrapolation <- n[["n"]] > m$n_max || n[["n"]] < m$n_min
  out$throughput_rps <- if (is.finite(n[["n"]]) && n[["n"]] >= 1) usl_throughput(n[["n"]], m$lambda, m$sigma, m$kappa) else NA_real_
  # Past the peak more clients meet a mean gate with less throughput: the most the gate allows is at the peak.
  out$best_threads <- if (n[["n"]] >= 1) min(n[["n"]], m$peak_n) else NA_real_
  out$best_throughput_rps <- if (is.finite(out$best_threads)) usl_throughput(out$best_threads, m$lambda, m$sigma, m$kappa) else NA_real_
  at_peak <- isTRUE(out$best_threads < n[["n"]])
  predicted <- if (n[["n"]] == 0) {
    sprintf("model prediction: not even one client meets %s", paste(out$gates, collapse = ", "))
  } else if (!is.finite(n[["n"]])) {
    sprintf("model prediction: every number of %s meets %s (the model's latency does not grow)", USL_OVER$threads$many,
            paste(out$gates, collapse = ", "))
  } else {
    sprintf("model prediction: up to %s %s meet %s (interval %s to %s), at about %s req/s%s%s", fmt_int(n[["n"]]), USL_OVER$threads$many,
            paste(out$gates, collapse = ", "), fmt_n(n[["low"]]), fmt_n(n[["high"]]), fmt_about(out$throughput_rps),
            if (at_peak) sprintf("; the most throughput within it is at the peak, about %s req/s near %s %s",
                                 fmt_about(out$best_throughput_rps), fmt_int(out$best_threads), USL_OVER$threads$few) else "",
            if (out$extrapolation) sprintf("; an extrapolation beyond the %s to %s measured", fmt_int(m$n_min), fmt_int(m$n_max)) else "")
  }
  out$message <- paste(c(predicted, said_measured, if (length(cannot)) paste("not modelled:", cannot)), collapse = "; ")
  out
}

# The target throughput of a --slo: the largest total throughput_rps gate (> or >=), or NULL.
usl_target_throughput <- function(gates) {
  if (is.null(gates)) return(NULL)
  t <- gates[test == "total" & metric == "throughput_rps" & op %in% c(">", ">=")]
  if (nrow(t) == 0) return(NULL)
  t[which.max(threshold)]
}

# Per servers model: the region servers the model needs for the target throughput, with the
# interval from the corners, labelled an extrapolation beyond the cluster sizes measured.
usl_servers_needed <- function(m, target) {
  none <- list(target_throughput_rps = NA_real_, servers_needed = NA_real_, servers_needed_low = NA_real_,
               servers_needed_high = NA_real_, servers_needed_status = "no target",
               servers_needed_message = "no target throughput (give a throughput_rps>= gate with --slo)")
  if (is.null(target)) return(none)
  none$target_throughput_rps <- target$threshold
  if (m$status != USL_STATUS[["fitted"]]) {
    none$servers_needed_status <- "not fitted"
    none$servers_needed_message <- sprintf("%s req/s: no model to read the servers from", fmt_int(target$threshold))
    return(none)
  }
  at <- function(lambda, sigma, kappa) usl_smallest_n_reaching(target$threshold, target$op, lambda, sigma, kappa)
  n <- at(m$lambda, m$sigma, m$kappa)
  out <- none
  out$servers_needed <- n
  out$servers_needed_low <- at(m$lambda_high, m$sigma_low, m$kappa_low)
  out$servers_needed_high <- at(m$lambda_low, m$sigma_high, m$kappa_high)
  if (!is.finite(n)) {
    out$servers_needed_status <- "unreachable"
    out$servers_needed_message <- sprintf("the model never reaches %s req/s: %s", fmt_int(target$threshold),
                                          if (is.finite(m$peak_n)) sprintf("its peak is about %s req/s near %s region servers",
                                                                           fmt_about(m$peak_throughput), fmt_int(m$peak_n))
                                          else sprintf("it levels off towards about %s req/s", fmt_about(m$lambda / m$sigma)))
    return(out)
  }
  extrapolation <- n > m$n_max || n < m$n_min
  out$servers_needed_status <- if (extrapolation) "extrapolation" else "within the measured range"
  out$servers_needed_message <- sprintf("%s req/s needs about %s region servers (interval %s to %s)%s", fmt_int(target$threshold),
                                        fmt_int(n), fmt_n(out$servers_needed_low), fmt_n(out$servers_needed_high),
                                        if (extrapolation) sprintf(": an extrapolation beyond the %s to %s servers measured",
                                                                   fmt_int(m$n_min), fmt_int(m$n_max))
                                        else ": a model prediction within the cluster sizes measured")
  out
}

# The capacity model of a comparison: list(threads, thread_points, servers, server_points); the
# model tables carry `latency_gate` (threads) and the servers needed (servers) under the gates.
capacity_models <- function(runs, stacked, gates = NULL, gate_results = list()) {
  thread_points <- usl_thread_points(runs, stacked)
  server_points <- usl_server_points(runs, stacked)
  threads <- usl_models(thread_points, "threads")
  if (!is.null(threads)) {
    # a list column (one list, or NULL without gates, per model): set() keeps NULLs as elements
    data.table::set(threads, j = "latency_gate",
                    value = list(lapply(seq_len(nrow(threads)), function(i) usl_gate_prediction(threads[i], thread_points, gates, gate_results))))
  }
  servers <- usl_models(server_points, "region_servers")
  if (!is.null(servers)) {
    target <- usl_target_throughput(gates)
    needed <- data.table::rbindlist(lapply(seq_len(nrow(servers)), function(i) usl_servers_needed(servers[i], target)))
    servers <- cbind(servers, needed)
  }
  list(threads = threads, thread_points = thread_points, servers = servers, server_points = server_points)
}

# What report.R says on stdout: one line per model.
usl_said <- function(models) {
  said <- function(m, label) {
    if (is.null(m) || nrow(m) == 0) return(character())
    sprintf("%s: %s: %s%s", label, m$workload, m$message, ifelse(m$disqualified, " (greyed by the verdicts)", ""))
  }
  c(said(models$threads, "usl"), said(models$servers, "usl over region servers"))
}
