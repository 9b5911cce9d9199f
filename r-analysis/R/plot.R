# plot.R - prepared (already aggregated) tables -> ggplot objects, and PNG files.
# Nothing here touches request-level data: every plot draws a few thousand rows at most.

PERCENTILE_BREAKS <- c(1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7)
PERCENTILE_LABELS <- c("0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%", "99.99999%")

# FALSE under report.R --no-plots: no chart is drawn, and the pages say so (plots_note).
plots_drawn <- function() !isFALSE(getOption("hbasegrinder.plots"))

report_theme <- function() {
  ggplot2::theme_bw(base_size = 11) +
    ggplot2::theme(legend.position = "bottom", strip.background = ggplot2::element_rect(fill = "grey92"),
                   plot.title = ggplot2::element_text(face = "bold"))
}

facet_height <- function(n_panels, ncol = 2, per_row = 2.6, extra = 1.2) {
  extra + per_row * ceiling(max(n_panels, 1) / ncol)
}

# Full-range histogram: count on a log axis so the tail stays visible.
plot_histogram_full <- function(hist) {
  data <- hist[range == "full"]
  ggplot2::ggplot(data, ggplot2::aes(xmin = xmin, xmax = xmax, ymin = 0.5, ymax = N)) +
    ggplot2::geom_rect(fill = "steelblue", colour = NA) +
    ggplot2::scale_y_log10(labels = scales::label_comma()) +
    ggplot2::facet_wrap(~test, scales = "free", ncol = 2) +
    ggplot2::labs(title = "Latency histogram, full range", x = "latency (ms)", y = "requests (log scale)",
                  subtitle = "measured window; each test in the latency named in its panel") +
    report_theme()
}

# Zoomed histogram on the bulk: everything up to the p99 (ZOOM_PERCENT).
plot_histogram_zoom <- function(hist) {
  data <- hist[range != "full"]
  data[, panel := paste0(test, ", ", range)]
  ggplot2::ggplot(data, ggplot2::aes(xmin = xmin, xmax = xmax, ymin = 0, ymax = N)) +
    ggplot2::geom_rect(fill = "steelblue", colour = "white", linewidth = 0.1) +
    ggplot2::scale_y_continuous(labels = scales::label_comma()) +
    ggplot2::facet_wrap(~panel, scales = "free", ncol = 2) +
    ggplot2::labs(title = "Latency histogram, zoomed on the bulk (up to each test's p99)", x = "latency (ms)", y = "requests") +
    report_theme()
}

percentile_x <- function(percentile) 1 / (1 - pmin(percentile, 99.99999) / 100)

# colour_by: "latency" (one run: Grinder, witness, intended start, CO estimate) or "label" (comparisons).
plot_percentiles <- function(curves, colour_by = "latency", title = "Latency by percentile") {
  data <- curves[value > 0]
  data[, x := percentile_x(percentile)]
  # one line per run (comparisons) or per latency source (one run)
  data[, line := if ("run" %in% names(data)) paste(run, latency) else latency]
  top <- max(data$x)
  ggplot2::ggplot(data, ggplot2::aes(x = x, y = value, colour = .data[[colour_by]], group = line)) +
    ggplot2::geom_step(linewidth = 0.7) +
    # only ticks inside the data, and room on the right so the last label is not clipped
    ggplot2::scale_x_log10(breaks = PERCENTILE_BREAKS[PERCENTILE_BREAKS <= top], labels = PERCENTILE_LABELS[PERCENTILE_BREAKS <= top],
                           expand = ggplot2::expansion(mult = c(0.02, 0.08))) +
    ggplot2::scale_y_log10(labels = scales::label_number(drop0trailing = TRUE)) +
    ggplot2::facet_wrap(~test, scales = "free_y", ncol = 2) +
    ggplot2::guides(colour = ggplot2::guide_legend(ncol = if (colour_by == "label") 1 else 4)) +
    ggplot2::labs(title = title, x = "percentile (log scale of 1 / (1 - p))", y = "latency (ms, log scale)",
                  colour = NULL, caption = "0 ms values cannot be drawn on a log axis and are left out") +
    report_theme() + ggplot2::theme(panel.grid.minor.x = ggplot2::element_blank(),
                                    plot.margin = ggplot2::margin(6, 24, 6, 6))
}

