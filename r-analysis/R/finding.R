# finding.R - the first thing a page says: its finding in at most FINDING_MAX_WORDS words, a true
# answer to the question the runs were made for (how fast, and is that HBase's figure; what does
# the thrift layer cost here), read from the verdict and the figures it lets stand. The long
# verdict sentence stays in report.json and under the finding, folded.

FINDING_MAX_WORDS <- 40

words_in <- function(text) length(strsplit(trimws(text), "\\s+")[[1]])

# A run: its throughput and witness percentiles, and whether they are HBase's figure.
run_finding <- function(a) {
  total <- a$summary[test == "total"]
  w <- a$workload
  what <- sprintf("%s req/s of %s at %s threads, p50 %s ms, p99 %s ms", fmt_int(total$throughput_rps),
                  w$operations %if_absent% "load", fmt_int(total$threads), fmt_num(total$witness_p50_ms %if_absent% total$p50_ms, 2),
                  fmt_num(total$witness_p99_ms %if_absent% total$p99_ms, 2))
  kind <- a$verdict$kind
  text <- if (kind == "server-bound") {
    sprintf("%s (%s): %s on %s, the client with CPU to spare.", what, a$target %if_absent% "direct",
            server_capacity_text(a$target), cpu_count_text(a$facts$cpu$server$cpus))
  } else if (kind == "lost writes") {
    lost <- audit_lost(a$facts$audit)
    sprintf("Lost writes: %s of %s acknowledged puts (%s) did not survive. Measured %s (%s).", fmt_int(lost),
            fmt_int(a$facts$audit$acknowledged), fmt_pct(lost / max(1, as.numeric(a$facts$audit$acknowledged)), 2), what,
            a$target %if_absent% "direct")
  } else if (kind == "trustworthy") {
    sprintf("%s (%s): a trustworthy figure%s.", what, a$target %if_absent% "direct",
            if (isTRUE(a$facts$cpu$isolated)) ", neither side's CPUs saturated" else "")
  } else {
    sprintf("Not a capacity figure: %s. Measured %s (%s).", DISQUALIFY_WHY[[kind]] %if_absent% kind, what, a$target %if_absent% "direct")
  }
  text
}

# Per run: the total row's throughput and witness percentiles, and the CPU per request of each side.
run_costs <- function(analyses, runs) {
  data.table::rbindlist(lapply(seq_along(analyses), function(k) {
    a <- analyses[[k]]
    t <- a$summary[test == "total"]
    f <- a$facts$cpu
    side_us <- function(which_side) if (is.null(f)) NA_real_ else side_us_per_request(f, which_side)
    data.table::data.table(run = a$run_id, group = runs$group[k], throughput_rps = t$throughput_rps,
                           p50_ms = t$witness_p50_ms %if_absent% t$p50_ms, p99_ms = t$witness_p99_ms %if_absent% t$p99_ms,
                           server_us = side_us("server"), client_us = side_us("client"),
                           valid = a$verdict$kind %in% VALID_KINDS)
  }))
}

