#!/usr/bin/env Rscript
# install.R - the package hbasegrinder (this folder) in the project's own R library,
# ${SUITE_LIB:-<repo>/lib}/r, kept in step with its sources.
#   Rscript r-analysis/install.R     install it unless the installed copy is of the same sources
#                                    (./suite setup runs this); exit 1 with one line when it fails
# Sourced by report.R, peers.R and tests/run-tests.R: use_hbasegrinder(script) loads the installed
# package, first reinstalling it when R/, DESCRIPTION or NAMESPACE changed since it was installed,
# so that an edit of R/ is never run stale.

HBASEGRINDER <- "hbasegrinder"
INSTALL_WAIT_S <- 300   # another process installing: wait this long for it (an install takes 10 to 30 s)

# The folder of the running script (Rscript's --file=), or the current one.
running_script_dir <- function() {
  file_arg <- sub("^--file=", "", grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE))
  if (length(file_arg) == 1) dirname(normalizePath(file_arg)) else getwd()
}

hbasegrinder_lib_dir <- function(source_dir) {
  suite_lib <- Sys.getenv("SUITE_LIB", "")
  if (!nzchar(suite_lib)) suite_lib <- file.path(dirname(source_dir), "lib")
  file.path(suite_lib, "r")
}

# What an installed copy must have been built from: the package's sources and the R that built it
# (a package built by another R version may not load).
hbasegrinder_digest <- function(source_dir) {
  files <- c(file.path(source_dir, c("DESCRIPTION", "NAMESPACE")),
             sort(list.files(file.path(source_dir, "R"), pattern = "\\.R$", full.names = TRUE)),
             sort(list.files(file.path(source_dir, "inst"), recursive = TRUE, full.names = TRUE)))
  sums <- unname(tools::md5sum(files))
  text <- paste(c(R.version.string, basename(files), sums), collapse = "\n")
  tmp <- tempfile()
  on.exit(unlink(tmp))
  writeLines(text, tmp)
  unname(tools::md5sum(tmp))
}

digest_stamp <- function(lib_dir) file.path(lib_dir, HBASEGRINDER, "SOURCE-DIGEST")

installed_digest <- function(lib_dir) {
  stamp <- digest_stamp(lib_dir)
  if (file.exists(stamp)) readLines(stamp, n = 1, warn = FALSE) else ""
}

# R CMD INSTALL into lib_dir, one process at a time (a lock folder), the stamp written last so
# a broken install reads as stale. Returns NULL or the reason it failed.
install_hbasegrinder <- function(source_dir, lib_dir, digest) {
  dir.create(lib_dir, recursive = TRUE, showWarnings = FALSE)
  lock <- file.path(lib_dir, "00install-lock")
  waited <- 0
  while (!dir.create(lock, showWarnings = FALSE)) {
    if (waited >= INSTALL_WAIT_S) return(paste0("another install has held ", lock, " for ", INSTALL_WAIT_S, " s (remove it if no install runs)"))
    Sys.sleep(1)
    waited <- waited + 1
  }
  on.exit(unlink(lock, recursive = TRUE))
  if (identical(installed_digest(lib_dir), digest)) return(NULL)   # the other process installed it
  log <- file.path(lib_dir, "install.log")
  status <- system2(file.path(R.home("bin"), "R"),
                    c("CMD", "INSTALL", "--no-docs", "--no-multiarch", paste0("--library=", shQuote(lib_dir)), shQuote(source_dir)),
                    stdout = log, stderr = log)
  if (status != 0) return(paste0("R CMD INSTALL failed (log: ", log, ")"))
  writeLines(digest, digest_stamp(lib_dir))
  NULL
}

# Loads the installed package built from source_dir (reinstalling it when stale) for the script
# named `script`; stops R with exit status 1 and one line when it cannot.
use_hbasegrinder <- function(script, source_dir) {
  source_dir <- normalizePath(source_dir)   # the package's files are found by this path from any directory later
  lib_dir <- hbasegrinder_lib_dir(source_dir)
  digest <- hbasegrinder_digest(source_dir)
  if (!identical(installed_digest(lib_dir), digest)) {
    message(script, ": r-analysis changed since it was installed; installing it into ", lib_dir, " (10 to 30 s)")
    failed <- install_hbasegrinder(source_dir, lib_dir, digest)
    if (!is.null(failed)) {
      message(script, ": cannot install the r-analysis package: ", failed, "; run ./suite setup")
      quit(save = "no", status = 1)
    }
  }
  invisible(loadNamespace(HBASEGRINDER, lib.loc = lib_dir))
}

if (sys.nframe() == 0L) local({
  source_dir <- running_script_dir()
  lib_dir <- hbasegrinder_lib_dir(source_dir)
  digest <- hbasegrinder_digest(source_dir)
  if (identical(installed_digest(lib_dir), digest)) {
    cat("install.R: hbasegrinder is up to date in ", lib_dir, "\n", sep = "")
    quit(save = "no", status = 0)
  }
  failed <- install_hbasegrinder(source_dir, lib_dir, digest)
  if (!is.null(failed)) {
    message("install.R: ", failed)
    quit(save = "no", status = 1)
  }
  cat("install.R: installed hbasegrinder into ", lib_dir, "\n", sep = "")
})
