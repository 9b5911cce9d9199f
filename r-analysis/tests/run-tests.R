#!/usr/bin/env Rscript
# run-tests.R [--jobs N] - run every testthat test of r-analysis, from any directory.
# Prints testthat's output, then one line "r-analysis: N passed, M failed"
# (N, M = expectations; errors and skips count as failed). Exit 1 when M > 0.
# Each file's tests run whole, the largest file first; with --jobs N in N forked processes (base
# R's parallel). The output is printed file by file once all are done.
# The tests run against the installed package hbasegrinder (../install.R reinstalls it first when
# its sources changed), in an environment whose parent is its namespace: they see its internal
# functions, byte-compiled once at install.

script_dir <- local({
  file_arg <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
  if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
})
test_dir <- file.path(script_dir, "testthat")
package_dir <- dirname(script_dir)

args <- commandArgs(trailingOnly = TRUE)
jobs <- 1L
if (length(args) > 0) {
  if (length(args) != 2 || args[[1]] != "--jobs" || !grepl("^[1-9][0-9]*$", args[[2]])) {
    message("run-tests.R: usage: run-tests.R [--jobs N] (N a whole number >= 1), not '", paste(args, collapse = " "), "'")
    quit(save = "no", status = 2)
  }
  jobs <- as.integer(args[[2]])
}

source(file.path(package_dir, "install.R"))
test_env <- new.env(parent = use_hbasegrinder("run-tests.R", package_dir))

# One file's tests (the helpers already loaded): its expectation counts and what its reporter
# printed. Errors and skips count as failed.
run_file <- function(file) {
  name <- sub("^test-(.*)\\.R$", "\\1", file)
  results <- NULL
  printed <- utils::capture.output({
    results <- tryCatch(
      as.data.frame(testthat::test_dir(test_dir, filter = paste0("^", gsub("([.])", "\\\\\\1", name), "$"),
                                       env = test_env, load_helpers = FALSE, reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                                       stop_on_failure = FALSE, stop_on_warning = FALSE)),
      error = function(e) {
        message("run-tests.R: ", file, ": ", conditionMessage(e))
        NULL
      })
  }, type = "output")
  if (is.null(results)) {
    return(list(printed = printed, passed = 0L, failed = 1L))
  }
  list(printed = printed, passed = sum(results$passed),
       failed = sum(results$failed) + sum(results$error) + sum(results$skipped))
}

counts <- tryCatch({
  # The helpers (fixture writers, data.table, ggplot2) are loaded once, here, into the
  # environment each file's tests (and each forked process) see. source_test_helpers runs them
  # from tests/testthat/, where test_path() finds its fixtures only when testthat says it is testing.
  Sys.setenv(TESTTHAT = "true")
  testthat::source_test_helpers(test_dir, env = test_env)
  Sys.unsetenv("TESTTHAT")
  # Compiled once here rather than by R's JIT again in every forked process.
  for (name in ls(test_env)) {
    f <- get(name, envir = test_env)
    if (is.function(f)) assign(name, compiler::cmpfun(f), envir = test_env)
  }
  files <- list.files(test_dir, pattern = "^test-.*\\.R$")
  files <- files[order(-file.size(file.path(test_dir, files)), files)]   # the long ones start first
  per_file <- if (jobs == 1L) lapply(files, run_file) else parallel::mclapply(files, run_file, mc.cores = jobs, mc.preschedule = FALSE)
  passed <- 0L
  failed <- 0L
  for (i in seq_along(files)) {
    r <- per_file[[i]]
    if (!is.list(r)) {   # the forked process itself died
      message("run-tests.R: ", files[[i]], ": ", paste(as.character(r), collapse = " "))
      failed <- failed + 1L
      next
    }
    cat(r$printed, sep = "\n")
    passed <- passed + r$passed
    failed <- failed + r$failed
  }
  c(passed = passed, failed = failed)
}, error = function(e) {
  message("run-tests.R: ", conditionMessage(e))
  c(passed = 0, failed = 1)
})
cat(sprintf("r-analysis: %d passed, %d failed\n", as.integer(counts[["passed"]]), as.integer(counts[["failed"]])))
quit(save = "no", status = if (counts[["failed"]] > 0) 1 else 0)
