# peers.R - `./suite bench peers`: HBase's PerformanceEvaluation (PE) against the suite's own run
# path, from the files the bench leaves (bench/peers.sh): PE logs, suite run folders,
# cpu-meter files and rounds.csv. Small pure functions; r-analysis/peers.R is the command line.

PEERS_TARGET_THROUGHPUT_RATIO <- 0.95   # suite / PE, median of rounds, at 8 and 16 threads
PEERS_TARGET_CPU_RATIO <- 1.3           # suite / PE client CPU per request, median of rounds
PEERS_TARGET_GAP_US <- 50               # suite's mean off-timer gap at PEERS_STEADY_THREADS
PEERS_JUDGED_THREADS <- c(8L, 16L)
PEERS_TARGET_STEADY_S <- 5              # the suite's time to steady state at PEERS_STEADY_THREADS
PEERS_STEADY_THREADS <- 8L              # the thread count of the time-to-steady and off-timer gap targets

# key=value pairs of one PE "Latency (us) : mean=1.0, min=..., 99th=2.0" line -> named numbers.
pe_key_values <- function(text) {
  pairs <- regmatches(text, gregexpr("[0-9.]+th=[0-9.]+|[a-zA-Z]+=[0-9.]+", text))[[1]]
  stats::setNames(as.numeric(sub(".*=", "", pairs)), sub("=.*", "", pairs))
}

# The client a PE log line is about ("[TestClient-3]"), and its time in seconds (UTC).
pe_client_of <- function(x) sub(".*\\[(TestClient-[0-9]+)\\].*", "\\1", x)
# log4j writes the milliseconds after a comma, which %OS reads only after a dot.
pe_stamp <- function(x) as.numeric(as.POSIXct(sub(",", ".", substr(x, 1, 23), fixed = TRUE), format = "%Y-%m-%d %H:%M:%OS", tz = "UTC"))

# One PE log -> its clients and totals. Operations: each client's rows x cycles (PE's printed
# TPS ignores --cycles); throughput: all operations over the longest client's time. PE keeps a
# latency histogram per client and never merges them, so its p99 here is the worst client's.
parse_pe_log <- function(path) {
  if (!file.exists(path)) stop_report("no PE log at ", path)
  lines <- readLines(path, warn = FALSE)
  header <- sub("^# pe: ", "", grep("^# pe: ", lines, value = TRUE)[1])
  cycle_lines <- regmatches(lines, regexpr("Cycle=[0-9]+ of [0-9]+", lines))
  cycles <- if (length(cycle_lines) > 0) max(as.integer(sub(".* of ", "", cycle_lines))) else {
    from_args <- regmatches(header, regexpr("--cycles=[0-9]+", header))
    if (length(from_args) == 1) as.integer(sub(".*=", "", from_args)) else 1L
  }
  finished <- grep("Finished class .* in [0-9]+ms at offset [0-9]+ for [0-9]+ rows", lines, value = TRUE)
  if (length(finished) == 0) stop_report("PE log ", path, " has no finished client (PE failed? see the log)")
  clients <- data.table::data.table(
    client = pe_client_of(finished),
    ms = as.numeric(sub(".* in ([0-9]+)ms at offset.*", "\\1", finished)),
    rows = as.numeric(sub(".* for ([0-9]+) rows.*", "\\1", finished)))
  latency <- grep("\\] hbase.PerformanceEvaluation: Latency \\(us\\) : ", lines, value = TRUE)
  measures <- grep("Num measures \\(latency\\) : [0-9]+", lines, value = TRUE)
  if (length(latency) > 0) {
    stats <- data.table::rbindlist(lapply(latency, function(l) {
      kv <- pe_key_values(sub(".*Latency \\(us\\) : ", "", l))
      data.table::data.table(client = pe_client_of(l), mean_us = kv[["mean"]], p99_us = kv[["99th"]])
    }))
    counts <- data.table::data.table(client = pe_client_of(measures),
                                     measures = as.numeric(sub(".*: ([0-9]+).*", "\\1", measures)))
    clients <- merge(merge(clients, stats, by = "client", all.x = TRUE), counts, by = "client", all.x = TRUE)
  } else {
    clients[, `:=`(mean_us = NA_real_, p99_us = NA_real_, measures = NA_real_)]
  }
  clients[, operations := rows * cycles]
  progress <- pe_client_progress(lines, cycles)
  longest_s <- max(clients$ms) / 1000
  list(args = header, cycles = cycles, clients = clients[order(client)],
       operations = sum(clients$operations), longest_s = longest_s,
       throughput_rps = sum(clients$operations) / longest_s,
       steady_rps = pe_steady_rate(lines, clients, cycles, progress),
       time_to_steady_s = pe_time_to_steady(progress),
       mean_us = if (anyNA(clients$measures)) NA_real_ else sum(clients$mean_us * clients$measures) / sum(clients$measures),
       p99_us = if (all(is.na(clients$p99_us))) NA_real_ else max(clients$p99_us, na.rm = TRUE))
}

