# render-sweep.R - the sections a sweep's page adds to a comparison's: the capacity under the
# gates, the scaling charts and knee, the Universal Scalability Law's models.

capacity_box <- function(cap, slo) {
  if (is.null(cap)) return(html_p("No --slo given: no capacity. Give gates (e.g. --slo 'p99_ms<50,error_rate<0.001') to name the highest throughput that meets them.", class = "meta"))
  if (is.na(cap$throughput_rps)) {
    return(tags$div(class = "verdict v-no-capacity", tags$b("Capacity"),
                    sprintf(": none of the %d runs meets every gate (%s); report.R exits 99.", cap$runs, slo)))
  }
  tags$div(class = "headline",
           tags$div(class = if (!cap$verdict %in% VALID_KINDS) "disq", paste("Capacity under", slo),
                    tags$b(sprintf("%s req/s%s", fmt_num(cap$throughput_rps, 0), if (isTRUE(cap$lower_bound)) " at least" else "")),
                    sprintf("%s (%d of %d runs meet every gate; verdict: %s)", cap$label, cap$runs_meeting, cap$runs, cap$verdict)))
}

knee_text <- function(scaling) {
  knees <- scaling[knee == TRUE]
  if (nrow(knees) == 0) {
    return(html_p(sprintf("No knee named: it needs %d or more thread counts of one workload.", KNEE_MIN_POINTS), class = "meta"))
  }
  html_p("Knee (highest throughput / mean latency): ",
         paste(sprintf("%s at %s threads (%s req/s, mean %s ms; %s)", knees$series, fmt_int(knees$threads),
                                   fmt_num(knees$throughput_median, 1), fmt_num(knees$mean_median, 3), knees$runs),
                           collapse = "; "), ".")
}

# The scaling charts are greyed when a run they draw has its throughput disqualified.
scaling_why <- function(scaling, runs) throughput_disqualified_why(runs[group %in% scaling$group])

USL_INTRO <- paste(
  "The Universal Scalability Law, X(N) = &lambda;N / (1 + &sigma;(N &minus; 1) + &kappa;N(N &minus; 1)), fitted by least squares on",
  "log X (R's nls, port algorithm, bounds &lambda; &gt; 0, 0 &le; &sigma; &le; 1, &kappa; &ge; 0) to every run's total throughput, per",
  "workload and target; repeats are points of their own. &lambda;: throughput per client without contention; &sigma;: contention",
  "(work queueing for something shared: throughput levels off); &kappa;: coherency (every client's cost to every other: throughput",
  "falls past the peak N* = &radic;((1 &minus; &sigma;) / &kappa;)). Intervals are %d%%, from the fit's standard errors; those of N* and",
  "X(N*) are read at the corners of &lambda;'s, &sigma;'s and &kappa;'s. With %d or more distinct N only. Mean latency follows by",
  "Little's law for a closed loop, R(N) = N / X(N): a client's whole cycle, its time between requests included, so a prediction",
  "against a mean-latency gate errs on the safe side. The curve beyond the N measured is an extrapolation.")

# The fits of one kind as a table: estimates with their intervals, greyed rows for disqualified workloads.
usl_table <- function(models, over) {
  interval <- function(x, lo, hi, f) ifelse(is.na(x) & is.na(lo), "", sprintf("%s [%s, %s]", f(x), f(lo), f(hi)))
  peak <- ifelse(models$peak_position %in% "none",
                 ifelse(is.finite(models$peak_n_low), sprintf("none [%s, unbounded]", fmt_n(models$peak_n_low)), "none"),
                 interval(models$peak_n, models$peak_n_low, models$peak_n_high, fmt_n))
  cells <- data.frame(Workload = models$workload, Status = models$status, Runs = models$points,
                      `N measured (distinct)` = ifelse(is.na(models$n_min), "", sprintf("%s to %s (%d)", fmt_int(models$n_min),
                                                                                fmt_int(models$n_max), models$distinct_n)),
                      `lambda (req/s per unit)` = interval(models$lambda, models$lambda_low, models$lambda_high, fmt_sig),
                      sigma = interval(models$sigma, models$sigma_low, models$sigma_high, fmt_sig),
                      kappa = interval(models$kappa, models$kappa_low, models$kappa_high, fmt_sig),
                      `peak N*` = peak,
                      `X(N*) (req/s)` = ifelse(models$peak_position %in% "none", "",
                                               interval(models$peak_throughput, models$peak_throughput_low, models$peak_throughput_high, fmt_n)),
                      `R squared` = ifelse(is.na(models$r_squared), "", formatC(models$r_squared, format = "f", digits = 3)),
                      check.names = FALSE, stringsAsFactors = FALSE)
  names(cells)[5] <- sprintf("lambda (req/s per %s)", sub("s$", "", USL_OVER[[over]]$few))
  html_table(cells, left = 1:2, nowrap = 1, row_class = ifelse(models$disqualified, "disq", NA))
}

