# study-durability.R - durability-under-faults (issue 24 part 5): SYNC_WAL, ASYNC_WAL and SKIP_WAL,
# each without and with a region server killed mid-run, audited puts: throughput and p99 beside the
# acknowledged writes the audit found lost, so the price of turning the WAL off is one table. The
# published side is the write-tuning study's default and WAL off rows at 3 region servers
# (scenarios/reference/durability-under-faults.csv): a throughput price only, they measured no loss.
# The audit and the faults' effects are read from a$facts: a sweep's analyses are slimmed
# (pipeline.R, slim_analysis) and keep the facts, not a$faults.

DURABILITY_ORDER <- c("SYNC_WAL", "ASYNC_WAL", "SKIP_WAL", "FSYNC_WAL", "default")
DURABILITY_RATIO <- "Throughput vs SYNC_WAL, same fault"
DURABILITY_RUN_COLUMNS <- c("p99_ms", "audited", "acknowledged", "lost", "lost_share", "in_doubt", "audit_complete", "action_done",
                            "first_error_s", "no_success_s", "recovery_s", "recovered", "verdict", "greys")

# "SYNC_WAL" from hbaseload.durability = sync_wal; "default" when not set (the table's own then applies).
durability_of <- function(props) {
  value <- tolower(trimws(property_value(props, "hbaseload.durability")))
  if (is.na(value) || value %in% c("", "default")) "default" else toupper(value)
}

# The run's fault schedule as it was asked ("at=10s kill regionserver=2"), "none" without one.
durability_fault <- function(a) {
  schedule <- property_value(a$manifest$properties %if_absent% list(), "faults.schedule")
  if (is.na(schedule)) schedule <- a$facts$faults_schedule %if_absent% NA_character_
  schedule <- gsub("\\s+", " ", trimws(schedule))
  if (is.na(schedule) || schedule %in% c("", "none")) "none" else schedule
}

# What the audit counted; NA with audited = FALSE for a run without audit.json: not audited is not 0 lost.
durability_audit <- function(audit) {
  if (is.null(audit)) {
    return(list(audited = FALSE, acknowledged = NA_real_, lost = NA_real_, lost_share = NA_real_, in_doubt = NA_real_,
                audit_complete = NA))
  }
  acknowledged <- as.numeric(audit$acknowledged)
  list(audited = TRUE, acknowledged = acknowledged, lost = audit_lost(audit), lost_share = audit_lost(audit) / max(1, acknowledged),
       in_doubt = as.numeric(audit$in_doubt), audit_complete = isTRUE(audit$complete))
}

# The effect of the schedule's first action that happened (the scenario's one kill): the faults table's
# time to the first error, seconds without a success and time back to 90%. action_done NA without a schedule.
durability_effect <- function(a, fault) {
  none <- list(action_done = NA, first_error_s = NA_real_, no_success_s = NA_real_, recovery_s = NA_real_, recovered = NA)
  if (fault == "none") return(none)
  effects <- if (!is.null(a$facts$faults)) a$facts$faults else a$faults$effects
  done <- if (is.null(effects)) NULL else effects[effects$outcome == "done"]
  if (is.null(done) || nrow(done) == 0) return(modifyList(none, list(action_done = FALSE)))
  list(action_done = TRUE, first_error_s = done$first_error_s[1], no_success_s = done$no_success_s[1],
       recovery_s = done$recovery_s[1], recovered = done$recovered[1])
}

# One run's row: its put row's throughput and p99 (the total row's when it has no put row).
durability_run_row <- function(a) {
  row <- a$summary[test == "put"]
  if (nrow(row) == 0) row <- a$summary[test == "total"]
  if (nrow(row) == 0) return(NULL)
  fault <- durability_fault(a)
  data.table::as.data.table(c(
    list(source = paste0("ours (", a$run_id, ")"), reference = FALSE, durability = durability_of(a$manifest$properties %if_absent% list()),
         fault = fault, throughput_rps = row$throughput_rps[1], p99_ms = if ("p99_ms" %in% names(row)) row$p99_ms[1] else NA_real_),
    durability_audit(a$facts$audit), durability_effect(a, fault),
    list(verdict = verdict_kind(a), greys = verdict_greys(a))))
}

# The published rows: the rows/s their 3 region servers' seconds imply; no loss measured, no fault.
durability_published <- function(ref) {
  label <- reference_label(ref$comments)
  ref$table[, .(source = paste0(label, ": ", variant, ", 3 region servers"), reference = TRUE, durability, fault = "none",
                throughput_rps = study_number(rows_s_3rs), rs3_s = study_number(rs3_s), note)]
}

