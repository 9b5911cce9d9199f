#!/usr/bin/env bash
# ./suite bench peers: the suite's own run path (./suite run: console, agent, worker, 1 injector)
# against HBase's PerformanceEvaluation (PE) on the same embedded HBase, get and put, at several
# thread counts, interleaved (the two tools swap places every pair, every round), so that a
# noisy, shared machine drifts under both alike. Each tool runs under bench/cpu-meter.sh, so
# its client CPU counts every process it starts. Results: runs/bench-peers-N/ (PE logs, cpu
# files, the rounds) and bench/results/<date>-bench-peers-N.{md,csv} (r-analysis/peers.R).
set -euo pipefail
SUITE_ME="suite bench peers"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/suite.d/runs.sh"
source "$SUITE_ROOT/suite.d/lab.sh"

USAGE="usage: ./suite bench peers [--quick] [--rounds N] [--threads 1,4,8,16] [--ops get,put] [--seconds S] [--lab shared|isolated|both] [--settle on|off] [--variant NAME:KEY=VALUE]..."
help() {
  cat <<EOF
$USAGE
  --quick        one thread count (8), one round: a smoke check in a few minutes
  --rounds N     interleaved rounds (default 3; medians need at least 3)
  --threads L    thread counts, comma-separated (default 1,4,8,16)
  --ops L        operations: get (PE randomRead) and/or put (PE randomWrite, autoFlush on)
  --seconds S    seconds per run (default 30; PE runs a row count chosen to last about as long)
  --lab L        shared (default): every process on every CPU, as PE's users run it; isolated: HBase
                 on the lab's server CPUs, PE and the suite both on its client CPUs (lab.cpus =
                 auto); both: each pair of runs in both labs, interleaved, each ratio per lab
  --settle S     on (default): before every run, flush both tables and wait until HBase compacts
                 nothing (lifecycle table-settle), so that no run pays for the memstore and the
                 compactions the runs before it left; off: the tables as the last run left them
  --variant NAME:KEY=VALUE
                 also run the suite with this property set (repeat the option for more keys of
                 one variant, or for more variants): a change measured against PE and the
                 default in the same rounds, e.g. --variant c1:grinder.jvm.arguments='...'
Both tools read and write a table of 100,000 rows of 1000 bytes in 8 regions (the suite's
'peers', PE's 'peers_pe'), 1 connection per process, a closed loop. Exit 1 when a target is
missed (see the results file: throughput ratio, client CPU ratio, off-timer gap).
EOF
}

ROUNDS=3 THREADS_LIST=1,4,8,16 OPS_LIST=get,put SECONDS_PER_RUN=30 LABS=(shared) SETTLE=on
TOOLS=(pe suite)
declare -A VARIANT_SETS=()
while (($#)); do
  case $1 in
    -h | --help) help; exit 0 ;;
    --quick) ROUNDS=1 THREADS_LIST=8; shift; continue ;;
  esac
  case $1 in
    --rounds | --threads | --ops | --seconds | --variant | --lab | --settle) [[ $# -ge 2 ]] || usage_error "$1 needs a value ($USAGE)" ;;
    *) usage_error "unknown argument '$1' ($USAGE)" ;;
  esac
  case $1 in
    --rounds) [[ $2 =~ ^[1-9][0-9]?$ ]] || usage_error "--rounds '$2' is not a whole number from 1 to 99"; ROUNDS=$2 ;;
    --threads) [[ $2 =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage_error "--threads '$2' is not a comma-separated list of thread counts"; THREADS_LIST=$2 ;;
    --ops) [[ $2 =~ ^(get|put)(,(get|put))*$ ]] || usage_error "--ops '$2' is not accepted (accepted: get, put, get,put)"; OPS_LIST=$2 ;;
    --seconds) [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--seconds '$2' is not a whole number > 0"; SECONDS_PER_RUN=$2 ;;
    --lab)
      case $2 in
        shared | isolated) LABS=("$2") ;;
        both) LABS=(shared isolated) ;;
        *) usage_error "--lab '$2' is not accepted (accepted: shared, isolated, both)" ;;
      esac ;;
    --settle) [[ $2 == on || $2 == off ]] || usage_error "--settle '$2' is not accepted (accepted: on, off)"; SETTLE=$2 ;;
    --variant)
      [[ $2 =~ ^([a-z0-9-]+):([A-Za-z][A-Za-z0-9._-]*=.*)$ ]] || usage_error "--variant '$2' is not NAME:KEY=VALUE (NAME: a-z, 0-9, -)"
      name=${BASH_REMATCH[1]}
      [[ -n ${VARIANT_SETS[$name]:-} ]] || TOOLS+=("suite-$name")
      VARIANT_SETS[$name]+="${BASH_REMATCH[2]}"$'\n' ;;
    *) usage_error "unknown argument '$1' ($USAGE)" ;;
  esac
  shift 2
