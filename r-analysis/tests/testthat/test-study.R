# study.R: a published study's table with our rows (from the summary) beside the published ones.

study_analysis <- function(run_id, target, operations, threads, rows, extra = list()) {
  workload <- data.table(operations = operations, threads = as.character(threads), target = target, value_size = "192",
                         rows = "2000", scan_length = extra$scan_length %if_absent% NA_character_, columns = "1", families = "1")
  list(run_id = run_id, target = target, summary = rbindlist(rows, fill = TRUE), workload = workload,
       verdict = list(kind = "trustworthy"),
       manifest = list(cluster = list(region_servers = 1L), versions = list(hbase = "2.6.1")))
}

summary_row <- function(test, mean, sd, p90, tput, count, error_rate = 0) {
  data.table(test = test, mean_ms = mean, sd_ms = sd, p90_ms = p90, throughput_rps = tput, count = count, error_rate = error_rate)
}

test_that("the adobe table puts our summary's figures and the published rows in the study's columns", {
  sweep <- write_study_sweep("adobe-2010-grinder")
  analyses <- list(
    study_analysis("run-1", "direct", "get:100", 2, list(summary_row("get", 1.5, 0.5, 2, 1333.3, 40000),
                                                         summary_row("total", 1.5, 0.5, 2, 1333.3, 40000))),
    study_analysis("run-2", "thrift", "get:70,put:30", 4, list(summary_row("get", 3, 1, 4, 900, 9000),
                                                               summary_row("put", 2, 1, 3, 400, 4000),
                                                               summary_row("total", 2.7, 1.1, 4, 1300, 13000, error_rate = 0.8148))))
  study <- study_section(sweep, analyses, root = tempdir())
  expect_equal(study$scenario, "adobe-2010-grinder")
  expect_equal(study$scale, "tiny")
  t <- study$table
  expect_equal(nrow(t), 6 + 2)
  # the published get rows first, then ours; the mix is read from the total row
  expect_equal(t$type, c("get", "get", "get", "put", "put", "get/put", "get/put", "get/put"))
  expect_equal(t[type == "get" & reference == TRUE, threads], c(300, 600))
  expect_equal(t[type == "get" & threads == 300, c(mean_ms, sd_ms, p90_ms, throughput_rps, requests)],
               c(17.87, 29.87, 38.793, 16788, 2999374))
  ours_get <- t[reference == FALSE & type == "get"]
  expect_equal(ours_get$source, "ours: direct (run-1)")
  expect_equal(c(ours_get$threads, ours_get$mean_ms, ours_get$sd_ms, ours_get$p90_ms, ours_get$throughput_rps, ours_get$requests),
               c(2, 1.5, 0.5, 2, 1333.3, 40000))
  ours_mix <- t[reference == FALSE & type == "get/put"]
  expect_equal(c(ours_mix$threads, ours_mix$mean_ms, ours_mix$requests), c(4, 2.7, 13000))
  expect_match(t[reference == TRUE, source][1], "^published 2010, 7 servers, dual Nehalem 8 cores, 32 GB")
  expect_match(study$differs, "scale tiny")
  expect_match(study$differs, "1 region server")
  expect_false(grepl("..", study$differs, fixed = TRUE))
  cells <- study_cells(study)
  expect_equal(names(cells), c("Source", "Type", "Threads", "Mean (ms)", "Std dev (ms)", "90% line (ms)", "Throughput (req/s)", "Requests",
                               "Errors (%)", "Our run's verdict"))
  # a run whose calls failed says so beside its throughput (81% refused, as the shim's guard did in sweep-8)
  expect_equal(cells[Source == "ours: thrift (run-2)", `Errors (%)`], "81.48")
  expect_equal(cells[Source == "ours: direct (run-1)", `Errors (%)`], "0.00")
  expect_equal(unique(cells[startsWith(Source, "published"), `Errors (%)`]), "")
  expect_equal(cells[Source == "ours: direct (run-1)", `Our run's verdict`], "trustworthy")
  expect_equal(unique(cells[Source != "ours: direct (run-1)" & !startsWith(Source, "ours"), Source]), "published 2010")
  expect_equal(cells[Type == "put" & Threads == "600", `Our run's verdict`], "")
  expect_equal(cells[Source == "ours: thrift (run-2)", `Throughput (req/s)`], "1,300")
  expect_equal(cells[Type == "put" & Threads == "600", `90% line (ms)`], "15.812")
})

test_that("the gbif table turns scans/s into records/s and MB/s beside the published curve points", {
  sweep <- write_study_sweep("gbif-2012-scan", scale = "default")
  counted <- summary_row("scan", 10, 2, 12, 200, 6000)
  counted[, rows_per_scan := 990]
  analyses <- list(
    study_analysis("run-1", "direct", "scan:100", 2, list(summary_row("scan", 5, 1, 6, 400, 12000)), list(scan_length = "1000")),
    study_analysis("run-2", "direct", "scan:100", 4, list(counted), list(scan_length = "1000")))
  t <- study_section(sweep, analyses, root = tempdir())$table
  expect_equal(t[reference == TRUE, records_s], c(1e6, 2e6))
  expect_match(t[reference == TRUE, source][1], "^published 2012, 6 x Dell R720XD.*: PerformanceEvaluation scan \\(peak\\)$")
  expect_equal(t[reference == FALSE, scanners], c(2, 4))
  # 400 scans/s x 1000 rows (scan.length: nothing counted) x 192 bytes; 200 x 990 counted rows
  expect_equal(t[reference == FALSE, records_s], c(400000, 198000))
  expect_equal(t[reference == FALSE, mb_s], c(400000 * 192 / 1e6, 198000 * 192 / 1e6))
  expect_equal(t[reference == FALSE, records_counted], c(FALSE, TRUE))
})