# Each row's throughput over the SYNC_WAL row's with the same fault on the same side (ours against
# ours, theirs against theirs; theirs from the seconds, 2601 / 2019, not the rounded rows/s). A ratio
# whose SYNC_WAL run's throughput is greyed is greyed too (greys "sync_throughput"), as the comparisons' are.
durability_ratios <- function(rows) {
  rows[, pace := if (reference[1]) 1 / rs3_s else throughput_rps, by = reference]
  rows[, vs_sync := {
    sync <- durability == "SYNC_WAL" & !is.na(pace)
    if (any(sync)) pace / stats::median(pace[sync]) else NA_real_
  }, by = .(reference, fault)]
  rows[, sync_greyed := any(durability == "SYNC_WAL" & grepl("(^|,)throughput(,|$)", greys)), by = .(reference, fault)]
  rows[reference == FALSE & sync_greyed, greys := ifelse(nzchar(greys), paste0(greys, ",sync_throughput"), "sync_throughput")]
  rows[, c("pace", "sync_greyed") := NULL]
  rows
}

# Published rows first in their durability's place; then by durability (sync, async, skip), no fault before a fault.
durability_table <- function(analyses, ref) {
  rows <- rbind(durability_published(ref), data.table::rbindlist(lapply(analyses, durability_run_row), fill = TRUE), fill = TRUE)
  # no run of ours with a put row: the published rows alone, with our columns empty
  for (column in setdiff(DURABILITY_RUN_COLUMNS, names(rows))) rows[, (column) := NA]
  rows[, greys := as.character(greys)]
  rows <- durability_ratios(rows)
  rows[, durability_order := match(durability, DURABILITY_ORDER, nomatch = length(DURABILITY_ORDER) + 1L)]
  rows[, faulted := fault != "none"]
  data.table::setorder(rows, durability_order, -reference, faulted, fault)   # stable: runs keep the sweep's order
  rows[, c("durability_order", "faulted") := NULL]
  rows
}

# A loss cell: a run without audit.json was not audited (never 0), an unfinished read-back's counts
# are lower bounds, and the published rows measured no loss (said once, in the loss columns).
durability_loss_cell <- function(reference, audited, complete, text, published = "") {
  text <- ifelse(rep_len(complete %in% FALSE, length(text)), paste("at least", text), text)
  ifelse(reference, published, ifelse(audited %in% TRUE, text, "not audited"))
}

# A cell of the kill's columns: empty without a fault, "action not done" when the schedule's action did
# not happen (or the run left no faults table).
durability_effect_cell <- function(fault, done, text) ifelse(fault == "none", "", ifelse(done %in% TRUE, text, "action not done"))

durability_recovery_text <- function(recovered, recovery_s) {
  ifelse(is.na(recovered), "no throughput before it", ifelse(!recovered, "not recovered",
         ifelse(recovery_s == 0, "never under 90%", fmt_int(recovery_s))))
}

durability_cells <- function(t) {
  cells <- t[, .(Source = source, Durability = durability, Fault = fault, `Throughput (req/s)` = fmt_num(throughput_rps, 0),
                 ratio = ifelse(is.na(vs_sync), "", sprintf("x%.2f", vs_sync)), `p99 (ms)` = fmt_num(p99_ms, 1),
                 `Acknowledged puts` = durability_loss_cell(reference, audited, TRUE, fmt_int(acknowledged)),
                 `Lost (lost + corrupted)` = durability_loss_cell(reference, audited, audit_complete, fmt_int(lost), "not measured"),
                 `Lost share` = durability_loss_cell(reference, audited, audit_complete, fmt_pct(lost_share, 2), "not measured"),
                 `In doubt (failed, yet present)` = durability_loss_cell(reference, audited, TRUE, fmt_int(in_doubt)),
                 `First error after (s)` = durability_effect_cell(fault, action_done,
                                                                  ifelse(is.na(first_error_s), "no error", fmt_num(first_error_s, 1))),
                 `Seconds without a success` = durability_effect_cell(fault, action_done, fmt_int(no_success_s)),
                 `Back to 90% after (s)` = durability_effect_cell(fault, action_done, durability_recovery_text(recovered, recovery_s)),
                 `Our run's verdict` = ifelse(is.na(verdict), "", verdict))]
  data.table::setnames(cells, "ratio", DURABILITY_RATIO)
  cells
}

study_def_durability <- list(
  scenario = "durability-under-faults", table = durability_table, cells = durability_cells,
  # a loss count stands whatever the CPU did: only the speed figures are greyed
  greyed = list(throughput = c("Throughput (req/s)", DURABILITY_RATIO), latency = "p99 (ms)", sync_throughput = DURABILITY_RATIO),
  differs = paste("Ours kills a region server's JVM on one machine whose WAL is on the local filesystem, not HDFS: what the WAL",
                  "had written is still in the page cache, so a power loss is not tested; theirs wrote 1 million rows of 15 KB",
                  "with autoflush on, ran no fault and measured no loss, so only the throughput ratio compares."))
