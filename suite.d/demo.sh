#!/usr/bin/env bash
# ./suite demo: the main job in one command. Set up, start the embedded HBase (with HBase's
# thrift2 gateway) and the thrift-shim, prepare the table, then one sweep orchestrated by the
# Grinder console over 2 local injector hosts: get, put and the 70/30 mix, directly through the
# HBase Java client and through the shim, every request timed by the nanoTime witness; then
# the comparison report (runs/sweep-N/report/index.html) and a summary table here.
#   DEMO_SECONDS (15 per run) DEMO_THREADS (8 in total, split over the 2 injectors)
set -euo pipefail
SUITE_ME="suite demo"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DEMO_THREADS=${DEMO_THREADS:-8}
DEMO_SECONDS=${DEMO_SECONDS:-15}

[[ $# -eq 0 ]] || die "demo takes no arguments (DEMO_THREADS and DEMO_SECONDS adjust it)"

"$SUITE_ROOT/suite" setup
"$SUITE_ROOT/suite" hbase start
"$SUITE_ROOT/suite" shim start
"$SUITE_ROOT/suite" prepare

scenario=$(mktemp /tmp/suite-demo.XXXXXX.properties)
trap 'rm -f "$scenario"' EXIT
cat > "$scenario" <<SCENARIO
# The demo: 2 injectors, get / put / 70-30 mix, direct and through the thrift-shim (port 9092,
# moved by SUITE_PORT_OFFSET like every embedded port).
sweep.name = demo
sweep.injectors = 2
sweep.threads = $DEMO_THREADS
sweep.operations = get:100 | put:100 | get:70,put:30
sweep.variants = hbaseload.target=direct | hbaseload.target=thrift;hbaseload.thrift.port=9092
sweep.duration = $DEMO_SECONDS
SCENARIO

sweep_log=$(mktemp /tmp/suite-demo.XXXXXX.log)
"$SUITE_ROOT/suite" sweep "$scenario" | tee "$sweep_log"
sweep_id=$(sed -n 's/^\(sweep-[0-9]*\) complete in .*/\1/p' "$sweep_log" | tail -1)
rm -f "$sweep_log"
[[ -n $sweep_id ]] || die "the sweep did not complete"

info ""
info "$sweep_id: $DEMO_THREADS threads on 2 injectors, ${DEMO_SECONDS}s per run"
# The report's verdict first, then one line per run and test (throughput in brackets where the
# verdict greys it: on this one machine the injectors share HBase's CPU).
"$SUITE_ROOT/suite" report --quiet --table "$sweep_id" | sed 's/^report.R: //'
summary=$SUITE_RUNS_DIR/$sweep_id/report/summary.csv
[[ -s $summary ]] || die "the report wrote no $summary"
errors=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { e += $c["errors"] } END { print e + 0 }' "$summary")
((errors == 0)) || die "$errors requests failed (see $SUITE_RUNS_DIR/$sweep_id/report/index.html)"
