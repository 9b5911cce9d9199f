#!/usr/bin/env bash
# Scale benchmark (./suite bench scale): the reference study's shape on this machine against
# the embedded HBase: 4 injectors (network namespaces where permitted, else loopback), 300 and
# then 600 threads in total, get, put and the 70/30 mix, each run bounded. Records the
# console's and every agent's CPU and memory (the agent JVM and its worker JVMs, read from
# /proc once a second) and the throughput reached, and prints them as tables. The runs form
# one sweep (runs/sweep-N/sweep.json, bench-scale.csv), so the report can draw the curves.
# A run that fails is reported in the table, not fatal: the bench itself fails only when it
# cannot run at all or no run completed.
#   BENCH_SCALE_SECONDS (30)  BENCH_SCALE_THREADS (300,600)  BENCH_SCALE_OPERATIONS
#   (get:100|put:100|get:70,put:30)  BENCH_SCALE_INJECTORS (4)  BENCH_SCALE_ROWS (100000)
#   BENCH_SCALE_LAB (auto). The runs are a ./suite sweep (no warm-up, every run with its own
#   console and agents); this script samples their processes beside it.
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
# The runs are one ./suite sweep (its own console and agents for every run: SUITE_SESSION=off, as
# this bench measures them per run), started in the background; this script only samples each
# run's processes beside it.
log=$(mktemp)
# an interrupted or failed bench stops its sweep (which records itself interrupted)
trap 'rm -f "$scenario" "$log"; if pid_alive "${SWEEP_PID:-}"; then kill -TERM "$SWEEP_PID"; fi' EXIT
SUITE_SESSION=off "$SUITE_ROOT/suite" sweep "$scenario" --keep-going > "$log" 2>&1 &
SWEEP_PID=$!
SWEEP_DIR=""
for _ in $(seq 1 240); do
  SWEEP_DIR=$(sed -n 's/^sweep-[0-9]*: \(\/.*\)$/\1/p' "$log" | head -1)
  [[ -n $SWEEP_DIR ]] && break
  pid_alive "$SWEEP_PID" || break
  sleep 0.5
done
[[ -n $SWEEP_DIR ]] || { wait "$SWEEP_PID" || true; die "the scale benchmark's sweep did not start: $(tail -3 "$log")"; }
SWEEP_ID=${SWEEP_DIR##*/}
POINTS=$(jq '.points | length' "$SWEEP_DIR/sweep-plan.json")
RESULTS=$SWEEP_DIR/bench-scale.csv
# operations with ';' for ',' (get:70;put:30), so every field is plain CSV
echo "run,threads,operations,status,requests,errors,tps,mean_ms,console_cpu_s,console_rss_mb,host,agent_cpu_s,agent_rss_mb,workers_cpu_s,workers_rss_mb" > "$RESULTS"
info "scale benchmark $SWEEP_ID: $POINTS runs of ${SECONDS_PER_RUN}s, $BENCH_INJECTORS injectors, threads $THREAD_LIST, $OPERATION_LIST ($SWEEP_DIR; the sweep's output: $SWEEP_DIR/sweep.log)"

TICKS=$(getconf CLK_TCK)
# CPU ticks (user+sys) and RSS (kB) of PID: "ticks rss", or nothing when it is gone.
proc_usage() {
  awk '
    FILENAME ~ /stat$/ { sub(/^.*\) /, ""); ticks = $12 + $13 }
    FILENAME ~ /status$/ && $1 == "VmRSS:" { rss = $2 }
    END { if (ticks != "") print ticks, rss + 0 }' "/proc/$1/stat" "/proc/$1/status" 2> /dev/null || true
}

