# server.R - HBase's own side of a run: hbase/server-metrics.csv (one row per server per second,
# written by ./suite run's server-metrics sampler; columns, units and the JMX bean and attribute of
# each in lifecycle/README.md, "server-metrics.csv"). Loaded, summarised over the measured window,
# drawn under the client's throughput, and turned into one finding for the verdict sentence:
# whether HBase's handlers were the bottleneck, and which server gave no metrics.

SERVER_METRICS_FILE <- file.path("hbase", "server-metrics.csv")
SERVER_METRICS_NOTES <- file.path("hbase", "server-metrics.json")
SERVER_METRIC_COLUMNS <- c("rpc_queue_calls", "rpc_queue_bytes", "rpc_queue_time_mean_ms", "rpc_queue_time_p99_ms",
                           "rpc_process_time_mean_ms", "rpc_process_time_p99_ms", "handlers_active", "read_requests_per_s",
                           "write_requests_per_s", "memstore_mb", "flush_queue", "compaction_queue", "block_cache_hit_ratio",
                           "store_files", "updates_blocked_ms_per_s", "blocked_requests_per_s", "gc_pause_ms_per_s", "regions",
                           "process_cpu_pct", "host_load1")
# A region server is server-bound when, in at least this fraction of the measured window's answered
# seconds, every handler was busy and calls waited in the RPC queue.
SERVER_BOUND_FRACTION <- 0.25
# Calls queued in at least this fraction of seconds while handlers were free: queueing without
# handler shortage (the handlers wait on CPU, locks or I/O themselves).
SERVER_QUEUED_FRACTION <- 0.25
# GC pauses taking at least this many ms per second on average (5% of the time) are named.
SERVER_GC_MS_PER_S <- 50

# hbase/server-metrics.csv of a run: list(rows, notes, path), or NULL when the run has none.
read_server_metrics <- function(run_dir) {
  path <- file.path(run_dir, SERVER_METRICS_FILE)
  if (!file.exists(path)) return(NULL)
  rows <- tryCatch(suppressWarnings(data.table::fread(path, showProgress = FALSE, integer64 = "double",
                                                      colClasses = list(character = c("server", "role", "status")))),
                   error = function(e) NULL)
  if (is.null(rows) || !all(c("time_ms", "server", "role", "status") %in% names(rows))) {
    return(list(rows = NULL, notes = NULL, path = path, problem = "unreadable (no time_ms, server, role, status header)"))
  }
  for (col in c("time_ms", "handlers", SERVER_METRIC_COLUMNS)) {
    rows[[col]] <- if (col %in% names(rows)) suppressWarnings(as.numeric(rows[[col]])) else rep(NA_real_, nrow(rows))
  }
  rows <- rows[!is.na(time_ms)]
  rows[, label := paste(role, server)]
  notes_path <- file.path(run_dir, SERVER_METRICS_NOTES)
  notes <- if (file.exists(notes_path)) tryCatch(jsonlite::fromJSON(notes_path), error = function(e) NULL) else NULL
  list(rows = rows, notes = notes, path = path, problem = NA_character_)
}