# What the thrift layer costs, per workload that ran both ways: throughput thrift / direct (the
# ratio of medians, and the range its repeats allow), the p50 and p99 each adds, the server CPU per
# request each way. Each side's figures come from its runs that stand when at least one does (the
# others are left out and named: a repeat judged not steady or warming does not void the runs
# beside it); the workload is judged (valid) when both sides have one. A side with none standing
# gives its measured figures, not judged. NULL without such pairs.
thrift_cost <- function(cmp) {
  pairs <- if (is.null(cmp$contrasts)) NULL else cmp$contrasts[dimension == "target" & test == "total"]
  if (is.null(pairs) || nrow(pairs) == 0) return(NULL)
  costs <- run_costs(cmp$analyses, cmp$runs)
  costs[, kind := vapply(cmp$analyses, function(a) a$verdict$kind, "")]
  side <- function(g) {
    all_runs <- costs[group == g]
    standing <- all_runs[valid == TRUE]
    used <- if (nrow(standing) > 0) standing else all_runs
    list(n = nrow(all_runs), n_standing = nrow(standing), tput = stats::median(used$throughput_rps), tput_min = min(used$throughput_rps),
         tput_max = max(used$throughput_rps), p50 = stats::median(used$p50_ms), p99 = stats::median(used$p99_ms),
         server_us = stats::median(used$server_us), client_us = stats::median(used$client_us), valid = nrow(standing) > 0,
         saturated = nrow(used) > 0 && all(used$kind == "server-bound"),
         left_out = if (nrow(standing) > 0) all_runs[valid == FALSE, .(run, kind)] else all_runs[0, .(run, kind)])
  }
  rows <- data.table::rbindlist(lapply(seq_len(nrow(pairs)), function(i) {
    p <- pairs[i]
    num <- side(p$group_num)
    den <- side(p$group_den)
    valid <- den$valid && num$valid
    left <- if (valid) rbind(den$left_out, num$left_out) else den$left_out[0]
    data.table::data.table(workload = sub("^(thrift|direct), ", "", p$workload_den), n_direct = den$n, n_thrift = num$n,
                           n_direct_standing = den$n_standing, n_thrift_standing = num$n_standing,
                           ratio = num$tput / den$tput, ratio_low = num$tput_min / den$tput_max, ratio_high = num$tput_max / den$tput_min,
                           direct_rps = den$tput, thrift_rps = num$tput,
                           p50_added_ms = num$p50 - den$p50, p99_added_ms = num$p99 - den$p99,
                           server_us_direct = den$server_us, server_us_thrift = num$server_us,
                           client_us_direct = den$client_us, client_us_thrift = num$client_us,
                           valid = valid, bound = if (valid) ratio_bound(num$saturated, den$saturated) else "not judged",
                           left_out = paste(left$run, collapse = ","), left_out_kinds = paste(left$kind, collapse = ","),
                           runs = paste(costs[group %in% c(p$group_den, p$group_num), run], collapse = ","))
  }))
  rows[]
}

# What a thrift/direct throughput ratio is, from which side saturated the server CPUs (server-bound:
# its throughput is HBase's capacity there): "capacity" when both did; "at most" when only thrift
# did (direct's capacity is above its measured throughput, so the capacity ratio is lower); "at
# least" when only direct did; "at these threads" when neither (each side's closed-loop throughput).
# A workload not judged (a side with no run standing) has none: "not judged".
ratio_bound <- function(thrift_saturated, direct_saturated) {
  if (thrift_saturated && direct_saturated) "capacity" else if (thrift_saturated) "at most" else if (direct_saturated) "at least" else "at these threads"
}

# Why the runs that do not stand do not: their main verdicts' two most common kinds, each run
# counted once by its main kind as the folded verdict counts them ("client-bound in 6 of 12 runs,
# warming in 4"); "" when every run stands.
why_not_valid <- function(analyses) {
  kinds <- unlist(lapply(analyses, function(a) a$verdict$kind))
  kinds <- kinds[!kinds %in% VALID_KINDS]
  if (length(kinds) == 0) return("")
  counts <- sort(table(kinds), decreasing = TRUE)
  top <- utils::head(names(counts), 2)
  first <- sprintf("%s in %d of %d runs", top[1], as.integer(counts[[top[1]]]), length(analyses))
  if (length(top) == 1) first else sprintf("%s, %s in %d", first, top[2], as.integer(counts[[top[2]]]))
}