# "detected", "--warmup 5 s" or "first 10% of the run", for plot subtitles.
warmup_rule_short <- function(window) {
  if (isTRUE(window$warmup_detected)) "detected" else sub(":.*", "", window$warmup_rule)
}

# Warm-up seconds above the measured seconds' range of their panel are drawn at its top
# (triangles), so a start-up spike does not squash the measured window.
cap_warmup_spikes <- function(data, cut_s, headroom = 1.1) {
  first_measured <- ceiling(cut_s)
  tops <- data[second >= first_measured & is.finite(value), .(top = headroom * max(value)), by = panel]
  data[tops, on = "panel", top := i.top]
  data[, capped := second < first_measured & !is.na(top) & !is.na(value) & value > top]
  data[capped == TRUE, value := top]
  data[, top := NULL]
  data[]
}

# Throughput, mean and p90 per second, blackout seconds in red, warm-up in grey (spikes capped).
plot_timeline <- function(timeline, seconds, window, faults = NULL) {
  panels <- c("throughput (req/s)", "mean latency (ms)", "p90 latency (ms)")
  throughput <- timeline[, .(series = series, second, value = as.numeric(requests), panel = panels[1])]
  if (data.table::uniqueN(timeline$series) > 1) {
    throughput <- rbind(throughput, seconds[, .(series = "all tests", second, value = as.numeric(requests), panel = panels[1])])
  }
  latency <- rbind(timeline[, .(series, second, value = mean, panel = panels[2])],
                   timeline[, .(series, second, value = p90, panel = panels[3])])
  cut_s <- window$warmup_ms / 1000
  data <- cap_warmup_spikes(rbind(throughput, latency), cut_s)
  data[, panel := factor(panel, levels = panels)]
  blackouts <- seconds[blackout == TRUE]
  n_black <- sum(blackouts$measured)
  ggplot2::ggplot(data, ggplot2::aes(x = second + 0.5, y = value, colour = series)) +
    ggplot2::annotate("rect", xmin = 0, xmax = cut_s, ymin = -Inf, ymax = Inf, fill = "grey70", alpha = 0.35) +
    ggplot2::geom_rect(data = blackouts, inherit.aes = FALSE,
                       ggplot2::aes(xmin = second, xmax = second + 1, ymin = -Inf, ymax = Inf),
                       fill = "red", alpha = 0.35) +
    ggplot2::geom_line(linewidth = 0.4) +
    ggplot2::geom_point(data = data[capped == TRUE], shape = 17, size = 2, show.legend = FALSE) +
    fault_layers(faults, factor(panels[1], levels = panels)) +
    ggplot2::facet_wrap(~panel, ncol = 1, scales = "free_y") +
    ggplot2::labs(title = "Over time (per second, by completion time)",
                  subtitle = sprintf(paste0("grey: warm-up cut (%.1f s, %s); red: %d blackout second%s in the measured window (%d in all)",
                                            if (any(data$capped)) "\ntriangles: warm-up seconds above the measured range, drawn at the top of the scale" else "",
                                            if (!is.null(faults)) "\ndashed: the run's fault actions (faults.csv); orange: a region server paused" else ""),
                                     cut_s, warmup_rule_short(window), n_black, if (n_black == 1) "" else "s", nrow(blackouts)),
                  x = "seconds since the first request", y = NULL, colour = NULL) +
    report_theme()
}

# The fault schedule on the timeline: a dashed line per action that happened, labelled on the
# throughput panel ("kill rs2"), and each pause shaded until its resume. faults: analyse_run's.
fault_layers <- function(faults, label_panel) {
  if (is.null(faults)) return(list())
  done <- faults$effects[outcome == "done" & !is.na(second)]
  if (nrow(done) == 0) return(list())
  labels <- done[, .(second, panel = label_panel, label = sprintf("%s rs%d", action, regionserver))]
  list(
    if (nrow(faults$pauses) > 0) ggplot2::geom_rect(data = faults$pauses, inherit.aes = FALSE,
                                                   ggplot2::aes(xmin = start, xmax = end, ymin = -Inf, ymax = Inf),
                                                   fill = "orange", alpha = 0.3),
    ggplot2::geom_vline(data = done, ggplot2::aes(xintercept = second), linetype = "dashed", colour = "grey20"),
    ggplot2::geom_text(data = labels, ggplot2::aes(x = second, y = Inf, label = label), inherit.aes = FALSE,
                       angle = 90, hjust = 1.05, vjust = -0.4, size = 3, colour = "grey20"))
}

