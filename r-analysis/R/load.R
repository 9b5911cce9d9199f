# load.R - a run folder -> requests (one row per request, all hosts merged), files,
# skipped lines, manifest, host metrics. Nothing here computes statistics.

# Test names for logs without a manifest (a run's manifest names its tests). A copy of the one
# declaration, grinder-scripts/src/main/java/io/github/hbasegrindersuite/worker/Operation.java:
# grinder-scripts' TestNumbersTest fails when the two disagree. "mixed" is not a test (it logs 1 and 2).
DEFAULT_TEST_NAMES <- c("1" = "get", "2" = "put", "3" = "scan", "4" = "batch-get",
                        "5" = "batch-put", "6" = "delete", "7" = "increment")

# Data-log columns we use, matched by header name (case-insensitive, unit in
# parentheses ignored), never by position. Other columns are ignored.
LOG_COLUMNS <- data.table::data.table(
  role     = c("thread", "test", "start_ms", "time_ms", "errors", "witness_us", "lag_us", "rows"),
  header   = c("thread", "test", "start time", "test time", "errors", "witness", "lag", "rows"),
  required = c(TRUE, TRUE, TRUE, TRUE, FALSE, FALSE, FALSE, FALSE)
)

# Start times outside 2000..2100, negative times or times over a day can only come from
# corrupt lines; so can starts over a week away from the run's median start (one such
# line would otherwise stretch the per-second timeline over years).
PLAUSIBLE_START_MS <- c(946684800000, 4102444800000)
MAX_TIME_MS <- 86400000
MAX_START_FROM_MEDIAN_MS <- 7 * 86400000

METRIC_COLUMNS <- c("time_ms", "cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct", "cpu_idle_pct",
                    "load1", "mem_used_mb", "mem_free_mb", "disk_read_kbs", "disk_write_kbs",
                    "net_rx_kbs", "net_tx_kbs", "tcp_retrans_s", "conntrack_pct",
                    "cpu_steal_pct", "procs_running", "procs_blocked", "cpu_busiest_core_pct")

test_names_for <- function(test_numbers, manifest_tests = NULL) {
  known <- DEFAULT_TEST_NAMES
  if (length(manifest_tests) > 0) {
    from_manifest <- unlist(manifest_tests)
    known[names(from_manifest)] <- as.character(from_manifest)
  }
  named <- unname(known[as.character(test_numbers)])
  ifelse(is.na(named), paste0("test-", test_numbers), named)
}

# "<host>-<n>-data.log" -> host, worker. A name without "-<n>" keeps worker NA.
parse_log_name <- function(file_name) {
  m <- regmatches(file_name, regexec("^(.*)-([0-9]+)-data\\.log$", file_name))
  host <- vapply(m, function(x) if (length(x)) x[[2]] else NA_character_, "")
  worker <- vapply(m, function(x) if (length(x)) as.integer(x[[3]]) else NA_integer_, 1L)
  plain <- is.na(host)
  host[plain] <- sub("-?data\\.log$", "", file_name[plain])
  host[!nzchar(host)] <- "unknown"
  data.table::data.table(host = host, worker = worker)
}

find_data_logs <- function(run_dir) {
  paths <- sort(list.files(run_dir, pattern = "-data\\.log$", recursive = TRUE, full.names = TRUE))
  paths <- paths[!dir.exists(paths)]
  names <- parse_log_name(basename(paths))
  data.table::data.table(
    file_id = seq_along(paths), path = paths,
    rel_path = substring(paths, nchar(run_dir) + 2),
    host = names$host, worker = names$worker,
    folder = basename(dirname(paths)), bytes = file.size(paths)
  )
}

