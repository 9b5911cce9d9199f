# study-hosei.R - hosei-2014-write-tuning: the time to write N rows, and rows/s, per variant (one
# factor changed at a time: client options, a pre-split table, server settings), beside the
# paper's seconds with 1, 3 and 5 region servers (scenarios/reference/hosei-2014-write-tuning.csv).
# Our time is the fixed-work run's elapsed time (a$work: sweep.work = rows), what the paper timed;
# a run without it (a duration run) shows rows / rows-per-second, labelled as extrapolated.
# Server settings are what the region server reported (the run's server-conf.json), not what was asked.

HOSEI_MB <- 1024 * 1024

# The run's server-conf.json (written by ./suite sweep for server variants), or NULL.
hosei_server_conf <- function(a) {
  path <- if (is.null(a$run_dir)) NA_character_ else file.path(a$run_dir, "server-conf.json")
  if (is.na(path) || !file.exists(path)) return(NULL)
  tryCatch(jsonlite::fromJSON(path, simplifyVector = FALSE), error = function(e) NULL)
}

# "handler.count=100, thread.compaction.small=(HBase default)": what the server read back, keys shortened.
hosei_server_text <- function(conf) {
  if (is.null(conf) || length(conf$read_back) == 0) return(NA_character_)
  values <- vapply(conf$read_back, function(x) if (is.null(x$value)) "(built-in default)" else as.character(x$value), "")
  keys <- sub("^hbase\\.(regionserver|hregion)\\.", "", names(conf$read_back))
  paste(paste0(keys, "=", values), collapse = ", ")
}

# The paper's name of a run's variant, from what it asked of the client (its properties) and of
# the server (the server variant's overrides): one factor gives one of the paper's rows; several
# (a tiny sweep merges the server variants) are joined with " + " and match none.
hosei_variant <- function(properties, requested) {
  prop <- function(key) property_value(properties, key)
  parts <- character()
  handlers <- requested[["hbase.regionserver.handler.count"]]
  if (!is.null(handlers)) parts <- c(parts, paste("handler count", handlers))
  small <- requested[["hbase.regionserver.thread.compaction.small"]]
  large <- requested[["hbase.regionserver.thread.compaction.large"]]
  if (!is.null(small) || !is.null(large)) {
    parts <- c(parts, if (identical(small, large)) paste("compaction threads", small)
                      else paste0("compaction threads ", small %if_absent% "1", " small / ", large %if_absent% "1", " large"))
  }
  flush <- requested[["hbase.hregion.memstore.flush.size"]]
  if (!is.null(flush)) parts <- c(parts, sprintf("memstore flush size %s MB", format(as.numeric(flush) / HOSEI_MB)))
  regions <- suppressWarnings(as.numeric(prop("hbaseload.regions")))
  if (!is.na(regions) && regions > 1) parts <- c(parts, paste(regions, "regions pre-created"))
  if (identical(prop("hbaseload.durability"), "skip_wal")) parts <- c(parts, "WAL off")
  if (identical(prop("hbaseload.client.buffering"), "true")) {
    mb <- suppressWarnings(as.numeric(prop("hbaseload.write.buffer.bytes"))) / HOSEI_MB
    parts <- c(parts, if (is.na(mb)) "autoflush off"
                      else sprintf("autoflush off + write buffer %s MB%s", format(mb), if (mb == 2) " (default)" else ""))
  }
  if (length(parts) == 0) "default (autoflush on)" else paste(parts, collapse = " + ")
}

# Time to write the run's rows and rows/s: measured (a complete fixed-work run), a lower bound (the
# duration bound ended it first) or extrapolated (a duration run: rows / rows per second).
hosei_time <- function(a, rows) {
  put <- a$summary[test %in% c("put", "total")]
  rate <- if (nrow(put) > 0) put$throughput_rps[1] else NA_real_
  work <- a[["work"]]     # [[ ]]: a$work would match a$workload when a run has no work
  if (!is.null(work) && isTRUE(work$elapsed_s > 0)) {
    kind <- if (isTRUE(work$complete)) "measured" else sprintf("at least (bound hit: %s of %s rows)", fmt_int(work$requests), fmt_int(work$planned))
    return(list(time_s = work$elapsed_s, rows_s = work$requests / work$elapsed_s, kind = kind))
  }
  list(time_s = if (isTRUE(rate > 0)) rows / rate else NA_real_, rows_s = rate, kind = "extrapolated (rows / rows per s)")
}

hosei_ours <- function(analyses) {
  data.table::rbindlist(lapply(analyses, function(a) {
    if (nrow(a$summary[test %in% c("put", "total")]) == 0) return(NULL)
    conf <- hosei_server_conf(a)
    rows <- study_number(a$workload$rows)
    time <- hosei_time(a, rows)
    data.table::data.table(source = paste0("ours (", a$run_id, ")"), reference = FALSE,
                           variant = hosei_variant(a$manifest$properties %if_absent% list(), conf$requested %if_absent% list()),
                           rows = rows, time_s = time$time_s, time_kind = time$kind, rows_s = time$rows_s,
                           server = hosei_server_text(conf), verdict = verdict_kind(a), greys = verdict_greys(a))
  }))
}

# Published rows in the paper's order, each followed by ours of the same variant; our variants the
# paper did not run (e.g. handler count 10, a memstore flush size) come last.
hosei_table <- function(analyses, ref) {
  stated <- regmatches(ref$comments, regexpr("write [0-9.]+ million rows", ref$comments))
  published_rows <- if (length(stated) == 1) as.numeric(sub("write ([0-9.]+) million rows", "\\1", stated)) * 1e6 else NA_real_
  published <- ref$table[, .(source = reference_label(ref$comments), reference = TRUE, variant, rows = published_rows,
                             rs1_s = study_number(rs1_s), rs3_s = study_number(rs3_s), rs5_s = study_number(rs5_s))]
  ours <- hosei_ours(analyses)
  rows <- rbind(published, ours, fill = TRUE)
  order <- unique(c(published$variant, ours$variant))
  rows[, variant_order := match(variant, order)]
  data.table::setorder(rows, variant_order, -reference, source)
  rows[, variant_order := NULL]
  rows
}

hosei_cells <- function(t) {
  t[, .(Source = source, Variant = variant, Rows = fmt_int(rows), `Time (s)` = fmt_num(time_s, 1),
        `Time is` = ifelse(is.na(time_kind), "", time_kind), `Rows/s` = fmt_num(rows_s, 0),
        `Server reported` = ifelse(is.na(server), "", server),
        `Published, 1 RS (s)` = fmt_num(rs1_s, 0), `3 RS (s)` = fmt_num(rs3_s, 0), `5 RS (s)` = fmt_num(rs5_s, 0),
        `Our run's verdict` = ifelse(is.na(verdict), "", verdict))]
}

study_def_hosei <- list(
  scenario = "hosei-2014-write-tuning", table = hosei_table, cells = hosei_cells,
  greyed = list(throughput = c("Time (s)", "Rows/s")),
  differs = paste("Theirs wrote 1 million rows of 15 KB (15 GB) to disks on 1, 3 and 5 region servers; ours writes the scale's rows",
                  "on one machine whose memstores and page cache hold much of them, each run into a table made anew and empty",
                  "(a buffered run's time includes its last flush). Compare each variant with our default row, not with their seconds."))
