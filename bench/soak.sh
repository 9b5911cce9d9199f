#!/usr/bin/env bash
# Soak (./suite soak): moderate paced 70/30 load for a long time, half through the direct target
# and half through thrift (HBase's thrift2 gateway). The resident memory of every JVM the suite
# runs (console, agents, workers, HBase, the gateway) is sampled every 5 s, and the live heap of
# each but HBase's is measured after a full GC (jcmd GC.run, GC.heap_info) twice per phase: at
# the end of its warm-up (a quarter in) and 90% in. Passes when no live heap, and no RSS of the
# suite's own JVMs (console, agents, workers; warm-up end against the last quarter's peak), grew by
# SOAK_MAX_GROWTH_PCT and 4 MB or more, and both runs end complete (the finaliser has checked the
# data logs against the console's totals; a failed request or a silent second would make a run
# degraded). HBase's and its gateway's RSS is shown, not judged (their caches fill by design), and
# HBase's heap is not collected: a full GC of it would stall the load. The console and agents start
# with a small heap (SERVICE_HEAP_START): with the default one their RSS grew for 15 minutes as a
# 100 MB eden was first touched. Not part of ./suite test: it takes --minutes.
set -euo pipefail
SUITE_ME="suite soak"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

usage() {
  cat << EOF
usage: ./suite soak [--minutes N] [--threads N] [--rate R] [--injectors N]
  --minutes N    the whole soak, split between direct and thrift (default 30, at least 2)
  --threads N    threads per run (default 8)
  --rate R       requests per second per thread, paced (default 100: moderate, not saturating)
  --injectors N  injectors per run (default 2)
  Figures and the verdict: runs/soak-<time>/ (memory.csv: RSS every 5 s; heap.csv: live heap after a
  full GC; runs.csv; verdict.txt). Exit 1 when a target is missed.
EOF
}

MINUTES=30 THREADS=8 RATE=100 INJECTORS=2
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --minutes | --threads | --rate | --injectors)
      [[ $# -ge 2 ]] || usage_error "$1 needs a value (./suite soak --help)"
      case $1 in
        --minutes) MINUTES=$2 ;; --threads) THREADS=$2 ;; --rate) RATE=$2 ;; --injectors) INJECTORS=$2 ;;
      esac
      shift 2 ;;
    *) usage_error "unknown option '$1' (./suite soak --help)" ;;
  esac
done
if ! [[ $MINUTES =~ ^[0-9]+$ ]] || ((MINUTES < 2 || MINUTES > 1440)); then die "--minutes '$MINUTES' is not a whole number from 2 to 1440"; fi
if ! [[ $THREADS =~ ^[0-9]+$ ]] || ((THREADS < 1)); then die "--threads '$THREADS' is not a whole number > 0"; fi
if ! [[ $INJECTORS =~ ^[0-9]+$ ]] || ((INJECTORS < 1)); then die "--injectors '$INJECTORS' is not a whole number > 0"; fi
if ! [[ $RATE =~ ^[0-9]+([.][0-9]+)?$ && $RATE =~ [1-9] ]]; then die "--rate '$RATE' is not a number > 0"; fi

require_setup
"$SUITE_ROOT/suite" hbase start
SOAK_DIR=$SUITE_RUNS_DIR/soak-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$SOAK_DIR"
MEMORY=$SOAK_DIR/memory.csv
echo "phase,elapsed_s,role,pid,rss_kb" > "$MEMORY"
HEAP=$SOAK_DIR/heap.csv
echo "phase,elapsed_s,point,role,pid,live_kb" > "$HEAP"
PHASE_SECONDS=$((MINUTES * 60 / 2))
PROPS=$SOAK_DIR/soak.properties
{ cat "$SUITE_ROOT/grinder.properties"
  printf 'hbaseload.table = soak\nhbaseload.rows = 100000\nhbaseload.regions = 8\nhbaseload.value.size = 200\n'
  printf 'hbaseload.operations = get:70,put:30\nhbaseload.rate.per.thread = %s\n' "$RATE"; } > "$PROPS"
"$SUITE_ROOT/suite" prepare --properties "$PROPS"
info "soak: $MINUTES min ($PHASE_SECONDS s direct, then $PHASE_SECONDS s thrift), $THREADS threads x $RATE req/s, $INJECTORS injectors ($SOAK_DIR)"

RUN_PID=""
# A run started in the background of this script ignores SIGINT (bash sets that for background
# jobs without job control): TERM, which suite-run treats as an interrupt too.
cleanup() {
  [[ -z $RUN_PID ]] || ! pid_alive "$RUN_PID" || kill -TERM "$RUN_PID" 2> /dev/null || true
  [[ -z $RUN_PID ]] || wait "$RUN_PID" 2> /dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2> /dev/null || true; }