# Header line -> positions of the columns we use (NA when absent) and the field count.
parse_log_header <- function(header_line) {
  header_line <- iconv(sub("^\xef\xbb\xbf", "", header_line, useBytes = TRUE), "UTF-8", "UTF-8", sub = "?")
  fields <- strsplit(header_line, ",", fixed = TRUE)[[1]]
  clean <- tolower(trimws(sub("\\(.*\\)", "", fields, useBytes = TRUE)))
  positions <- match(LOG_COLUMNS$header, clean)
  names(positions) <- LOG_COLUMNS$role
  list(line = header_line, n_fields = length(fields), positions = positions,
       missing = LOG_COLUMNS$header[LOG_COLUMNS$required & is.na(positions)])
}

# Regex for one valid data line: the right number of fields, numbers where we read.
valid_line_pattern <- function(header) {
  number <- "\\s*-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\\s*"
  fields <- rep("[^,]*", header$n_fields)
  fields[header$positions[!is.na(header$positions)]] <- number
  paste0("^", paste(fields, collapse = ","), "$")
}

file_ends_with_newline <- function(path) {
  size <- file.size(path)
  if (is.na(size) || size == 0) return(TRUE)
  con <- file(path, "rb")
  on.exit(close(con))
  seek(con, size - 1)
  identical(readBin(con, "raw", 1), as.raw(10))
}

# Why a line was rejected, one reason per line, most specific first.
classify_bad_lines <- function(lines, is_last_unterminated, header) {
  n_fields <- nchar(gsub("[^,]", "", lines, useBytes = TRUE), type = "bytes") + 1
  binary <- grepl("[^\\x09\\x0d\\x20-\\x7e]", lines, perl = TRUE, useBytes = TRUE)
  data.table::fcase(
    grepl("^\\s*$", lines, perl = TRUE, useBytes = TRUE), "blank line",
    is_last_unterminated, "truncated last line",
    grepl("^\\s*thread\\s*,", lines, ignore.case = TRUE, useBytes = TRUE), "repeated header line",
    binary, "binary or non-text bytes",
    n_fields != header$n_fields, "wrong number of fields",
    default = "non-numeric or corrupt field"
  )
}

# Columns by role, typed; absent optional columns become NA / 0 errors.
shape_requests <- function(dt, header) {
  present <- LOG_COLUMNS$role[!is.na(header$positions)]
  data.table::setnames(dt, present)
  for (col in intersect(c("thread", "test", "errors"), present)) {
    if (!is.integer(dt[[col]])) data.table::set(dt, j = col, value = as.integer(dt[[col]]))
  }
  if (!"errors" %in% present) dt[, errors := 0L]
  if (!"witness_us" %in% present) dt[, witness_us := NA_integer_]
  if (!"lag_us" %in% present) dt[, lag_us := NA_integer_]
  if (!"rows" %in% present) dt[, rows := NA_integer_]   # rows a scan returned: only mixes that scan log them
  if (!is.double(dt$start_ms)) dt[, start_ms := as.double(start_ms)]
  data.table::setcolorder(dt, LOG_COLUMNS$role)
  dt
}

fread_log <- function(...) {
  data.table::fread(..., sep = ",", quote = "", integer64 = "double", strip.white = TRUE,
                    showProgress = FALSE, blank.lines.skip = FALSE)
}

# Fast path: one fread of the clean file. NULL when anything looks off (a warning,
# a text column, an NA), so the caller re-reads line by line.
read_log_fast <- function(path, header) {
  warned <- FALSE
  dt <- tryCatch(
    withCallingHandlers(
      fread_log(path, header = TRUE, select = unname(header$positions[!is.na(header$positions)])),
      warning = function(w) {
        warned <<- TRUE
        invokeRestart("muffleWarning")
      }),
    error = function(e) NULL)
  if (warned || is.null(dt) || nrow(dt) == 0) return(NULL)
  if (!all(vapply(dt, is.numeric, NA)) || anyNA(dt)) return(NULL)
  dt
}

