#!/usr/bin/env bash
# ./suite demo: the main job in one command. Set up, start the embedded HBase, prepare the
# table, run a standalone Grinder agent (1 worker, 4 threads, 20 s, 70/30 get/put through
# the HBase Java client, nanoTime witness on every request) and summarise its data log.
set -euo pipefail
SUITE_ME="suite demo"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/runs.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run-properties.sh"

DEMO_THREADS=${DEMO_THREADS:-4}
DEMO_SECONDS=${DEMO_SECONDS:-20}

[[ $# -eq 0 ]] || die "demo takes no arguments (DEMO_THREADS and DEMO_SECONDS adjust it)"

"$SUITE_ROOT/suite" setup
"$SUITE_ROOT/suite" hbase start
"$SUITE_ROOT/suite" prepare

run_dir=$(allocate_run_dir)
log_dir=$run_dir/injectors/$(hostname)
mkdir -p "$log_dir"
write_run_properties "$SUITE_ROOT/grinder.properties" "$run_dir/grinder.properties" "$log_dir" \
  "grinder.processes = 1" "grinder.threads = $DEMO_THREADS" "grinder.runs = 0" \
  "grinder.duration = $((DEMO_SECONDS * 1000))" "grinder.useConsole = false"

info "running Grinder: 1 worker x $DEMO_THREADS threads for ${DEMO_SECONDS}s, get:70,put:30, direct ($run_dir)"
"$SUITE_ROOT/injectors/local-agent.sh" "$run_dir/grinder.properties" "$log_dir" $((DEMO_SECONDS + 90))

summary=$(summarise_data_logs "$run_dir")
read -r _ _ requests errors mean_ms witness_us < <(grep '^total' <<< "$summary") \
  || die "the data logs in $log_dir hold no requests"
for test_number in 1 2; do
  grep -q "^test $test_number " <<< "$summary" || die "test $test_number is missing from the data logs in $log_dir"
done
info "data log: $(find "$run_dir" -name '*-data.log' | head -1)"
info "summary: $requests requests in ${DEMO_SECONDS}s ($((requests / DEMO_SECONDS))/s), $errors errors, mean $mean_ms ms (witness ${witness_us} us)"
awk '$1 == "test" { name = ($2 == 1 ? "get" : $2 == 2 ? "put" : "test " $2);
     printf "  %-4s %9d requests, %d errors, mean %.3f ms, witness mean %.1f us\n", name, $3, $4, $5, $6 }' <<< "$summary"
((errors == 0)) || die "$errors requests failed (worker logs: $log_dir)"