done
IFS=, read -r -a THREADS <<< "$THREADS_LIST"
IFS=, read -r -a OPS <<< "$OPS_LIST"
require_setup
[[ -s $SUITE_LIB/hbase-pe.classpath ]] || die "lib/hbase-pe.classpath is missing: run ./suite setup"

ROWS=100000
PE_TABLE=peers_pe
declare -A PE_COMMAND=([get]=randomRead [put]=randomWrite)

# HBase: use the running one, or start it and stop it again at the end.
STARTED_HBASE=0
if ! "$SUITE_ROOT/suite" hbase status > /dev/null 2>&1; then
  "$SUITE_ROOT/suite" hbase start
  STARTED_HBASE=1
fi
BENCH_DIR=$(allocate_numbered_dir bench-peers)
cleanup() {
  local rc=$?
  if ((STARTED_HBASE)); then "$SUITE_ROOT/suite" hbase stop > "$BENCH_DIR/hbase-stop.log" 2>&1 || true; fi
  exit "$rc"
}
trap cleanup EXIT
HBASE_PID=$(cat "$HBASE_LOCAL_DIR/pids/master.pid")

# CPU seconds the HBase JVM has used so far (its server cost per request, beside the client's).
hbase_cpu_s() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); split($0, f, " "); printf "%.3f", (f[12] + f[13]) / hz }' "/proc/$HBASE_PID/stat"
}

# PE through its runner (its log starts with the arguments, for the parser; it joins the lab's
# peer role by LAB_SERVER_CPUS and LAB_CLIENT_CPUS, which use_lab exports).
pe() {
  "$SUITE_ROOT/bench/pe/run-pe.sh" "$1" "--table=$PE_TABLE" "${@:2}"
}

# The lab of the next runs: shared (lab.cpus = off) or isolated (auto). HBase follows at once (its
# cgroup's CPUs change); PE is placed by pe(), the suite's runs by their own lab.cpus.
use_lab() {
  LAB=$1
  lab_resolve "$([[ $LAB == shared ]] && echo off || echo auto)"
  lab_prepare
  lab_join_servers
  export LAB_SERVER_CPUS LAB_CLIENT_CPUS
}

# A CPU sampler of the bench's own beside a PE run (roles by command line, this checkout's
# processes): PE's JIT and GC threads, as the suite's runs record theirs in cpu.csv.
start_pe_sampler() {
  # shellcheck disable=SC2086  # SAMPLERS_JVM_OPTS is a list of words
  "$JAVA" $SAMPLERS_JVM_OPTS -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle)" \
    io.github.hbasegrindersuite.lifecycle.cpu.CpuSampler --out "$1.csv" --notes "$1.json" --max-seconds 3600 \
    --clock-ticks "$(getconf CLK_TCK)" --mark "$SUITE_ROOT" > "$1.out" 2>&1 < /dev/null &
  PE_SAMPLER_PID=$!
}

# PE arguments for OP at THREADS over the table's ROWS, CYCLES times through them.
pe_args() {
  local op=$1 threads=$2 cycles=$3 extra=()
  [[ $op == put ]] && extra=(--autoFlush=true)
  echo "${extra[*]} --rows=$((ROWS / threads)) --cycles=$cycles ${PE_COMMAND[$op]} $threads"
}