# Every line of a file as text; fread is ~5x faster than readLines. readLines is the
# fallback for content fread refuses.
read_lines <- function(path) {
  lines <- tryCatch(
    data.table::fread(path, sep = "", header = FALSE, quote = "", colClasses = "character", strip.white = FALSE,
                      blank.lines.skip = FALSE, na.strings = NULL, showProgress = FALSE)[[1]],
    warning = function(w) NULL, error = function(e) NULL)
  if (is.null(lines)) lines <- readLines(path, warn = FALSE, skipNul = TRUE)
  lines[is.na(lines)] <- ""
  lines
}

# Slow path for dirty files: validate every line with one regex, parse the good ones.
read_log_checked <- function(path, header) {
  lines <- read_lines(path)[-1]
  ok <- grepl(valid_line_pattern(header), lines, perl = TRUE, useBytes = TRUE)
  bad <- which(!ok)
  last_unterminated <- bad == length(lines) & !file_ends_with_newline(path)
  reasons <- classify_bad_lines(lines[bad], last_unterminated, header)
  skipped <- data.table::data.table(reason = reasons)[, .(lines = .N), by = reason]
  positions <- unname(header$positions[!is.na(header$positions)])
  dt <- if (any(ok)) {
    valid <- tempfile(fileext = ".log")
    on.exit(unlink(valid))
    writeLines(lines[ok], valid, useBytes = TRUE)
    fread_log(valid, header = FALSE, select = positions, colClasses = "numeric")
  } else {
    data.table::as.data.table(stats::setNames(rep(list(numeric()), length(positions)),
                                              paste0("V", positions)))
  }
  list(data = dt, skipped = skipped)
}

# TRUE when every value of x is in [low, high] (below high when below_high; NA values skipped
# when na_ok): a minimum and a maximum, where a test per row allocates a vector per comparison.
all_within <- function(x, low, high, below_high = FALSE, na_ok = FALSE) {
  if (anyNA(x)) {
    if (!na_ok) return(FALSE)
    x <- x[!is.na(x)]
  }
  if (length(x) == 0) return(TRUE)
  min(x) >= low && (if (below_high) max(x) < high else max(x) <= high)
}

# Every row plausible, read from the columns' ranges (the common case: a clean log).
all_plausible <- function(requests) {
  with(requests, all_within(start_ms, PLAUSIBLE_START_MS[[1]], PLAUSIBLE_START_MS[[2]], below_high = TRUE) &&
         all_within(time_ms, 0, MAX_TIME_MS) && all_within(thread, 0L, Inf) && all_within(test, 0L, Inf) &&
         all_within(errors, 0L, Inf) && all_within(witness_us, 0, MAX_TIME_MS * 1000, na_ok = TRUE))
}

# Drop rows whose values cannot be real (corrupt digits that still parse).
drop_implausible <- function(requests) {
  if (all_plausible(requests)) return(list(data = requests, dropped = 0L))
  keep <- with(requests,
               start_ms >= PLAUSIBLE_START_MS[[1]] & start_ms < PLAUSIBLE_START_MS[[2]] &
                 time_ms >= 0 & time_ms <= MAX_TIME_MS & thread >= 0L & test >= 0L & errors >= 0L &
                 (is.na(witness_us) | (witness_us >= 0 & witness_us <= MAX_TIME_MS * 1000)))
  if (all(keep)) return(list(data = requests, dropped = 0L))
  list(data = requests[keep], dropped = sum(!keep))
}

# Requests starting over a week from the median start of the merged run, counted per file.
drop_far_from_median <- function(requests, files) {
  none <- list(requests = requests, skipped = NULL)
  if (nrow(requests) == 0) return(none)
  # the median lies between the first and the last start: when they are within a week, so is every start
  if (diff(min_max(requests$start_ms)) <= MAX_START_FROM_MEDIAN_MS) return(none)
  median_start <- stats::median(requests$start_ms)
  far <- abs(requests$start_ms - median_start) > MAX_START_FROM_MEDIAN_MS
  if (!any(far)) return(none)
  counts <- requests[far, .(lines = .N), by = file_id]
  files[counts, on = "file_id", `:=`(skipped_lines = skipped_lines + i.lines, requests = requests - i.lines)]
  list(requests = requests[!far],
       skipped = counts[, .(reason = "implausible value (start over a week from the run's median start)",
                            lines, file = files$rel_path[file_id])])
}

