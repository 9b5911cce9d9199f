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
    side_us <- function(which_side) if (is.null(f)) NA_real_ else sum(f$roles[side == which_side, us_per_request], na.rm = TRUE)
    data.table::data.table(run = a$run_id, group = runs$group[k], throughput_rps = t$throughput_rps,
                           p50_ms = t$witness_p50_ms %if_absent% t$p50_ms, p99_ms = t$witness_p99_ms %if_absent% t$p99_ms,
                           server_us = side_us("server"), client_us = side_us("client"),
                           valid = a$verdict$kind %in% VALID_KINDS)
  }))
}

# What the thrift layer costs, per workload that ran both ways: throughput thrift / direct (the
# ratio of medians, and the range its repeats allow), the p50 and p99 each adds, the server CPU per
# request each way. NULL without such pairs.
thrift_cost <- function(cmp) {
  pairs <- if (is.null(cmp$contrasts)) NULL else cmp$contrasts[dimension == "target" & test == "total"]
  if (is.null(pairs) || nrow(pairs) == 0) return(NULL)
  costs <- run_costs(cmp$analyses, cmp$runs)
  by_group <- costs[, .(n = .N, tput = stats::median(throughput_rps), tput_min = min(throughput_rps), tput_max = max(throughput_rps),
                        p50 = stats::median(p50_ms), p99 = stats::median(p99_ms), server_us = stats::median(server_us),
                        client_us = stats::median(client_us), valid = all(valid)), keyby = group]
  rows <- data.table::rbindlist(lapply(seq_len(nrow(pairs)), function(i) {
    p <- pairs[i]
    num <- by_group[group == p$group_num]
    den <- by_group[group == p$group_den]
    data.table::data.table(workload = sub("^(thrift|direct), ", "", p$workload_den), n_direct = den$n, n_thrift = num$n,
                           ratio = num$tput / den$tput, ratio_low = num$tput_min / den$tput_max, ratio_high = num$tput_max / den$tput_min,
                           direct_rps = den$tput, thrift_rps = num$tput,
                           p50_added_ms = num$p50 - den$p50, p99_added_ms = num$p99 - den$p99,
                           server_us_direct = den$server_us, server_us_thrift = num$server_us,
                           client_us_direct = den$client_us, client_us_thrift = num$client_us,
                           valid = den$valid && num$valid)
  }))
  rows[]
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
  if (!is.null(cost)) return(thrift_finding(cost, why_not_valid(cmp$analyses)))
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

# The thrift layer's cost from thrift_cost's rows: the workloads whose runs all stand lead, with the
# p99 and server CPU thrift adds to them; the others follow as not judged, with why (why_not: the
# verdicts' commonest kinds). When none stands, the finding says that first.
thrift_finding <- function(cost, why_not) {
  parts <- sprintf("%s x%s (%s-%s)", cost$workload, fmt_num(cost$ratio, 2), fmt_num(cost$ratio_low, 2), fmt_num(cost$ratio_high, 2))
  ratios <- sprintf("x%s", fmt_num(cost$ratio, 2))
  if (any(cost$valid)) {
    ok <- cost$valid
    p99 <- stats::median(cost$p99_added_ms[ok])
    extra <- stats::median(cost$server_us_thrift[ok] - cost$server_us_direct[ok])
    adds <- sprintf("thrift adds p99 %+.2f ms and %s us server CPU per request (medians)", p99,
                    if (is.na(extra)) "unknown" else sprintf("%+.0f", extra))
    rest <- if (all(ok)) "" else sprintf(" Not judged: %s (%s).", paste(cost$workload[!ok], collapse = "; "), why_not)
    text <- sprintf("Thrift/direct throughput %s; %s.%s", paste(parts[ok], collapse = ", "), adds, rest)
    if (words_in(text) > FINDING_MAX_WORDS) {
      text <- sprintf("Thrift/direct throughput %s (medians; see the table).%s", paste(ratios[ok], collapse = ", "),
                      if (all(ok)) "" else sprintf(" Not judged: %s.", why_not))
    }
    return(text)
  }
  why <- sprintf("Not the thrift layer's cost: %s.", why_not)
  text <- sprintf("%s Measured thrift/direct throughput %s.", why, paste(parts, collapse = ", "))
  if (words_in(text) > FINDING_MAX_WORDS) text <- sprintf("%s Measured thrift/direct %s (medians; see the table).", why, paste(ratios, collapse = ", "))
  text
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
  frame <- data.frame(Workload = cost$workload, `Runs (direct / thrift)` = sprintf("%d / %d", cost$n_direct, cost$n_thrift),
                      `Direct req/s` = fmt_num(cost$direct_rps, 0), `Thrift req/s` = fmt_num(cost$thrift_rps, 0),
                      `Thrift / direct` = sprintf("x%s (%s-%s)", fmt_num(cost$ratio, 2), fmt_num(cost$ratio_low, 2), fmt_num(cost$ratio_high, 2)),
                      `p50 added (ms)` = sprintf("%+.3f", cost$p50_added_ms), `p99 added (ms)` = sprintf("%+.3f", cost$p99_added_ms),
                      `Server CPU us/req direct / thrift` = sprintf("%s / %s", us(cost$server_us_direct), us(cost$server_us_thrift)),
                      `Client CPU us/req direct / thrift` = sprintf("%s / %s", us(cost$client_us_direct), us(cost$client_us_thrift)),
                      check.names = FALSE)
  html_table(frame, left = 1, row_class = ifelse(cost$valid, NA, "disq"))
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
  html_p(sprintf(paste("Warm-ups: %d, each before the first run of a target (the runs' arguments but threads and mix) in the",
                       "sweep's injector session, running every operation of those runs (runs/warmup-N, not measured)%s; %s; %s."),
                 nrow(w), settled,
                 if (any(warm)) sprintf("%d ended warm (the servers' JIT quiet) after %s s", sum(warm), paste(w$seconds[warm], collapse = ", "))
                 else "none ended warm (the servers' JIT quiet)",
                 if (!all(warm)) paste(sprintf("%s before run %s: %s", w$warmup[!warm], w$before_point[!warm], w$reason[!warm]), collapse = "; ")
                 else "none stopped at its bound"), class = "meta")
}