# Per server over [from_ms, to_ms]: seconds sampled and answered, handlers, how often all were busy
# with calls queued, queue and processing times, blocked updates, GC. One row per server seen in
# the file (a server with no answered row keeps its first failure as `failure`).
server_window_stats <- function(rows, from_ms, to_ms) {
  servers <- unique(rows[, .(server, role, label)])
  during <- rows[time_ms >= from_ms & time_ms <= to_ms]
  ok <- during[status == "ok"][order(time_ms)]
  stats <- ok[, .(
    answered = .N,
    handlers = suppressWarnings(max(handlers, na.rm = TRUE)),
    handlers_active_max = suppressWarnings(max(handlers_active, na.rm = TRUE)),
    handlers_active_mean = mean(handlers_active, na.rm = TRUE),
    all_busy_queued = sum(!is.na(handlers) & handlers_active >= handlers & rpc_queue_calls > 0, na.rm = TRUE),
    queued = sum(rpc_queue_calls > 0, na.rm = TRUE),
    queue_max = suppressWarnings(max(rpc_queue_calls, na.rm = TRUE)),
    queue_time_mean_ms = mean(rpc_queue_time_mean_ms, na.rm = TRUE),
    queue_time_p99_max_ms = suppressWarnings(max(rpc_queue_time_p99_ms, na.rm = TRUE)),
    process_time_mean_ms = mean(rpc_process_time_mean_ms, na.rm = TRUE),
    process_time_p99_max_ms = suppressWarnings(max(rpc_process_time_p99_ms, na.rm = TRUE)),
    requests_per_s = mean(read_requests_per_s + write_requests_per_s, na.rm = TRUE),
    # the master has no Server bean: empty, not 0
    blocked_ms = if (all(is.na(updates_blocked_ms_per_s))) NA_real_ else sum(updates_blocked_ms_per_s, na.rm = TRUE),
    gc_ms_per_s = mean(gc_pause_ms_per_s, na.rm = TRUE),
    # its memstore at the window's last answered second (what the runs' puts left in memory)
    memstore_mb_last = rev(c(NA_real_, memstore_mb[!is.na(memstore_mb)]))[1],
    # the regions it held at the window's first and last answered second (files before the column: NA)
    regions_first = regions[!is.na(regions)][1],
    regions_last = rev(c(NA_real_, regions[!is.na(regions)]))[1],
    regions_min = suppressWarnings(min(regions, na.rm = TRUE)),
    regions_max = suppressWarnings(max(regions, na.rm = TRUE)),
    # the server JVM's own CPU, % of one core, and its machine's load (files before the columns: NA)
    cpu_pct_mean = mean(process_cpu_pct, na.rm = TRUE),
    cpu_pct_max = suppressWarnings(max(process_cpu_pct, na.rm = TRUE)),
    host_load1_mean = mean(host_load1, na.rm = TRUE)
  ), by = server]
  sampled <- during[, .(samples = .N, failure = status[status != "ok"][1]), by = server]
  first_failure <- rows[status != "ok", .(run_failure = status[1]), by = server]
  out <- merge(merge(merge(servers, sampled, by = "server", all.x = TRUE), stats, by = "server", all.x = TRUE),
               first_failure, by = "server", all.x = TRUE)
  out[is.na(samples), samples := 0L]
  out[is.na(answered), answered := 0L]
  num <- setdiff(names(out), c("server", "role", "label", "failure", "run_failure"))
  out[, (num) := lapply(.SD, function(x) ifelse(is.finite(x), x, NA_real_)), .SDcols = num]
  data.table::setorder(out, role, server)
  out[]
}

# One finding over the measured window. Returns list(kind, sentence, stats, missing) where kind is
# "server-bound", "queued", "not handler-bound", "no metrics" or NA (no file), and missing names the
# servers that gave no metrics in the window.
server_finding <- function(sm, window) {
  if (is.null(sm)) return(list(kind = NA_character_, sentence = "no hbase/server-metrics.csv in this run", stats = NULL, missing = character()))
  if (is.null(sm$rows) || nrow(sm$rows) == 0) {
    # no server at all: the notes say why (a real cluster's discovery that failed)
    why <- if (!is.null(sm$notes$discovery)) sprintf("no server metrics (%s)", sm$notes$discovery) else
      sprintf("hbase/server-metrics.csv is %s", sm$problem %if_absent% "empty")
    return(list(kind = "no metrics", sentence = why, stats = NULL, missing = character()))
  }
  stats <- server_window_stats(sm$rows, window$window_start_ms, window$window_end_ms)
  silent <- stats[answered == 0]
  missing <- if (nrow(silent) > 0) {
    sprintf("%s (%s)", silent$label, data.table::fcoalesce(silent$failure, silent$run_failure, "no row in the measured window"))
  } else character()
  partial <- stats[answered > 0 & answered < samples]
  gaps <- if (nrow(partial) > 0) sprintf("%s answered %d of %d samples", partial$label, partial$answered, partial$samples) else character()
  rs <- stats[role == "regionserver" & answered > 0]
  found <- if (nrow(rs) > 0) region_server_clauses(rs) else list(kind = "no metrics", clauses = character())
  kind <- found$kind
  clauses <- found$clauses
  gc <- stats[answered > 0 & !is.na(gc_ms_per_s) & gc_ms_per_s >= SERVER_GC_MS_PER_S]
  if (nrow(gc) > 0) {
    # in the embedded HBase master and region server are one JVM: name its pauses once
    gc <- gc[!duplicated(round(gc_ms_per_s, 3))]
    clauses <- c(clauses, sprintf("GC paused %s", paste(sprintf("%s for %s ms per second", gc$label, fmt_num(gc$gc_ms_per_s, 0)), collapse = ", ")))
  }
  if (length(missing) > 0) clauses <- c(clauses, sprintf("no metrics from %s", paste(missing, collapse = "; ")))
  if (length(gaps) > 0) clauses <- c(clauses, paste(gaps, collapse = "; "))
  list(kind = kind, sentence = paste(clauses, collapse = "; "), stats = stats, missing = missing,
       requests = sampling_requests(sm$notes))
}