# PE's steady rate: per client, the rows done after the first third of its time over the time
# from then to the client's end; the clients' rates summed. With 3 cycles or more, from the cycles
# that start after the first third (each "Cycle=k of N" line is a cycle's start); with fewer (a
# 30 s bench run is one or two passes), from PE's progress lines ("row [start=S, current=C,
# last=L]", every tenth of a client's rows; PE 2.6.1 prints them for its read tests only, so a
# put's steady rate stays NA unless it ran 3 cycles).
pe_steady_rate <- function(lines, clients, cycles, progress) {
  if (cycles < 3) return(pe_steady_rate_from_progress(progress))
  starts <- grep("\\] hbase.PerformanceEvaluation: Cycle=[0-9]+ of [0-9]+", lines, value = TRUE)
  ends <- grep("Finished class .* in [0-9]+ms at offset", lines, value = TRUE)
  cyc <- data.table::data.table(client = pe_client_of(starts), k = as.integer(sub(".*Cycle=([0-9]+) of.*", "\\1", starts)),
                                t = vapply(starts, pe_stamp, 0))
  fin <- data.table::data.table(client = pe_client_of(ends), t_end = vapply(ends, pe_stamp, 0))
  rates <- vapply(split(cyc, by = "client"), function(c) {
    end <- fin[client == c$client[1], t_end][1]
    rows <- clients[client == c$client[1], rows]
    from <- c$t[1] + (end - c$t[1]) / 3
    later <- c[t >= from]
    if (nrow(later) == 0 || is.na(end) || end <= later$t[1] || length(rows) == 0) return(NA_real_)
    nrow(later) * rows / (end - later$t[1])
  }, 0)
  if (anyNA(rates)) NA_real_ else sum(rates)
}

# Each client's progress from PE's progress lines: list(points = one row per line with the rows
# done so far over every cycle, clients = each client's start, end and rows in all), or NULL
# when the log has none (a put, or an old log).
pe_client_progress <- function(lines, cycles) {
  progress <- grep("\\] hbase.PerformanceEvaluation: row \\[start=[0-9]+, current=[0-9]+, last=[0-9]+\\]", lines, value = TRUE)
  starts <- grep("\\] hbase.PerformanceEvaluation: Timed test starting in thread TestClient-[0-9]+", lines, value = TRUE)
  ends <- grep("\\] hbase.PerformanceEvaluation: Finished class .* in [0-9]+ms at offset", lines, value = TRUE)
  if (length(progress) == 0 || length(starts) == 0 || length(ends) == 0) return(NULL)
  field <- function(x, name) as.numeric(sub(paste0(".*", name, "=([0-9]+).*"), "\\1", x))
  p <- data.table::data.table(client = pe_client_of(progress), t = pe_stamp(progress), start = field(progress, "start"),
                              current = field(progress, "current"), last = field(progress, "last"))
  # a cycle starts again where current falls back: rows done so far over every cycle
  p[, done := cumsum(c(0, diff(current) < 0)) * (last[1] - start[1]) + (current - start), by = client]
  clients <- p[, .(total = cycles * (last[1] - start[1])), by = client]
  begun <- data.table::data.table(client = pe_client_of(starts), t = pe_stamp(starts))[, .(t0 = min(t)), by = client]
  ended <- data.table::data.table(client = pe_client_of(ends), t = pe_stamp(ends))[, .(end = max(t)), by = client]
  clients[begun, on = "client", t0 := i.t0][ended, on = "client", end := i.end]
  list(points = p, clients = clients)
}

