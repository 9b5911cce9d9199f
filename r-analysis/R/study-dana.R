# study-dana.R - dana-schema-stress (scenarios/dana-schema-stress.properties): the study's table,
# one row per test and parameter (column families 10..1000, columns in one row 10k..1M, key order,
# interspersed reads after N writes) with our setup s, writes/s and reads/s beside the published
# 1- and 5-region-server figures (scenarios/reference/dana-schema-stress.csv).
#
# Which test a run or a prepared point belongs to is read from its hbaseload.* properties
# (dana_point): a wide row is "columns in one row", more than one family "column families", a
# get/put mix "interspersed reads after writes", put:100 "key order" by its key distribution.
# Setup s is the table creation time ./suite prepare recorded (runs/sweep-N/prepare-N.json, with
# the point's properties in prepare-N.properties); a creation that timed out or a load that
# crashed is that point's outcome, shown in every figure of its row as the study shows its own.

DANA_TESTS <- c("column families", "columns in one row", "key order lexicographic", "key order reverse", "key order random",
                "interspersed reads after writes")
# hbaseload.key.distribution -> the study's key order
DANA_KEY_ORDER <- c(sequential = "lexicographic", reverse = "reverse", uniform = "random")

dana_int <- function(x, otherwise) {
  value <- suppressWarnings(as.numeric(x %if_absent% otherwise))
  if (length(value) != 1 || is.na(value)) as.numeric(otherwise) else value
}

# A point's test and parameter from its hbaseload.* properties (a named list), or NULL when it is none of the study's.
dana_point <- function(props) {
  get <- function(key) property_value(props, key)
  wide <- dana_int(get("hbaseload.wide.columns"), 0)
  families <- dana_int(get("hbaseload.families"), 1)
  rows <- dana_int(get("hbaseload.rows"), 100000)
  ops <- gsub("\\s", "", get("hbaseload.operations") %if_absent% "")
  mixed <- grepl("(^|,)get:[0-9]+", ops) && grepl("(^|,)put:[0-9]+", ops)
  if (wide > 0) return(list(test = "columns in one row", parameter = wide))
  if (families > 1) return(list(test = "column families", parameter = families))
  if (mixed) return(list(test = "interspersed reads after writes", parameter = rows))
  order <- DANA_KEY_ORDER[get("hbaseload.key.distribution") %if_absent% "uniform"]
  if (identical(ops, "put:100") && !is.na(order)) return(list(test = paste("key order", order), parameter = rows))
  NULL
}

# Our figures of one run: writes/s and reads/s as the study counts them (a wide row's put writes wide.batch columns).
dana_run_row <- function(a) {
  props <- a$manifest$properties %if_absent% list()
  point <- dana_point(props)
  if (is.null(point)) return(NULL)
  rate <- function(operation) { r <- a$summary[a$summary$test == operation, ]; if (nrow(r) == 1) r$throughput_rps else NA_real_ }
  batch <- if (point$test == "columns in one row") dana_int(props[["hbaseload.wide.batch"]], 1000) else 1
  writes <- if (point$test == "interspersed reads after writes") NA_real_ else rate("put") * batch
  reads <- if (startsWith(point$test, "key order")) NA_real_ else rate("get")
  # key order is a fixed amount of work (grinder.runs): the writes made over their elapsed time, as the study timed N writes
  work <- a$work
  done <- NA_character_
  if (startsWith(point$test, "key order") && !is.null(work) && isTRUE(work$elapsed_s > 0)) {
    writes <- work$requests / work$elapsed_s
    done <- if (isTRUE(work$complete)) "all N writes" else sprintf("%.0f%% of the N writes (the run's bound ended it)", 100 * work$requests / work$planned)
  }
  data.table::data.table(test = point$test, parameter = point$parameter, writes_s = writes, reads_s = reads, work = done,
                         run = a$run_id %if_absent% NA_character_, verdict = verdict_kind(a), greys = verdict_greys(a))
}

# A Java properties file (PropertiesFile.write's: "key = value", '\' escapes) as a named list.
dana_read_properties <- function(path) {
  lines <- readLines(path, warn = FALSE)
  lines <- lines[grepl("^[^#!].*=", lines)]
  keys <- trimws(sub("=.*$", "", lines))
  values <- gsub("\\\\(.)", "\\1", trimws(sub("^[^=]*=", "", lines)))
  stats::setNames(as.list(values), gsub("\\\\(.)", "\\1", keys))
}

# The sweep's prepare records, one row per prepared (or skipped) point: its test, parameter, outcome and creation seconds.
dana_prepare_rows <- function(sweep_dir) {
  if (is.null(sweep_dir) || is.na(sweep_dir)) return(data.table::data.table())
  files <- list.files(sweep_dir, pattern = "^prepare-[0-9]+\\.json$", full.names = TRUE)
  data.table::rbindlist(lapply(files, function(f) {
    props_file <- sub("\\.json$", ".properties", f)
    record <- tryCatch(jsonlite::fromJSON(f), error = function(e) NULL)
    if (is.null(record) || !file.exists(props_file)) return(NULL)
    point <- dana_point(dana_read_properties(props_file))
    if (is.null(point)) return(NULL)
    data.table::data.table(test = point$test, parameter = point$parameter, outcome = as.character(record$outcome %if_absent% NA),
                           create_s = as.numeric(record$create_s %if_absent% NA), table = as.character(record$table %if_absent% NA))
  }))
}

