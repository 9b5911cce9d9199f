# study.R - a sweep of one of the published studies (scenarios/NAME.properties with its figures in
# scenarios/reference/NAME.csv): the study's own table, our rows from the report's summary beside
# the published rows (labelled as a reference, with their hardware and year), and one line on how
# ours differs. Our figures are the summary's (summary.csv definitions: nearest-rank percentiles,
# throughput = requests in the measured window / its length), never recomputed here.

# A study is registered by a list named study_def_<anything> in any R/ file (this one holds adobe's
# and gbif's; R/study-*.R the others), with: scenario (its name in scenarios/), table(analyses, ref)
# -> our rows beside the published ones (a logical 'reference' column; our rows carry 'verdict' and
# 'greys'), cells(table) -> the table as shown, differs -> the study's own sentence for "how ours
# differs", and greyed -> list(throughput = shown column names, latency = ...), what a verdict greys.
study_definition <- function(scenario) {
  home <- environment(study_definition)
  for (name in ls(envir = home, pattern = "^study_def_")) {
    def <- get(name, envir = home)
    if (identical(def$scenario, scenario)) return(def)
  }
  NULL
}

# A reference CSV -> list(table, comments): its '#' lines (source, hardware) and the rows under the header.
read_reference <- function(path) {
  lines <- readLines(path, warn = FALSE)
  comment <- grepl("^#", lines)
  list(table = data.table::fread(text = paste(lines[!comment], collapse = "\n"), colClasses = "character"),
       comments = trimws(sub("^#", "", lines[comment])))
}

# "Lehene 2010, 7 servers, dual Nehalem 8 cores ...": who, when and on what, from the comment lines.
reference_label <- function(comments) {
  source <- comments[grepl("^Source:", comments)][1]
  year <- regmatches(source, regexpr("\\b(19|20)[0-9]{2}\\b", source))
  hardware <- comments[grepl("^Cluster:", comments)][1]
  hardware <- if (is.na(hardware)) "" else sub("\\.$", "", sub("^Cluster:\\s*", "", sub(";.*$", "", hardware)))
  paste0("published ", if (length(year) == 1) year else "(year not stated)", if (nzchar(hardware)) paste0(", ", hardware) else "")
}

# The reference file of a scenario, looked for beside the scenario the sweep ran, then in the project's scenarios/.
reference_path <- function(scenario, scenario_file, root) {
  candidates <- c(if (!is.na(scenario_file)) file.path(dirname(scenario_file), "reference", paste0(scenario, ".csv")),
                  file.path(root, "scenarios", "reference", paste0(scenario, ".csv")))
  found <- candidates[file.exists(candidates)]
  if (length(found) == 0) NA_character_ else found[[1]]
}

# The sweep's record: scenario name, scenario file, scale (sweep.json, written by lifecycle's SweepRecord).
sweep_record <- function(sweep_dir) {
  path <- file.path(sweep_dir, "sweep.json")
  if (is.na(sweep_dir) || !file.exists(path)) return(NULL)
  doc <- tryCatch(jsonlite::fromJSON(path, simplifyVector = TRUE), error = function(e) NULL)
  if (is.null(doc)) return(NULL)
  text <- function(x) if (is.null(x) || length(x) == 0) NA_character_ else as.character(x[[1]])
  list(scenario = text(doc$scenario), scenario_file = text(doc$scenario_file), scale = text(doc$scale) %if_absent% "default")
}

# adobe-2010-grinder's "Type": get:100 -> get (the get row), put:100 -> put, a get/put mix -> get/put (the total row).
adobe_type <- function(operations) {
  ops <- gsub("\\s", "", operations)
  if (identical(ops, "get:100")) return(list(type = "get", test = "get"))
  if (identical(ops, "put:100")) return(list(type = "put", test = "put"))
  if (grepl("^get:[0-9]+,put:[0-9]+$", ops) || grepl("^put:[0-9]+,get:[0-9]+$", ops)) return(list(type = "get/put", test = "total"))
  NULL
}

study_number <- function(x) suppressWarnings(as.numeric(x))

# The run's verdict kind ("trustworthy", "too short", ...): our figures are read with it.
verdict_kind <- function(a) as.character(a$verdict$kind %if_absent% NA_character_)

# What the run's verdict greys ("throughput,latency"), so the study table greys the same figures as the rest of the report.
verdict_greys <- function(a) paste(a$verdict$disqualifies %if_absent% character(), collapse = ",")

