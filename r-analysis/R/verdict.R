# verdict.R - one sentence a capacity review can trust, read from the checks.
#
# A run's verdict is the first of these kinds whose check is flagged (the order is precedence);
# "trustworthy" when none is. Every other flagged kind is named after it ("; also ..."). The
# thresholds live with the checks: MIN_WINDOW_S and MIN_MEASURED_REQUESTS, MAX_ERROR_RATE,
# CLIENT_BOUND_GAP_RATIO (checks.R), STEADY_TREND_TOLERANCE (steady.R). Each kind disqualifies some
# figures, which the HTML greys with the reason: throughput, latency, comparison (deltas, ratios).
# The rules, the kinds whose figures stand or are lower bounds, and why each kind greys a figure:
# all from inst/kinds.json, the suite's one table of kinds, filled in when the package loads (kinds.R).
VERDICT_RULES <- NULL
LOWER_BOUND_KINDS <- NULL
VALID_KINDS <- NULL
DISQUALIFY_WHY <- NULL

# What a flagged check says, as a clause of the sentence. facts: list(client, trend, window, shared, cpu_pct,
# cpu, trend_cpu (cpu_thirds), ...).
verdict_clause <- function(kind, check, facts) {
  switch(kind,
    "lost writes" = audit_clause(facts$audit),
    "incomplete run" = if (startsWith(check$result, "manifest.json unreadable")) {
      sprintf("whether the run completed is unknown (%s)", check$result)
    } else sprintf("the run did not end cleanly (manifest %s)", check$result),
    "under faults" = faults_clause(facts),
    "degraded run" = sprintf("the run went to its end through failures (%s)", sub("^status degraded \\((.*)\\)$", "\\1", check$result)),
    "too short" = sprintf("the measured window is %.1f s with %s requests (minimum %d s and %s)", facts$window$window_s,
                          fmt_int(facts$window$measured_requests), MIN_WINDOW_S, fmt_int(MIN_MEASURED_REQUESTS)),
    "errors" = sprintf("%s of requests failed (limit %s)", fmt_pct(check$value, 2), fmt_pct(MAX_ERROR_RATE, 0)),
    "shared CPU" = {
      detail <- c(if (!is.null(facts$cpu)) cpu_split_text(facts$cpu),
                  if (!is.null(facts$client)) sprintf("client cost %s us per request off the timer", fmt_num(facts$client$gap_us, 0)))
      sprintf("the injectors run on the HBase machine and its CPU was %s%% busy over the measured window%s", fmt_num(check$value, 0),
              if (length(detail) > 0) sprintf(" (%s)", paste(detail, collapse = "; ")) else "")
    },
    "client-bound" = if (check$check == "client CPU") {
      sprintf("the client side's %s was %s%% busy (%s the largest) while the server side's was %s%%",
              cpu_count_text(facts$cpu$client$cpus), fmt_num(facts$cpu$client$busy_pct, 0), facts$cpu$client$top,
              fmt_num(facts$cpu$server$busy_pct, 0))
    } else client_bound_clause(facts),
    "server-bound" = paste0(sprintf("HBase's side, %s, was %s%% busy while the client side's %s had headroom (%s%%)",
                                    cpu_count_text(facts$cpu$server$cpus), fmt_num(facts$cpu$server$busy_pct, 0),
                                    cpu_count_text(facts$cpu$client$cpus), fmt_num(facts$cpu$client$busy_pct, 0)),
                            # after a kind that greys the throughput, the figure is no capacity: only where the limit was
                            if (isTRUE(facts$throughput_greyed)) "" else
                              sprintf(": %s req/s is %s on %s here", fmt_int(facts$throughput_rps), server_capacity_text(facts$target),
                                      cpu_count_text(facts$cpu$server$cpus))),
    "warming" = sprintf("JIT compiler threads took %s%% of the server side's CPU and %s%% of the client side's in the measured window (limit %d%%)",
                        fmt_num(facts$cpu$server$jit_pct, 1), fmt_num(facts$cpu$client$jit_pct, 1), CPU_WARMING_JIT_PCT),
    "contended" = sprintf("processes the run did not start took %s%% of the machine's CPU and steal %s%% (limit %d%%)",
                          fmt_num(facts$cpu$other_pct, 1), fmt_num(facts$cpu$steal_pct, 1), CPU_CONTENDED_PCT),
    "not steady" = paste0(sprintf("throughput moved %+.1f%% and mean latency %+.1f%% from the first to the last third of the %d s measured window (tolerance %d%%)",
                           100 * facts$trend$throughput_change, 100 * facts$trend$latency_change, facts$trend$seconds,
                           round(100 * STEADY_TREND_TOLERANCE)),
                          cpu_thirds_text(facts$trend_cpu)),
    check$result)
}

