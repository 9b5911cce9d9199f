# study-dana.R: dana-schema-stress's table, our figures per test and parameter beside the published 1 and 5 RS ones.

dana_analysis <- function(run_id, props, rows, verdict = list(kind = "trustworthy"), work = NULL) {
  list(run_id = run_id, target = "direct", summary = rbindlist(rows, fill = TRUE), work = work,
       workload = data.table(operations = props[["hbaseload.operations"]], threads = "4", rows = props[["hbaseload.rows"]] %if_absent% "2000"),
       verdict = verdict, manifest = list(properties = props, cluster = list(region_servers = 1L), versions = list(hbase = "2.6.1")))
}


rate_row <- function(test, tput) data.table(test = test, throughput_rps = tput, count = tput * 5, mean_ms = 1)

# A prepared point's record and properties, as ./suite sweep leaves them (prepare-N.json, prepare-N.properties).
write_prepared <- function(sweep, point, props, outcome, create_s) {
  writeLines(c("# the table of run N", sprintf("%s = %s", names(props), gsub(":", "\\\\:", unlist(props)))),
             file.path(sweep, sprintf("prepare-%d.properties", point)))
  jsonlite::write_json(list(table = props[["hbaseload.table"]], outcome = outcome, create_s = create_s),
                       file.path(sweep, sprintf("prepare-%d.json", point)), auto_unbox = TRUE, null = "null", na = "null")
}

test_that("a run's test and parameter come from its properties, as the scenario's points set them", {
  expect_equal(dana_point(list(hbaseload.families = "100", hbaseload.operations = "put:100")),
               list(test = "column families", parameter = 100))
  expect_equal(dana_point(list(hbaseload.wide.columns = "100000", hbaseload.operations = "get:100", hbaseload.rows = "1")),
               list(test = "columns in one row", parameter = 1e5))
  expect_equal(dana_point(list(hbaseload.rows = "1000000", hbaseload.operations = "put:100", hbaseload.key.distribution = "reverse")),
               list(test = "key order reverse", parameter = 1e6))
  expect_equal(dana_point(list(hbaseload.rows = "10000", hbaseload.operations = "put:100", hbaseload.key.distribution = "sequential"))$test,
               "key order lexicographic")
  expect_equal(dana_point(list(hbaseload.rows = "10000", hbaseload.operations = "get:50, put:50")),
               list(test = "interspersed reads after writes", parameter = 10000))
  expect_null(dana_point(list(hbaseload.operations = "get:100")))              # a plain get run is none of the study's tests
  expect_null(dana_point(list(hbaseload.operations = "put:100", hbaseload.key.distribution = "zipfian")))
})

test_that("the table puts our writes/s, reads/s and setup s beside every published 1 and 5 RS figure", {
  sweep <- write_study_sweep("dana-schema-stress")
  cf10 <- list(hbaseload.table = "dana_cf10_tiny", hbaseload.families = "10", hbaseload.rows = "2000", hbaseload.operations = "get:50,put:50")
  wide <- list(hbaseload.table = "dana_wide_tiny", hbaseload.wide.columns = "2000", hbaseload.wide.batch = "100", hbaseload.rows = "1",
               hbaseload.operations = "get:50,put:50")
  rev <- list(hbaseload.table = "dana_rows10k_tiny", hbaseload.rows = "2000", hbaseload.operations = "put:100", hbaseload.key.distribution = "reverse")
  mix <- list(hbaseload.table = "dana_rows10k_tiny", hbaseload.rows = "2000", hbaseload.operations = "get:50,put:50",
              hbaseload.key.distribution = "uniform")
  # the family table created twice (fresh before each of two runs): setup s is the mean creation time
  write_prepared(sweep, 1, cf10, "created", 1.25)
  write_prepared(sweep, 2, cf10, "created", 1.75)
  write_prepared(sweep, 3, rev, "already prepared", NA)
  analyses <- list(
    dana_analysis("run-1", cf10, list(rate_row("get", 300), rate_row("put", 100))),
    dana_analysis("run-2", cf10, list(rate_row("get", 500), rate_row("put", 300))),
    dana_analysis("run-3", wide, list(rate_row("get", 800), rate_row("put", 12.5))),
    dana_analysis("run-4", rev, list(rate_row("put", 2000)), verdict = list(kind = "shared CPU", disqualifies = "throughput"),
                  work = list(requests = 2000, planned = 2000, elapsed_s = 2.5, complete = TRUE)),
    dana_analysis("run-5", mix, list(rate_row("get", 900), rate_row("put", 850))))
  study <- study_section(sweep, analyses, root = tempdir())
  t <- study$table
  # every published test and parameter, and ours at tiny's own parameters (2000 rows, 2000 columns)
  expect_equal(nrow(t), 19 + 3)
  expect_equal(unique(t$test), DANA_TESTS)
  expect_equal(t[test == "column families" & parameter == 10, c(ours_setup_s, ours_writes_s, ours_reads_s)], c(1.5, 200, 400))
  expect_equal(t[test == "column families" & parameter == 10, c(rs1_setup_s, rs1_writes_s, rs1_reads_s, rs5_writes_s)],
               c("12.3", "164", "99", "29"))
  expect_equal(t[test == "column families" & parameter == 1000, c(rs1_setup_s, rs5_reads_s)], c("timeout", "timeout"))
  # a wide row's put writes wide.batch columns: 12.5 puts/s x 100 = 1250 columns/s
  expect_equal(t[test == "columns in one row" & parameter == 2000, c(ours_writes_s, ours_reads_s)], c(1250, 800))
  expect_equal(t[test == "columns in one row" & parameter == 1e6, rs1_writes_s], "crash")
  # key order: the fixed work's 2000 writes over their 2.5 s elapsed, not the puts' rate in the window
  expect_equal(t[test == "key order reverse" & parameter == 2000, c(ours_writes_s, ours_reads_s)], c(800, NA_real_))
  expect_equal(t[test == "key order reverse" & parameter == 2000, ours_work], "all N writes")
  expect_true(is.na(t[test == "key order reverse" & parameter == 2000, ours_setup_s]))   # setup s is the families' only
  expect_equal(t[test == "interspersed reads after writes" & parameter == 2000, c(ours_writes_s, ours_reads_s)], c(NA_real_, 900))
  expect_equal(t[test == "interspersed reads after writes" & parameter == 1e6, rs5_reads_s], "35")
  expect_equal(t[test == "key order random" & parameter == 1e5, c(rs1_writes_s, rs5_writes_s, rs1_reads_s)], c("421", "441", ""))
  cells <- study_cells(study)
  expect_equal(names(cells)[1:5], c("Test", "Parameter", "Setup s (ours)", "Writes/s (ours)", "Reads/s (ours)"))
  expect_equal(cells[Test == "column families" & Parameter == "10", `Setup s (ours)`], "1.50")
  expect_equal(cells[Test == "columns in one row" & Parameter == "2,000", `Writes/s (ours)`], "1,250")
  expect_equal(cells[Test == "column families" & Parameter == "1,000", `Setup s (1 RS)`], "timeout")
  classes <- study_cell_class(study, cells)
  greyed <- names(cells)[which(classes[cells$Test == "key order reverse" & cells$Parameter == "2,000", ] == "disq")]
  expect_equal(greyed, c("Writes/s (ours)", "Reads/s (ours)"))
  expect_true(all(is.na(classes[cells$Test == "column families" & cells$Parameter == "10", ])))
  expect_equal(cells[Test == "key order reverse" & Parameter == "2,000", `Our run's verdict`], "shared CPU; all N writes")
})