# Grinder time against the witness: on the diagonal Grinder adds nothing; steps show its whole ms.
plot_overhead <- function(tiles) {
  ggplot2::ggplot(tiles, ggplot2::aes(x = witness_ms, y = grinder_ms, fill = N)) +
    ggplot2::geom_tile(ggplot2::aes(width = witness_width_ms, height = grinder_height_ms)) +
    ggplot2::geom_abline(slope = 1, intercept = 0, colour = "red", linetype = "dashed") +
    ggplot2::scale_fill_viridis_c(trans = "log10", labels = scales::label_comma()) +
    ggplot2::facet_wrap(~label, scales = "free", ncol = 2) +
    ggplot2::labs(title = "Grinder time against witness time (tool overhead)",
                  subtitle = "requests up to each test's p99.9; red dashed: Grinder = witness",
                  x = "witness (ms): System.nanoTime around the HBase call", y = "Grinder Test time (ms, whole)",
                  fill = "requests") +
    report_theme()
}

# Host metrics, aligned on the same seconds as the run's throughput.
plot_host_metrics <- function(metrics, seconds, window, shared = FALSE, gc_seconds = NULL) {
  margin_ms <- 30000
  m <- metrics[time_ms >= window$run_start_ms - margin_ms & time_ms <= window$run_end_ms + margin_ms]
  m[, second := (time_ms - window$run_start_ms) / 1000]
  long <- data.table::rbindlist(list(
    m[, .(host, second, value = cpu_busy_pct, panel = "CPU busy %")],
    m[, .(host, second, value = cpu_busiest_core_pct, panel = "busiest core %")],
    m[, .(host, second, value = cpu_steal_pct, panel = "CPU steal %")],
    m[, .(host, second, value = load1, panel = "load 1 min")],
    m[, .(host, second, value = procs_running, panel = "run queue (runnable)")],
    m[, .(host, second, value = mem_used_mb, panel = "memory used (MB)")],
    m[, .(host, second, value = data.table::fcoalesce(net_rx_kbs, 0) + data.table::fcoalesce(net_tx_kbs, 0), panel = "network rx+tx (kB/s)")][!is.na(m$net_rx_kbs) | !is.na(m$net_tx_kbs)],
    m[, .(host, second, value = data.table::fcoalesce(disk_read_kbs, 0) + data.table::fcoalesce(disk_write_kbs, 0), panel = "disk r+w (kB/s)")][!is.na(m$disk_read_kbs) | !is.na(m$disk_write_kbs)],
    m[, .(host, second, value = tcp_retrans_s, panel = "TCP retrans/s")]
  ))[!is.na(value)]
  if (!is.null(gc_seconds) && nrow(long) > 0) {  # on the same span as the host metrics
    long <- rbind(long, gc_seconds[second + 0.5 >= min(long$second) & second + 0.5 <= max(long$second),
                                   .(host, second = second + 0.5, value, panel = "worker GC pause (ms per s)")])
  }
  throughput <- seconds[, .(host = "all injectors", second = second + 0.5, value = requests, panel = "throughput (req/s)")]
  data <- rbind(throughput, long)
  levels <- c("throughput (req/s)", "CPU busy %", "busiest core %", "CPU steal %", "load 1 min", "run queue (runnable)",
              "memory used (MB)", "network rx+tx (kB/s)", "disk r+w (kB/s)", "TCP retrans/s", "worker GC pause (ms per s)")
  data[, panel := factor(panel, levels = intersect(levels, unique(panel)))]
  limit <- data.table::data.table(panel = factor("CPU busy %", levels = levels(data$panel)), y = INJECTOR_CPU_LIMIT_PCT)
  ggplot2::ggplot(data, ggplot2::aes(x = second, y = value, colour = host)) +
    ggplot2::annotate("rect", xmin = 0, xmax = window$warmup_ms / 1000, ymin = -Inf, ymax = Inf, fill = "grey70", alpha = 0.35) +
    ggplot2::geom_hline(data = limit, ggplot2::aes(yintercept = y), linetype = "dashed", colour = "red") +
    ggplot2::geom_line(linewidth = 0.4) +
    ggplot2::facet_wrap(~panel, ncol = 1, scales = "free_y") +
    ggplot2::labs(title = "Host metrics aligned with throughput", x = "seconds since the first request", y = NULL,
                  colour = NULL, subtitle = paste0("red dashed: 85% CPU, above which an injector distorts what it measures",
                                                   if (shared) "\nall hosts are this one machine (shared with HBase): their lines coincide" else "")) +
    report_theme()
}