# What the sampling asked of the servers (server-metrics.json's jmx_requests over its most sampled
# server's samples): list(total, per_sample), NULL in notes from before the count.
sampling_requests <- function(notes) {
  total <- notes$jmx_requests
  samples <- suppressWarnings(max(as.numeric(notes$servers$samples %if_absent% numeric())))
  if (is.null(total) || !is.finite(samples) || samples <= 0) return(NULL)
  list(total = as.numeric(total), per_sample = as.numeric(total) / samples)
}

# The region servers that answered (RS, rows of server_window_stats): the handler finding's kind
# ("server-bound", "queued" or "not handler-bound") and its clauses, with moved regions and
# blocked updates.
region_server_clauses <- function(rs) {
  who <- function(r) sprintf("%s: %s", r$label, r$detail)
  rs[, bound := all_busy_queued >= SERVER_BOUND_FRACTION * answered & all_busy_queued > 0]
  rs[, queued_free := !bound & queued >= SERVER_QUEUED_FRACTION * answered & queued > 0]
  rs[, handlers_text := ifelse(is.na(handlers), sprintf("up to %s handlers active (handler count unknown)", fmt_int(handlers_active_max)),
                               sprintf("up to %s of %s handlers active", fmt_int(handlers_active_max), fmt_int(handlers)))]
  # HBase's call-time histograms are in whole ms: a sub-ms call counts as 0
  rs[, times := sprintf("mean RPC queue time %s ms, processing %s ms (HBase's whole ms)", fmt_num(queue_time_mean_ms, 1),
                        fmt_num(process_time_mean_ms, 1))]
  if (any(rs$bound)) {
    kind <- "server-bound"
    b <- rs[bound == TRUE]
    b[, detail := sprintf("all %s handlers busy with calls queued in %d of %d s, up to %s calls queued, queue time p99 up to %s ms",
                          fmt_int(handlers), all_busy_queued, answered, fmt_int(queue_max), fmt_num(queue_time_p99_max_ms, 0))]
    clauses <- sprintf("server-bound: the RPC call queue grew while all handlers were busy (%s)", paste(who(b), collapse = "; "))
  } else if (any(rs$queued_free)) {
    kind <- "queued"
    q <- rs[queued_free == TRUE]
    q[, detail := sprintf("calls queued in %d of %d s, up to %s, with %s; %s", queued, answered, fmt_int(queue_max), handlers_text, times)]
    clauses <- sprintf("calls queued while handlers were free, so not for want of handlers: they wait on CPU, locks or I/O (%s)",
                       paste(who(q), collapse = "; "))
  } else {
    kind <- "not handler-bound"
    rs[, detail := sprintf("%s, calls queued in %d of %d s; %s", handlers_text, queued, answered, times)]
    clauses <- sprintf("not handler-bound (%s)", paste(who(rs), collapse = "; "))
  }
  moved <- rs[!is.na(regions_min) & regions_min != regions_max]
  if (nrow(moved) > 0) {
    clauses <- c(clauses, sprintf("regions moved: %s", paste(region_moves(moved), collapse = ", ")))
  }
  blocked <- rs[!is.na(blocked_ms) & blocked_ms > 0]
  if (nrow(blocked) > 0) {
    clauses <- c(clauses, sprintf("updates blocked for %s (memstore over its limit)",
                                  paste(sprintf("%s ms on %s", fmt_int(blocked$blocked_ms), blocked$label), collapse = ", ")))
  }
  list(kind = kind, clauses = clauses)
}