# Our rows of the adobe table, one per run: Type | Threads | Mean | Std dev | 90% line | Throughput | Requests.
adobe_ours <- function(analyses) {
  data.table::rbindlist(lapply(analyses, function(a) {
    kind <- adobe_type(a$workload$operations)
    row <- if (is.null(kind)) NULL else a$summary[test == kind$test]
    if (is.null(row) || nrow(row) != 1) return(NULL)
    data.table::data.table(source = paste0("ours: ", a$target %if_absent% "?", " (", a$run_id, ")"), reference = FALSE, type = kind$type,
                           threads = study_number(a$workload$threads), mean_ms = row$mean_ms, sd_ms = row$sd_ms, p90_ms = row$p90_ms,
                           throughput_rps = row$throughput_rps, requests = row$count,
                           error_rate = if ("error_rate" %in% names(row)) row$error_rate else NA_real_, verdict = verdict_kind(a),
                           greys = verdict_greys(a))
  }))
}

adobe_table <- function(analyses, ref) {
  published <- ref$table[, .(source = reference_label(ref$comments), reference = TRUE, type, threads = study_number(threads),
                             mean_ms = study_number(mean_ms), sd_ms = study_number(sd_ms), p90_ms = study_number(p90_ms),
                             throughput_rps = study_number(throughput_rps), requests = study_number(requests))]
  rows <- rbind(published, adobe_ours(analyses), fill = TRUE)
  rows[, type_order := match(type, c("get", "put", "get/put"))]
  data.table::setorder(rows, type_order, -reference, threads, source)
  rows[, type_order := NULL]
  rows
}

# Our rows of the gbif table, one per scan run: scanners (threads), scans/s, records/s, MB/s.
# Records/s: the rows the scans returned when the data log counts them (rows_per_scan in the summary),
# else scans/s x hbaseload.scan.length, an upper bound (a scan starting near the table's end reads fewer).
gbif_ours <- function(analyses) {
  data.table::rbindlist(lapply(analyses, function(a) {
    row <- a$summary[test == "scan"]
    if (nrow(row) != 1) return(NULL)
    counted <- "rows_per_scan" %in% names(row) && !is.na(row$rows_per_scan)
    per_scan <- if (counted) row$rows_per_scan else study_number(a$workload$scan_length)
    row_bytes <- (study_number(a$workload$value_size) %if_absent% 0) * (study_number(a$workload$columns) %if_absent% 1) * (study_number(a$workload$families) %if_absent% 1)
    records <- row$throughput_rps * per_scan
    data.table::data.table(source = paste0("ours: ", a$target %if_absent% "?", " (", a$run_id, ")"), reference = FALSE,
                           scanners = study_number(a$workload$threads), scans_s = row$throughput_rps, records_s = records,
                           mb_s = records * row_bytes / 1e6, records_counted = counted,
                           error_rate = if ("error_rate" %in% names(row)) row$error_rate else NA_real_, verdict = verdict_kind(a),
                           greys = verdict_greys(a))
  }))
}

gbif_table <- function(analyses, ref) {
  published <- ref$table[, .(source = paste0(reference_label(ref$comments), ": ", tool), reference = TRUE, scanners = NA_real_,
                             scans_s = NA_real_, records_s = study_number(records_s), mb_s = NA_real_, records_counted = NA)]
  rows <- rbind(published, gbif_ours(analyses), fill = TRUE)
  data.table::setorder(rows, -reference, scanners, source)
  rows
}

# One line: this machine and scale against theirs.
study_differs <- function(scenario, analyses, ref, scale) {
  servers <- unique(unlist(lapply(analyses, function(a) a$manifest$cluster$region_servers)))
  hbase <- unique(unlist(lapply(analyses, function(a) a$manifest$versions$hbase)))
  rows <- unique(unlist(lapply(analyses, function(a) a$workload$rows)))
  hardware <- sub("\\.$", "", sub("^Cluster:\\s*", "", ref$comments[grepl("^Cluster:", ref$comments)][1]))
  cores <- unique(unlist(lapply(analyses, function(a) a$manifest$machine$cores)))
  machine <- if (length(cores) > 0) sprintf("%s core(s) on the machine that ran the runs", paste(cores, collapse = "/"))
             else sprintf("%s core(s) on the machine that wrote this report (the runs' manifests do not say)", parallel::detectCores())
  ours <- sprintf("Ours: %s, %s region server(s) (HBase %s, embedded unless the manifest says otherwise), %s rows, scale %s",
                  machine, paste(servers %if_absent% "?", collapse = "/"), paste(hbase %if_absent% "?", collapse = "/"),
                  paste(fmt_int(study_number(rows)), collapse = "/"), scale)
  theirs <- paste0("theirs: ", if (is.na(hardware)) "hardware not stated" else hardware)
  extra <- study_definition(scenario)$differs %if_absent% ""
  paste0(ours, "; ", theirs, ". ", extra)
}