# The capacity model under the scaling charts: per workload and target its chart, its sentence,
# and under gates what it predicts beside what was measured; greyed with the verdicts' reason.
usl_section <- function(models, plots, over) {
  if (is.null(models) || nrow(models) == 0) return(NULL)
  words <- USL_OVER[[over]]
  blocks <- lapply(seq_len(nrow(models)), function(k) {
    m <- models[k]
    gate <- if (over == "threads") m$latency_gate[[1]] else NULL
    said <- c(m$message, if (!is.null(gate)) gate$message,
              if (over == "region_servers") m$servers_needed_message)
    body <- tagList(html_img(plots[[k]], sprintf("%s: throughput against %s, with the USL fit", m$workload, words$many)),
                    lapply(said, function(x) html_p(tags$b(m$workload), ": ", x, ".", class = "usl")))
    tagList(tags$h4(m$workload), html_disqualified(body, m$why))
  })
  tagList(do.call(html_lines, blocks), usl_table(models, over),
          if (any(models$disqualified)) html_p("Greyed rows: workloads whose runs' verdicts disqualify their throughput.", class = "why"))
}

# Scaling: throughput against threads and latency against throughput, the knee, and the law fitted
# over concurrent clients; greyed when the runs' verdicts disqualify their throughput.
scaling_html <- function(cmp) {
  if (nrow(cmp$scaling) == 0) return(html_p("One thread count per workload: no scaling chart and no knee.", class = "meta"))
  charts <- tagList(html_img(cmp$plots$scaling_throughput, "throughput against threads"),
                    html_img(cmp$plots$scaling_latency, "latency against throughput"),
                    knee_text(cmp$scaling))
  model <- if (!is.null(cmp$models$threads)) {
    tagList(tags$h3("Capacity model: the Universal Scalability Law over concurrent clients"),
            html_p(HTML(sprintf(USL_INTRO, round(100 * USL_CONFIDENCE), USL_MIN_DISTINCT_N)), class = "meta"),   # its symbols are entities
            usl_section(cmp$models$threads, cmp$plots$usl, "threads"))
  }
  tagList(tags$h2("Scaling"), html_disqualified(charts, scaling_why(cmp$scaling, cmp$runs)), model)
}

# The law over cluster sizes, when the runs recorded more than one number of region servers.
servers_model_html <- function(cmp) {
  if (is.null(cmp$models$servers)) return(NULL)
  tagList(tags$h2("Capacity model over region servers"),
         html_p(paste("The same law over cluster sizes (hbaseload.region.servers, recorded in the runs' manifests): each size's point is its",
                      "best measured concurrency (the thread count with the highest median throughput; sweep each size past its knee).",
                      "The servers a throughput needs are read from the fitted law (the target: the --slo throughput_rps gate), with the",
                      "interval at the corners of the parameters' intervals; beyond the sizes measured it is an extrapolation."), class = "meta"),
         local_servers_note(cmp$analyses),
         usl_section(cmp$models$servers, cmp$plots$usl_servers, "region_servers"))
}

# Region servers of a local cluster share one machine: whatever the size, they ran on the same
# CPUs, so the law describes what adding JVMs to that machine does, not what adding machines does.
# NULL when any run's HBase is a cluster the suite does not manage (hbaseload.hbase.site).
local_servers_note <- function(analyses) {
  sites <- vapply(analyses, function(a) as.character(a$manifest$properties[["hbaseload.hbase.site"]] %if_absent% "")[1], "")
  if (length(analyses) == 0 || any(nzchar(trimws(sites)))) return(NULL)
  cpus <- unique(unlist(lapply(analyses, function(a) if (isTRUE(a$manifest$lab$isolated)) a$manifest$lab$server_cpus)))
  cores <- unique(unlist(lapply(analyses, function(a) a$manifest$machine$cores)))
  where <- if (length(cpus) == 1) sprintf("on the lab's server CPUs %s of one machine", cpus)
           else sprintf("on one machine%s", if (length(cores) == 1) sprintf(" of %d cores, beside the injectors", cores) else "")
  html_p(sprintf(paste("Every size ran on the local cluster %s: more region servers there are more JVMs on the same CPUs, not more",
                       "machines. The law below describes this machine; a cluster's needs are measured on the cluster (hbaseload.hbase.site)."),
                 where), class = "why")
}
