# study-durability.R: SYNC_WAL, ASYNC_WAL and SKIP_WAL without and with a region server killed, throughput
# and p99 beside the audit's lost writes and the kill's effect, under the write-tuning study's WAL rows.

KILL <- "at=10s kill regionserver=2"

# A run's analysis as a sweep's report keeps it (slim_analysis): the audit and the faults' effects in its facts.
durability_analysis <- function(run_id, durability, put_rps, fault = "none", audit = NULL, effect = NULL, kind = "trustworthy",
                                greys = character(), p99 = 12.5) {
  props <- list(hbaseload.operations = "put:100", hbaseload.audit = "true", faults.schedule = fault)
  if (!is.null(durability)) props$hbaseload.durability <- durability
  a <- list(run_id = run_id, run_dir = file.path(tempdir(), run_id), target = "direct",
            summary = data.table(test = c("put", "total"), throughput_rps = put_rps, p99_ms = p99, count = 60000),
            workload = data.table(operations = "put:100", threads = "8", rows = "20000"),
            facts = list(audit = audit, faults = effect, faults_schedule = if (fault == "none") NA_character_ else fault),
            verdict = list(kind = kind, disqualifies = greys),
            manifest = list(properties = props, cluster = list(region_servers = 3L), versions = list(hbase = "2.6.1")))
  slim_analysis(a)
}

durability_audit_json <- function(acknowledged, lost, in_doubt = 0, complete = TRUE) {
  list(acknowledged = acknowledged, intact = acknowledged - lost, lost = lost, corrupted = 0, failed = 8, in_doubt = in_doubt,
       failed_absent = 8 - in_doubt, complete = complete)
}

# The faults table's row of one kill (fault_effects' columns the study reads).
durability_kill <- function(first_error_s, no_success_s, recovery_s, recovered = TRUE, outcome = "done") {
  data.table(fault = 1L, action = "kill", regionserver = 2L, outcome = outcome, first_error_s = first_error_s,
             no_success_s = no_success_s, recovery_s = recovery_s, recovered = recovered, errors = 8)
}


under_faults <- c("comparison", "latency", "throughput")

# The scenario's six runs in the sweep's order (fault outer, durability inner); ASYNC_WAL without a fault was not audited.
durability_runs <- function() {
  list(
    durability_analysis("run-1", "sync_wal", 2000, audit = durability_audit_json(60000, 0)),
    durability_analysis("run-2", "async_wal", 2400),
    durability_analysis("run-3", "skip_wal", 2600, audit = durability_audit_json(78000, 0)),
    durability_analysis("run-4", "sync_wal", 1800, KILL, durability_audit_json(60970, 0, in_doubt = 1), durability_kill(4.4, 6, 9),
                        kind = "under faults", greys = under_faults),
    # a kill run the verdict does not grey, so that its ratio is greyed only through its SYNC_WAL run
    durability_analysis("run-5", "async_wal", 2000, KILL, durability_audit_json(70000, 12), durability_kill(NA, 0, 0)),
    durability_analysis("run-6", "skip_wal", 2700, KILL, durability_audit_json(88611, 4091), durability_kill(5.5, 5, NA, FALSE),
                        kind = "lost writes", greys = under_faults))
}

test_that("the study is found by its scenario's name", {
  expect_identical(study_definition("durability-under-faults"), study_def_durability)
})

test_that("durability and fault come from the run's properties, as the scenario's sweep sets them", {
  expect_equal(durability_of(list(hbaseload.durability = "skip_wal")), "SKIP_WAL")
  expect_equal(durability_of(list(hbaseload.durability = "default")), "default")
  expect_equal(durability_of(list()), "default")
  a <- durability_analysis("run-1", "sync_wal", 100, KILL)
  expect_equal(durability_fault(a), KILL)
  a$manifest$properties$faults.schedule <- "none"
  expect_equal(durability_fault(a), "none")
  # no property: the schedule the run's faults step recorded
  a$manifest$properties$faults.schedule <- NULL
  a$facts$faults_schedule <- "at=5s  pause regionserver=1 for=3s"
  expect_equal(durability_fault(a), "at=5s pause regionserver=1 for=3s")
})