# The study section of a sweep, or NULL when the sweep is not a registered study (or has no reference file).
study_section <- function(sweep_dir, analyses, root) {
  record <- sweep_record(sweep_dir)
  def <- if (is.null(record)) NULL else study_definition(record$scenario)
  if (is.null(def)) return(NULL)
  path <- reference_path(record$scenario, record$scenario_file, root)
  if (is.na(path)) return(NULL)
  ref <- read_reference(path)
  # a study that reads the sweep's own files (dana's prepare records) takes its folder
  table <- if ("sweep_dir" %in% names(formals(def$table))) def$table(analyses, ref, sweep_dir = sweep_dir) else def$table(analyses, ref)
  list(scenario = record$scenario, scale = record$scale, reference_file = path, reference = reference_label(ref$comments),
       source = ref$comments[grepl("^Source:", ref$comments)][1], table = table,
       differs = study_differs(record$scenario, analyses, ref, record$scale))
}

# The table as shown: the study's own column names and units. A published row says only
# "published YEAR" (and the tool): its hardware is in the line above the table, and a cell that
# long pushed the figures off the page.
study_cells <- function(study) {
  t <- data.table::copy(study$table)
  t[, source := sub("^(published ([0-9]{4}|\\(year not stated\\))), [^:]*", "\\1", source)]
  study_definition(study$scenario)$cells(t)
}

adobe_cells <- function(t) {
  t[, .(Source = source, Type = type, Threads = fmt_int(threads), `Mean (ms)` = fmt_num(mean_ms, 2),
        `Std dev (ms)` = fmt_num(sd_ms, 2), `90% line (ms)` = fmt_num(p90_ms, 3),
        `Throughput (req/s)` = fmt_num(throughput_rps, 0), Requests = fmt_int(requests),
        # not in the study's table, but a row of ours whose calls failed must say so beside its throughput
        `Errors (%)` = ifelse(is.na(error_rate), "", fmt_num(100 * error_rate, 2)),
        `Our run's verdict` = ifelse(is.na(verdict), "", verdict))]
}

gbif_cells <- function(t) {
  t[, .(Source = source, Scanners = fmt_int(scanners), `Scans/s` = fmt_num(scans_s, 1), `Records/s` = fmt_num(records_s, 0),
        `MB/s` = fmt_num(mb_s, 2), `Records` = ifelse(is.na(records_counted), "published", ifelse(records_counted, "counted", "scans x scan.length (upper bound)")),
        `Errors (%)` = ifelse(is.na(error_rate), "", fmt_num(100 * error_rate, 2)),
        `Our run's verdict` = ifelse(is.na(verdict), "", verdict))]
}

study_def_adobe <- list(
  scenario = "adobe-2010-grinder", table = adobe_table, cells = adobe_cells,
  greyed = list(throughput = "Throughput (req/s)", latency = c("Mean (ms)", "Std dev (ms)", "90% line (ms)")),
  differs = paste("Their throughput is the whole cluster's over a table of 3 billion rows; ours is one machine's over a table",
                  "that fits its memory, so the shape (get against put, 300 against 600 threads) compares, not the level."))

study_def_gbif <- list(
  scenario = "gbif-2012-scan", table = gbif_table, cells = gbif_cells,
  greyed = list(throughput = c("Scans/s", "Records/s", "MB/s")),
  differs = "Their records/s are the whole cluster's (MapReduce scanners, no scanner count published); ours are one machine's threads.")

# Which of our cells the run's verdict disqualifies: its throughput figures, its latency figures.
study_cell_class <- function(study, cells) {
  greys <- if ("greys" %in% names(study$table)) data.table::fcoalesce(study$table$greys, "") else rep("", nrow(cells))
  columns <- study_definition(study$scenario)$greyed
  classes <- matrix(NA_character_, nrow(cells), ncol(cells))
  for (i in seq_len(nrow(cells))) {
    for (category in names(columns)) {
      if (category %in% strsplit(greys[i], ",", fixed = TRUE)[[1]]) classes[i, names(cells) %in% columns[[category]]] <- "disq"
    }
  }
  classes
}

study_html <- function(study) {
  if (is.null(study)) return(NULL)
  cells <- study_cells(study)
  classes <- study_cell_class(study, cells)
  greyed <- if (any(!is.na(classes))) {
    html_p(paste("Greyed: our figures that their run's verdict (last column) disqualifies, as everywhere in this",
                 "report; 'What the numbers mean' says what each kind greys."), class = "why")
  }
  tagList(tags$h2(paste0("The study: ", study$scenario, " (scale ", study$scale, ")")),
          html_p(paste0(study$source, " Published rows are a reference (", study$reference, "), not a target; figures from ",
                        basename(study$reference_file), ".")),
          greyed,
          html_table(cells, left = 1:2, row_class = ifelse(study$table$reference, "total", NA), nowrap = 1, cell_class = classes),
          html_p(paste("How ours differs:", study$differs), class = "meta"))
}

study_json <- function(study) {
  if (is.null(study)) return(NULL)
  list(scenario = study$scenario, scale = study$scale, reference_file = study$reference_file, source = study$source,
       reference = study$reference, differs = study$differs, rows = json_rows(study$table))
}
