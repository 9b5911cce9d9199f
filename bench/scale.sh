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
info ""
info "$(basename "$SWEEP_DIR"): ${SECONDS_PER_RUN}s per run, $BENCH_INJECTORS injectors, this machine: $(nproc) cores shared with HBase, $((SECONDS - started))s"
# the tables, and bench-scale.csv, from the runs' folders (exit 1: no run completed)
Rscript "$SUITE_ROOT/bench/scale-summary.R" "$SWEEP_DIR" | indent \
  || die "no run of the scale benchmark completed (the sweep's output: $SWEEP_DIR/sweep.log)"