# A comparison or a sweep: the thrift layer's cost when it ran both ways, else its capacity, else
# its best valid run, else why none stands. When not every run stands, the finding says first
# that the ratio is not the thrift layer's cost, and why (the verdicts' commonest kinds).
compare_finding <- function(cmp) {
  # a loss of acknowledged writes stands whatever the speed: it opens the finding
  lost <- loss_finding(cmp$analyses)
  if (!is.null(lost)) return(lost)
  cost <- thrift_cost(cmp)
  if (!is.null(cost)) {
    # why the workloads not judged are not: the verdicts of their runs (all runs when none is judged)
    judged <- unlist(strsplit(cost$runs[cost$valid], ","))
    ids <- vapply(cmp$analyses, function(a) as.character(a$run_id), "")
    return(thrift_finding(cost, why_not_valid(cmp$analyses[!ids %in% judged])))
  }
  if (!is.null(cmp$capacity) && !is.na(cmp$capacity$throughput_rps)) {
    return(sprintf("Capacity %s req/s%s (%s), the best run meeting every gate.", fmt_int(cmp$capacity$throughput_rps),
                   if (isTRUE(cmp$capacity$lower_bound)) " at least" else "", cmp$capacity$label))
  }
  costs <- run_costs(cmp$analyses, cmp$runs)
  good <- costs[valid == TRUE]
  if (nrow(good) == 0) {
    kinds <- unique(cmp$runs$verdict)
    return(sprintf("No run stands as a capacity figure: %s.", paste(kinds, collapse = ", ")))
  }
  best <- good[which.max(throughput_rps)]
  sprintf("Best valid run %s: %s req/s, p99 %s ms (%s).", best$run, fmt_int(best$throughput_rps), fmt_num(best$p99_ms, 2),
          cmp$runs[run == best$run, label])
}

# The thrift layer's cost from thrift_cost's rows: the workloads judged lead, with the server CPU
# thrift adds to them, their p99 differences and the runs left out of them (not standing, named with their
# kinds); the others follow as not judged, with why (why_not: their verdicts' commonest kinds).
# When none is judged, the finding says that first. Each text is the longest that fits in
# FINDING_MAX_WORDS: ranges, then the added figures, then why the others are not judged, then the
# left-out runs' names give way; the names of the workloads not judged never do.
thrift_finding <- function(cost, why_not) {
  ok <- cost$valid
  # a judged ratio that is a bound says so beside it, and why once
  bound <- cost$bound %if_absent% rep("", nrow(cost))
  bounded <- ok & bound %in% c("at most", "at least")
  prefix <- ifelse(bounded, paste0(bound, " "), "")
  parts <- sprintf("%s %sx%s (%s-%s)", cost$workload, prefix, fmt_num(cost$ratio, 2), fmt_num(cost$ratio_low, 2), fmt_num(cost$ratio_high, 2))
  ratios <- sprintf("%s %sx%s", cost$workload, prefix, fmt_num(cost$ratio, 2))
  if (any(ok)) {
    why_bound <- bound_text(bound[bounded])
    extra <- stats::median(cost$server_us_thrift[ok] - cost$server_us_direct[ok])
    # A closed loop runs each side at its own throughput (thrift's lower): the p99 difference is not
    # at equal load, so it is given as the range over the workloads, not as one "added" median.
    p99 <- range(cost$p99_added_ms[ok])
    adds <- sprintf("thrift adds %s us server CPU per request (median); p99 %s ms at unequal load",
                    if (is.na(extra)) "unknown" else sprintf("%+.0f", extra),
                    if (p99[1] == p99[2]) sprintf("%+.2f", p99[1]) else sprintf("%+.2f to %+.2f", p99[1], p99[2]))
    left <- left_out_text(cost[ok])
    rest <- if (all(ok)) "" else sprintf(" Not judged: %s (%s).", paste(cost$workload[!ok], collapse = "; "), why_not)
    # the workloads not judged stay named to the end: the table says why, not which
    rest_names <- if (all(ok)) "" else sprintf(" Not judged: %s.", paste(cost$workload[!ok], collapse = "; "))
    short <- sprintf("Thrift/direct throughput %s (medians; see the table).", paste(ratios[ok], collapse = ", "))
    candidates <- c(
      sprintf("Thrift/direct throughput %s; %s.%s%s%s", paste(parts[ok], collapse = ", "), adds, why_bound, left$named, rest),
      sprintf("Thrift/direct throughput %s; %s.%s%s%s", paste(ratios[ok], collapse = ", "), adds, why_bound, left$named, rest),
      sprintf("%s%s%s%s", short, why_bound, left$named, rest),
      sprintf("%s%s%s%s", short, why_bound, left$named, rest_names),
      sprintf("%s%s%s%s", short, why_bound, left$counted, rest_names),
      sprintf("%s%s%s", short, left$counted, rest_names))
    fits <- vapply(candidates, words_in, 0) <= FINDING_MAX_WORDS
    return(if (any(fits)) candidates[which(fits)[1]] else candidates[length(candidates)])
  }
  why <- sprintf("Not the thrift layer's cost: %s.", why_not)
  text <- sprintf("%s Measured thrift/direct throughput %s.", why, paste(parts, collapse = ", "))
  if (words_in(text) > FINDING_MAX_WORDS) text <- sprintf("%s Measured thrift/direct %s (medians; see the table).", why, paste(ratios, collapse = ", "))
  text
}

