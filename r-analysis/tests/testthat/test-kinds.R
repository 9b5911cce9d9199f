# The one table of kinds (inst/kinds.json) is what the verdict rules and the glossary are made of.

test_that("the verdict rules are the table's rows with a check, in the table's order", {
  kinds <- read_kinds()
  with_check <- Filter(function(v) !is.null(v$check), kinds$verdict)
  expect_equal(VERDICT_RULES$kind, vapply(with_check, function(v) v$kind, ""))
  expect_equal(VERDICT_RULES$check, vapply(with_check, function(v) v$check, ""))
  expect_equal(VERDICT_RULES[kind == "client-bound", check], c("client cost", "client CPU"))
  expect_equal(VERDICT_RULES[kind == "shared CPU", disqualifies][[1]], "throughput")
  expect_equal(sort(VALID_KINDS), c("server-bound", "trustworthy"))
  expect_equal(sort(LOWER_BOUND_KINDS), c("client-bound", "shared CPU"))
  # every kind that greys something says why; the kinds that stand grey nothing
  greying <- unique(VERDICT_RULES[lengths(disqualifies) > 0, kind])
  expect_setequal(names(DISQUALIFY_WHY), greying)
  expect_false(any(VALID_KINDS %in% greying))
})

test_that("the glossary names every kind once with its thresholds filled in, and refuses an unknown one", {
  text <- verdict_glossary()
  for (kind in unique(c(VERDICT_RULES$kind, "trustworthy"))) {
    expect_equal(lengths(regmatches(text, gregexpr(sprintf("<i>%s</i> \\(", kind), text))), 1, label = kind)
  }
  expect_false(grepl("{", text, fixed = TRUE))
  expect_match(text, sprintf("measured window under %d s or under %s requests", MIN_WINDOW_S, fmt_int(MIN_MEASURED_REQUESTS)), fixed = TRUE)
  expect_match(text, "nothing for <i>lost writes</i> and <i>server-bound</i>", fixed = TRUE)
  bad <- read_kinds()
  bad$verdict[[3]]$definition <- "under {NO_SUCH_THRESHOLD} s"
  expect_error(verdict_glossary(bad), "unknown threshold: under \\{NO_SUCH_THRESHOLD\\} s")
})