client_bound_clause <- function(facts) {
  paste0(sprintf("the off-timer gap (%s us per request) %s the HBase time (%s us)", fmt_num(facts$client$gap_us, 0),
                 if (facts$client$ratio > 1) "exceeds" else "equals", fmt_num(facts$client$hbase_us, 0)),
         if (isTRUE(facts$cpu_pct > INJECTOR_CPU_LIMIT_PCT)) sprintf(" and injector CPU is at %s%%%s", fmt_num(facts$cpu_pct, 0),
                                                                      if (isTRUE(facts$shared)) " (one machine, shared with HBase)" else "") else "")
}

cpu_count_text <- function(n) if (is.na(n)) "CPUs" else sprintf("%d CPU%s", as.integer(n), if (n == 1) "" else "s")

# The sentence of a trustworthy run: what was checked, the client cost, and the flags left.
trustworthy_clause <- function(checks, facts) {
  parts <- c(
    if (isTRUE(facts$trend$judged)) sprintf("steady over %d s (throughput %+.1f%% first to last third)", facts$trend$seconds,
                                            100 * facts$trend$throughput_change),
    sprintf("%s errors", fmt_pct(checks[check == "errors", value], 2)),
    if (!is.null(facts$client)) sprintf("client cost %s us per request (%s of the HBase time of %s us%s)", fmt_num(facts$client$gap_us, 0),
                                        fmt_pct(facts$client$ratio, 0), fmt_num(facts$client$hbase_us, 0),
                                        if (isTRUE(facts$pacing)) "; paced: the gap includes the intended waits" else ""))
  others <- checks[status == "FLAG", check]
  notes <- if (length(others) > 0) {
    sprintf("; other flags, not disqualifying: %s", paste(ifelse(others == "injector CPU" & isTRUE(facts$shared),
                                                                  "injector CPU (one machine, shared with HBase)", others), collapse = ", "))
  } else ""
  paste0(paste(parts, collapse = ", "), notes)
}

# checks: the run's check rows; facts: see verdict_clause. Returns list(kind, sentence, kinds, disqualifies, reasons).
run_verdict <- function(checks, facts) {
  flagged <- VERDICT_RULES[check %in% checks[status == "FLAG", check]]
  # The manifest check is one of two kinds: a run that reached its end through failures (degraded)
  # or one that did not reach it (incomplete, interrupted, running, unreadable).
  degraded <- startsWith(checks[check == "manifest", result][1] %if_absent% "", "status degraded")
  flagged <- flagged[kind != if (isTRUE(degraded)) "incomplete run" else "degraded run"]
  # A run degraded by the faults it asked for is what it was run for: the faults kind says so instead.
  if ("under faults" %in% flagged$kind) flagged <- flagged[kind != "degraded run"]
  flagged <- flagged[!duplicated(kind)]
  if (nrow(flagged) == 0) {
    return(list(kind = "trustworthy", sentence = paste0("trustworthy: ", trustworthy_clause(checks, facts), server_verdict_suffix(facts)),
                kinds = "trustworthy", disqualifies = character(),
                reasons = data.table::data.table(kind = character(), check = character(), detail = character())))
  }
  clauses <- vapply(seq_len(nrow(flagged)), function(i) {
    before <- flagged$disqualifies[seq_len(i - 1)]
    facts$throughput_greyed <- any(vapply(before, function(d) "throughput" %in% d, NA))
    verdict_clause(flagged$kind[i], checks[check == flagged$check[i]][1], facts)
  }, "")
  also <- if (nrow(flagged) > 1) paste0("; also ", paste(sprintf("%s (%s)", flagged$kind[-1], clauses[-1]), collapse = "; ")) else ""
  list(kind = flagged$kind[1],
       sentence = sprintf("%s: %s; %s%s%s", flagged$kind[1], clauses[1], flagged$consequence[1], also, server_verdict_suffix(facts)),
       kinds = flagged$kind, disqualifies = sort(unique(unlist(flagged$disqualifies))),
       reasons = data.table::data.table(kind = flagged$kind, check = flagged$check, detail = clauses))
}