# Operations per second of a finished PE log: every client's rows x cycles over the longest client.
pe_rate() {
  Rscript "$SUITE_ROOT/r-analysis/peers.R" --pe-rate "$1"
}

info "bench peers: ${TOOLS[*]}; ${OPS[*]} at ${THREADS[*]} threads, $ROUNDS round(s) of ${SECONDS_PER_RUN}s runs, PE against ./suite run ($BENCH_DIR)"
started=$SECONDS

# The suite's table and PE's, both 100k rows of 1000 bytes in 8 regions.
{ cat "$SUITE_ROOT/grinder.properties"; printf '\nhbaseload.table = peers\nhbaseload.rows = %s\nhbaseload.regions = 8\n' "$ROWS"; } > "$BENCH_DIR/peers.properties"
"$SUITE_ROOT/suite" prepare --properties "$BENCH_DIR/peers.properties" > "$BENCH_DIR/prepare.log" 2>&1 \
  || die "preparing the suite's table failed: $(tail -1 "$BENCH_DIR/prepare.log")"
pe "$BENCH_DIR/pe-load.log" --presplit=8 --autoFlush=false "--rows=$((ROWS / 8))" sequentialWrite 8 \
  || die "loading PE's table failed (log: $BENCH_DIR/pe-load.log)"
progress "$started" "tables ready: 'peers' and '$PE_TABLE', $ROWS rows each"

use_lab "${LABS[0]}"
# PE runs a row count, not a duration: one pass over the table per cycle. A calibration pass per
# operation and thread count (also HBase's warm-up) gives the cycles that last SECONDS_PER_RUN;
# every measured PE run corrects them (a cold calibration runs slower than a warm round).
declare -A CYCLES=()
cycles_for() {
  awk -v r="$1" -v s="$SECONDS_PER_RUN" -v n="$ROWS" 'BEGIN { c = int(r * s / n + 0.5); print (c < 1 ? 1 : c) }'
}
for op in "${OPS[@]}"; do
  for threads in "${THREADS[@]}"; do
    log=$BENCH_DIR/pe-calibrate-$op-$threads.log
    # shellcheck disable=SC2046  # pe_args prints words
    pe "$log" $(pe_args "$op" "$threads" 1) || die "PE failed during calibration (log: $log)"
    rate=$(pe_rate "$log") || die "cannot read PE's result from $log"
    CYCLES[$op-$threads]=$(cycles_for "$rate")
    progress "$started" "calibrated PE $op at $threads threads: $rate op/s -> ${CYCLES[$op-$threads]} pass(es) of $ROWS rows"
  done
done

source "$SUITE_ROOT/suite.d/samplers.sh"
echo "round,op,threads,lab,tool,ref,exit,cpu_file,hbase_cpu_s,wall_s,jit_file,settle_s" > "$BENCH_DIR/rounds.csv"