pe_steady_rate_from_progress <- function(progress) {
  if (is.null(progress)) return(NA_real_)
  rates <- vapply(seq_len(nrow(progress$clients)), function(i) {
    who <- progress$clients[i]
    c <- progress$points[client == who$client]
    from <- who$t0 + (who$end - who$t0) / 3
    later <- c[t >= from]
    if (!is.finite(who$t0) || !is.finite(who$end) || nrow(later) == 0 || who$end <= later$t[1]) return(NA_real_)
    (who$total - later$done[1]) / (who$end - later$t[1])
  }, 0)
  if (length(rates) == 0 || anyNA(rates)) NA_real_ else sum(rates)
}

# PE's completions per full second from its first client's start (the suite's per_second_levels'
# shape): each client's rows done, read from its progress lines (every tenth of its rows, about a
# second apart at 8 threads) and interpolated linearly between them, summed over the clients.
# NULL when the log has no progress lines (progress: pe_client_progress).
pe_levels_from_progress <- function(progress) {
  if (is.null(progress) || !all(is.finite(c(progress$clients$t0, progress$clients$end)))) return(NULL)
  first <- min(progress$clients$t0)
  n_full <- as.integer(floor(max(progress$clients$end) - first))
  if (n_full < 1) return(NULL)
  at <- first + 0:n_full
  done <- Reduce(`+`, lapply(seq_len(nrow(progress$clients)), function(i) {
    who <- progress$clients[i]
    c <- progress$points[client == who$client]
    stats::approx(c(who$t0, c$t, who$end), c(0, c$done, who$total), xout = at, rule = 2, ties = "ordered")$y
  }))
  data.table::data.table(second = seq_len(n_full) - 1L, requests = diff(done))
}

# PE's time to steady state by the suite's rule (time_to_steady); NA without progress lines.
pe_time_to_steady <- function(progress) {
  levels <- pe_levels_from_progress(progress)
  if (is.null(levels)) NA_integer_ else time_to_steady(levels)
}

# The same quantities for a suite run, from its data logs, on the same terms as PE: every
# request (no warm-up cut, as PE has none) over first start to last end; latency = the witness
# (the HBase call, as PE times it), p99 by nearest rank over all threads; the off-timer gap.
suite_run_measures <- function(run_dir) {
  logs <- load_data_logs(run_dir)
  r <- logs$requests
  if (nrow(r) == 0) stop_report("no valid requests in ", run_dir)
  span_s <- (max(r$start_ms + r$time_ms) - min(r$start_ms)) / 1000
  gap <- offtimer_gap(thread_cycles(r))
  first <- min(r$start_ms)
  later_from <- first + span_s * 1000 / 3
  later <- r[start_ms >= later_from]
  levels <- per_second_levels(per_second_timeline(r, first), first, max(r$start_ms + r$time_ms), FALSE)
  list(operations = nrow(r), errors = sum(r$errors > 0), span_s = span_s,
       throughput_rps = nrow(r) / span_s,
       steady_rps = if (nrow(later) > 0) nrow(later) / ((max(later$start_ms + later$time_ms) - later_from) / 1000) else NA_real_,
       time_to_steady_s = time_to_steady(levels),
       mean_us = mean(r$witness_us, na.rm = TRUE),
       p99_us = nearest_rank(r$witness_us, 99),
       gap_us = if (is.null(gap)) NA_real_ else gap$mean_us)
}

# The injector bench's measured window (bench/injector.sh): of the data logs below RUN_DIR, the
# requests started at or after the first start + WARM_S and ended by SPAN_S after that, the errors
# (the Errors column summed) and every request, read by the report's own reader.
data_log_window <- function(run_dir, warm_s, span_s) {
  r <- load_data_logs(run_dir)$requests
  if (nrow(r) == 0) stop_report("no valid requests in ", run_dir)
  from <- min(r$start_ms) + warm_s * 1000
  to <- from + span_s * 1000
  list(in_window = sum(r$start_ms >= from & r$start_ms + r$time_ms <= to), errors = sum(r$errors), all = nrow(r))
}

