# study-pe.R - the hbase-0.20-pe study (HBase 0.20.0's PerformanceEvaluation, 2009) in the shape
# of its tables: per report (autoflush, WAL) and experiment, elapsed s, rows/s, rows/s per node,
# ms/row per node, MB/s, and the BigTable paper's single-node rows/s beside the published row.
# Our figures come from fixed-work runs (sweep.work = rows, work.R): rows done over the elapsed
# time from the first request to the last, as PE measures, not the report's trimmed window.

# "autoflush=false wal=true": the report a run belongs to, from its client options.
pe_report <- function(props) {
  buffering <- identical(tolower(props[["hbaseload.client.buffering"]] %if_absent% "false"), "true")
  wal <- !identical(tolower(props[["hbaseload.durability"]] %if_absent% "default"), "skip_wal")
  sprintf("autoflush=%s wal=%s", tolower(!buffering), tolower(wal))
}

# "random writes (i)": PE's experiment of a run, or NA for a run that is none of them.
pe_experiment <- function(props) {
  ops <- gsub("\\s", "", props[["hbaseload.operations"]] %if_absent% "")
  keys <- props[["hbaseload.key.distribution"]] %if_absent% "uniform"
  fresh <- identical(props[["hbaseload.prepare.mode"]] %if_absent% "load", "fresh")
  order <- switch(keys, uniform = "random", sequential = "sequential", NA_character_)
  kind <- switch(ops, "get:100" = "reads", "put:100" = "writes", "scan:100" = "scans", NA_character_)
  if (is.na(kind) || is.na(order) && kind != "scans") return(NA_character_)
  if (kind == "scans") return("scans")
  paste0(order, " ", kind, if (kind == "writes" && fresh) " (i)" else "")
}

PE_EXPERIMENTS <- c("random reads", "random writes (i)", "random writes", "sequential reads", "sequential writes (i)",
                    "sequential writes", "scans")
PE_REPORTS <- c("autoflush=false wal=true", "autoflush=true wal=true", "autoflush=false wal=false")

# Our rows: one per fixed-work run. Rows = requests (scans: the rows they returned, counted in the
# data log, else scan.length a scan); bytes a row = value.size x columns x families + key.width, as the study's MB/s.
pe_ours <- function(analyses) {
  data.table::rbindlist(lapply(analyses, function(a) {
    props <- a$manifest$properties %if_absent% list()
    experiment <- pe_experiment(props)
    work <- a[["work"]]     # [[ ]]: a$work would match a$workload when a run has no work
    if (is.na(experiment) || is.null(work)) return(NULL)
    # a scan: the rows its scans returned (the data log's Rows column), else scan.length rows a scan
    rows_done <- if (experiment != "scans") work$requests
                 else if (!is.na(work$rows_returned %if_absent% NA)) work$rows_returned
                 else work$requests * study_number(props[["hbaseload.scan.length"]] %if_absent% "100")
    rows_s <- rows_done / work$elapsed_s
    nodes <- suppressWarnings(as.numeric(a$workload$region_servers %if_absent% NA))
    nodes <- if (is.na(nodes) || nodes < 1) 1 else nodes
    row_bytes <- study_number(props[["hbaseload.value.size"]] %if_absent% "1000") * study_number(props[["hbaseload.columns"]] %if_absent% "1") *
      study_number(props[["hbaseload.families"]] %if_absent% "1") + study_number(props[["hbaseload.key.width"]] %if_absent% "10")
    data.table::data.table(source = paste0("ours: ", a$target %if_absent% "?", " (", a$run_id, ")"), reference = FALSE,
                           report = pe_report(props), experiment = experiment, elapsed_s = work$elapsed_s, rows = rows_done,
                           rows_s = rows_s, rows_s_per_node = rows_s / nodes, ms_per_row_per_node = 1000 / (rows_s / nodes),
                           mb_s = rows_s * row_bytes / 1e6, bigtable_rows_s = NA_real_,
                           work = if (isTRUE(work$complete)) "complete"
                                  else sprintf("bound reached: %s of %s requests", fmt_int(work$requests), fmt_int(work$planned)),
                           verdict = verdict_kind(a), greys = verdict_greys(a))
  }))
}

# The published rows of the reports our runs cover (all of them when we ran none), ours under each.
pe_table <- function(analyses, ref) {
  ours <- pe_ours(analyses)
  published <- ref$table[, .(source = reference_label(ref$comments), reference = TRUE, report, experiment,
                             elapsed_s = study_number(elapsed_s), rows = 4194280, rows_s = study_number(rows_s),
                             rows_s_per_node = study_number(rows_s_per_node), ms_per_row_per_node = study_number(ms_per_row_per_node),
                             mb_s = study_number(mb_s), bigtable_rows_s = study_number(bigtable_rows_s), work = NA_character_)]
  if (nrow(ours) > 0) published <- published[report %in% ours$report]
  rows <- rbind(published, ours, fill = TRUE)
  rows[, `:=`(report_order = match(report, PE_REPORTS), experiment_order = match(experiment, PE_EXPERIMENTS))]
  data.table::setorder(rows, report_order, experiment_order, -reference, source)
  rows[, c("report_order", "experiment_order") := NULL]
  rows
}

pe_cells <- function(t) {
  t[, .(Source = source, Report = report, Experiment = experiment, `Elapsed (s)` = fmt_num(elapsed_s, 1), Rows = fmt_int(rows),
        `Rows/s` = fmt_num(rows_s, 0), `Rows/s per node` = fmt_num(rows_s_per_node, 0),
        `ms/row per node` = fmt_num(ms_per_row_per_node, 3), `MB/s` = fmt_num(mb_s, 2),
        `BigTable rows/s (1 node)` = ifelse(is.na(bigtable_rows_s), "", fmt_num(bigtable_rows_s, 0)),
        Work = ifelse(is.na(work), "", work), `Our run's verdict` = ifelse(is.na(verdict), "", verdict))]
}

study_def_pe <- list(
  scenario = "hbase-0.20-pe", table = pe_table, cells = pe_cells,
  greyed = list(throughput = c("Elapsed (s)", "Rows/s", "Rows/s per node", "ms/row per node", "MB/s")),
  differs = paste("Their clients were MapReduce tasks on the region servers' own nodes (3 a node, 12 in all) over 4,194,280 rows",
                  "that did not fit the block cache; ours are Grinder threads on the machine of the region server, over the rows",
                  "above (a tenth of theirs at default scale), which fit its block cache, so our reads are mostly memory reads.",
                  "PE's scan reads its range through one scanner; ours opens one scan per scan.length rows of the thread's range."))
