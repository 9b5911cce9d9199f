#!/usr/bin/env bash
# bench-report.sh - benchmark report.R on synthetic Grinder data logs (not a timed test).
# usage: bench-report.sh [REQUESTS]   (default 10000000: 4 hosts x 2 workers x 25 threads)
# Generates deterministic logs in a temp folder (paced run: with a Lag column, ~0.5 GB), runs report.R under /usr/bin/time -v,
# prints elapsed and CPU seconds, peak RSS and the load average, deletes the data, and exits 1 over 60 s or 4 GB.
set -euo pipefail

usage() { echo "usage: $(basename "$0") [REQUESTS]" >&2; }

readonly LIMIT_SECONDS=60
readonly LIMIT_RSS_KB=$((4 * 1024 * 1024))
readonly HOSTS=4 WORKERS=2 THREADS=25

requests="${1:-10000000}"
if [[ ! "$requests" =~ ^[0-9]+$ ]] || ((requests < HOSTS * WORKERS * THREADS)); then
  usage
  exit 2
fi
[[ -x /usr/bin/time ]] || { echo "bench-report.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
command -v mawk >/dev/null || command -v awk >/dev/null || { echo "bench-report.sh: awk missing" >&2; exit 1; }
AWK="$(command -v mawk || command -v awk)"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/bench-report.XXXXXX")"
trap 'rm -rf "$work"' EXIT
run="$work/run-bench"

per_file=$((requests / (HOSTS * WORKERS)))
echo "bench-report.sh: generating $((per_file * HOSTS * WORKERS)) requests in $((HOSTS * WORKERS)) logs under $work" >&2
gen_start=$(date +%s)
jobs=()
for h in $(seq 1 "$HOSTS"); do
  mkdir -p "$run/injectors/inj$h"
  for w in $(seq 0 $((WORKERS - 1))); do
    "$AWK" -v threads="$THREADS" -v requests="$per_file" -v seed=$((h * 100 + w)) \
      -v t0_ms=1763712000000 -v stall_at_s=120 -v stall_s=2.5 -v pacing=1 \
      -f "$here/synthetic-data-log.awk" >"$run/injectors/inj$h/inj$h-$w-data.log" &
    jobs+=("$!")
    if ((${#jobs[@]} >= 2)); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi
  done
done
for job in "${jobs[@]}"; do wait "$job"; done
echo "bench-report.sh: generated $(du -sh "$run" | cut -f1) in $(($(date +%s) - gen_start)) s" >&2

# The package installed first: a stale one would be reinstalled inside the timed report.
Rscript "$here/../install.R" >&2 || exit 1
timing="$work/time.txt"
# On a shared machine the elapsed time moves with the others' load: the CPU seconds and the load
# average when the report starts say how much of it was ours.
load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
/usr/bin/time -v -o "$timing" Rscript "$here/../report.R" "$run"
elapsed="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$timing")"
seconds="$(awk -v t="$elapsed" 'BEGIN { n = split(t, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }')"
cpu="$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$timing")"
rss_kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timing")"
echo "bench-report.sh: elapsed ${seconds} s, CPU ${cpu} s, peak RSS $((rss_kb / 1024)) MB, load average ${load} at the start (limits ${LIMIT_SECONDS} s, $((LIMIT_RSS_KB / 1024)) MB)"
if awk -v s="$seconds" -v l="$LIMIT_SECONDS" 'BEGIN { exit !(s > l) }' || ((rss_kb > LIMIT_RSS_KB)); then
  echo "bench-report.sh: over the limit" >&2
  exit 1
fi
