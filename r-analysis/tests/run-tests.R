#!/usr/bin/env Rscript
# run-tests.R - run every testthat test of r-analysis, from any directory.
# Prints testthat's output, then one line "r-analysis: N passed, M failed"
# (N, M = expectations; errors and skips count as failed). Exit 1 when M > 0.

script_dir <- local({
  file_arg <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
  if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
})
test_dir <- file.path(script_dir, "testthat")

counts <- tryCatch({
  results <- as.data.frame(testthat::test_dir(test_dir, reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                                              stop_on_failure = FALSE, stop_on_warning = FALSE))
  c(passed = sum(results$passed),
    failed = sum(results$failed) + sum(results$error) + sum(results$skipped))
}, error = function(e) {
  message("run-tests.R: ", conditionMessage(e))
  c(passed = 0, failed = 1)
})
cat(sprintf("r-analysis: %d passed, %d failed\n", as.integer(counts[["passed"]]), as.integer(counts[["failed"]])))
quit(save = "no", status = if (counts[["failed"]] > 0) 1 else 0)