test_that("the table orders by durability, no fault before the kill, each published row first, with the WAL's price as a ratio", {
  study <- study_section(write_study_sweep("durability-under-faults"), durability_runs(), root = tempdir())
  t <- study$table
  expect_equal(study$scenario, "durability-under-faults")
  expect_equal(t$source, c("published 2014, 6 machines (1 master, up to 5 region servers), 24 GB RAM: default (autoflush on), 3 region servers",
                           "ours (run-1)", "ours (run-4)", "ours (run-2)", "ours (run-5)",
                           "published 2014, 6 machines (1 master, up to 5 region servers), 24 GB RAM: WAL off, 3 region servers",
                           "ours (run-3)", "ours (run-6)"))
  expect_equal(t$durability, c("SYNC_WAL", "SYNC_WAL", "SYNC_WAL", "ASYNC_WAL", "ASYNC_WAL", "SKIP_WAL", "SKIP_WAL", "SKIP_WAL"))
  expect_equal(t$fault, c("none", "none", KILL, "none", KILL, "none", "none", KILL))
  # the published rows as published: 1,000,000 rows in 2601 and 2019 s at 3 region servers
  expect_equal(t[reference == TRUE, throughput_rps], c(384.5, 495.3))
  expect_equal(t[reference == TRUE, vs_sync], c(1, 2601 / 2019))
  # ours against our SYNC_WAL run of the same fault: 2,600 / 2,000 without one, 2,700 / 1,800 with the kill
  ours <- t[reference == FALSE]
  expect_equal(ours[source == "ours (run-1)", vs_sync], 1)
  expect_equal(ours[source == "ours (run-2)", vs_sync], 2400 / 2000)
  expect_equal(ours[source == "ours (run-3)", vs_sync], 2600 / 2000)
  expect_equal(ours[source == "ours (run-5)", vs_sync], 2000 / 1800)
  expect_equal(ours[source == "ours (run-6)", vs_sync], 2700 / 1800)
  expect_equal(ours[source == "ours (run-6)", c(acknowledged, lost, lost_share)], c(88611, 4091, 4091 / 88611))
  expect_equal(ours[source == "ours (run-6)", verdict], "lost writes")
  expect_false(ours[source == "ours (run-2)", audited])
  expect_true(is.na(ours[source == "ours (run-2)", lost]))
  expect_match(study$differs, "page cache")
})

test_that("the cells show the ratio, the lost share, 'not audited' for a run without audit and the kill's effect", {
  study <- study_section(write_study_sweep("durability-under-faults"), durability_runs(), root = tempdir())
  cells <- study_cells(study)
  expect_equal(names(cells), c("Source", "Durability", "Fault", "Throughput (req/s)", "Throughput vs SYNC_WAL, same fault", "p99 (ms)",
                               "Acknowledged puts", "Lost (lost + corrupted)", "Lost share", "In doubt (failed, yet present)",
                               "First error after (s)", "Seconds without a success", "Back to 90% after (s)", "Our run's verdict"))
  ratio <- cells$`Throughput vs SYNC_WAL, same fault`
  expect_equal(ratio, c("x1.00", "x1.00", "x1.00", "x1.20", "x1.11", "x1.29", "x1.30", "x1.50"))
  expect_equal(cells$Source[c(1, 6)], c("published 2014: default (autoflush on), 3 region servers", "published 2014: WAL off, 3 region servers"))
  expect_equal(cells$`Throughput (req/s)`[1:3], c("384", "2,000", "1,800"))
  skip_kill <- cells[Source == "ours (run-6)"]
  expect_equal(c(skip_kill$`Acknowledged puts`, skip_kill$`Lost (lost + corrupted)`, skip_kill$`Lost share`), c("88,611", "4,091", "4.62%"))
  expect_equal(c(skip_kill$`First error after (s)`, skip_kill$`Seconds without a success`, skip_kill$`Back to 90% after (s)`),
               c("5.5", "5", "not recovered"))
  sync_kill <- cells[Source == "ours (run-4)"]
  expect_equal(c(sync_kill$`Lost (lost + corrupted)`, sync_kill$`In doubt (failed, yet present)`, sync_kill$`Back to 90% after (s)`),
               c("0", "1", "9"))
  expect_equal(cells[Source == "ours (run-5)", c(`First error after (s)`, `Back to 90% after (s)`)], c("no error", "never under 90%"))
  # not audited is never 0; the published rows measured no loss; no fault, no fault columns
  unaudited <- cells[Source == "ours (run-2)"]
  expect_equal(unlist(unaudited[, c("Acknowledged puts", "Lost (lost + corrupted)", "Lost share", "In doubt (failed, yet present)")],
                      use.names = FALSE), rep("not audited", 4))
  expect_equal(cells$`Lost (lost + corrupted)`[c(1, 6)], c("not measured", "not measured"))
  expect_equal(cells$`Acknowledged puts`[c(1, 6)], c("", ""))
  expect_equal(unlist(unaudited[, c("First error after (s)", "Seconds without a success", "Back to 90% after (s)")], use.names = FALSE),
               c("", "", ""))
})