empty_skipped <- function() data.table::data.table(reason = character(), lines = integer())

# One data log -> list(data, skipped, note, has_witness, has_lag). Never stops the run.
read_data_log <- function(path) {
  result <- list(data = NULL, skipped = empty_skipped(), note = "", has_witness = FALSE, has_lag = FALSE)
  if (is.na(file.size(path)) || file.size(path) == 0) {
    result$note <- "empty file"
    return(result)
  }
  header_line <- readLines(path, n = 1, warn = FALSE, skipNul = TRUE)
  header <- parse_log_header(header_line)
  if (length(header$missing) > 0) {
    n_lines <- length(readLines(path, warn = FALSE, skipNul = TRUE)) - 1
    result$note <- sprintf("header has no %s column: not a Grinder 3 data log, file skipped",
                           paste0("'", header$missing, "'", collapse = ", "))
    if (n_lines > 0) {
      result$skipped <- data.table::data.table(reason = "unrecognised header (whole file)", lines = n_lines)
    }
    return(result)
  }
  result$has_witness <- !is.na(header$positions[["witness_us"]])
  result$has_lag <- !is.na(header$positions[["lag_us"]])
  dt <- read_log_fast(path, header)
  if (is.null(dt)) {
    checked <- read_log_checked(path, header)
    dt <- checked$data
    result$skipped <- checked$skipped
  }
  dt <- shape_requests(dt, header)
  plausible <- drop_implausible(dt)
  if (plausible$dropped > 0) {
    result$skipped <- rbind(result$skipped, data.table::data.table(
      reason = "implausible value (negative time, time over a day, start outside 2000-2100)", lines = plausible$dropped))
  }
  result$data <- plausible$data
  if (nrow(result$data) == 0) {
    result$note <- if (nrow(result$skipped) == 0) "no requests (header only)" else "no valid requests"
  }
  if (!result$has_witness) result$note <- trimws(paste(result$note, "no Witness (us) column"))
  result
}

# Every data log below run_dir, merged. A thread is (file, thread number): two workers
# with the same host and number in different folders stay distinct.
load_data_logs <- function(run_dir) {
  files <- find_data_logs(run_dir)
  if (nrow(files) == 0) stop_report("no Grinder data logs (*-data.log) below ", run_dir)
  progress(sprintf("reading %d data log%s (%s) below %s", nrow(files), if (nrow(files) == 1) "" else "s",
                   fmt_bytes(sum(files$bytes, na.rm = TRUE)), run_dir))
  parts <- vector("list", nrow(files))
  skipped <- vector("list", nrow(files))
  files[, `:=`(requests = 0L, skipped_lines = 0L, has_witness = FALSE, has_lag = FALSE, note = "")]
  chatty <- nrow(files) <= 50
  for (i in seq_len(nrow(files))) {
    started <- Sys.time()
    log <- read_data_log(files$path[[i]])
    rows <- if (is.null(log$data)) 0L else nrow(log$data)
    if (rows > 0) parts[[i]] <- log$data[, file_id := i]
    if (nrow(log$skipped) > 0) skipped[[i]] <- log$skipped[, file := files$rel_path[[i]]]
    data.table::set(files, i, c("requests", "skipped_lines", "has_witness", "has_lag", "note"),
                    list(rows, as.integer(sum(log$skipped$lines)), log$has_witness, log$has_lag, log$note))
    if (chatty || i %% max(1, nrow(files) %/% 10) == 0 || i == nrow(files)) {
      progress(sprintf("read %d/%d %s: %s requests, %s skipped lines (%.1f s)%s", i, nrow(files),
                       files$rel_path[[i]], fmt_int(rows), fmt_int(sum(log$skipped$lines)),
                       as.numeric(difftime(Sys.time(), started, units = "secs")),
                       if (nzchar(log$note)) paste0(" - ", log$note) else ""))
    }
  }
  requests <- bind_parts(parts)
  parts <- NULL
  far <- drop_far_from_median(requests, files)
  requests <- far$requests
  skipped <- data.table::rbindlist(c(list(empty_skipped()[, file := character()]), skipped, list(far$skipped)),
                                   use.names = TRUE)
  data.table::setcolorder(skipped, c("file", "reason", "lines"))
  progress(sprintf("merged %s requests from %d logs; %s lines skipped", fmt_int(nrow(requests)),
                   sum(files$requests > 0), fmt_int(sum(skipped$lines))))
  list(requests = requests, files = files, skipped = skipped)
}