# Sample the console, every agent and its workers until the run's console is gone; keeps per
# role the last CPU ticks (per PID) and the peak RSS, in associative arrays.
declare -A CPU=() PEAK=() ROLE=()
sample_run() {
  local run_dir=$1 run_pid pid usage ticks rss role host agent child sum
  local -A rss_by_role
  CPU=() PEAK=() ROLE=()
  run_pid=$(jq -r '.owner.pid // empty' "$run_dir/plan.json")
  while pid_alive "$run_pid"; do
    rss_by_role=()
    if [[ -s $run_dir/console/console.pid ]]; then ROLE[$(cat "$run_dir/console/console.pid")]=console; fi
    for host in "$run_dir"/injectors/*/; do
      host=${host%/}; host=${host##*/}
      [[ -s $run_dir/injectors/$host/agent.pid ]] || continue
      agent=$(cat "$run_dir/injectors/$host/agent.pid")
      ROLE[$agent]="agent $host"
      for child in $(pgrep -P "$agent" 2> /dev/null || true); do ROLE[$child]="workers $host"; done
    done
    for pid in "${!ROLE[@]}"; do
      usage=$(proc_usage "$pid")
      [[ -n $usage ]] || continue
      read -r ticks rss <<< "$usage"
      CPU[$pid]=$ticks
      role=${ROLE[$pid]}
      rss_by_role[$role]=$(( ${rss_by_role[$role]:-0} + rss ))
    done
    for role in "${!rss_by_role[@]}"; do
      sum=${rss_by_role[$role]}
      ((sum > ${PEAK[$role]:-0})) && PEAK[$role]=$sum
    done
    sleep 1
  done
}

# CPU seconds of a role, summed over its PIDs.
role_cpu() {
  local role=$1 pid total=0
  for pid in "${!ROLE[@]}"; do [[ ${ROLE[$pid]} == "$role" ]] && total=$((total + ${CPU[$pid]:-0})); done
  awk -v t="$total" -v hz="$TICKS" 'BEGIN { printf "%.1f", t / hz }'
}
role_rss() { awk -v k="${PEAK[$1]:-0}" 'BEGIN { printf "%.0f", k / 1024 }'; }

# run_dir := the folder of the run made for point N of this sweep, once its plan exists (empty until
# then). A plan is written once, at its run's start: each is read once (POINT_OF), not at every poll;
# no subshell, so that POINT_OF keeps what was read.
declare -A POINT_OF=()
run_of_point() {
  local plan
  run_dir=""
  for plan in "$SUITE_RUNS_DIR"/run-*/plan.json; do
    [[ -f $plan && -z ${POINT_OF[$plan]:-} ]] || continue
    POINT_OF[$plan]=$(jq -r '"\(.sweep_id) \(.sweep_point)"' "$plan")
  done
  for plan in "${!POINT_OF[@]}"; do
    if [[ ${POINT_OF[$plan]} == "$SWEEP_ID $1" ]]; then run_dir=${plan%/plan.json}; return; fi
  done
}

# Each point's run as the sweep makes it: sampled while it runs, then its row.
started=$SECONDS completed=0
for ((point = 1; point <= POINTS; point++)); do
  run_dir=""
  while [[ -z $run_dir ]] && pid_alive "$SWEEP_PID"; do run_of_point "$point"; [[ -n $run_dir ]] || sleep 0.5; done
  [[ -n $run_dir ]] || run_of_point "$point"
  [[ -n $run_dir ]] || continue
  threads=$(jq -r .threads_total "$run_dir/plan.json")
  ops=$(jq -r '.properties["hbaseload.operations"] // empty' "$run_dir/plan.json")
  info "$SWEEP_ID: run $point of $POINTS: $threads threads, $ops ($((SECONDS - started))s into the bench)"
  sample_run "$run_dir"
  # the manifest follows the run's end by a moment
  for _ in $(seq 1 20); do [[ -f $run_dir/manifest.json ]] && break; sleep 0.5; done
  run_id=${run_dir##*/}
  status=$(jq -r '.status // "unknown"' "$run_dir/manifest.json" 2> /dev/null || echo unknown)
  [[ $status == complete ]] && completed=$((completed + 1))
  stats=$run_dir/console/statistics.csv
  read -r requests errors tps mean < <(awk -F, 'NR > 1 { n += $3 + $4; e += $4; tps += $7; w += $3 * $5; c += $3 }
    END { printf "%d %d %.0f %s\n", n, e, tps, (c ? sprintf("%.2f", w / c) : "NA") }' "$stats" 2> /dev/null || echo "0 0 0 NA")
  console_cpu=$(role_cpu console) console_rss=$(role_rss console)
  for ((k = 1; k <= BENCH_INJECTORS; k++)); do
    host=inj$k
    echo "$run_id,$threads,${ops//,/;},$status,$requests,$errors,$tps,$mean,$console_cpu,$console_rss,$host,$(role_cpu "agent $host"),$(role_rss "agent $host"),$(role_cpu "workers $host"),$(role_rss "workers $host")" >> "$RESULTS"
  done
done
wait "$SWEEP_PID" || true
cp "$log" "$SWEEP_DIR/sweep.log"

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