# The injector bench's result (bench/injector.sh's bench-injector.csv: a row per round and client,
# java or grinder): each client's median throughput and CPU per request over the rounds, and
# Grinder's median against plain Java's, met when at least min_ratio.
injector_summary <- function(results, min_ratio) {
  per <- function(who, column) stats::median(results[[column]][results[["client"]] == who])
  s <- list(java_rps = per("java", "throughput_rps"), grinder_rps = per("grinder", "throughput_rps"),
            java_cpu_us = per("java", "cpu_us_per_request"), grinder_cpu_us = per("grinder", "cpu_us_per_request"))
  if (anyNA(unlist(s))) stop_report("the injector bench's results need rounds of both clients, java and grinder")
  s$ratio <- s$grinder_rps / s$java_rps
  s$met <- s$ratio >= min_ratio
  s
}

# The JIT share of a tool's client CPU, from a CpuSampler cpu.csv: the suite's run (its client-side
# roles) or the bench's sampler beside PE (its peer role). NA without the file.
client_jit_share <- function(path, tool) {
  if (is.null(path) || is.na(path) || !file.exists(path)) return(NA_real_)
  cpu <- tryCatch(data.table::fread(path, showProgress = FALSE, integer64 = "double"), error = function(e) NULL)
  if (is.null(cpu) || !"jit_s" %in% names(cpu)) return(NA_real_)
  roles <- if (tool == "pe") "peer" else c("console", "agent", "worker", "sampler", "lifecycle")
  sel <- cpu[role %in% roles]
  if (sum(sel$cpu_s) <= 0) NA_real_ else sum(sel$jit_s, na.rm = TRUE) / sum(sel$cpu_s)
}

# A run's CPU file (CpuSampler: every role, idle and steal included) -> the share of the machine, in
# %, that neither tool nor HBase had: steal and processes of no role (the `contended` rule of cpu.R).
taken_pct <- function(path) {
  if (is.null(path) || is.na(path) || !file.exists(path)) return(NA_real_)
  cpu <- tryCatch(data.table::fread(path, showProgress = FALSE, integer64 = "double"), error = function(e) NULL)
  if (is.null(cpu) || !all(c("role", "cpu_s") %in% names(cpu)) || sum(cpu$cpu_s, na.rm = TRUE) <= 0) return(NA_real_)
  100 * sum(cpu[role %in% c("steal", "other")]$cpu_s, na.rm = TRUE) / sum(cpu$cpu_s, na.rm = TRUE)
}

# cpu-meter's file -> total CPU seconds, the method, and CPU per process kind.
read_cpu_meter <- function(path) {
  cpu <- data.table::fread(path, colClasses = c(scope = "character", label = "character", pid = "character", cpu_s = "numeric"))
  total <- cpu[scope == "total"]
  processes <- cpu[scope == "process"]
  processes[, kind := process_kind(label)]
  list(cpu_s = total$cpu_s[1], method = total$label[1],
       by_kind = processes[, .(cpu_s = sum(cpu_s)), by = kind],
       leftovers = cpu[scope == "leftover", label])
}

# What a process is, from cpu-meter's label (comm, or java:<main class>).
process_kind <- function(label) {
  data.table::fcase(
    grepl("net.grinder.Console", label, fixed = TRUE), "console",
    grepl("WorkerProcessEntryPoint", label, fixed = TRUE), "worker",
    grepl("net.grinder.Grinder", label, fixed = TRUE), "agent",
    grepl("lifecycle.Main", label, fixed = TRUE), "lifecycle",
    grepl("PerformanceEvaluation", label, fixed = TRUE), "pe",
    grepl("^java", label), "other JVM",
    default = "shell and samplers")
}

