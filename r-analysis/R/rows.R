# rows.R - rows a scan returned (the data log's 'Rows' column, written by the worker for mixes
# that scan): summary column rows_per_scan, the mean over the measured window's successful scans,
# so records/s = scans/s x rows_per_scan is counted rather than assumed from hbaseload.scan.length.

add_rows_per_scan <- function(summary, measured, test_names = NULL) {
  summary[, rows_per_scan := NA_real_]
  if (!"rows" %in% names(measured)) return(summary)
  is_scan <- test_names_for(measured$test, test_names) == "scan"
  scans <- measured[is_scan & errors == 0 & !is.na(rows), rows]
  if (length(scans) > 0) summary[test == "scan", rows_per_scan := mean(scans)]
  summary
}
