# rows.R - rows a scan returned (the data log's 'Rows' column, written by the worker for mixes
# that scan): summary column rows_per_scan, the mean over the measured window's successful scans,
# so records/s = scans/s x rows_per_scan is counted rather than assumed from hbaseload.scan.length.

# summary already names each test number (test_names_for), so the scans are found by number,
# without naming every request.
add_rows_per_scan <- function(summary, measured) {
  summary[, rows_per_scan := NA_real_]
  scan_tests <- summary$test_number[summary$test == "scan"]
  if (!"rows" %in% names(measured) || length(scan_tests) == 0) return(summary)
  scans <- measured[test %in% scan_tests & errors == 0 & !is.na(rows), rows]
  if (length(scans) > 0) summary[test == "scan", rows_per_scan := mean(scans)]
  summary
}
