#!/usr/bin/env bash
# Scale benchmark (./suite bench scale): the reference study's shape on this machine against
# the embedded HBase: 4 injectors (network namespaces where permitted, else loopback), 300 and
# then 600 threads in total, get, put and the 70/30 mix, each run bounded. Records the
# console's and every agent's CPU and memory (the agent JVM and its worker JVMs, from each run's
# CPU accounting, cpu.json) and the throughput reached, and prints them as tables. The runs form
# one sweep (runs/sweep-N/sweep.json, bench-scale.csv), so the report can draw the curves.
# A run that fails is reported in the table, not fatal: the bench itself fails only when it
# cannot run at all or no run completed.
#   BENCH_SCALE_SECONDS (30)  BENCH_SCALE_THREADS (300,600)  BENCH_SCALE_OPERATIONS
#   (get:100|put:100|get:70,put:30)  BENCH_SCALE_INJECTORS (4)  BENCH_SCALE_ROWS (100000)
#   BENCH_SCALE_LAB (auto). The runs are a ./suite sweep (no warm-up, every run with its own
#   console and agents).
set -euo pipefail
SUITE_ME="suite bench scale"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

[[ $# -eq 0 ]] || { echo "usage: bench/scale.sh (settings: BENCH_SCALE_* variables, see its header)" >&2; exit 2; }
SECONDS_PER_RUN=${BENCH_SCALE_SECONDS:-30}
THREAD_LIST=${BENCH_SCALE_THREADS:-300,600}
OPERATION_LIST=${BENCH_SCALE_OPERATIONS:-get:100|put:100|get:70,put:30}
BENCH_INJECTORS=${BENCH_SCALE_INJECTORS:-4}
ROWS=${BENCH_SCALE_ROWS:-100000}
BENCH_LAB=${BENCH_SCALE_LAB:-auto}

require_setup
"$SUITE_ROOT/suite" hbase start

# The reference table, scaled down: 192-byte values (the middle of 128-256), 16 regions. The
# runs are one ./suite sweep; this script samples every run's processes while it runs.
scenario=$(mktemp --suffix=.properties)
trap 'rm -f "$scenario"' EXIT
cat > "$scenario" <<SCENARIO
sweep.name = bench-scale
sweep.threads = $THREAD_LIST
sweep.operations = $OPERATION_LIST
sweep.injectors = $BENCH_INJECTORS
sweep.lab = $BENCH_LAB
sweep.duration = $SECONDS_PER_RUN
sweep.warmup = off
hbaseload.table = benchscale
hbaseload.rows = $ROWS
hbaseload.value.size = 192
hbaseload.regions = 16
SCENARIO
# The runs are one ./suite sweep, each with its own console and agents (SUITE_SESSION=off: this bench
# measures them per run); every run's CPU accounting (cpu.json) has each process's CPU seconds, peak
# memory and parent, so no sampler of its own.
log=$(mktemp)
trap 'rm -f "$scenario" "$log"' EXIT
started=$SECONDS
info "scale benchmark: threads $THREAD_LIST x $OPERATION_LIST, ${SECONDS_PER_RUN}s each, $BENCH_INJECTORS injectors (lab $BENCH_LAB)"
SUITE_SESSION=off "$SUITE_ROOT/suite" sweep "$scenario" --keep-going 2>&1 | tee "$log" | indent || true
SWEEP_DIR=$(sed -n 's/^sweep-[0-9]*: \(\/.*\)$/\1/p' "$log" | head -1)
[[ -n $SWEEP_DIR && -f $SWEEP_DIR/sweep.json ]] || die "the scale benchmark's sweep did not run: $(tail -3 "$log")"
cp "$log" "$SWEEP_DIR/sweep.log"
SWEEP_ID=${SWEEP_DIR##*/}
RESULTS=$SWEEP_DIR/bench-scale.csv

# One row per run and host: the console's statistics, the console's CPU and memory, the host's agent
# (its pid in injectors/HOST/agent.pid) and its workers (the processes whose parent is that agent).
# Operations with ';' for ',' (get:70;put:30), so every field is plain CSV.
host_rows() {
  local run_dir=$1 run_id=${1##*/} threads ops status requests errors tps mean host agent
  threads=$(jq -r .threads_total "$run_dir/plan.json")
  ops=$(jq -r '.properties["hbaseload.operations"] // empty' "$run_dir/plan.json")
  status=$(jq -r '.status // "unknown"' "$run_dir/manifest.json" 2> /dev/null || echo unknown)
  read -r requests errors tps mean < <(awk -F, 'NR > 1 { n += $3 + $4; e += $4; tps += $7; w += $3 * $5; c += $3 }
    END { printf "%d %d %.0f %s\n", n, e, tps, (c ? sprintf("%.2f", w / c) : "NA") }' "$run_dir/console/statistics.csv" 2> /dev/null || echo "0 0 0 NA")
  for host in "$run_dir"/injectors/*/; do
    host=${host%/}; host=${host##*/}
    agent=$(cat "$run_dir/injectors/$host/agent.pid" 2> /dev/null || echo 0)
    jq -r --arg run "$run_id,$threads,${ops//,/;},$status,$requests,$errors,$tps,$mean" --arg host "$host" --argjson agent "${agent:-0}" '
      def procs(role): [.roles[role].processes[]? | select(.pid != null)];
      def cpu(ps): ps | map(.cpu_s) | add // 0 | . * 10 | round / 10;
      def mb(ps): ps | map(.rss_peak_mb // 0) | add // 0 | round;
      (procs("console")) as $console | (procs("agent") | map(select(.pid == $agent))) as $agents
      | (procs("worker") | map(select(.ppid == $agent))) as $workers
      | [$run, cpu($console), mb($console), $host, cpu($agents), mb($agents), cpu($workers), mb($workers)] | map(tostring) | join(",")' \
      "$run_dir/cpu.json" 2> /dev/null || echo "$run_id,$threads,${ops//,/;},$status,$requests,$errors,$tps,$mean,NA,NA,$host,NA,NA,NA,NA"
  done
}

echo "run,threads,operations,status,requests,errors,tps,mean_ms,console_cpu_s,console_rss_mb,host,agent_cpu_s,agent_rss_mb,workers_cpu_s,workers_rss_mb" > "$RESULTS"
completed=0
POINTS=$(jq '.runs | length' "$SWEEP_DIR/sweep.json")
for run_id in $(jq -r '.runs[]' "$SWEEP_DIR/sweep.json"); do
  host_rows "${SWEEP_DIR%/*}/$run_id" >> "$RESULTS"
  [[ $(jq -r '.status // ""' "${SWEEP_DIR%/*}/$run_id/manifest.json" 2> /dev/null) == complete ]] && completed=$((completed + 1))
done

info ""
info "throughput ($SWEEP_ID, ${SECONDS_PER_RUN}s per run, $BENCH_INJECTORS injectors, this machine: $(nproc) cores shared with HBase)"
awk -F, 'NR > 1 && $11 == "inj1" {
    printf "  %-8s %7s  %-14s %-10s %10s %7s %8s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8 }
  BEGIN { printf "  %-8s %7s  %-14s %-10s %10s %7s %8s %8s\n", "run", "threads", "operations", "status", "requests", "errors", "tps", "mean_ms" }' "$RESULTS"
info ""
info "resources (CPU seconds over the run, peak RSS MB; workers = the worker JVMs of that agent)"
awk -F, 'NR > 1 { key = $1
    if (!(key in seen)) { seen[key] = 1; order[++n] = key; head[key] = sprintf("  %-8s %4s %-14s console %5ss %4sMB", $1, $2, $3, $9, $10) }
    line[key] = line[key] sprintf(" | %s agent %ss %sMB, workers %ss %sMB", $11, $12, $13, $14, $15) }
  END { for (i = 1; i <= n; i++) print head[order[i]] line[order[i]] }' "$RESULTS"
info ""
info "bench scale: $completed of $POINTS runs complete in $((SECONDS - started))s ($RESULTS)"
((completed > 0)) || die "no run of the scale benchmark completed (the sweep's output: $SWEEP_DIR/sweep.log)"