test_that("a greying verdict greys the speed figures, never the loss; a ratio is greyed with its SYNC_WAL run", {
  study <- study_section(write_study_sweep("durability-under-faults"), durability_runs(), root = tempdir())
  cells <- study_cells(study)
  classes <- study_cell_class(study, cells)
  greyed <- function(source) names(cells)[!is.na(classes[cells$Source == source, ])]
  expect_equal(greyed("ours (run-6)"), c("Throughput (req/s)", "Throughput vs SYNC_WAL, same fault", "p99 (ms)"))
  # its own verdict greys nothing, its SYNC_WAL run's (under faults) greys the ratio
  expect_equal(greyed("ours (run-5)"), "Throughput vs SYNC_WAL, same fault")
  expect_equal(greyed("ours (run-3)"), character())
  expect_equal(sum(!is.na(classes[, names(cells) %in% c("Lost (lost + corrupted)", "Lost share", "Acknowledged puts")])), 0)
})

test_that("a kill that did not happen, an unfinished read-back and a sweep without SYNC_WAL say so", {
  undone <- durability_analysis("run-7", "skip_wal", 2500, KILL, durability_audit_json(50000, 30, complete = FALSE),
                                durability_kill(NA, NA, NA, NA, outcome = "failed"))
  no_faults_record <- durability_analysis("run-8", NULL, 2300, KILL, durability_audit_json(50000, 0))
  ref <- read_reference(file.path(r_analysis_dir, "..", "scenarios", "reference", "durability-under-faults.csv"))
  t <- durability_table(list(undone, no_faults_record), ref)
  cells <- durability_cells(t)
  row <- cells[Source == "ours (run-7)"]
  expect_equal(c(row$`First error after (s)`, row$`Seconds without a success`, row$`Back to 90% after (s)`), rep("action not done", 3))
  expect_equal(c(row$`Lost (lost + corrupted)`, row$`Lost share`), c("at least 30", "at least 0.06%"))
  # no SYNC_WAL run with the kill: no ratio rather than a wrong one; "default" sorts after the named durabilities
  expect_equal(row$`Throughput vs SYNC_WAL, same fault`, "")
  expect_equal(cells$Durability, c("SYNC_WAL", "SKIP_WAL", "SKIP_WAL", "default"))
  expect_equal(cells[Source == "ours (run-8)", `First error after (s)`], "action not done")
  # the published rows alone when no run of ours has a put row
  only <- durability_cells(durability_table(list(), ref))
  expect_equal(only$`Throughput vs SYNC_WAL, same fault`, c("x1.00", "x1.29"))
})
