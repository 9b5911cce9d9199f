# The report's fast paths (issue 22, item 5) give exactly what the plain form gives: each is set
# here against the straightforward data.table or base R expression it replaced, on data that
# reaches both its fast and its fallback branch.

random_requests <- function(n = 5000, seed = 7) {
  set.seed(seed)
  data.table(file_id = sample(1:3, n, TRUE), thread = sample(0:4, n, TRUE), test = sample(c(1L, 2L, 5L), n, TRUE),
             start_ms = 1763712000000 + sort(sample(0:60000, n, TRUE)), time_ms = as.integer(stats::rexp(n, 1 / 8)),
             errors = as.integer(stats::runif(n) < 0.01), witness_us = as.integer(stats::rexp(n, 1 / 7000)),
             lag_us = as.integer(stats::rexp(n, 1 / 150)))
}

# What latency_counts computed before tabulating: a grouping by sorting.
counts_by_grouping <- function(requests, column) {
  counts <- requests[, .N, keyby = c("test", column)]
  setnames(counts, column, "value")
  counts[!is.na(value)]
}

test_that("latency counts by tabulate() equal the grouping, NA values, negative values and fallbacks alike", {
  r <- random_requests()
  expect_identical(latency_counts(r, "time_ms"), counts_by_grouping(r, "time_ms"))
  expect_identical(latency_counts(r, "witness_us"), counts_by_grouping(r, "witness_us"))
  r[c(3, 40, 41), witness_us := NA_integer_]
  r[c(5, 6), time_ms := -2L]
  expect_identical(latency_counts(r, "witness_us"), counts_by_grouping(r, "witness_us"))
  expect_identical(latency_counts(r, "time_ms"), counts_by_grouping(r, "time_ms"))
  r[, witness_us := NA_integer_]
  expect_identical(latency_counts(r, "witness_us"), counts_by_grouping(r, "witness_us"))
  # too wide to tabulate, or not integers: the grouping itself
  wide <- random_requests()[1, witness_us := 2e9L]
  expect_null(tabulated_counts(wide$test, wide$witness_us))
  expect_identical(latency_counts(wide, "witness_us"), counts_by_grouping(wide, "witness_us"))
  doubles <- random_requests()[, witness_us := as.numeric(witness_us)]
  expect_null(tabulated_counts(doubles$test, doubles$witness_us))
  expect_identical(latency_counts(doubles, "witness_us"), counts_by_grouping(doubles, "witness_us"))
})

test_that("the intended latency is the same number as an integer or a double, and a double when a sum would not fit", {
  r <- random_requests()
  expect_type(intended_latency_us(r$lag_us, r$time_ms), "integer")
  expect_equal(intended_latency_us(r$lag_us, r$time_ms), r$lag_us + r$time_ms * 1000, tolerance = 0)
  expect_type(intended_latency_us(r$lag_us, c(r$time_ms[-1], 3000000L)), "double")
  expect_type(intended_latency_us(as.numeric(r$lag_us), r$time_ms), "double")
})

test_that("the timeline's p90 from tabulated counts equals a nearest rank per second, also where it cannot tabulate", {
  r <- random_requests()
  plain <- function(requests, run_start_ms) {
    requests[, .(p90_ms = as.numeric(nearest_rank(time_ms, 90))),
             keyby = .(second = as.integer((start_ms + time_ms - run_start_ms) %/% 1000), test)]$p90_ms
  }
  run_start <- min(r$start_ms)
  expect_identical(per_second_timeline(r, run_start)$p90_ms, plain(r, run_start))
  r[7, time_ms := 40000000L]   # one time of 11 hours: too many cells
  expect_identical(per_second_timeline(r, run_start)$p90_ms, plain(r, run_start))
})