# Why a judged ratio is a bound, once for all that are (" At most: thrift's runs saturated the server
# CPUs, direct's did not, so direct's capacity is higher."); "" for none.
bound_text <- function(bounds) {
  parts <- c(if ("at most" %in% bounds) "At most: thrift's runs saturated the server CPUs and direct's did not, so direct's capacity is higher.",
             if ("at least" %in% bounds) "At least: direct's runs saturated the server CPUs and thrift's did not, so thrift's capacity is higher.")
  if (length(parts) == 0) "" else paste0(" ", paste(parts, collapse = " "))
}

# The runs left out of judged workloads, by kind: named (" Left out, not standing: run-1, run-5 (not
# steady); run-8 (warming).") and counted (" 3 runs left out, not standing."); "" for none.
left_out_text <- function(cost) {
  runs <- if (is.null(cost$left_out)) character() else unlist(strsplit(cost$left_out, ","))
  if (length(runs) == 0) return(list(named = "", counted = ""))
  kinds <- unlist(strsplit(cost$left_out_kinds, ","))
  by_kind <- vapply(unique(kinds), function(k) sprintf("%s (%s)", paste(runs[kinds == k], collapse = ", "), k), "")
  list(named = sprintf(" Left out, not standing: %s.", paste(by_kind, collapse = "; ")),
       counted = sprintf(" %d run%s left out, not standing.", length(runs), if (length(runs) == 1) "" else "s"))
}

# Audited runs that lost acknowledged writes (a durability sweep's answer): which, how many of how
# many; NULL when no run was audited or none lost a write.
loss_finding <- function(analyses) {
  audits <- lapply(analyses, function(a) a$facts$audit)
  audited <- !vapply(audits, is.null, TRUE)
  if (!any(audited)) return(NULL)
  lost <- vapply(audits[audited], audit_lost, 0)
  if (all(lost == 0)) return(NULL)
  acked <- vapply(audits[audited], function(x) as.numeric(x$acknowledged), 0)
  ids <- vapply(analyses[audited], function(a) as.character(a$run_id), "")
  hit <- lost > 0
  share <- lost[hit] / pmax(1, acked[hit])
  parts <- sprintf("%s %s of %s (%s)", ids[hit], fmt_int(lost[hit]), fmt_int(acked[hit]), fmt_pct(share, 2))
  text <- sprintf("Acknowledged writes lost in %d of %d audited runs: %s; none in the other %d.", sum(hit), sum(audited),
                  paste(parts, collapse = ", "), sum(!hit))
  if (words_in(text) <= FINDING_MAX_WORDS) return(text)
  sprintf("Acknowledged writes lost in %d of %d audited runs, at most %s (%s); the table names each.", sum(hit), sum(audited),
          fmt_pct(max(share), 2), ids[hit][which.max(share)])
}