read_manifest <- function(run_dir) {
  path <- file.path(run_dir, "manifest.json")
  if (!file.exists(path)) return(list(found = FALSE, error = NA_character_))
  manifest <- tryCatch(jsonlite::fromJSON(path, simplifyVector = TRUE),
                       error = function(e) list(error = one_line(conditionMessage(e))))
  if (!is.list(manifest)) manifest <- list(error = "not a JSON object")
  if (is.null(manifest$error)) manifest$error <- NA_character_
  manifest$found <- TRUE
  manifest
}

# Any metrics.csv below the run (host = its folder), columns of the contract, missing = NA.
read_host_metrics <- function(run_dir, injector_hosts = character()) {
  paths <- sort(list.files(run_dir, pattern = "^metrics\\.csv$", recursive = TRUE, full.names = TRUE))
  parts <- lapply(paths, function(path) {
    dt <- tryCatch(suppressWarnings(data.table::fread(path, showProgress = FALSE, integer64 = "double")),
                   error = function(e) NULL)
    if (is.null(dt) || nrow(dt) == 0 || !"time_ms" %in% names(dt)) return(NULL)
    shaped <- data.table::as.data.table(lapply(stats::setNames(METRIC_COLUMNS, METRIC_COLUMNS), function(col) {
      if (col %in% names(dt)) suppressWarnings(as.numeric(dt[[col]])) else rep(NA_real_, nrow(dt))
    }))
    host <- basename(dirname(path))
    rel <- substring(path, nchar(run_dir) + 2)
    shaped[, `:=`(host = host, injector = host %in% injector_hosts || grepl("(^|/)injectors/", rel))]
    shaped[!is.na(time_ms)]
  })
  metrics <- data.table::rbindlist(parts, use.names = TRUE)
  if (nrow(metrics) == 0) return(NULL)
  # CPU busy = user + system; from idle when those are missing.
  metrics[, cpu_busy_pct := data.table::fifelse(!is.na(cpu_user_pct) | !is.na(cpu_sys_pct),
                                                 data.table::fcoalesce(cpu_user_pct, 0) + data.table::fcoalesce(cpu_sys_pct, 0),
                                                 100 - cpu_idle_pct)]
  metrics[]
}

# The whole run folder, read once.
load_run <- function(run_dir, run_id = basename(run_dir)) {
  logs <- load_data_logs(run_dir)
  manifest <- read_manifest(run_dir)
  metrics <- read_host_metrics(run_dir, injector_hosts = unique(c(logs$files$host, logs$files$folder)))
  gc <- read_gc_logs(run_dir)
  console_stats <- file.path(run_dir, "console", "statistics.csv")
  list(
    run_id = run_id,
    run_dir = run_dir,
    requests = logs$requests, files = logs$files, skipped = logs$skipped,
    manifest = manifest, metrics = metrics, gc = gc,
    console_stats = if (file.exists(console_stats)) console_stats else NA_character_
  )
}
