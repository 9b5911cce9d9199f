# install.R: the installed package is of the sources the tests read, and an edit of R/ makes it
# stale (report.R then reinstalls it before it runs).

install_env <- function() {
  env <- new.env()
  sys.source(file.path(r_analysis_dir, "install.R"), envir = env)
  env
}

test_that("the installed package carries the digest of the sources it was built from", {
  inst <- install_env()
  lib_dir <- dirname(getNamespaceInfo("hbasegrinder", "path"))
  expect_equal(inst$installed_digest(lib_dir), inst$hbasegrinder_digest(r_analysis_dir))
})

test_that("an edit of R/ or NAMESPACE changes the digest; none leaves it as it was", {
  inst <- install_env()
  copy <- tempfile("pkg-")
  dir.create(file.path(copy, "R"), recursive = TRUE)
  file.copy(file.path(r_analysis_dir, c("DESCRIPTION", "NAMESPACE")), copy)
  file.copy(list.files(file.path(r_analysis_dir, "R"), full.names = TRUE), file.path(copy, "R"))
  before <- inst$hbasegrinder_digest(copy)
  expect_equal(inst$hbasegrinder_digest(copy), before)
  cat("# an edit\n", file = file.path(copy, "R", "util.R"), append = TRUE)
  edited <- inst$hbasegrinder_digest(copy)
  expect_false(edited == before)
  cat("export(main)\n", file = file.path(copy, "NAMESPACE"), append = TRUE)
  expect_false(inst$hbasegrinder_digest(copy) == edited)
  expect_equal(inst$installed_digest(tempfile("no-lib-")), "")   # never installed: stale
})