test_that("the overhead tiles by tabulate() equal a grouping of every request by test and both bins", {
  r <- random_requests(20000)
  counts <- list(grinder = latency_counts(r, "time_ms"), witness = latency_counts(r, "witness_us"))
  summary <- summary_table(counts, errors_by_test(r), overhead_by_test(r), 15, 60, NULL)
  n_bins <- 60
  limits <- summary[!is.na(test_number) & witness_count > 0,
                    .(test = test_number, label = test, w_limit_us = witness_p999_ms * 1000, g_limit = p999_ms)]
  limits[, `:=`(w_width = pmax(w_limit_us, 1) / n_bins, g_width = pmax(1, ceiling(g_limit / n_bins)))]
  idx <- match(r$test, limits$test)
  keep <- !is.na(idx) & r$witness_us <= limits$w_limit_us[idx] & r$time_ms <= limits$g_limit[idx]
  grouped <- data.table(test = r$test[keep], w_bin = pmin(n_bins - 1, r$witness_us[keep] %/% limits$w_width[idx[keep]]),
                        g_bin = r$time_ms[keep] %/% limits$g_width[idx[keep]])[, .N, keyby = .(test, w_bin, g_bin)]
  tiles <- grinder_witness_tiles(r, summary, n_bins)
  expect_identical(tiles[, .(test, w_bin, g_bin, N)], grouped)
  expect_identical(key(tiles), c("test", "w_bin", "g_bin"))
})

test_that("rows taken or bound a column at a time equal [ and rbindlist, and leave their sources empty", {
  r <- random_requests()
  keep <- r$start_ms > stats::median(r$start_ms)
  expected <- r[keep]
  source <- copy(r)
  expect_identical(take_rows(source, keep), expected)
  expect_equal(ncol(source), 0)
  expect_identical(take_rows(r, rep(TRUE, nrow(r))), r)
  parts <- list(r[1:10], NULL, r[11:4000][, time_ms := as.numeric(time_ms)], r[4001:nrow(r)])
  expected <- rbindlist(lapply(parts, copy), use.names = TRUE)
  expect_identical(bind_parts(parts), expected)
  expect_equal(ncol(parts[[1]]), 0)
  # columns in another order: rbindlist matches them by name
  reordered <- list(r[1:3], r[4:5, rev(names(r)), with = FALSE])
  expect_identical(bind_parts(reordered), rbindlist(reordered, use.names = TRUE))
})

test_that("plausibility from the columns' ranges agrees with the test of every row", {
  r <- random_requests()[, rows := NA_integer_]
  expect_identical(drop_implausible(r), list(data = r, dropped = 0L))
  bad <- copy(r)[c(2, 9), time_ms := -1L][17, start_ms := 1e9][20, witness_us := NA_integer_]
  expect_false(all_plausible(bad))
  out <- drop_implausible(bad)
  expect_equal(out$dropped, 3L)
  expect_identical(out$data, bad[-c(2, 9, 17)])
  expect_true(all_within(c(NA, 3, 5), 0, 5, na_ok = TRUE))
  expect_false(all_within(c(NA, 3, 5), 0, 5))
  expect_false(all_within(c(0, 5), 0, 5, below_high = TRUE))
  expect_true(all_within(integer(), 0, 5))
})

test_that("a request's row in the tiles' limits, by test number or by match() for large numbers", {
  limits <- data.table(test = c(1L, 2L, 5L))
  expect_identical(row_in_limits(c(5L, 0L, 2L, 7L, 1L), limits), c(3L, NA, 2L, NA, 1L))
  big <- data.table(test = c(1L, 100000L))
  expect_identical(row_in_limits(c(100000L, 3L, 1L), big), c(2L, NA, 1L))
})

test_that("a full collection follows only a run of a million requests or more", {
  collections <- 0
  count <- function() collections <<- collections + 1
  for (n in c(0, 5000, 999999)) release_memory(n, count)
  expect_equal(collections, 0)
  for (n in c(1e6, 1.2e7)) release_memory(n, count)
  expect_equal(collections, 2)
})
