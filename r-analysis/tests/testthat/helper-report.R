# Loaded by testthat before the tests: the report's functions and small fixture writers.
suppressPackageStartupMessages({
  library(data.table)
  library(ggplot2)
})

r_analysis_dir <- normalizePath(file.path(testthat::test_path(), "..", ".."))
for (source_file in sort(list.files(file.path(r_analysis_dir, "R"), pattern = "\\.R$", full.names = TRUE))) {
  source(source_file, local = FALSE)
}
set_progress(quiet = TRUE)

fixture_dir <- function(name = "run-fixture") testthat::test_path("fixtures", name)

LOG_HEADER <- "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)"

# Write lines (or raw bytes) as a data log; newline = FALSE leaves the last line unterminated.
write_log <- function(path, lines, newline = TRUE) {
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  con <- file(path, "wb")
  on.exit(close(con))
  for (k in seq_along(lines)) {
    piece <- lines[[k]]
    if (is.character(piece)) piece <- charToRaw(piece)
    writeBin(piece, con)
    if (k < length(lines) || newline) writeBin(charToRaw("\n"), con)
  }
  invisible(path)
}

# A copy of a fixture run in a temp folder, optionally without some files.
copy_fixture <- function(name = "run-fixture", drop = character(), dest = tempfile("run-")) {
  dir.create(dest)
  file.copy(list.files(fixture_dir(name), full.names = TRUE), dest, recursive = TRUE)
  unlink(file.path(dest, drop), recursive = TRUE)
  dest
}

run_target <- function(dir) list(kind = "run", id = basename(dir), dir = normalizePath(dir))

# Run report.R as the CLI does; returns exit status, stdout and stderr lines.
run_cli <- function(args, env = character()) {
  out <- tempfile()
  err <- tempfile()
  status <- system2(file.path(R.home("bin"), "Rscript"), c(file.path(r_analysis_dir, "report.R"), shQuote(args)),
                    stdout = out, stderr = err, env = env)
  list(status = status, stdout = readLines(out, warn = FALSE), stderr = readLines(err, warn = FALSE))
}