# rounds.csv (one line per measured run) -> one row per run with every measure.
peers_rounds <- function(index) {
  rows <- lapply(seq_len(nrow(index)), function(i) {
    x <- index[i]
    m <- if (x$tool == "pe") parse_pe_log(x$ref) else suite_run_measures(x$ref)
    cpu <- read_cpu_meter(x$cpu_file)
    data.table::data.table(
      round = x$round, op = x$op, threads = x$threads, lab = x$lab %if_absent% "shared", tool = x$tool, ref = basename(x$ref), exit = x$exit,
      operations = m$operations, errors = m$errors %if_absent% 0, throughput_rps = m$throughput_rps,
      steady_rps = m$steady_rps %if_absent% NA_real_, time_to_steady_s = m$time_to_steady_s %if_absent% NA_real_,
      jit_share = client_jit_share(x$jit_file %if_absent% NA_character_, x$tool),
      mean_us = m$mean_us, p99_us = m$p99_us, gap_us = m$gap_us %if_absent% NA_real_,
      cpu_s = cpu$cpu_s, cpu_method = cpu$method, cpu_us_per_op = cpu$cpu_s * 1e6 / m$operations,
      hbase_cpu_us_per_op = x$hbase_cpu_s * 1e6 / m$operations,
      settle_s = x$settle_s %if_absent% NA_real_,
      taken_pct = taken_pct(x$jit_file %if_absent% NA_character_),
      leftovers = paste(cpu$leftovers, collapse = ";"),
      cpu_by_kind = paste(sprintf("%s=%.2f", cpu$by_kind$kind, cpu$by_kind$cpu_s), collapse = ";"))
  })
  data.table::rbindlist(rows)
}

# Per operation, thread count and suite variant: medians of PE and of the suite, and suite / PE
# ratios per round as median (min-max). A ratio pairs the runs of one round, which ran next to
# each other. tool is "suite" (the default) or "suite-<variant>" (--variant).
peers_summary <- function(rounds) {
  pe <- rounds[tool == "pe", .(op, threads, lab, round, pe_rps = throughput_rps, pe_mean_us = mean_us,
                               pe_p99_us = p99_us, pe_cpu_us = cpu_us_per_op, pe_steady_rps = steady_rps, pe_jit = jit_share,
                               pe_time_to_steady_s = time_to_steady_s)]
  paired <- pe[rounds[tool != "pe"], on = .(op, threads, lab, round), nomatch = NULL]
  paired[, `:=`(throughput_ratio = throughput_rps / pe_rps, cpu_ratio = cpu_us_per_op / pe_cpu_us,
                steady_ratio = steady_rps / pe_steady_rps)]
  paired[, .(rounds = .N,
             pe_rps = stats::median(pe_rps), suite_rps = stats::median(throughput_rps),
             throughput_ratio = stats::median(throughput_ratio), throughput_ratio_min = min(throughput_ratio),
             throughput_ratio_max = max(throughput_ratio),
             pe_mean_us = stats::median(pe_mean_us), suite_mean_us = stats::median(mean_us),
             pe_p99_us = stats::median(pe_p99_us), suite_p99_us = stats::median(p99_us),
             pe_cpu_us = stats::median(pe_cpu_us), suite_cpu_us = stats::median(cpu_us_per_op),
             cpu_ratio = stats::median(cpu_ratio), cpu_ratio_min = min(cpu_ratio), cpu_ratio_max = max(cpu_ratio),
             steady_ratio = stats::median(steady_ratio), steady_ratio_min = min(steady_ratio), steady_ratio_max = max(steady_ratio),
             pe_time_to_steady_s = stats::median(pe_time_to_steady_s), suite_time_to_steady_s = stats::median(time_to_steady_s),
             pe_jit = stats::median(pe_jit), suite_jit = stats::median(jit_share),
             suite_gap_us = stats::median(gap_us)),
         keyby = .(op, threads, lab, tool)]
}

# The issue's targets, judged on the summary: one row per target and case.
peers_targets <- function(summary) {
  summary <- summary[tool == "suite"]
  judged <- summary[threads %in% PEERS_JUDGED_THREADS]
  rbind(
    judged[, .(target = sprintf("throughput suite/PE >= %.2f", PEERS_TARGET_THROUGHPUT_RATIO), op, threads, lab,
               value = throughput_ratio, met = throughput_ratio >= PEERS_TARGET_THROUGHPUT_RATIO)],
    summary[, .(target = sprintf("client CPU per request suite/PE <= %.1f", PEERS_TARGET_CPU_RATIO), op, threads, lab,
                value = cpu_ratio, met = cpu_ratio <= PEERS_TARGET_CPU_RATIO)],
    summary[threads == PEERS_STEADY_THREADS, .(target = sprintf("time to steady state <= %d s", PEERS_TARGET_STEADY_S), op, threads, lab,
                             value = suite_time_to_steady_s, met = suite_time_to_steady_s <= PEERS_TARGET_STEADY_S)],
    summary[threads == PEERS_STEADY_THREADS, .(target = sprintf("off-timer gap <= %d us", PEERS_TARGET_GAP_US), op, threads, lab,
                             value = suite_gap_us, met = suite_gap_us <= PEERS_TARGET_GAP_US)])
}