# The thrift cost as a table for the page.
thrift_cost_table <- function(cost) {
  if (is.null(cost)) return(NULL)
  us <- function(x) ifelse(is.na(x), "", fmt_num(x, 0))
  frame <- data.frame(Workload = cost$workload, `Runs (direct / thrift)` = runs_used_text(cost),
                      `Direct req/s` = fmt_num(cost$direct_rps, 0), `Thrift req/s` = fmt_num(cost$thrift_rps, 0),
                      `Thrift / direct` = sprintf("x%s (%s-%s)", fmt_num(cost$ratio, 2), fmt_num(cost$ratio_low, 2), fmt_num(cost$ratio_high, 2)),
                      `The ratio is` = cost$bound,
                      `p50 added (ms)` = sprintf("%+.3f", cost$p50_added_ms), `p99 added (ms)` = sprintf("%+.3f", cost$p99_added_ms),
                      `Server CPU us/req direct / thrift` = sprintf("%s / %s", us(cost$server_us_direct), us(cost$server_us_thrift)),
                      `Client CPU us/req direct / thrift` = sprintf("%s / %s", us(cost$client_us_direct), us(cost$client_us_thrift)),
                      check.names = FALSE)
  html_table(frame, left = 1, row_class = ifelse(cost$valid, NA, "disq"))
}

# "2 / 2", or, when runs are left out of a judged workload, the standing ones: "1 of 2 / 2 of 2".
runs_used_text <- function(cost) {
  standing <- if (is.null(cost$n_direct_standing)) rep(FALSE, nrow(cost)) else
    cost$valid & (cost$n_direct_standing < cost$n_direct | cost$n_thrift_standing < cost$n_thrift)
  ifelse(standing, sprintf("%d of %d / %d of %d", cost$n_direct_standing, cost$n_direct, cost$n_thrift_standing, cost$n_thrift),
         sprintf("%d / %d", cost$n_direct, cost$n_thrift))
}

# The finding, big, then the verdict folded under it (its whole sentence). A comparison's verdict
# summarises every kind its runs have (verdict$summary); a run's is its kind.
finding_html <- function(finding, verdict) {
  summary <- if (is.null(verdict$summary)) verdict$kind else verdict$summary
  tagList(html_p(finding, class = "finding"),
          tags$details(class = paste0("verdict v-", gsub("[^a-z]+", "-", verdict$kind)),
                       tags$summary(tags$b(paste("Verdict:", summary)), " (open for the whole sentence)"), verdict$sentence))
}

# A sweep's warm-ups (sweep.json "warmups", lifecycle's SweepRecord): one line for the page.
sweep_warmups <- function(analyses, sweep_id) {
  if (is.na(sweep_id) || length(analyses) == 0) return(NULL)
  path <- file.path(dirname(analyses[[1]]$run_dir), sweep_id, "sweep.json")
  if (!file.exists(path)) return(NULL)
  w <- tryCatch(jsonlite::fromJSON(path, simplifyVector = TRUE)$warmups, error = function(e) NULL)
  if (is.null(w) || length(w) == 0 || NROW(w) == 0) return(NULL)
  data.table::as.data.table(w)
}

warmups_html <- function(w) {
  if (is.null(w)) return(NULL)
  # the settlings (the same load again, briefly, after each warm-up: sweep.json's settling) are
  # there for the compiling their own start brings, not to end quiet: counted, not judged
  settling <- if ("settling" %in% names(w)) w$settling %in% TRUE else rep(FALSE, nrow(w))
  settled <- if (any(settling)) sprintf(", each followed by a settling (the same load again, at most 12 s: the servers compile again what the warm-up's end threw away; %s)",
                                        paste(w$warmup[settling], collapse = ", ")) else ""
  w <- w[!settling]
  warm <- w$warm %in% TRUE
  html_p(sprintf(paste("Warm-ups: %d, each before the first run of a target (the runs' arguments but threads and mix; direct and",
                       "thrift runs of otherwise equal arguments share one, run both ways at once) in the sweep's injector session,",
                       "running every operation of those runs (runs/warmup-N, not measured)%s; %s; %s."),
                 nrow(w), settled,
                 if (any(warm)) sprintf("%d ended warm (the servers' JIT quiet) after %s s", sum(warm), paste(w$seconds[warm], collapse = ", "))
                 else "none ended warm (the servers' JIT quiet)",
                 if (!all(warm)) paste(sprintf("%s before run %s: %s", w$warmup[!warm], w$before_point[!warm], w$reason[!warm]), collapse = "; ")
                 else "none stopped at its bound"), class = "meta")
}