# Our rows: figures averaged over the runs of a test and parameter; setup s from a creation timed in this sweep.
dana_ours <- function(analyses, sweep_dir) {
  runs <- data.table::rbindlist(lapply(analyses, dana_run_row))
  prepared <- dana_prepare_rows(sweep_dir)
  keys <- unique(rbind(if (nrow(runs)) runs[, .(test, parameter)], if (nrow(prepared)) prepared[, .(test, parameter)]))
  if (is.null(keys) || nrow(keys) == 0) return(data.table::data.table())
  mean_or_na <- function(x) if (all(is.na(x))) NA_real_ else mean(x, na.rm = TRUE)
  data.table::rbindlist(lapply(seq_len(nrow(keys)), function(i) {
    k <- keys[i]
    r <- if (nrow(runs)) runs[test == k$test & parameter == k$parameter] else runs
    p <- if (nrow(prepared)) prepared[test == k$test & parameter == k$parameter] else prepared
    failed <- if (nrow(p)) intersect(c("timeout", "crash"), p$outcome) else character()
    created <- if (nrow(p)) p[outcome == "created" & !is.na(create_s), create_s] else numeric()
    data.table::data.table(
      test = k$test, parameter = k$parameter,
      ours_setup_s = if (k$test == "column families" && length(created)) mean(created) else NA_real_,
      ours_writes_s = if (nrow(r)) mean_or_na(r$writes_s) else NA_real_,
      ours_reads_s = if (nrow(r)) mean_or_na(r$reads_s) else NA_real_,
      ours_outcome = if (length(failed)) failed[[1]] else NA_character_,
      ours_work = if (nrow(r) && any(!is.na(r$work))) paste(unique(stats::na.omit(r$work)), collapse = "/") else NA_character_,
      runs = paste(r$run, collapse = " "),
      verdict = if (nrow(r)) paste(unique(r$verdict), collapse = "/") else NA_character_,
      greys = if (nrow(r)) paste(unique(unlist(strsplit(r$greys, ",", fixed = TRUE))), collapse = ",") else "")
  }))
}

# The published figures of one region-server count, as text ("164", "timeout", "crash", "").
dana_published <- function(ref, servers) {
  t <- ref$table[rs == as.character(servers)]
  out <- t[, .(test, parameter = as.numeric(parameter), setup_s, writes_s, reads_s)]
  data.table::setnames(out, c("setup_s", "writes_s", "reads_s"), paste0("rs", servers, "_", c("setup_s", "writes_s", "reads_s")))
  out
}

dana_table <- function(analyses, ref, sweep_dir = NA_character_) {
  rows <- merge(dana_published(ref, 1), dana_published(ref, 5), by = c("test", "parameter"), all = TRUE)
  ours <- dana_ours(analyses, sweep_dir)
  rows <- if (nrow(ours)) merge(rows, ours, by = c("test", "parameter"), all = TRUE) else
    rows[, `:=`(ours_setup_s = NA_real_, ours_writes_s = NA_real_, ours_reads_s = NA_real_, ours_outcome = NA_character_,
                ours_work = NA_character_, runs = "", verdict = NA_character_, greys = "")]
  published_cols <- grep("^rs[15]_", names(rows), value = TRUE)
  for (col in published_cols) data.table::set(rows, which(is.na(rows[[col]])), col, "")
  rows[, reference := FALSE]
  rows[, source := ifelse(nzchar(data.table::fcoalesce(runs, "")) | !is.na(ours_outcome), paste("ours:", runs), reference_label(ref$comments))]
  rows[, order := match(test, DANA_TESTS)]
  data.table::setorder(rows, order, parameter)
  rows[, order := NULL]
  rows
}

# Our figure as shown: the outcome (timeout, crash) when the point's table could not be made, else the number.
dana_figure <- function(value, outcome, digits) ifelse(!is.na(outcome), outcome, fmt_num(value, digits))

dana_cells <- function(t) {
  t[, .(Test = test, Parameter = fmt_int(parameter),
        `Setup s (ours)` = dana_figure(ours_setup_s, ours_outcome, 2), `Writes/s (ours)` = dana_figure(ours_writes_s, ours_outcome, 0),
        `Reads/s (ours)` = dana_figure(ours_reads_s, ours_outcome, 0),
        `Setup s (1 RS)` = rs1_setup_s, `Writes/s (1 RS)` = rs1_writes_s, `Reads/s (1 RS)` = rs1_reads_s,
        `Setup s (5 RS)` = rs5_setup_s, `Writes/s (5 RS)` = rs5_writes_s, `Reads/s (5 RS)` = rs5_reads_s,
        `Our run's verdict` = paste0(ifelse(is.na(verdict), "", verdict), ifelse(is.na(ours_work), "", paste0("; ", ours_work))))]
}

study_def_dana <- list(
  scenario = "dana-schema-stress", table = dana_table, cells = dana_cells,
  greyed = list(throughput = c("Writes/s (ours)", "Reads/s (ours)")),
  differs = paste("Their figures are one client's over 1 or 5 region servers of early HBase; ours are the sweep's threads on one",
                  "machine that also runs HBase; N writes into a new table for key order, rates over the run elsewhere; a put",
                  "writing one family of a many-family table; a wide row's writes counted in columns (wide.batch a put)."))
