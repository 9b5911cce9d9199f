# util.R - helpers shared by every step: expected failures, progress lines, number formats, and
# building a big table from others one column at a time.

# An expected failure (missing run, nothing valid to report). report.R prints its
# message as the one-line reason; anything else is an internal error.
report_error <- function(...) {
  structure(class = c("report_error", "error", "condition"),
            list(message = paste0(...), call = NULL))
}

stop_report <- function(...) stop(report_error(...))

# A command line that cannot be right (an unknown option, one without its value): exit 2.
stop_usage <- function(...) {
  e <- report_error(...)
  class(e) <- c("usage_error", class(e))
  stop(e)
}

# Progress goes to stderr so stdout only carries where the report was written.
progress_state <- new.env()
progress_state$start <- Sys.time()
progress_state$quiet <- FALSE

set_progress <- function(quiet = FALSE) {
  progress_state$start <- Sys.time()
  progress_state$quiet <- quiet
  invisible(NULL)
}

progress <- function(...) {
  if (isTRUE(progress_state$quiet)) return(invisible(NULL))
  elapsed <- as.numeric(difftime(Sys.time(), progress_state$start, units = "secs"))
  message(sprintf("report.R: [%6.1fs] %s", elapsed, paste0(...)))
  invisible(NULL)
}

fmt_int <- function(x) {
  ifelse(is.na(x), "", formatC(round(x), format = "d", big.mark = ","))
}

fmt_num <- function(x, digits = 2) {
  ifelse(is.na(x), "", formatC(x, format = "f", digits = digits, big.mark = ","))
}

fmt_pct <- function(x, digits = 2) {
  ifelse(is.na(x), "", paste0(formatC(100 * x, format = "f", digits = digits), "%"))
}

fmt_bytes <- function(bytes) {
  units <- c("B", "kB", "MB", "GB")
  power <- pmin(3, pmax(0, floor(log(pmax(bytes, 1), 1024))))
  sprintf("%.1f %s", bytes / 1024^power, units[power + 1])
}

fmt_epoch_ms <- function(ms) {
  ifelse(is.na(ms), "",
         format(as.POSIXct(ms / 1000, origin = "1970-01-01", tz = "UTC"),
                "%Y-%m-%d %H:%M:%OS3 UTC"))
}

# ISO-8601 as written by ./suite run ("2025-11-21T08:00:00Z", "+01:00", fractions) -> epoch ms.
parse_iso8601_ms <- function(text) {
  if (is.null(text) || length(text) != 1 || is.na(text) || !nzchar(text)) return(NA_real_)
  text <- trimws(text)
  offset_min <- 0
  zone <- regmatches(text, regexec("([+-])([0-9]{2}):?([0-9]{2})$", text))[[1]]
  if (length(zone) == 4 && grepl("T.*[+-][0-9]{2}:?[0-9]{2}$", text)) {
    offset_min <- (if (zone[2] == "-") -1 else 1) *
      (as.numeric(zone[3]) * 60 + as.numeric(zone[4]))
    text <- substr(text, 1, nchar(text) - nchar(zone[1]))
  }
  text <- sub("Z$", "", text)
  parsed <- as.POSIXct(text, format = "%Y-%m-%dT%H:%M:%OS", tz = "UTC")
  if (is.na(parsed)) parsed <- as.POSIXct(text, format = "%Y-%m-%d %H:%M:%OS", tz = "UTC")
  if (is.na(parsed)) return(NA_real_)
  (as.numeric(parsed) - offset_min * 60) * 1000
}

one_line <- function(text) gsub("[\r\n]+", " ", paste(text, collapse = " "))

# c(min, max) of x without its NA values (Inf, -Inf when none is left). range() would copy x first.
min_max <- function(x) suppressWarnings(c(min(x, na.rm = TRUE), max(x, na.rm = TRUE)))

# A full collection after a step that dropped a large run's requests, so that the next step's tables
# reuse that memory rather than grow the heap (a 10-million-request run holds about 400 MB of them).
# Below a million requests R's own collections keep up, and each full one costs about 50 ms: 36 of
# them were 1.8 s of a 12-run sweep report's 6.8.
release_memory <- function(requests, collect = gc) {
  if (requests >= 1e6) invisible(collect())
}

# A data.table made one column at a time: make(name) builds a column, then drop(name) releases its
# sources (columns set to NULL by reference). A 10-million-request table then exists about once in
# memory while it is rebuilt, where a whole-table copy holds it twice (400 MB more at that size).
move_columns <- function(names, make, drop) {
  out <- list()
  for (name in data.table::copy(names)) {   # a copy: dropping a column edits a table's names in place
    out[[name]] <- make(name)
    drop(name)
  }
  data.table::setDT(out)
  out
}

# dt[keep], leaving dt empty (its columns moved out): for the last use of a big dt. dt itself when
# every row is kept.
take_rows <- function(dt, keep) {
  if (all(keep)) return(dt)
  rows <- which(keep)
  move_columns(names(dt), function(col) dt[[col]][rows], function(col) data.table::set(dt, j = col, value = NULL))
}

# rbindlist(parts) for parts with the same columns, one column at a time, leaving the parts empty.
# Anything else goes to rbindlist whole.
bind_parts <- function(parts) {
  parts <- Filter(Negate(is.null), parts)
  cols <- if (length(parts) > 0) names(parts[[1]]) else character()
  if (length(parts) == 0 || !all(vapply(parts, function(p) identical(names(p), cols), NA))) {
    return(data.table::rbindlist(parts, use.names = TRUE))
  }
  move_columns(cols, function(col) data.table::rbindlist(lapply(parts, function(part) list(part[[col]])))[[1]],
               function(col) for (part in parts) data.table::set(part, j = col, value = NULL))
}
