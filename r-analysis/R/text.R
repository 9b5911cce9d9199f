# text.R - a report in the terminal (report.R --table; ./suite demo prints it): one line per run
# and test, the throughput in brackets where the run's verdict greys it, and why underneath.

text_table <- function(rows) {
  rows <- rows[test != "total"]
  greyed <- grepl("throughput", rows$verdict_disqualifies, fixed = TRUE)
  rps <- ifelse(greyed, sprintf("(%s)", fmt_int(rows$throughput_rps)), fmt_int(rows$throughput_rps))
  lines <- c(
    sprintf("%-8s %-8s %-10s %10s %7s %10s %11s %12s %10s  %s", "run", "target", "test", "requests", "errors",
            "req/s", "witness ms", "witness p90", "overhead", "verdict"),
    sprintf("%-8s %-8s %-10s %10s %7s %10s %11.3f %12.3f %8.1fus  %s", rows$run, rows$target, rows$test,
            fmt_int(rows$count), fmt_int(rows$errors), rps, rows$witness_mean_ms, rows$witness_p90_ms,
            rows$overhead_us, rows$verdict))
  if (any(greyed)) {
    lines <- c(lines, "(req/s): greyed by the run's verdict, not HBase's own throughput: see the verdict above and the report")
  }
  lines
}

# The rows text_table wants, for one run's summary.
run_table_rows <- function(a) {
  data.table::copy(a$summary)[, `:=`(run = a$run_id, target = a$target, verdict = a$verdict$kind,
                                      verdict_disqualifies = paste(a$verdict$disqualifies, collapse = ","))]
}