test_that("a sweep that is not a study, or has no record, gets no study section", {
  sweep <- write_study_sweep("adobe-2010-grinder")
  record <- jsonlite::fromJSON(file.path(sweep, "sweep.json"))
  record$scenario <- "my-own-scenario"
  jsonlite::write_json(record, file.path(sweep, "sweep.json"), auto_unbox = TRUE)
  expect_null(study_section(sweep, list(), root = tempdir()))
  expect_null(study_section(NA_character_, list(), root = tempdir()))
  expect_null(study_html(NULL))
})

test_that("a study sweep's report shows the table, and report.json carries it with the summary's own figures", {
  runs <- tempfile("runs-")
  dir.create(runs)
  for (spec in list(c("run-1", "direct"), c("run-2", "thrift"))) {
    dir <- copy_fixture(dest = file.path(runs, spec[1]))
    manifest <- jsonlite::fromJSON(file.path(dir, "manifest.json"))
    manifest$run_id <- spec[1]
    manifest$target <- spec[2]
    manifest$sweep_id <- "sweep-1"
    manifest$properties <- list(hbaseload.operations = "get:70,put:30", hbaseload.value.size = "192")
    jsonlite::write_json(manifest, file.path(dir, "manifest.json"), auto_unbox = TRUE)
  }
  dir.create(file.path(runs, "sweep-1"))
  jsonlite::write_json(list(sweep_id = "sweep-1", scenario = "adobe-2010-grinder", scale = "tiny",
                            scenario_file = file.path(r_analysis_dir, "..", "scenarios", "adobe-2010-grinder.properties"),
                            runs = c("run-1", "run-2")), file.path(runs, "sweep-1", "sweep.json"), auto_unbox = TRUE)
  res <- run_cli(c("--quiet", "--warmup", "0", "sweep-1"), env = paste0("SUITE_RUNS_DIR=", runs))
  expect_equal(res$status, 0)
  out <- file.path(runs, "sweep-1", "report")
  summary <- fread(file.path(out, "summary.csv"))
  doc <- jsonlite::fromJSON(file.path(out, "report.json"))
  rows <- as.data.table(doc$study$rows)
  expect_equal(doc$study$scenario, "adobe-2010-grinder")
  expect_equal(doc$study$scale, "tiny")
  expect_equal(nrow(rows[reference == TRUE]), 6)
  ours <- rows[reference == FALSE]
  expect_equal(ours$type, c("get/put", "get/put"))
  expect_equal(ours$mean_ms, summary[test == "total", mean_ms], tolerance = 1e-4)
  expect_equal(ours$requests, summary[test == "total", count])
  html <- paste(readLines(file.path(out, "index.html"), warn = FALSE), collapse = "\n")
  expect_match(html, "The study: adobe-2010-grinder (scale tiny)", fixed = TRUE)
  expect_match(html, "How ours differs:", fixed = TRUE)
  expect_match(html, "<td class=\"l\">get/put</td><td>600</td><td>26.48</td><td>33.10</td><td>64.336</td>", fixed = TRUE)
})

test_that("rows_per_scan is the mean of the data log's Rows over successful scans in the window", {
  dir <- tempfile("run-")
  header <- paste0(LOG_HEADER, ", Rows")
  # scans (test 3) returned 100, 100, 40 rows; a failed scan's 0 and the gets' 0 do not count
  write_log(file.path(dir, "injectors", "inj1", "inj1-0-data.log"), c(header,
    "0, 0, 3, 1763712000000, 5, 0, 4900, 100",
    "0, 1, 3, 1763712000005, 5, 0, 4900, 100",
    "0, 2, 1, 1763712000010, 1, 0, 900, 0",
    "0, 3, 3, 1763712000011, 5, 1, 4900, 0",
    "0, 4, 3, 1763712000016, 5, 0, 4900, 40"))
  writeLines('{"run_id": "run-scan", "status": "complete", "threads_total": 1, "tests": {"1": "get", "3": "scan"}}',
             file.path(dir, "manifest.json"))
  a <- analyse_run(run_target(dir), warmup_s = 0)
  expect_equal(a$summary[test == "scan", rows_per_scan], 80)
  expect_true(is.na(a$summary[test == "get", rows_per_scan]))
  # a log without the column: nothing counted, the study falls back to scan.length
  b <- analyse_run(run_target(copy_fixture()), warmup_s = 0)
  expect_true(all(is.na(b$summary$rows_per_scan)))
})

test_that("our figures that a run's verdict disqualifies are greyed in the study table, as in the rest of the report", {
  sweep <- write_study_sweep("gbif-2012-scan", scale = "default")
  shared <- study_analysis("run-1", "direct", "scan:100", 2, list(summary_row("scan", 5, 1, 6, 400, 12000)), list(scan_length = "1000"))
  shared$verdict <- list(kind = "shared CPU", disqualifies = "throughput")
  clean <- study_analysis("run-2", "direct", "scan:100", 4, list(summary_row("scan", 10, 2, 12, 200, 6000)), list(scan_length = "1000"))
  study <- study_section(sweep, list(shared, clean), root = tempdir())
  cells <- study_cells(study)
  classes <- study_cell_class(study, cells)
  greyed <- function(run) names(cells)[which(classes[grepl(run, cells$Source, fixed = TRUE), ] == "disq")]
  expect_equal(greyed("run-1"), c("Scans/s", "Records/s", "MB/s"))
  expect_equal(greyed("run-2"), character())
  expect_true(all(is.na(classes[startsWith(cells$Source, "published"), ])))
  html <- html_string(study_html(study))
  expect_match(html, "Greyed: our figures that their run's verdict", fixed = TRUE)
  expect_match(html, "<td class=\"disq\">400.0</td>", fixed = TRUE)
})
