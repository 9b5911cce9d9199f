# soak-verdict.R SOAK_DIR MAX_GROWTH_PCT - the soak's verdict from heap.csv, memory.csv and
# runs.csv (bench/soak.sh). Judged per JVM (phase, role, pid) twice:
#   live heap after a full GC, at the end of its warm-up against 90% into the phase;
#   resident memory (RSS), at the end of its warm-up (a quarter in) against the peak of the last
#   quarter, for the suite's own JVMs (console, agents, workers). HBase's and its gateway's RSS is
#   shown, not judged: a block cache and memstores that fill are HBase working, not a leak.
# A growth fails when it is both MAX_GROWTH_PCT or more and MIN_GROWTH_MB or more (a 20 MB console
# heap wobbles by a MB). Exit 1 when a JVM grew, was measured only once, or a run did not end complete.
suppressPackageStartupMessages(library(data.table))

MIN_GROWTH_MB <- 4
NOT_JUDGED_RSS <- c("hbase", "thrift2 gateway")

live_heap_growth <- function(heap) {
  heap[, .(warm_kb = live_kb[point == "warm"][1], late_kb = live_kb[point == "late"][1]), by = .(phase, role, pid)][
    , growth_pct := 100 * (late_kb / warm_kb - 1)][]
}

rss_growth <- function(memory) {
  memory[, phase_end := max(elapsed_s), by = phase]
  memory[, .(rss_warm_kb = rss_kb[which.max(ifelse(elapsed_s <= phase_end / 4, elapsed_s, -Inf))],
             rss_late_peak_kb = max(rss_kb[elapsed_s >= phase_end * 3 / 4])), by = .(phase, role, pid)][
    , rss_growth_pct := 100 * (rss_late_peak_kb / rss_warm_kb - 1)][]
}

soak_verdict <- function(heap_growth, runs, max_growth_pct, min_growth_mb = MIN_GROWTH_MB) {
  unmeasured <- heap_growth[is.na(warm_kb) | is.na(late_kb)]
  grown <- heap_growth[!is.na(growth_pct) & growth_pct >= max_growth_pct & late_kb - warm_kb >= min_growth_mb * 1024]
  rss_grown <- heap_growth[!role %in% NOT_JUDGED_RSS & !is.na(rss_growth_pct) & rss_growth_pct >= max_growth_pct &
                             rss_late_peak_kb - rss_warm_kb >= min_growth_mb * 1024]
  unclean <- runs[exit != 0 | !startsWith(outcome, "complete")]
  list(pass = nrow(heap_growth) > 0 && nrow(unmeasured) == 0 && nrow(grown) == 0 && nrow(rss_grown) == 0 && nrow(unclean) == 0 &&
         nrow(runs) > 0,
       unmeasured = unmeasured, grown = grown, rss_grown = rss_grown, unclean = unclean)
}

main <- function(args) {
  if (length(args) != 2) stop("usage: soak-verdict.R SOAK_DIR MAX_GROWTH_PCT")
  for (f in file.path(args[1], c("heap.csv", "memory.csv", "runs.csv"))) {
    if (!file.exists(f)) { message("soak-verdict.R: ", f, " is missing"); quit(status = 2) }
  }
  heap <- fread(file.path(args[1], "heap.csv"), colClasses = list(character = c("phase", "point", "role")))
  memory <- fread(file.path(args[1], "memory.csv"))
  runs <- fread(file.path(args[1], "runs.csv"), sep = ",", fill = TRUE, colClasses = "character")
  runs[, exit := as.integer(exit)]
  max_growth <- as.numeric(args[2])
  growth <- merge(live_heap_growth(heap), rss_growth(memory), by = c("phase", "role", "pid"), all = TRUE)
  v <- soak_verdict(growth[role != "hbase"], runs, max_growth)
  setorder(growth, phase, role)
  mb <- function(kb) ifelse(is.na(kb), "-", sprintf("%.1f", kb / 1024))
  pct <- function(p) ifelse(is.na(p), "-", sprintf("%+.1f%%", p))
  cat(sprintf("%-7s %-16s %8s %14s %14s %8s   %s\n", "phase", "JVM", "pid", "live heap warm", "live heap late", "growth",
              "RSS warm -> late peak MB (HBase's and the gateway's: information)"))
  cat(growth[, sprintf("%-7s %-16s %8d %11s MB %11s MB %8s   %s -> %s (%s)\n", phase, role, pid, mb(warm_kb), mb(late_kb),
                       pct(growth_pct), mb(rss_warm_kb), mb(rss_late_peak_kb), pct(rss_growth_pct))], sep = "")
  cat(runs[, sprintf("%s run %s: exit %d, %s\n", target, run, exit, outcome)], sep = "")
  if (v$pass) {
    cat(sprintf(paste("soak: pass: no live heap, and no RSS of the suite's JVMs, grew %g%% and %g MB after warm-up;",
                      "both runs complete (data logs = console, no errors)\n"), max_growth, MIN_GROWTH_MB))
  } else {
    if (nrow(v$unmeasured)) cat(sprintf("soak: FAIL: %s %s (pid %d): live heap not measured at both points\n",
                                        v$unmeasured$phase, v$unmeasured$role, v$unmeasured$pid), sep = "")
    if (nrow(v$grown)) cat(sprintf("soak: FAIL: %s %s live heap grew %.1f%% (%.1f MB; limit %g%% and %g MB)\n",
                                   v$grown$phase, v$grown$role, v$grown$growth_pct, (v$grown$late_kb - v$grown$warm_kb) / 1024,
                                   max_growth, MIN_GROWTH_MB), sep = "")
    if (nrow(v$rss_grown)) cat(sprintf("soak: FAIL: %s %s resident memory grew %.1f%% (%.1f MB; limit %g%% and %g MB)\n",
                                       v$rss_grown$phase, v$rss_grown$role, v$rss_grown$rss_growth_pct,
                                       (v$rss_grown$rss_late_peak_kb - v$rss_grown$rss_warm_kb) / 1024, max_growth, MIN_GROWTH_MB), sep = "")
    if (nrow(v$unclean)) cat(sprintf("soak: FAIL: %s run %s did not end complete: %s\n", v$unclean$target, v$unclean$run, v$unclean$outcome), sep = "")
    if (!nrow(growth[role != "hbase"])) cat("soak: FAIL: no JVM measured\n")
    quit(status = 1)
  }
}

if (sys.nframe() == 0) main(commandArgs(trailingOnly = TRUE))