# Where the suite's client CPU went: median seconds per process kind over its runs.
peers_cpu_breakdown <- function(rounds) {
  parts <- rounds[tool != "pe", {
    kv <- strsplit(strsplit(cpu_by_kind, ";", fixed = TRUE)[[1]], "=", fixed = TRUE)
    .(kind = vapply(kv, `[`, "", 1), cpu_s = as.numeric(vapply(kv, `[`, "", 2)))
  }, by = .(op, threads, lab, tool, round, total_s = cpu_s)]
  parts[, .(cpu_s = stats::median(cpu_s), share = stats::median(cpu_s / total_s)), keyby = .(op, threads, lab, tool, kind)]
}

# The time-to-steady target beside what PE itself takes under the same rule: a target no tool
# reaches on this machine says so here, not only "missed".
peers_reference_steady_lines <- function(summary) {
  pe <- summary[tool == "suite" & threads == PEERS_STEADY_THREADS & !is.na(pe_time_to_steady_s)]
  if (nrow(pe) == 0) return(character())
  c(sprintf("PE's own time to steady state by the same rule (median of its runs): %s.",
            paste(pe[, sprintf("%s, %d threads, %s lab: %s s (the suite: %s s)", op, threads, lab, fmt_num(pe_time_to_steady_s, 0),
                               ifelse(is.na(suite_time_to_steady_s), "n/a", fmt_num(suite_time_to_steady_s, 0)))], collapse = "; ")), "")
}

# The pairs of runs during which steal and processes of no role took more than CPU_CONTENDED_PCT of
# the machine in either run: their ratios are in the medians, and the reader should know which.
peers_contended_lines <- function(rounds) {
  if (!"taken_pct" %in% names(rounds) || all(is.na(rounds$taken_pct))) return(character())
  pairs <- rounds[, .(taken = if (all(is.na(taken_pct))) NA_real_ else max(taken_pct, na.rm = TRUE), text = paste(sprintf("%s %s%%", tool, fmt_num(taken_pct, 1)), collapse = ", ")),
                  by = .(round, op, threads, lab)][is.finite(taken) & taken > CPU_CONTENDED_PCT]
  title <- sprintf("## Contended pairs (steal and processes of no role above %d%% of the machine)", CPU_CONTENDED_PCT)
  if (nrow(pairs) == 0) return(c(title, "", sprintf("None: in every run they took at most %s%%.", fmt_num(max(rounds$taken_pct, na.rm = TRUE), 1)), ""))
  c(title, "", pairs[, sprintf("- round %d, %s, %d threads, %s lab: %s; the pair ran while the host or other programs took CPU, and its ratios are in the medians above",
                              round, op, threads, lab, text)], "")
}