# --settle on: both tables flushed and no compaction left before a run (its seconds, else empty).
settle_tables() {
  local log=$BENCH_DIR/$1.settle.log t
  [[ $SETTLE == on ]] || return 0
  t=$(date +%s.%N)
  lifecycle table-settle --zookeeper-port "$PORT_ZK" --tables "peers,$PE_TABLE" --timeout 300 > "$log" 2>&1 \
    || die "the tables did not settle before $1: $(tail -1 "$log")"
  awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

# One measured run of TOOL; appends its row to rounds.csv.
measure() {
  local round=$1 op=$2 threads=$3 tool=$4 name ref rc=0 hbase_before wall_before jit_file settle_s
  name=$tool-$op-$threads-$LAB-r$round
  settle_s=$(settle_tables "$name")
  hbase_before=$(hbase_cpu_s); wall_before=$(date +%s.%N)
  if [[ $tool == pe ]]; then
    ref=$BENCH_DIR/$name.log
    jit_file=$BENCH_DIR/$name.threads
    start_pe_sampler "$jit_file"
    # shellcheck disable=SC2046  # pe_args prints words
    "$SUITE_ROOT/bench/cpu-meter.sh" "$BENCH_DIR/$name.cpu.csv" \
      "$SUITE_ROOT/bench/pe/run-pe.sh" "$ref" "--table=$PE_TABLE" $(pe_args "$op" "$threads" "${CYCLES[$op-$threads]}") || rc=$?
    stop_pid "$PE_SAMPLER_PID" 5 "PE's CPU sampler"
    jit_file=$jit_file.csv
  else
    local -a sets=()
    if [[ $tool == suite-* ]]; then
      mapfile -t sets < <(printf '%s' "${VARIANT_SETS[${tool#suite-}]}" | sed 's/^/--set\n/')
    fi
    "$SUITE_ROOT/bench/cpu-meter.sh" "$BENCH_DIR/$name.cpu.csv" "$SUITE_ROOT/suite" run \
      --properties "$BENCH_DIR/peers.properties" --threads "$threads" --duration "$SECONDS_PER_RUN" \
      --set "hbaseload.operations=$op:100" --set "lab.cpus=$([[ $LAB == shared ]] && echo off || echo auto)" \
      "${sets[@]}" > "$BENCH_DIR/$name.out" 2>&1 || rc=$?
    ref=$(sed -n 's/^\(run-[0-9]*\): .*/\1/p' "$BENCH_DIR/$name.out" | head -1)
    ref=$SUITE_RUNS_DIR/${ref:-missing}
    jit_file=$ref/cpu.csv
  fi
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$round" "$op" "$threads" "$LAB" "$tool" "$ref" "$rc" "$BENCH_DIR/$name.cpu.csv" \
    "$(awk -v a="$hbase_before" -v b="$(hbase_cpu_s)" 'BEGIN { printf "%.3f", b - a }')" \
    "$(awk -v a="$wall_before" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" "$jit_file" "$settle_s" >> "$BENCH_DIR/rounds.csv"
  ((rc == 0)) || info "  warning: $tool $op $threads threads round $round exited $rc (${ref})"
  if [[ $tool == pe && $rc == 0 ]] && rate=$(pe_rate "$ref"); then CYCLES[$op-$threads]=$(cycles_for "$rate"); fi
  progress "$started" "round $round: $tool $op at $threads threads ($LAB lab) done"
}

pair=0
for ((round = 1; round <= ROUNDS; round++)); do
  for op in "${OPS[@]}"; do
    for threads in "${THREADS[@]}"; do
      for lab in "${LABS[@]}"; do
        use_lab "$lab"
        # Who goes first rotates from one group to the next, so every tool takes every place.
        order=()
        for ((k = 0; k < ${#TOOLS[@]}; k++)); do order+=("${TOOLS[(k + pair + round) % ${#TOOLS[@]}]}"); done
        for tool in "${order[@]}"; do measure "$round" "$op" "$threads" "$tool"; done
        pair=$((pair + 1))
      done
    done
  done
done
use_lab shared

mkdir -p "$SUITE_ROOT/bench/results"
prefix=$SUITE_ROOT/bench/results/$(date -u +%Y-%m-%d)-${BENCH_DIR##*/}
# runs/ may have been emptied since an earlier result of the day took this number: never overwrite it
base=$prefix
for ((n = 2; n < 100; n++)); do [[ -e $prefix.md || -e $prefix.csv ]] || break; prefix=$base-$n; done
[[ $ROUNDS -eq 1 ]] && prefix=$BENCH_DIR/peers  # a single round is a smoke check, not a result to keep
Rscript "$SUITE_ROOT/r-analysis/peers.R" "$BENCH_DIR" --out "$prefix" \
  --command "./suite bench peers $(printf '%q ' "--rounds" "$ROUNDS" "--threads" "$THREADS_LIST" "--ops" "$OPS_LIST" "--seconds" "$SECONDS_PER_RUN" "--lab" "$([[ ${#LABS[@]} -gt 1 ]] && echo both || echo "${LABS[0]}")" "--settle" "$SETTLE")$(for v in "${!VARIANT_SETS[@]}"; do printf -- "--variant %q " "$v:${VARIANT_SETS[$v]%$'\n'}"; done)"
