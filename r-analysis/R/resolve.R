# resolve.R - command line: options, and run ids / sweep ids / paths -> folders.

usage_line <- function() {
  "usage: report.R [--warmup SECONDS] [--slo GATES] [--baseline RUN] [--out DIR] [--quiet] [--table] [--no-plots] RUN|SWEEP|PATH [RUN ...] | --check [OPTIONS]"
}

# Returns list(targets, warmup_s, slo, gates, baseline, out_dir, quiet, help). Errors are report_errors.
parse_cli <- function(args) {
  opts <- list(targets = character(), warmup_s = NA_real_, slo = NA_character_, gates = NULL, baseline = NA_character_,
               out_dir = NA_character_, quiet = FALSE, help = FALSE, check = FALSE, table = FALSE, plots = TRUE)
  i <- 1
  while (i <= length(args)) {
    arg <- args[[i]]
    value_of <- function(name) {
      if (grepl("=", arg, fixed = TRUE)) return(sub("^[^=]*=", "", arg))
      if (i + 1 > length(args)) stop_usage(name, " needs a value; ", usage_line())
      i <<- i + 1
      args[[i]]
    }
    if (arg %in% c("-h", "--help")) {
      opts$help <- TRUE
    } else if (arg == "--check") {
      opts$check <- TRUE
    } else if (arg == "--table") {
      opts$table <- TRUE
    } else if (arg == "--no-plots") {
      opts$plots <- FALSE
    } else if (grepl("^--warmup(=|$)", arg)) {
      raw <- value_of("--warmup")
      opts$warmup_s <- suppressWarnings(as.numeric(raw))
      if (is.na(opts$warmup_s) || opts$warmup_s < 0) {
        stop_report("--warmup wants a number of seconds >= 0, got '", raw, "'")
      }
    } else if (grepl("^--slo(=|$)", arg)) {
      opts$slo <- value_of("--slo")
      opts$gates <- parse_slo(opts$slo)
    } else if (grepl("^--baseline(=|$)", arg)) {
      opts$baseline <- value_of("--baseline")
    } else if (grepl("^--out(=|$)", arg)) {
      opts$out_dir <- value_of("--out")
    } else if (arg %in% c("-q", "--quiet")) {
      opts$quiet <- TRUE
    } else if (grepl("^-", arg)) {
      stop_usage("unknown option '", arg, "'; ", usage_line())
    } else {
      opts$targets <- c(opts$targets, arg)
    }
    i <- i + 1
  }
  if (!opts$help && !opts$check && length(opts$targets) == 0) stop_usage("no run given; ", usage_line())
  opts
}

runs_dir_for <- function(repo_root) {
  from_env <- Sys.getenv("SUITE_RUNS_DIR", "")
  if (nzchar(from_env)) from_env else file.path(repo_root, "runs")
}

looks_like_path <- function(arg) grepl("/", arg, fixed = TRUE) || grepl("^[.~]", arg)

# One argument -> list(kind = "run"|"sweep", id, dir). An explicit path wins, then
# <runs>/<id>, then a folder of that name in the current directory.
resolve_target <- function(arg, runs_dir) {
  candidates <- if (looks_like_path(arg)) arg else c(file.path(runs_dir, arg), arg)
  found <- candidates[dir.exists(candidates)]
  if (length(found) == 0) {
    if (file.exists(arg)) stop_report("'", arg, "' is a file, not a run folder")
    stop_report("run '", arg, "' not found (looked in ",
                paste(unique(normalizePath(candidates, mustWork = FALSE)), collapse = " and "), ")")
  }
  dir <- normalizePath(found[[1]])
  kind <- if (file.exists(file.path(dir, "sweep.json"))) "sweep" else "run"
  list(kind = kind, id = basename(dir), dir = dir)
}

read_sweep_runs <- function(sweep_dir) {
  sweep <- tryCatch(jsonlite::fromJSON(file.path(sweep_dir, "sweep.json"), simplifyVector = TRUE),
                    error = function(e) stop_report("cannot read ", file.path(sweep_dir, "sweep.json"),
                                                    ": ", one_line(conditionMessage(e))))
  runs <- as.character(unlist(sweep$runs))
  if (length(runs) == 0) stop_report(file.path(sweep_dir, "sweep.json"), " lists no runs")
  list(sweep_id = if (is.null(sweep$sweep_id)) basename(sweep_dir) else as.character(sweep$sweep_id),
       runs = runs)
}

# A sweep's run ids are runs of the folder that holds the sweep (where lifecycle's SweepRecord
# found them), not of whatever runs folder this report was pointed at: a sweep elsewhere than
# SUITE_RUNS_DIR must not be drawn from other runs of the same names. A sweep may also keep its
# runs inside its own folder.
resolve_sweep_run <- function(run_id, sweep_dir) {
  beside <- dirname(normalizePath(sweep_dir))
  inside <- file.path(sweep_dir, run_id)
  if (!looks_like_path(run_id) && dir.exists(inside) && !dir.exists(file.path(beside, run_id))) {
    return(list(kind = "run", id = basename(inside), dir = normalizePath(inside)))
  }
  resolve_target(run_id, beside)
}

# All targets -> list(mode = "run"|"compare", runs = list of targets, out_dir, sweep_id).
plan_report <- function(targets, runs_dir, out_dir = NA_character_) {
  # One run must exist; in a comparison a missing run is skipped and reported.
  resolved <- lapply(targets, function(arg) {
    if (length(targets) == 1) return(resolve_target(arg, runs_dir))
    tryCatch(resolve_target(arg, runs_dir), report_error = function(e) {
      list(kind = "missing", id = arg, dir = NA_character_, reason = conditionMessage(e))
    })
  })
  sweep_id <- NA_character_
  runs <- list()
  for (target in resolved) {
    if (target$kind == "sweep") {
      sweep <- read_sweep_runs(target$dir)
      if (length(resolved) == 1) sweep_id <- sweep$sweep_id
      runs <- c(runs, lapply(sweep$runs, function(run_id) {
        tryCatch(resolve_sweep_run(run_id, target$dir), report_error = function(e) {
          list(kind = "missing", id = run_id, dir = NA_character_, reason = conditionMessage(e))
        })
      }))
    } else {
      runs <- c(runs, list(target))
    }
  }
  ids <- make.unique(basename(vapply(runs, `[[`, "", "id")), sep = "~")
  for (k in seq_along(runs)) runs[[k]]$id <- ids[[k]]
  single <- length(resolved) == 1 && resolved[[1]]$kind == "run"
  default_out <- if (single || !is.na(sweep_id)) {
    file.path(resolved[[1]]$dir, "report")
  } else {
    file.path(runs_dir, paste0("compare-", paste(ids, collapse = "-")), "report")
  }
  list(mode = if (single) "run" else "compare", runs = runs, sweep_id = sweep_id,
       sweep_dir = if (is.na(sweep_id)) NA_character_ else resolved[[1]]$dir,
       out_dir = if (is.na(out_dir)) default_out else out_dir)
}