# Total throughput against threads, one line per workload; bars: min..max of repeats.
plot_scaling_throughput <- function(scaling) {
  data <- scaling[test == "total"]
  ggplot2::ggplot(data, ggplot2::aes(x = threads, y = throughput_median, colour = scaling_label, group = scaling_label)) +
    ggplot2::geom_path() + ggplot2::geom_point(size = 2) +
    ggplot2::geom_errorbar(ggplot2::aes(ymin = throughput_min, ymax = throughput_max), width = 0, alpha = 0.6) +
    ggplot2::scale_y_continuous(labels = scales::label_comma()) +
    ggplot2::guides(colour = ggplot2::guide_legend(ncol = 1)) +
    ggplot2::labs(title = "Throughput against threads (all tests of a run)", subtitle = "median of repeats; bars: min..max",
                  x = "threads", y = "throughput (req/s)", colour = NULL) +
    report_theme()
}

# One panel per test: mean and p90 against throughput, thread counts in order, knee circled.
plot_scaling_latency <- function(scaling) {
  long <- rbind(scaling[, .(test, scaling_label, threads, throughput_rps = throughput_median, latency = mean_median, stat = "mean", knee)],
                scaling[, .(test, scaling_label, threads, throughput_rps = throughput_median, latency = p90_median, stat = "p90", knee)])
  long[, test := paste0(test, " (", scaling$metric[match(test, scaling$test)], ")")]
  knees <- long[knee == TRUE & stat == "mean"]
  ggplot2::ggplot(long, ggplot2::aes(x = throughput_rps, y = latency, colour = scaling_label, linetype = stat,
                                     group = interaction(stat, scaling_label))) +
    ggplot2::geom_path() + ggplot2::geom_point(size = 1.8) +
    ggplot2::geom_point(data = knees, shape = 21, size = 6, stroke = 1.2, colour = "red", show.legend = FALSE) +
    ggplot2::geom_text(data = knees, ggplot2::aes(label = paste(threads, "threads")), colour = "red",
                       vjust = -1.6, size = 3.3, show.legend = FALSE) +
    ggplot2::scale_x_continuous(labels = scales::label_comma(), expand = ggplot2::expansion(mult = 0.1)) +
    ggplot2::scale_y_continuous(expand = ggplot2::expansion(mult = c(0.05, 0.15))) +
    ggplot2::facet_wrap(~test, scales = "free", ncol = 2) +
    ggplot2::guides(colour = ggplot2::guide_legend(ncol = 1)) +
    ggplot2::labs(title = "Latency against throughput",
                  subtitle = sprintf("medians per thread count, joined in thread order; knee (red circle, with %d or more thread counts): the highest throughput / mean latency", KNEE_MIN_POINTS),
                  x = "throughput (req/s)", y = "latency (ms)", colour = NULL, linetype = NULL) +
    report_theme()
}

# The capacity model's chart is drawn to at most this many times the largest N measured (or a
# little past a peak that lies beyond it): further out the law is a guess, not a reading.
USL_CHART_EXTRAPOLATION <- 2

