
test_that("a sweep's warm-ups line says they are per target, and never 'after - s' when none ended warm", {
  none <- data.table::data.table(warmup = c("warmup-1", "warmup-2"), before_point = c(1L, 2L), warm = c(FALSE, FALSE),
                                 seconds = c(58, 57), reason = c("not warm when its bound ended it", "not warm when its bound ended it"))
  html <- html_string(warmups_html(none))
  expect_match(html, "Warm-ups: 2, each before the first run of a target", fixed = TRUE)
  expect_match(html, "none ended warm (the servers' JIT quiet); warmup-1 before run 1: not warm when its bound ended it;", fixed = TRUE)
  expect_false(grepl("after - s", html, fixed = TRUE))
  one <- data.table::copy(none)[1, `:=`(warm = TRUE, seconds = 22)]
  expect_match(html_string(warmups_html(one)), "1 ended warm (the servers' JIT quiet) after 22 s; warmup-2 before run 2", fixed = TRUE)
})

test_that("a warm-up's settling is named as such and not judged warm or not", {
  w <- data.table::data.table(warmup = c("warmup-1", "warmup-2", "warmup-3", "warmup-4"), before_point = c(1L, 1L, 2L, 2L),
                              settling = c(FALSE, TRUE, FALSE, TRUE), warm = c(TRUE, FALSE, TRUE, TRUE), seconds = c(50, 11, 19, 10),
                              reason = c("warm", "not warm when its bound ended it", "warm", "warm"))
  html <- html_string(warmups_html(w))
  expect_match(html, "Warm-ups: 2, each before the first run of a target", fixed = TRUE)
  expect_match(html, "each followed by a settling (the same load again, at most 12 s: the servers compile again what the warm-up's end threw away; warmup-2, warmup-4)", fixed = TRUE)
  expect_match(html, "2 ended warm (the servers' JIT quiet) after 50, 19 s; none stopped at its bound.", fixed = TRUE)
})

test_that("a sweep whose audited runs lost acknowledged writes opens with the loss, whatever the speed", {
  run <- function(id, acknowledged, lost) {
    list(run_id = id, facts = list(audit = if (is.na(acknowledged)) NULL else list(acknowledged = acknowledged, lost = lost, corrupted = 0)))
  }
  analyses <- list(run("run-1", 108669, 0), run("run-5", 217909, 13), run("run-6", 384931, 15319), run("run-7", NA, NA))
  expect_equal(loss_finding(analyses),
               "Acknowledged writes lost in 2 of 3 audited runs: run-5 13 of 217,909 (0.01%), run-6 15,319 of 384,931 (3.98%); none in the other 1.")
  expect_null(loss_finding(list(run("run-1", 100, 0), run("run-2", NA, NA))), "none lost")
  expect_null(loss_finding(list(run("run-2", NA, NA))), "not audited")
  many <- lapply(1:12, function(i) run(sprintf("run-%d", i), 1000, i))
  expect_equal(loss_finding(many), "Acknowledged writes lost in 12 of 12 audited runs, at most 1.20% (run-12); the table names each.")
})