# "regionserver A 4 -> 0" per server whose region count changed (with its range when it went and came back).
region_moves <- function(moved) {
  range <- ifelse(moved$regions_min < pmin(moved$regions_first, moved$regions_last) |
                    moved$regions_max > pmax(moved$regions_first, moved$regions_last),
                  sprintf(" (%s to %s between)", fmt_int(moved$regions_min), fmt_int(moved$regions_max)), "")
  sprintf("%s %s -> %s%s", moved$label, fmt_int(moved$regions_first), fmt_int(moved$regions_last), range)
}

# The check row ("can these numbers be trusted" table): information, not a judgement of the client's figures.
check_server_metrics <- function(finding) {
  if (is.na(finding$kind)) {
    return(check_row("HBase server", "n/a", "no hbase/server-metrics.csv in this run (no server metrics sampled)", ""))
  }
  check_row("HBase server", "info", finding$sentence,
            paste("HBase's own view of the measured window, from each server's JMX once a second (hbase/server-metrics.csv):",
                  sprintf("server-bound when in %d%% or more of the seconds every RPC handler was busy and calls waited in the queue;",
                          round(100 * SERVER_BOUND_FRACTION)),
                  "calls queued while handlers were free point at CPU, locks or I/O instead. Servers that did not answer are named."))
}

# The verdict's clause, "; HBase: ..." (empty without server metrics).
server_verdict_suffix <- function(facts) {
  s <- facts$server
  if (is.null(s) || is.na(s$kind) || !nzchar(s$sentence)) return("")
  paste0("; HBase: ", s$sentence)
}

# The server metrics under the client's throughput, one panel each, on the run's time axis.
plot_server_metrics <- function(sm, seconds, window, finding = NULL) {
  margin_ms <- 30000
  m <- sm$rows[status == "ok" & time_ms >= window$run_start_ms - margin_ms & time_ms <= window$run_end_ms + margin_ms]
  m[, second := (time_ms - window$run_start_ms) / 1000]
  panel <- function(value, name, stat = "value") m[, .(label, second, value = value, panel = name, stat = stat)]
  long <- data.table::rbindlist(list(
    panel(m$read_requests_per_s, "server requests (req/s)", "read"),
    panel(m$write_requests_per_s, "server requests (req/s)", "write"),
    panel(m$rpc_queue_calls, "RPC call queue (calls)"),
    panel(m$handlers_active, "active RPC handlers"),
    panel(m$rpc_queue_time_mean_ms, "RPC queue time (ms)", "mean"),
    panel(m$rpc_queue_time_p99_ms, "RPC queue time (ms)", "p99"),
    panel(m$rpc_process_time_mean_ms, "RPC processing time (ms)", "mean"),
    panel(m$rpc_process_time_p99_ms, "RPC processing time (ms)", "p99"),
    panel(m$memstore_mb, "memstore (MiB)"),
    panel(m$flush_queue, "flush / compaction queue", "flush"),
    panel(m$compaction_queue, "flush / compaction queue", "compaction"),
    panel(100 * m$block_cache_hit_ratio, "block cache hit %"),
    panel(m$store_files, "store files"),
    panel(m$updates_blocked_ms_per_s, "updates blocked (ms/s)"),
    panel(m$gc_pause_ms_per_s, "GC pause (ms/s)"),
    panel(m$regions, "regions held"),
    panel(m$process_cpu_pct, "server JVM CPU (% of a core)")
  ))[!is.na(value)]
  throughput <- seconds[, .(label = "client: all injectors", second = second + 0.5, value = as.numeric(requests),
                            panel = "client throughput (req/s)", stat = "value")]
  data <- rbind(throughput, long)
  levels <- c("client throughput (req/s)", unique(long$panel))
  data[, panel := factor(panel, levels = levels)]
  handlers <- unique(m[!is.na(handlers), .(label, y = handlers)])
  handlers[, panel := factor("active RPC handlers", levels = levels)]
  missing <- if (!is.null(finding) && length(finding$missing) > 0) paste0("\nno metrics: ", paste(finding$missing, collapse = "; ")) else ""
  ggplot2::ggplot(data, ggplot2::aes(x = second, y = value, colour = label, linetype = stat)) +
    ggplot2::annotate("rect", xmin = 0, xmax = window$warmup_ms / 1000, ymin = -Inf, ymax = Inf, fill = "grey70", alpha = 0.35) +
    ggplot2::geom_hline(data = handlers, ggplot2::aes(yintercept = y, colour = label), linetype = "dashed") +
    ggplot2::geom_line(linewidth = 0.4) +
    ggplot2::expand_limits(y = 0) +
    ggplot2::facet_wrap(~panel, ncol = 1, scales = "free_y") +
    ggplot2::scale_linetype_manual(values = c(value = "solid", read = "solid", write = "dashed", mean = "solid", p99 = "dashed",
                                              flush = "solid", compaction = "dashed"),
                                   breaks = c("read", "write", "mean", "p99", "flush", "compaction")) +
    ggplot2::guides(colour = ggplot2::guide_legend(ncol = 2), linetype = ggplot2::guide_legend(ncol = 6)) +
    ggplot2::labs(title = "HBase server metrics aligned with throughput (JMX, once a second)", x = "seconds since the first request",
                  y = NULL, colour = NULL, linetype = NULL,
                  subtitle = paste0("grey: warm-up cut; dashed in 'active RPC handlers': the server's handler count",
                                    strwrap(missing, 150, prefix = "\n", initial = ""))) +
    report_theme()
}

