# study-hosei.R: time to write N rows and rows/s per variant, beside the paper's seconds at 1/3/5 region servers.

hosei_analysis <- function(run_id, properties, put_rps, work = NULL, server = NULL, rows = "2000", kind = "trustworthy") {
  dir <- file.path(tempfile("runs-"), run_id)
  dir.create(dir, recursive = TRUE)
  if (!is.null(server)) jsonlite::write_json(server, file.path(dir, "server-conf.json"), auto_unbox = TRUE, null = "null")
  list(run_id = run_id, run_dir = dir, target = "direct", work = work,
       summary = data.table(test = c("put", "total"), throughput_rps = put_rps, count = 2000),
       workload = data.table(operations = "put:100", threads = "4", rows = rows, value_size = "1700", columns = "9", families = "1"),
       verdict = list(kind = kind, disqualifies = if (kind == "trustworthy") character() else "throughput"),
       manifest = list(properties = properties, cluster = list(region_servers = 1L), versions = list(hbase = "2.6.1")))
}

server_conf <- function(requested, handlers = "30", small = NULL, flush = "134217728") {
  value <- function(v, resource = "hbase-site.xml") if (is.null(v)) NULL else list(value = v, resource = resource)
  list(schema = 1, server_variant = "x", requested = requested,
       read_back = list(hbase.regionserver.handler.count = value(handlers),
                        hbase.regionserver.thread.compaction.small = value(small),
                        hbase.hregion.memstore.flush.size = value(flush)))
}


complete_work <- function(elapsed) list(requests = 2000, planned = 2000, elapsed_s = elapsed, complete = TRUE)

test_that("the paper's variant names come from the client properties and the server overrides, one factor each", {
  expect_equal(hosei_variant(list(hbaseload.client.buffering = "false"), list()), "default (autoflush on)")
  expect_equal(hosei_variant(list(hbaseload.client.buffering = "true", hbaseload.write.buffer.bytes = "2097152"), list()),
               "autoflush off + write buffer 2 MB (default)")
  expect_equal(hosei_variant(list(hbaseload.client.buffering = "true", hbaseload.write.buffer.bytes = "104857600"), list()),
               "autoflush off + write buffer 100 MB")
  expect_equal(hosei_variant(list(hbaseload.durability = "skip_wal"), list()), "WAL off")
  expect_equal(hosei_variant(list(hbaseload.regions = "30"), list()), "30 regions pre-created")
  expect_equal(hosei_variant(list(hbaseload.regions = "1"), list(hbase.regionserver.handler.count = "500")), "handler count 500")
  expect_equal(hosei_variant(list(), list(hbase.regionserver.thread.compaction.small = "2", hbase.regionserver.thread.compaction.large = "2")),
               "compaction threads 2")
  expect_equal(hosei_variant(list(), list(hbase.hregion.memstore.flush.size = "67108864")), "memstore flush size 64 MB")
  # tiny merges the server variants: a combination, which matches no published row
  expect_equal(hosei_variant(list(), list(hbase.regionserver.handler.count = "500", hbase.hregion.memstore.flush.size = "67108864")),
               "handler count 500 + memstore flush size 64 MB")
})