# Every run's total throughput against N (points), the fitted law (solid over the N measured, dashed
# where it extrapolates), linear scaling at lambda per client (dotted) and the peak; a model that
# was not fitted draws the points and says why. m: one scalability.R model row; over: "threads"
# or "region_servers".
plot_usl <- function(m, points, over) {
  words <- USL_OVER[[over]]
  fitted <- m$status == USL_STATUS[["fitted"]]
  plot <- ggplot2::ggplot(points, ggplot2::aes(x = n, y = throughput_rps))
  if (fitted) {
    n_to <- if (is.finite(m$peak_n) && m$peak_n > m$n_max) min(1.15 * m$peak_n, USL_CHART_EXTRAPOLATION * m$n_max) else m$n_max
    curve <- usl_curve(m, n_to)
    linear <- data.table::data.table(n = c(1, n_to), throughput = m$lambda * c(1, n_to))
    peak <- data.table::data.table(n = m$peak_n, throughput = m$peak_throughput)[is.finite(n) & n <= n_to]
    plot <- plot +
      ggplot2::geom_line(data = linear, ggplot2::aes(x = n, y = throughput), colour = "grey55", linetype = "dotted") +
      ggplot2::geom_line(data = curve, ggplot2::aes(x = n, y = throughput, group = segment, linetype = part, linewidth = part),
                         colour = "steelblue") +
      ggplot2::geom_vline(data = peak, ggplot2::aes(xintercept = n), colour = "firebrick", linetype = "dotted") +
      ggplot2::geom_point(data = peak, ggplot2::aes(x = n, y = throughput), colour = "firebrick", size = 3, shape = 18) +
      ggplot2::geom_text(data = peak, ggplot2::aes(x = n, y = throughput, label = sprintf("peak near %s %s: about %s req/s", fmt_int(n), words$few,
                                                                                          fmt_about(throughput))),
                         colour = "firebrick", vjust = -1.1, size = 3.4) +
      ggplot2::scale_linetype_manual(values = c("measured range" = "solid", extrapolation = "dashed"),
                                     labels = c("measured range" = "USL fit, over the N measured", extrapolation = "USL fit, extrapolated")) +
      ggplot2::scale_linewidth_manual(values = c("measured range" = 0.9, extrapolation = 0.6), guide = "none") +
      ggplot2::coord_cartesian(ylim = c(0, 1.18 * max(points$throughput_rps, curve$throughput)))
  }
  subtitle <- if (fitted) {
    sprintf("lambda %s req/s per %s; sigma %s [%s, %s]; kappa %s [%s, %s] (%d%% intervals); R^2 %s; %d runs at %d %s; dotted grey: linear scaling",
            fmt_sig(m$lambda), sub("s$", "", words$few), fmt_sig(m$sigma), fmt_sig(m$sigma_low), fmt_sig(m$sigma_high), fmt_sig(m$kappa),
            fmt_sig(m$kappa_low), fmt_sig(m$kappa_high), round(100 * m$confidence), formatC(m$r_squared, format = "f", digits = 3),
            m$points, m$distinct_n, words$counts)
  } else m$message
  plot +
    ggplot2::geom_point(size = 2.4, shape = 21, fill = "white", colour = "black", stroke = 1) +
    # whole clients and servers only
    ggplot2::scale_x_continuous(labels = scales::label_comma(), limits = c(0, NA), breaks = function(lim) unique(floor(pretty(lim)))) +
    ggplot2::scale_y_continuous(labels = scales::label_comma(), limits = if (fitted) NULL else c(0, NA)) +
    ggplot2::labs(title = sprintf("%s: throughput against %s (Universal Scalability Law)", m$workload, words$many),
                  subtitle = paste(strwrap(subtitle, 115), collapse = "\n"), x = words$many, y = "throughput (req/s, all tests)", linetype = NULL) +
    report_theme()
}

# Write a plot to PNG (cairo, no X11 needed); ggplot's warnings about dropped rows are expected.
save_png <- function(plot, path, height = 5, width = 9.5) {
  if (!plots_drawn()) return(NULL)
  grDevices::png(path, width = width, height = height, units = "in", res = 100, type = "cairo")
  on.exit(grDevices::dev.off())
  suppressWarnings(suppressMessages(print(plot)))
  invisible(path)
}
