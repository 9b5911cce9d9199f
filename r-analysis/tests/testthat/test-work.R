test_that("a fixed-work run: requests made against planned, elapsed from first start to last end", {
  manifest <- list(properties = list(grinder.runs = "5"), threads_total = 2)
  # two threads, 5 requests each; the last ends at 2,750 ms after the first starts at 1,000 ms
  start <- c(1000, 1100, 1400, 1500, 1900, 2000, 2300, 2400, 2600, 2700)
  end <- start + c(50, 40, 30, 60, 20, 10, 70, 80, 90, 50)
  w <- fixed_work(manifest, start, end)
  expect_equal(w$requests, 10)
  expect_equal(w$planned, 10)
  expect_equal(w$elapsed_s, 1.75)
  expect_true(w$complete)
  expect_true(is.na(w$rows_returned))
  # scans: the rows they returned, summed over all requests (no row count: NA)
  expect_equal(fixed_work(manifest, start, end, rows = c(100, 100, 97, 100, 3, NA, 100, 100, 100, 100))$rows_returned, 800)
  # the duration bound ended it first: fewer requests than planned
  short <- fixed_work(list(properties = list(grinder.runs = "6"), threads_total = 2), start, end)
  expect_equal(short$planned, 12)
  expect_false(short$complete)
})

test_that("a run for a duration (grinder.runs 0 or absent) has no fixed work", {
  expect_null(fixed_work(list(properties = list(grinder.runs = "0"), threads_total = 2), c(1, 2), c(3, 4)))
  expect_null(fixed_work(list(properties = list(), threads_total = 2), c(1, 2), c(3, 4)))
})