# The report section: the finding, the figure, a table per server; or a note when the run has no file.
server_metrics_section <- function(a, plot) {
  f <- a$facts$server
  if (is.null(f) || is.na(f$kind)) {
    return(html_p("No HBase server metrics: this run has no hbase/server-metrics.csv (runs from before the sampler, or a folder of data logs only).",
                  class = "note"))
  }
  table <- if (!is.null(f$stats) && nrow(f$stats) > 0) {
    s <- f$stats
    html_table(data.frame(
      server = s$label,
      `answered / sampled` = sprintf("%d / %d", s$answered, s$samples),
      handlers = ifelse(is.na(s$handlers), "unknown", fmt_int(s$handlers)),
      `active max / mean` = ifelse(s$answered > 0, sprintf("%s / %s", fmt_int(s$handlers_active_max), fmt_num(s$handlers_active_mean, 1)), ""),
      `s all busy + queued` = ifelse(s$answered > 0, as.character(s$all_busy_queued), ""),
      `s queued / max calls` = ifelse(s$answered > 0, sprintf("%d / %s", s$queued, fmt_int(s$queue_max)), ""),
      `queue ms mean / p99 max` = ifelse(s$answered > 0, sprintf("%s / %s", fmt_num(s$queue_time_mean_ms, 1), fmt_num(s$queue_time_p99_max_ms, 0)), ""),
      `processing ms mean / p99 max` = ifelse(s$answered > 0, sprintf("%s / %s", fmt_num(s$process_time_mean_ms, 1), fmt_num(s$process_time_p99_max_ms, 0)), ""),
      `server req/s` = fmt_num(s$requests_per_s, 0),
      `blocked ms` = fmt_int(s$blocked_ms),
      `GC ms/s` = fmt_num(s$gc_ms_per_s, 1),
      `regions first / last` = ifelse(is.na(s$regions_first), "", sprintf("%s / %s", fmt_int(s$regions_first), fmt_int(s$regions_last))),
      `CPU % of a core mean / max` = ifelse(is.na(s$cpu_pct_mean), "", sprintf("%s / %s", fmt_num(s$cpu_pct_mean, 0), fmt_num(s$cpu_pct_max, 0))),
      `host load` = ifelse(is.na(s$host_load1_mean), "", fmt_num(s$host_load1_mean, 1)),
      `no answer` = data.table::fcoalesce(s$failure, ifelse(s$answered == 0, s$run_failure, NA_character_), ""),
      check.names = FALSE), left = c(1, 15), nowrap = 1)
  }
  tagList(
    html_p(paste0("HBase: ", f$sentence, "."), class = if (f$kind == "server-bound" || length(f$missing) > 0) "why" else NULL),
    html_img(plot, "HBase server metrics"),
    table,
    html_p(paste("Measured window only. Columns, units and the JMX bean and attribute of each: lifecycle/README.md, 'server-metrics.csv'.",
                 "In the embedded HBase master and region server are one JVM: their GC pauses and CPU are the same.",
                 if (!is.null(f$requests)) sprintf("The sampling asked the servers %s /jmx requests over the run, %s a sample, served on their own CPU and counted in it.",
                                                   fmt_int(f$requests$total), fmt_num(f$requests$per_sample, 1)),
                 "Host load: the 1-minute load average of each server's machine (one machine for a local cluster)."), class = "meta"))
}