peers_markdown <- function(summary, targets, breakdown, rounds, command, when = format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")) {
  ratio <- function(m, lo, hi) sprintf("**%.2f** (%.2f-%.2f)", m, lo, hi)
  steady <- function(m, lo, hi) ifelse(is.na(m), "n/a", sprintf("%.2f (%.2f-%.2f)", m, lo, hi))
  table_rows <- summary[, sprintf("| %s | %d | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s | %s / %s | %s / %s | %s |",
                                  op, threads, lab, tool, fmt_int(pe_rps), fmt_int(suite_rps),
                                  ratio(throughput_ratio, throughput_ratio_min, throughput_ratio_max),
                                  steady(steady_ratio, steady_ratio_min, steady_ratio_max),
                                  fmt_num(pe_mean_us, 0), fmt_num(suite_mean_us, 0),
                                  fmt_num(pe_p99_us, 0), fmt_num(suite_p99_us, 0),
                                  fmt_num(pe_cpu_us, 0), fmt_num(suite_cpu_us, 0),
                                  ratio(cpu_ratio, cpu_ratio_min, cpu_ratio_max),
                                  ifelse(is.na(pe_time_to_steady_s), "n/a", fmt_num(pe_time_to_steady_s, 0)),
                                  ifelse(is.na(suite_time_to_steady_s), "n/a", fmt_num(suite_time_to_steady_s, 0)),
                                  ifelse(is.na(pe_jit), "n/a", fmt_pct(pe_jit, 0)), ifelse(is.na(suite_jit), "n/a", fmt_pct(suite_jit, 0)),
                                  fmt_num(suite_gap_us, 1))]
  target_rows <- targets[, sprintf("| %s | %s, %d threads, %s lab | %s | %s |", target, op, threads, lab,
                                   fmt_num(value, 2), ifelse(met, "met", "**missed**"))]
  kinds <- breakdown[, .(text = paste(sprintf("%s %.1f s (%s)", kind, cpu_s, fmt_pct(share, 0))[order(-cpu_s)], collapse = ", ")),
                     by = .(op, threads, lab, tool)]
  method <- paste(unique(rounds$cpu_method), collapse = ", ")
  settle <- rounds$settle_s %if_absent% NA_real_
  settled <- if (all(is.na(settle))) "HBase's tables were left as the runs before left them (memstores and compactions included)." else
    sprintf("Before every run both tables were flushed and HBase's compactions waited for (`lifecycle table-settle`, median %.1f s, at most %.1f s), so that no run pays for the memstore or compactions of the runs before it.",
            stats::median(settle, na.rm = TRUE), max(settle, na.rm = TRUE))
  c(sprintf("# ./suite bench peers, %s", when), "",
    sprintf("`%s`", command), "",
    sprintf("%d round(s), tools interleaved (who goes first alternates); one embedded HBase 2.6.1; tables of 100,000 rows x 1000 bytes in 8 regions; PE `--nomapred --oneCon=true` (`--autoFlush=true` for randomWrite); the suite: `./suite run`, 1 injector.", max(rounds$round)),
    sprintf("Throughput: every request over first start to last end (PE: rows x cycles over its longest client). Steady: the last two thirds of the suite's run against PE's cycles that start after the first third of each client's time. Time to steady: seconds from the first request until throughput stays within 20%% of its second-half level (the suite: its data logs' completions per second; PE: each client's rows done from its progress lines, every tenth of its rows, interpolated per second and summed; PE prints them for reads only). JIT: the share of each tool's client CPU its JIT compiler threads took (cpu.csv: the suite's run, a sampler beside PE). Lab: shared (every process on every CPU) or isolated (HBase on the server CPUs, each tool on the client CPUs). Latency: PE's own timer and the suite's witness, both around the HBase call; PE's p99 is its worst client's (it never merges them), the suite's is nearest rank over all requests. Client CPU: every process each tool started (`bench/cpu-meter.sh`, %s), JVM start-up included, per request. %s", method, settled),
    "", "| op | threads | lab | suite | PE req/s | suite req/s | suite/PE throughput, median (min-max) | steady suite/PE | mean us PE / suite | p99 us PE / suite | client CPU us/req PE / suite | CPU suite/PE | s to steady PE / suite | JIT PE / suite | suite off-timer gap us |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", table_rows, "",
    "## Targets", "", "| target | case | value | |", "|---|---|---|---|", target_rows, "",
    peers_reference_steady_lines(summary),
    peers_contended_lines(rounds),
    "## Where the suite's client CPU went (median per run)", "",
    sprintf("- %s, %s, %d threads, %s lab: %s", kinds$tool, kinds$op, kinds$threads, kinds$lab, kinds$text),
    if (any(nzchar(rounds$leftovers))) c("", sprintf("Processes left running after a run (stopped by the meter): %s",
                                                   paste(unique(rounds$leftovers[nzchar(rounds$leftovers)]), collapse = "; "))),
    if (any(rounds$exit != 0 | rounds$errors > 0)) c("", "Runs that failed or had errors:",
      rounds[exit != 0 | errors > 0, sprintf("- round %d %s %s %d threads: exit %d, %s errors", round, tool, op, threads, exit, fmt_int(errors))]))
}