# Does a verdict kind grey this category of figures (throughput, latency, comparison)?
verdict_disqualifies <- function(kind, category) {
  rules <- VERDICT_RULES$disqualifies[VERDICT_RULES$kind %in% kind]
  any(vapply(rules, function(d) category %in% d, NA))
}

# Why the figures of one category are greyed for a verdict, or "" when they are not.
disqualified_why <- function(verdict, category) {
  hits <- unique(VERDICT_RULES[kind %in% verdict$kinds & vapply(disqualifies, function(d) category %in% d, NA), kind])
  if (length(hits) == 0) "" else paste0("Greyed: ", paste(DISQUALIFY_WHY[hits], collapse = "; "), ".")
}

# Why figures drawn from several runs' throughput are greyed: the runs (run, verdict, disqualifies)
# whose verdict disqualifies their throughput; "" when none does.
throughput_disqualified_why <- function(drawn) {
  hit <- drawn[vapply(strsplit(disqualifies, ","), function(d) "throughput" %in% d, NA)]
  if (nrow(hit) == 0) return("")
  sprintf("Greyed: the verdicts of %s disqualify their throughput (%s).", paste(hit$run, collapse = ", "),
          paste(unique(hit$verdict), collapse = ", "))
}

# What the alike workloads say, among groups whose runs are all trustworthy: the total row of each
# contrast (e.g. "thrift / direct (get, 8 threads): throughput x0.91, within the spread"); at most
# VERDICT_MAX_CONTRASTS named.
VERDICT_MAX_CONTRASTS <- 3

contrast_clause <- function(contrasts, runs) {
  if (is.null(contrasts) || nrow(contrasts) == 0) return("")
  clean_groups <- runs[, .(clean = all(verdict %in% VALID_KINDS)), by = group][clean == TRUE, group]
  rows <- contrasts[test == "total" & group_num %in% clean_groups & group_den %in% clean_groups]
  if (nrow(rows) == 0) return("")
  workload <- ifelse(rows$dimension == "target", sub("^[^,]*, ", "", rows$workload_den), rows$workload_den)
  spread <- sub("spread unknown \\(no repeats\\)", "no repeats to weigh it against", rows$throughput_spread)
  parts <- sprintf("%s (%s): throughput x%.2f, mean latency x%.2f, %s", rows$direction, workload, rows$throughput_ratio,
                   rows$mean_ratio, spread)
  more <- if (length(parts) > VERDICT_MAX_CONTRASTS) sprintf(" and %d more", length(parts) - VERDICT_MAX_CONTRASTS) else ""
  paste0(paste(utils::head(parts, VERDICT_MAX_CONTRASTS), collapse = "; "), more)
}

# The run-to-run spread of repeated workloads (total rows), e.g. "3 runs of direct, get, 8 threads:
# throughput 10,462-12,633 req/s (max / min x1.21)", with the server's change between the fastest
# and the slowest when HBase's own metrics show one (repeat_drift_clause).
repeats_clause <- function(gstats, runs = NULL, analyses = NULL) {
  if (is.null(gstats)) return("")
  rows <- gstats[test == "total" & n_runs >= 2]
  if (nrow(rows) == 0) return("")
  # the widest disagreements first: the sentence names at most VERDICT_MAX_CONTRASTS of them
  rows <- rows[order(-(throughput_max / throughput_min))]
  # runs holds one row per analysis, in the same order (comparison_runs)
  drift <- vapply(rows$group, function(g) if (is.null(runs)) "" else repeat_drift_clause(analyses[runs$group == g]), "")
  parts <- sprintf("%d runs of %s: throughput %s-%s req/s (max / min x%.2f%s)", rows$n_runs, rows$group_label,
                   fmt_int(rows$throughput_min), fmt_int(rows$throughput_max), rows$throughput_max / rows$throughput_min,
                   ifelse(nzchar(drift), paste0("; ", drift), ""))
  more <- if (length(parts) > VERDICT_MAX_CONTRASTS) sprintf(" and %d more", length(parts) - VERDICT_MAX_CONTRASTS) else ""
  paste0(paste(utils::head(parts, VERDICT_MAX_CONTRASTS), collapse = "; "), more)
}

