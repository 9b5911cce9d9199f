# work.R - a fixed-work run (sweep.work = rows: grinder.runs requests a thread, PerformanceEvaluation's
# way of measuring): how much of its work it did and how long that took. A run whose duration bound
# ended it first did less than planned, and its elapsed time is then a lower bound.

# list(requests, planned, elapsed_s, complete, rows_returned) for a run with grinder.runs > 0, else NULL.
# elapsed_s: first request's start to last request's end over all workers (no warm-up cut: the
# work is the figure, as PE's elapsed time is). rows_returned: the rows all its requests returned
# when the data log counts them (scans' Rows column), else NA.
fixed_work <- function(manifest, start_ms, end_ms, rows = NULL) {
  runs <- suppressWarnings(as.numeric(manifest$properties[["grinder.runs"]] %if_absent% NA))
  threads <- suppressWarnings(as.numeric(manifest$threads_total %if_absent% NA))
  if (length(runs) != 1 || is.na(runs) || runs <= 0 || length(start_ms) == 0) return(NULL)
  planned <- runs * threads
  list(requests = length(start_ms), planned = planned, elapsed_s = (max(end_ms) - min(start_ms)) / 1000,
       complete = !is.na(planned) && length(start_ms) == planned,
       rows_returned = if (is.null(rows) || all(is.na(rows))) NA_real_ else sum(rows, na.rm = TRUE))
}
