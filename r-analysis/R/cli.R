# cli.R - the entry points of the scripts report.R and peers.R: each turns a command line into an
# exit status, and every failure into one line on stderr named after its script.

# report.R's exit status: main's (0, or GATE_FAILED_STATUS), 2 for a command line that cannot be
# right, 1 for nothing valid to report or an internal error.
report_cli <- function(args, repo_root) {
  tryCatch(main(args, repo_root), usage_error = function(e) {
    message("report.R: ", one_line(conditionMessage(e)))
    2L
  }, report_error = function(e) {
    message("report.R: ", one_line(conditionMessage(e)))
    1L
  }, error = function(e) {
    message("report.R: internal error: ", one_line(conditionMessage(e)))
    1L
  })
}

# peers.R's exit status: 0 when every target is met, 99 when one is missed, 1 on bad input.
peers_cli <- function(args) {
  tryCatch(peers_main(args),
           report_error = function(e) {
             message("peers.R: ", one_line(conditionMessage(e)))
             1L
           },
           error = function(e) {
             message("peers.R: internal error: ", one_line(conditionMessage(e)))
             1L
           })
}

PEERS_USAGE <- paste("usage: Rscript peers.R BENCH_DIR [--out PREFIX] [--command TEXT] | --pe-rate PE_LOG | --window RUN_DIR WARM_S SPAN_S",
                     "| --injector RESULTS_CSV MIN_RATIO")

peers_main <- function(args) {
  if (length(args) == 0 || args[1] %in% c("-h", "--help")) {
    cat(PEERS_USAGE, "\n")
    return(0L)
  }
  if (args[1] == "--pe-rate") {
    if (length(args) != 2) stop_report(PEERS_USAGE)
    cat(sprintf("%.1f\n", parse_pe_log(args[2])$throughput_rps))
    return(0L)
  }
  if (args[1] == "--window") {
    seconds <- suppressWarnings(as.numeric(args[3:4]))
    if (length(args) != 4 || anyNA(seconds) || any(seconds < 0)) stop_report(PEERS_USAGE)
    set_progress(quiet = TRUE)
    w <- data_log_window(args[2], seconds[1], seconds[2])
    cat(w$in_window, w$errors, w$all, "\n")
    return(0L)
  }
  if (args[1] == "--injector") return(injector_cli(args))
  dir <- args[1]
  option <- function(name, default) {
    at <- match(name, args)
    if (is.na(at)) return(default)
    if (at == length(args)) stop_report(name, " needs a value (", PEERS_USAGE, ")")
    args[at + 1]
  }
  unknown <- setdiff(args[-1][startsWith(args[-1], "--")], c("--out", "--command"))
  if (length(unknown) > 0) stop_report("unknown option ", unknown[1], " (", PEERS_USAGE, ")")
  write_peers_results(dir, prefix = option("--out", file.path(dir, "peers")),
                      command = option("--command", "./suite bench peers"))
}

# peers.R --injector RESULTS_CSV MIN_RATIO: the injector bench's medians and ratio; exit 1 when
# Grinder reached less than MIN_RATIO of the plain Java loop.
injector_cli <- function(args) {
  min_ratio <- suppressWarnings(as.numeric(args[3]))
  if (length(args) != 3 || is.na(min_ratio) || !file.exists(args[2])) stop_report(PEERS_USAGE)
  s <- injector_summary(data.table::fread(args[2]), min_ratio)
  cat(sprintf("injector benchmark: plain Java median %s/s, Grinder median %s/s, ratio %.3f (target >= %s)\n",
              format(s$java_rps), format(s$grinder_rps), s$ratio, format(min_ratio)))
  cat(sprintf("  client CPU per request (median): plain Java %s us, Grinder %s us; results %s\n",
              format(s$java_cpu_us), format(s$grinder_cpu_us), args[2]))
  if (s$met) return(0L)
  message(sprintf("peers.R: Grinder reached %.3f of the plain Java loop, below %s", s$ratio, format(min_ratio)))
  1L
}

# Reads BENCH_DIR/rounds.csv, writes PREFIX.md and PREFIX.csv, prints the markdown.
write_peers_results <- function(dir, prefix, command) {
  index_file <- file.path(dir, "rounds.csv")
  if (!file.exists(index_file)) stop_report("no rounds.csv in ", dir, " (not a bench-peers folder?)")
  index <- data.table::fread(index_file, colClasses = c(ref = "character", cpu_file = "character"))
  if (nrow(index) == 0) stop_report(index_file, " lists no run")
  set_progress(quiet = TRUE)
  rounds <- peers_rounds(index)
  summary <- peers_summary(rounds)
  targets <- peers_targets(summary)
  measured <- format(file.mtime(index_file), "%Y-%m-%d %H:%M UTC", tz = "UTC")
  md <- peers_markdown(summary, targets, peers_cpu_breakdown(rounds), rounds, command, when = measured)
  data.table::fwrite(rounds, paste0(prefix, ".csv"))
  writeLines(md, paste0(prefix, ".md"))
  writeLines(md)
  message(sprintf("peers.R: wrote %s.md and %s.csv", prefix, prefix))
  if (all(targets$met %in% TRUE)) 0L else 99L
}