# A comparison's verdict from its runs' verdicts, the like-with-like baselines, the contrasts and repeats.
compare_verdict <- function(runs, baselines, analyses, contrasts = NULL, gstats = NULL) {
  findings <- paste(Filter(nzchar, c(contrast_clause(contrasts, runs), repeats_clause(gstats, runs, analyses))), collapse = "; ")
  n <- nrow(runs)
  bad <- runs[!verdict %in% VALID_KINDS]
  compared <- baselines[!is.na(baseline) & relation != "baseline"]
  alike_note <- if (n > 1 && nrow(compared) == 0) {
    "no two runs share a workload or differ in one comparable dimension, so none is set against another"
  } else if (n > 1) {
    sprintf("%d of %d runs set against an alike baseline%s", nrow(compared), n - 1,
            if (nrow(compared) < n - 1) sprintf(" (%s: different workload)", paste(baselines[is.na(baseline), run], collapse = ", ")) else "")
  } else "one run"
  if (nrow(bad) == 0) {
    kind <- if (n > 1 && nrow(compared) == 0) "different workloads" else "trustworthy"
    sentence <- if (kind == "trustworthy") {
      sprintf("trustworthy: all %d runs are complete, long enough, error-free, HBase-bound and steady; %s%s", n, alike_note,
              if (nzchar(findings)) paste0("; ", findings) else "")
    } else {
      sprintf("different workloads: %s; they are shown side by side, not compared (%s)", alike_note,
              paste(runs$label, collapse = "; "))
    }
    return(list(kind = kind, sentence = sentence, kinds = kind, disqualifies = character()))
  }
  by_kind <- bad[, .(runs = list(run)), by = verdict]
  by_kind[, precedence := match(verdict, VERDICT_RULES$kind)]
  data.table::setorder(by_kind, precedence)
  first <- by_kind[1]
  detail <- if (first$verdict == "client-bound") {
    worst <- which.max(vapply(analyses, function(a) if (is.null(a$facts$client)) NA_real_ else a$facts$client$ratio, 0))
    w <- analyses[[worst]]$facts$client
    sprintf(" (worst %s: off-timer gap %s us per request against %s us of HBase time)", analyses[[worst]]$run_id,
            fmt_num(w$gap_us, 0), fmt_num(w$hbase_us, 0))
  } else ""
  consequence <- VERDICT_RULES[kind == first$verdict, consequence][1]
  consequence <- if (startsWith(consequence, "its ")) sub("^its ", "their ", consequence) else paste("for them", consequence)
  others <- if (nrow(by_kind) > 1) paste0("; also ", paste(sprintf("%s: %s", by_kind$verdict[-1],
                                                                    vapply(by_kind$runs[-1], paste, "", collapse = ", ")), collapse = "; ")) else ""
  # the folded verdict's summary counts every kind, so it never names one kind while the finding names others
  counts <- sprintf("%s %d", by_kind$verdict, lengths(by_kind$runs))
  list(kind = first$verdict,
       summary = sprintf("%s: %d of %d runs%s", first$verdict, length(first$runs[[1]]), n,
                         if (length(counts) > 1) paste0("; also ", paste(counts[-1], collapse = ", ")) else ""),
       sentence = sprintf("%s: %d of %d runs (%s)%s; %s%s; %s%s", first$verdict, length(first$runs[[1]]), n,
                          paste(first$runs[[1]], collapse = ", "), detail, consequence, others, alike_note,
                          if (nzchar(findings)) paste0("; ", findings) else ""),
       kinds = by_kind$verdict, disqualifies = sort(unique(unlist(VERDICT_RULES[kind %in% by_kind$verdict, disqualifies]))))
}

# Whose capacity a server-bound run measured: through a thrift server, that server shares the
# server side's CPUs with HBase, so the figure is theirs together, not HBase's alone.
server_capacity_text <- function(target) {
  if (identical(target, "thrift")) "the capacity of HBase behind its thrift server" else "HBase's capacity"
}
