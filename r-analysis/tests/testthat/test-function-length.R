# No function of r-analysis is over 60 lines (#23): a longer one does several jobs, which get
# names of their own. Counted from "name <- function" to its closing brace, comments included;
# functions defined inside another count as its lines.

MAX_FUNCTION_LINES <- 60

# Every top-level function of an R file: its name and length in lines.
function_lengths <- function(file) {
  exprs <- parse(file, keep.source = TRUE)
  refs <- attr(exprs, "srcref")
  rows <- lapply(seq_along(exprs), function(i) {
    e <- exprs[[i]]
    is_definition <- is.call(e) && as.character(e[[1]]) %in% c("<-", "=") && is.call(e[[3]]) &&
      identical(e[[3]][[1]], as.name("function"))
    if (!is_definition) return(NULL)
    data.frame(file = basename(file), name = deparse(e[[2]]), lines = refs[[i]][3] - refs[[i]][1] + 1)
  })
  do.call(rbind, rows)
}

test_that("no function of the package or its scripts is over 60 lines", {
  files <- c(list.files(file.path(r_analysis_dir, "R"), pattern = "\\.R$", full.names = TRUE),
             file.path(r_analysis_dir, c("report.R", "peers.R", "install.R", "tests/run-tests.R")),
             list.files(file.path(r_analysis_dir, "tests", "testthat"), pattern = "^helper.*\\.R$", full.names = TRUE))
  lengths <- do.call(rbind, lapply(files, function_lengths))
  expect_gt(nrow(lengths), 300)   # the parse found the functions
  long <- lengths[lengths$lines > MAX_FUNCTION_LINES, ]
  expect(nrow(long) == 0, paste0("functions over ", MAX_FUNCTION_LINES, " lines: ",
                                 paste0(long$file, ": ", long$name, " (", long$lines, ")", collapse = ", ")))
})