test_that("the table puts our measured time and rows/s under the paper's row of the same variant", {
  sweep <- write_study_sweep("hosei-2014-write-tuning")
  analyses <- list(
    hosei_analysis("run-1", list(hbaseload.client.buffering = "false"), 600, complete_work(4),
                   server = server_conf(structure(list(), names = character()))),
    hosei_analysis("run-2", list(hbaseload.client.buffering = "true", hbaseload.write.buffer.bytes = "6291456"), 900,
                   complete_work(2.5)),
    hosei_analysis("run-3", list(hbaseload.client.buffering = "false"), 500, complete_work(5),
                   server = server_conf(list(hbase.regionserver.handler.count = "100"), handlers = "100", small = "2")),
    hosei_analysis("run-4", list(hbaseload.client.buffering = "false"), 700, complete_work(3),
                   server = server_conf(list(hbase.hregion.memstore.flush.size = "67108864"), flush = "67108864")))
  study <- study_section(sweep, analyses, root = tempdir())
  t <- study$table
  expect_equal(study$scenario, "hosei-2014-write-tuning")
  # 11 published rows, copied as published, in the paper's order, and our 4
  expect_equal(nrow(t), 11 + 4)
  ref <- t[reference == TRUE]
  expect_equal(ref[variant == "default (autoflush on)", c(rs1_s, rs3_s, rs5_s)], c(3211, 2601, 1901))
  expect_equal(ref[variant == "handler count 500", c(rs1_s, rs3_s, rs5_s)], c(3609, 4012, 4119))
  expect_equal(unique(ref$rows), 1e6)
  expect_match(ref$source[1], "^published 2014, 6 machines")
  # ours right under the published row of its variant
  expect_equal(t$source[1:2], c(ref$source[1], "ours (run-1)"))
  expect_equal(which(t$source == "ours (run-2)"), which(t$variant == "autoflush off + write buffer 6 MB" & t$reference) + 1)
  ours <- t[reference == FALSE]
  expect_equal(ours[source == "ours (run-1)", c(rows, time_s, rows_s)], c(2000, 4, 500))
  expect_equal(ours[source == "ours (run-1)", time_kind], "measured")
  expect_equal(ours[source == "ours (run-2)", rows_s], 2000 / 2.5)
  # the worker flushes the buffer within a fixed-work thread's last request: a buffered run's time is measured too
  expect_equal(ours[source == "ours (run-2)", time_kind], "measured")
  # the server column is what the server reported, not what was asked
  expect_equal(ours[source == "ours (run-3)", variant], "handler count 100")
  expect_equal(ours[source == "ours (run-3)", server], "handler.count=100, thread.compaction.small=2, memstore.flush.size=134217728")
  expect_equal(ours[source == "ours (run-1)", server], "handler.count=30, thread.compaction.small=(built-in default), memstore.flush.size=134217728")
  expect_true(is.na(ours[source == "ours (run-2)", server]))
  # a variant the paper did not run comes last, with no published seconds
  expect_equal(t$variant[nrow(t)], "memstore flush size 64 MB")
  expect_true(is.na(t$rs1_s[nrow(t)]))
  cells <- study_cells(study)
  expect_equal(names(cells), c("Source", "Variant", "Rows", "Time (s)", "Time is", "Rows/s", "Server reported", "Published, 1 RS (s)", "3 RS (s)",
                               "5 RS (s)", "Our run's verdict"))
  expect_equal(cells[Source == "ours (run-1)", c(`Time (s)`, `Rows/s`, Rows)], c("4.0", "500", "2,000"))
  expect_equal(cells[Variant == "default (autoflush on)" & startsWith(Source, "published"), `Published, 1 RS (s)`], "3,211")
  expect_equal(cells[Source == "ours (run-1)", `Published, 1 RS (s)`], "")
  expect_equal(cells[Variant == "WAL off" & startsWith(Source, "published"), c(`Time (s)`, `Time is`)], c("", ""))
})

test_that("a run that hit its bound or ran for a duration says so instead of claiming a measured time", {
  sweep <- write_study_sweep("hosei-2014-write-tuning")
  bounded <- hosei_analysis("run-1", list(), 300, list(requests = 1500, planned = 2000, elapsed_s = 60, complete = FALSE))
  duration <- hosei_analysis("run-2", list(hbaseload.durability = "skip_wal"), 800, NULL, kind = "shared CPU")
  t <- study_section(sweep, list(bounded, duration), root = tempdir())$table[reference == FALSE]
  expect_equal(t[source == "ours (run-1)", c(time_s, rows_s)], c(60, 25))
  expect_equal(t[source == "ours (run-1)", time_kind], "at least (bound hit: 1,500 of 2,000 rows)")
  # no fixed work: rows / rows per second, and labelled so
  expect_equal(t[source == "ours (run-2)", c(time_s, rows_s)], c(2000 / 800, 800))
  expect_equal(t[source == "ours (run-2)", time_kind], "extrapolated (rows / rows per s)")
  expect_equal(t[source == "ours (run-2)", greys], "throughput")
})
