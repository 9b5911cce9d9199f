# The report's figures on fixed synthetic runs, against the figures the report wrote for the same
# runs before it was made faster (issue 22, item 5: every figure the same). The runs are written
# here from a seed; fixtures/same-figures/<case>/ holds what report.R wrote for them on main at
# f9186c2: summary.csv byte for byte, report.json's figures, and a digest of every table the plots
# and the HTML are drawn from. To record them again after a change that is meant to move a
# figure: SAME_FIGURES_WRITE=1 Rscript r-analysis/tests/run-tests.R, and say why in the commit.

same_figures_dir <- function(case) testthat::test_path("fixtures", "same-figures", case)

# One worker's data log, closed loop or paced, in the shape of bench/synthetic-data-log.awk: each
# thread starts its next request when the last one ended plus a gap; gets, puts and (scans = TRUE)
# scans with a Rows column; a rare long tail; slow_first requests of each thread twice as slow (a
# warm-up); every thread stalls stall_s at stall_at_s (a blackout); about 0.3% failed requests.
write_synthetic_log <- function(path, threads, requests, seed, pacing = FALSE, scans = FALSE,
                                stall_at_s = 0, stall_s = 0, slow_first = 0L, t0_ms = 1763712000000) {
  set.seed(seed)
  one_thread <- function(th) {
    test <- sample(c(1L, 2L, 3L), requests, replace = TRUE, prob = if (scans) c(0.6, 0.3, 0.1) else c(0.7, 0.3, 0))
    witness <- ifelse(test == 1L, 400, 800) + stats::rexp(requests, 1 / c(3000, 6000, 9000)[test])
    tail <- stats::runif(requests) < 0.003
    witness[tail] <- witness[tail] + stats::rexp(sum(tail), 1 / 40000)
    witness[seq_len(min(slow_first, requests))] <- 2 * witness[seq_len(min(slow_first, requests))]
    overhead <- 20 + 20 * stats::runif(requests)
    gap <- 5 + 10 * stats::runif(requests)
    starts <- function(w) th * 37 + c(0, cumsum(w + overhead + gap)[-requests])
    start_us <- starts(witness)
    stalled <- which(start_us + witness >= stall_at_s * 1e6)[1]
    if (stall_s > 0 && !is.na(stalled)) {
      witness[stalled] <- stall_at_s * 1e6 + stall_s * 1e6 - start_us[stalled]
      start_us <- starts(witness)
    }
    witness <- floor(witness)
    start_ms <- floor(start_us / 1000)
    data.table(Thread = th, Run = seq_len(requests) - 1L, Test = test, Start = t0_ms + start_ms,
               Time = floor((start_us + witness + overhead) / 1000) - start_ms,
               Errors = as.integer(stats::runif(requests) < 0.003), Witness = witness,
               Lag = if (pacing) floor(stats::rexp(requests, 1 / 150)) else NULL,
               Rows = if (scans) ifelse(test == 3L, 100L - (stats::runif(requests) < 0.1) * 3L, 0L) else NULL)
  }
  log <- rbindlist(lapply(seq_len(threads) - 1L, one_thread))
  header <- paste0(LOG_HEADER, if (pacing) ", Lag (us)" else "", if (scans) ", Rows" else "")
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  writeLines(header, path)
  fwrite(log, path, append = TRUE, col.names = FALSE, sep = ",")
  invisible(path)
}

# hosts x workers logs below dir/injectors/, each with its own seed.
write_synthetic_run <- function(dir, hosts = 2, workers = 2, seed = 1, ...) {
  for (h in seq_len(hosts)) for (w in seq_len(workers) - 1L) {
    write_synthetic_log(file.path(dir, "injectors", paste0("inj", h), sprintf("inj%d-%d-data.log", h, w)),
                        seed = seed * 1000 + h * 100 + w, ...)
  }
  invisible(dir)
}

# The synthetic runs and the options they are reported with.
SAME_FIGURES_CASES <- list(
  # paced, with scans: a warm-up to detect, a blackout, lag and rows columns
  paced = list(run = list(threads = 3, requests = 5000, pacing = TRUE, scans = TRUE, stall_at_s = 15, stall_s = 2.5,
                          slow_first = 600L), args = character()),
  # closed loop (the coordinated-omission estimate), with the warm-up cut given
  closed = list(run = list(threads = 3, requests = 4000, stall_at_s = 8, stall_s = 1.5), args = c("--warmup", "3"))
)

# report.json's figures: everything but when and where it was written.
report_figures <- function(path) {
  doc <- jsonlite::fromJSON(path, simplifyVector = FALSE)
  doc$generated_at <- NULL
  doc$runs <- lapply(doc$runs, function(r) r[setdiff(names(r), "dir")])
  doc
}

# The tables the plots and the HTML are drawn from, as text, one digest each.
analysis_digests <- function(a) {
  tables <- a[c("timeline", "seconds", "levels", "cycles", "hosts", "tiles", "histograms", "curves", "checks")]
  vapply(tables, function(t) {
    path <- tempfile(fileext = ".csv")
    on.exit(unlink(path))
    fwrite(t, path)
    unname(tools::md5sum(path))
  }, "")
}

for (case in names(SAME_FIGURES_CASES)) {
  test_that(sprintf("the %s synthetic run's report has the figures recorded before the report was made faster", case), {
    spec <- SAME_FIGURES_CASES[[case]]
    run <- file.path(tempfile("same-"), "run-synthetic")
    do.call(write_synthetic_run, c(list(dir = run), spec$run))
    out <- tempfile("out-")
    result <- run_cli(c(run, "--out", out, "--quiet", spec$args))
    expect_equal(result$status, 0L)
    warmup_s <- if (length(spec$args) > 0) as.numeric(spec$args[[2]]) else NA_real_
    digests <- analysis_digests(analyse_run(run_target(run), warmup_s))
    expected <- same_figures_dir(case)
    if (nzchar(Sys.getenv("SAME_FIGURES_WRITE"))) {
      dir.create(expected, recursive = TRUE, showWarnings = FALSE)
      file.copy(file.path(out, "summary.csv"), expected, overwrite = TRUE)
      jsonlite::write_json(report_figures(file.path(out, "report.json")), file.path(expected, "figures.json"),
                           auto_unbox = TRUE, digits = NA, null = "null", pretty = TRUE)
      writeLines(sprintf("%s %s", names(digests), digests), file.path(expected, "digests.txt"))
    }
    expect_identical(readLines(file.path(out, "summary.csv")), readLines(file.path(expected, "summary.csv")))
    expect_identical(report_figures(file.path(out, "report.json")),
                     jsonlite::fromJSON(file.path(expected, "figures.json"), simplifyVector = FALSE))
    expect_identical(sprintf("%s %s", names(digests), digests), readLines(file.path(expected, "digests.txt")))
  })
}
