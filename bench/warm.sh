#!/usr/bin/env bash
# ./suite bench warm: the same sweep with fresh worker JVMs (Grinder's normal mode, a new worker JVM
# per run) and with warm workers (session.workers = warm: the workers are threads of the session's
# agent JVM, which keeps the HBase client's compiled code from run to run), interleaved round by
# round (fresh, warm; then warm, fresh; ...), on the embedded HBase, isolated lab (lab.cpus = auto).
# Per point: the worker JVM's JIT CPU over the run, its time to steady state, throughput and worker
# CPU per request; per sweep: wall time and its share outside the points' load. Results in
# runs/bench-warm-N/ (rows.csv, the sweeps' logs) and a summary (bench/warm-summary.R).
set -euo pipefail
SUITE_ME="suite bench warm"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/suite.d/runs.sh"

USAGE="usage: ./suite bench warm [--rounds N] [--points N] [--seconds S] [--threads T]"
help() {
  cat <<HELP
$USAGE
  --rounds N    interleaved rounds of one fresh and one warm sweep each (default 3)
  --points N    points per sweep, alternating get:100 and get:70,put:30 (default 4)
  --seconds S   seconds of load per point (default 20)
  --threads T   threads per point, one injector (default 8)
Each sweep: sweep.warmup = off (the point is what a fresh and a warm worker pay themselves); one
throwaway warm sweep first warms HBase. Targets (issue 22): in a warm sweep, a point's JIT at most
a tenth of the first point's; time to steady state at most 5 s.
HELP
}

rounds=3 points=4 seconds=20 threads=8
while (($#)); do
  case $1 in
    -h | --help) help; exit 0 ;;
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --points) points=${2:?--points needs a number}; shift 2 ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --threads) threads=${2:?--threads needs a number}; shift 2 ;;
    *) usage_error "unknown option '$1' ($USAGE)" ;;
  esac
done
for n in "$rounds" "$points" "$seconds" "$threads"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || usage_error "'$n' is not a positive whole number ($USAGE)"
done

"$SUITE_ROOT/suite" hbase start
BENCH_DIR=$(allocate_numbered_dir bench-warm)
ops=() mix=("get:100" "get:70,put:30")
for ((p = 0; p < points; p++)); do ops+=("${mix[p % 2]}"); done

# scenario MODE SECONDS: a sweep's scenario file
scenario() {
  local file=$BENCH_DIR/$1-$2.properties
  {
    echo "sweep.name = bench-warm-$1"
    echo "sweep.injectors = 1"
    echo "sweep.threads = $threads"
    local joined
    joined=$(IFS='|'; echo "${ops[*]}")
    echo "sweep.operations = ${joined//|/ | }"
    echo "sweep.duration = $2"
    echo "sweep.warmup = off"
    echo "session.workers = $1"
  } > "$file"
  echo "$file"
}

# sweep MODE ROUND: one sweep, its rows appended to rows.csv
sweep() {
  local mode=$1 round=$2 log=$BENCH_DIR/round$2-$1.log sweep_dir run point=0
  info "round $round: $mode workers (${points} points of ${seconds}s)"
  "$SUITE_ROOT/suite" sweep "$(scenario "$mode" "$seconds")" > "$log" 2>&1 || die "the $mode sweep of round $round failed (log: $log)"
  sweep_dir=$(sed -n 's/^\(sweep-[0-9]*\) complete in .*/\1/p' "$log" | tail -1)
  [[ -n $sweep_dir ]] || die "no sweep in $log"
  sweep_dir=$SUITE_RUNS_DIR/$sweep_dir
  for run in $(jq -r '.runs[].run' "$sweep_dir/report/report.json"); do
    point=$((point + 1))
    jq -r --arg mode "$mode" --argjson round "$round" --argjson point "$point" \
      --slurpfile cpu "$SUITE_RUNS_DIR/$run/cpu.json" --slurpfile sweep "$sweep_dir/sweep.json" '
      .runs[] | select(.run == $ARGS.named.run) |
      [$round, $mode, $point, .run, .workload.operations,
       ($cpu[0].roles.worker.jit_s), ($cpu[0].roles.worker.cpu_s),
       (.steady_state.time_to_steady_s // "NA"),
       ([.tests[].count] | add), .window.window_s,
       ((.cpu.roles[] | select(.role == "worker")).us_per_request),
       $sweep[0].time.wall_s, $sweep[0].time.outside_load_share] | @csv' \
      --arg run "$run" "$sweep_dir/report/report.json" >> "$BENCH_DIR/rows.csv"
  done
  info "  $(basename "$sweep_dir"): $(jq -r '.time | "\(.wall_s) s, \(.outside_load_share * 100 | round)% outside the load"' "$sweep_dir/sweep.json")"
}

echo '"round","mode","point","run","workload","worker_jit_s","worker_cpu_s","time_to_steady_s","window_requests","window_s","worker_us_per_request","sweep_wall_s","sweep_outside_load_share"' > "$BENCH_DIR/rows.csv"
info "bench warm: $rounds round(s), $points points of ${seconds}s, $threads threads; $BENCH_DIR"
info "warming HBase first (one warm sweep of 10 s points, not counted)"
"$SUITE_ROOT/suite" sweep "$(scenario warm 10)" > "$BENCH_DIR/hbase-warmup.log" 2>&1 || die "the HBase warm-up sweep failed (log: $BENCH_DIR/hbase-warmup.log)"
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then sweep fresh "$r"; sweep warm "$r"; else sweep warm "$r"; sweep fresh "$r"; fi
done
Rscript "$SUITE_ROOT/bench/warm-summary.R" "$BENCH_DIR/rows.csv"
