# study-pe.R: the hbase-0.20-pe table from fixed-work runs beside the published rows.

pe_analysis <- function(run_id, props, requests, planned, elapsed_s, servers = "1", summary = data.table(test = "total"),
                        rows_returned = NA_real_) {
  base <- list(hbaseload.value.size = "1000", hbaseload.key.width = "10", hbaseload.client.buffering = "true",
               hbaseload.durability = "default", hbaseload.scan.length = "100")
  list(run_id = run_id, target = "direct", summary = summary,
       workload = data.table(region_servers = servers, rows = "2000", threads = "4"),
       work = list(requests = requests, planned = planned, elapsed_s = elapsed_s, complete = requests == planned,
                   rows_returned = rows_returned),
       verdict = list(kind = "shared CPU", disqualifies = "throughput"),
       manifest = list(properties = modifyList(base, props), cluster = list(region_servers = 1L), versions = list(hbase = "2.6.1"),
                       machine = list(cores = 6L)))
}

test_that("each run is matched to PE's report and experiment", {
  expect_equal(pe_experiment(list(hbaseload.operations = "put:100", hbaseload.key.distribution = "uniform",
                                  hbaseload.prepare.mode = "fresh")), "random writes (i)")
  expect_equal(pe_experiment(list(hbaseload.operations = "get:100", hbaseload.key.distribution = "sequential")), "sequential reads")
  expect_equal(pe_experiment(list(hbaseload.operations = "scan:100", hbaseload.key.distribution = "sequential")), "scans")
  expect_true(is.na(pe_experiment(list(hbaseload.operations = "get:70,put:30"))))
  expect_true(is.na(pe_experiment(list(hbaseload.operations = "get:100", hbaseload.key.distribution = "zipfian"))))
  expect_equal(pe_report(list(hbaseload.client.buffering = "true", hbaseload.durability = "default")), "autoflush=false wal=true")
  expect_equal(pe_report(list(hbaseload.client.buffering = "false")), "autoflush=true wal=true")
  expect_equal(pe_report(list(hbaseload.client.buffering = "true", hbaseload.durability = "skip_wal")), "autoflush=false wal=false")
})

test_that("the PE table: elapsed, rows/s, per node, ms/row, MB/s from the work, beside the published rows of the same report", {
  sweep <- write_study_sweep("hbase-0.20-pe")
  analyses <- list(
    # 2000 random reads in 0.8 s: 2500 rows/s on 1 node; 0.4 ms/row; 2500 x 1010 bytes = 2.525 MB/s
    pe_analysis("run-1", list(hbaseload.operations = "get:100", hbaseload.key.distribution = "uniform"), 2000, 2000, 0.8),
    # 20 scans that returned 2000 rows between them (counted) in 0.5 s: 4000 rows/s; over 2 region servers 2000 a node
    pe_analysis("run-2", list(hbaseload.operations = "scan:100", hbaseload.key.distribution = "sequential"), 20, 20, 0.5,
                servers = "2", rows_returned = 2000),
    # the bound ended it: 1500 of 2000 puts in 60 s
    pe_analysis("run-3", list(hbaseload.operations = "put:100", hbaseload.key.distribution = "sequential",
                              hbaseload.prepare.mode = "fresh"), 1500, 2000, 60))
  study <- study_section(sweep, analyses, root = tempdir())
  t <- study$table
  expect_equal(unique(t$report), "autoflush=false wal=true")          # only the report our runs belong to
  expect_equal(nrow(t[reference == TRUE]), 7)
  expect_equal(t$experiment[1:3], c("random reads", "random reads", "random writes (i)"))
  expect_equal(t$reference[1:2], c(TRUE, FALSE))
  reads <- t[reference == FALSE & experiment == "random reads"]
  expect_equal(c(reads$elapsed_s, reads$rows, reads$rows_s, reads$rows_s_per_node, reads$ms_per_row_per_node, reads$mb_s),
               c(0.8, 2000, 2500, 2500, 0.4, 2.525))
  scans <- t[reference == FALSE & experiment == "scans"]
  expect_equal(c(scans$rows, scans$rows_s, scans$rows_s_per_node), c(2000, 4000, 2000))
  bounded <- t[reference == FALSE & experiment == "sequential writes (i)"]
  expect_equal(bounded$work, "bound reached: 1,500 of 2,000 requests")
  expect_equal(bounded$rows_s, 25)
  published <- t[reference == TRUE & experiment == "random reads"]
  expect_equal(c(published$elapsed_s, published$rows_s, published$rows_s_per_node, published$bigtable_rows_s), c(948, 4424, 1106, 1212))
  cells <- study_cells(study)
  expect_equal(names(cells), c("Source", "Report", "Experiment", "Elapsed (s)", "Rows", "Rows/s", "Rows/s per node", "ms/row per node",
                               "MB/s", "BigTable rows/s (1 node)", "Work", "Our run's verdict"))
  expect_equal(cells[Source == "ours: direct (run-1)", `Rows/s`], "2,500")
  expect_equal(cells[Source == "ours: direct (run-1)", `BigTable rows/s (1 node)`], "")
  expect_equal(cells[1, `BigTable rows/s (1 node)`], "1,212")
  # the verdict greys our throughput figures, never the published ones
  classes <- study_cell_class(study, cells)
  expect_equal(classes[2, names(cells) == "Rows/s"], "disq")
  expect_true(is.na(classes[1, names(cells) == "Rows/s"]))
  expect_match(study$differs, "MapReduce tasks")
  expect_match(study$differs, "^Ours: 6 core\\(s\\) on the machine that ran the runs, 1 region server")
})

test_that("scans whose rows the data log did not count are scan.length rows a scan", {
  sweep <- write_study_sweep("hbase-0.20-pe")
  uncounted <- pe_analysis("run-6", list(hbaseload.operations = "scan:100", hbaseload.key.distribution = "sequential",
                                         hbaseload.scan.length = "50"), 8, 8, 2)
  t <- study_section(sweep, list(uncounted), root = tempdir())$table
  expect_equal(t[reference == FALSE, c(rows, rows_s)], c(400, 200))
})

test_that("a run for a duration (no fixed work) or not a PE experiment adds no row", {
  sweep <- write_study_sweep("hbase-0.20-pe")
  timed <- pe_analysis("run-4", list(hbaseload.operations = "get:100", hbaseload.key.distribution = "uniform"), 10, 10, 1)
  timed$work <- NULL
  mixed <- pe_analysis("run-5", list(hbaseload.operations = "get:50,put:50"), 10, 10, 1)
  t <- study_section(sweep, list(timed, mixed), root = tempdir())$table
  expect_equal(nrow(t[reference == FALSE]), 0)
  expect_equal(nrow(t), 17)      # every published row when none of ours matched
})