test_that("a key-order run its bound ended before the N writes gives the rate of those it made, and says the share", {
  keys <- list(hbaseload.table = "dana_keys1m", hbaseload.rows = "1000000", hbaseload.operations = "put:100",
               hbaseload.key.distribution = "uniform", grinder.runs = "125000")
  a <- dana_analysis("run-9", keys, list(rate_row("put", 9999)), work = list(requests = 300000, planned = 1e6, elapsed_s = 30, complete = FALSE))
  t <- dana_table(list(a), read_reference(file.path(r_analysis_dir, "..", "scenarios", "reference", "dana-schema-stress.csv")))
  expect_equal(t[test == "key order random" & parameter == 1e6, ours_writes_s], 10000)
  expect_equal(t[test == "key order random" & parameter == 1e6, rs1_writes_s], "334")
  expect_equal(t[test == "key order random" & parameter == 1e6, ours_work], "30% of the N writes (the run's bound ended it)")
})

test_that("a point whose table timed out or crashed shows that outcome in our cells, never a number", {
  sweep <- write_study_sweep("dana-schema-stress", scale = "default")
  cf1000 <- list(hbaseload.table = "dana_cf1000", hbaseload.families = "1000", hbaseload.rows = "10000", hbaseload.operations = "put:100")
  wide <- list(hbaseload.table = "dana_wide1m", hbaseload.wide.columns = "1000000", hbaseload.rows = "1", hbaseload.operations = "put:100")
  write_prepared(sweep, 25, cf1000, "timeout", NA)
  write_prepared(sweep, 26, modifyList(cf1000, list(hbaseload.operations = "get:100")), "timeout", NA)
  write_prepared(sweep, 17, wide, "crash", 0.8)
  study <- study_section(sweep, list(), root = tempdir())
  t <- study$table
  expect_equal(t[test == "column families" & parameter == 1000, ours_outcome], "timeout")
  expect_equal(t[test == "columns in one row" & parameter == 1e6, ours_outcome], "crash")
  expect_true(is.na(t[test == "column families" & parameter == 500, ours_outcome]))
  cells <- study_cells(study)
  expect_equal(unlist(cells[Test == "column families" & Parameter == "1,000", .(`Setup s (ours)`, `Writes/s (ours)`, `Reads/s (ours)`)],
                      use.names = FALSE), c("timeout", "timeout", "timeout"))
  expect_equal(cells[Test == "columns in one row" & Parameter == "1,000,000", `Writes/s (ours)`], "crash")
  expect_equal(cells[Test == "column families" & Parameter == "500", `Writes/s (ours)`], "")
  json <- study_json(study)
  expect_equal(json$rows$ours_outcome[json$rows$test == "column families" & json$rows$parameter == 1000], "timeout")
})