# The heap a JVM holds after a full collection, in KB: the "used" of every generation that
# GC.heap_info lists (one line for G1, two for the serial and parallel collectors).
live_heap_kb() {
  timeout 60 jcmd "$1" GC.run > /dev/null 2>&1 || return 0
  timeout 60 jcmd "$1" GC.heap_info 2> /dev/null \
    | awk '/total [0-9]+K, used [0-9]+K/ && !/Metaspace|class space/ { sub(/.*used /, ""); used += $0 + 0; n++ }
           END { if (n) print used }'
}

declare -A ROLES=()
# Every JVM of the run in RUN_DIR and HBase's, into ROLES (pid -> role).
find_jvms() {
  local run_dir=$1 pid host child
  ROLES=()
  if [[ -s $run_dir/console/console.pid ]]; then ROLES[$(cat "$run_dir/console/console.pid")]=console; fi
  for host in "$run_dir"/injectors/*/; do
    host=${host%/}; host=${host##*/}
    [[ -s $run_dir/injectors/$host/agent.pid ]] || continue
    pid=$(cat "$run_dir/injectors/$host/agent.pid")
    ROLES[$pid]="agent $host"
    for child in $(pgrep -P "$pid" 2> /dev/null || true); do ROLES[$child]="worker $host"; done
  done
  if [[ -s $HBASE_LOCAL_DIR/pids/master.pid ]]; then ROLES[$(cat "$HBASE_LOCAL_DIR/pids/master.pid")]=hbase; fi
  if [[ -s $HBASE_LOCAL_DIR/pids/thrift2.pid ]]; then ROLES[$(cat "$HBASE_LOCAL_DIR/pids/thrift2.pid")]="thrift2 gateway"; fi
  return 0
}

# One RSS sample of every JVM in ROLES: "phase,elapsed_s,role,pid,rss_kb" rows.
sample_memory() {
  local phase=$1 elapsed=$2 pid rss
  for pid in "${!ROLES[@]}"; do
    rss=$(rss_kb "$pid")
    if [[ -n $rss ]]; then echo "$phase,$elapsed,${ROLES[$pid]},$pid,$rss" >> "$MEMORY"; fi
  done
  return 0 # a process that has just ended is no sample, not a failure
}

# The live heap of every JVM in ROLES but HBase's, at POINT (warm or late).
sample_live_heap() {
  local phase=$1 elapsed=$2 point=$3 pid live
  for pid in "${!ROLES[@]}"; do
    [[ ${ROLES[$pid]} != hbase ]] || continue
    live=$(live_heap_kb "$pid")
    if [[ -n $live ]]; then echo "$phase,$elapsed,$point,${ROLES[$pid]},$pid,$live" >> "$HEAP"; fi
  done
  return 0
}

run_phase() {
  local target=$1 marker=$SOAK_DIR/$1.start run_dir="" started=$SECONDS rc=0 samples=0 elapsed points=""
  touch "$marker"
  "$SUITE_ROOT/libexec/suite-run" --properties "$PROPS" --injectors "$INJECTORS" --threads "$THREADS" \
    --duration "$PHASE_SECONDS" --set "hbaseload.target=$target" > "$SOAK_DIR/$target.log" 2>&1 &
  RUN_PID=$!
  # Bounded by the run's own bounds (its duration plus start and stop); sampled every 5 s.
  while pid_alive "$RUN_PID" && ((samples < PHASE_SECONDS / 5 + 200)); do
    [[ -n $run_dir ]] || run_dir=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' -newer "$marker" -type d | sort -V | tail -1)
    elapsed=$((SECONDS - started))
    if [[ -n $run_dir ]]; then
      find_jvms "$run_dir"
      sample_memory "$target" "$elapsed"
      if [[ $points != *warm* ]] && ((elapsed * 4 >= PHASE_SECONDS)); then
        sample_live_heap "$target" "$elapsed" warm; points+=" warm"
      elif [[ $points != *late* ]] && ((elapsed * 10 >= PHASE_SECONDS * 9)); then
        sample_live_heap "$target" "$elapsed" late; points+=" late"
      fi
    fi
    samples=$((samples + 1))
    if ((samples % 60 == 0)); then info "  ... soak $target: $((SECONDS - started)) s of $PHASE_SECONDS"; fi
    sleep 5
  done
  wait "$RUN_PID" || rc=$?
  RUN_PID=""
  echo "$target,${run_dir##*/},$rc,$(jq -r '.status + ": " + .reason' "$run_dir/manifest.json" 2> /dev/null)" >> "$SOAK_DIR/runs.csv"
  info "soak $target: ${run_dir##*/} ended (exit $rc): $(tail -1 "$SOAK_DIR/$target.log")"
}

echo "target,run,exit,outcome" > "$SOAK_DIR/runs.csv"
run_phase direct
run_phase thrift
trap - EXIT
Rscript "$SUITE_ROOT/bench/soak-verdict.R" "$SOAK_DIR" "${SOAK_MAX_GROWTH_PCT:-10}" | tee "$SOAK_DIR/verdict.txt"
