
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
