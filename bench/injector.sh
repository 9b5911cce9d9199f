#!/usr/bin/env bash
# Injector overhead benchmark: does the Grinder direct-target run keep up with the same load
# engine run by plain Java threads (PlainJavaLoad: the worker's Driver, clients, keys, mix and
# witness, minus Grinder and Jython)? Both read one properties file per round, so they make the
# same calls against the same embedded HBase and table, with the same thread count and mix,
# alternated in one invocation (J G G J J G ...) so drift on a shared machine cancels out.
# Prints each round and the ratio of medians; exits 1 when Grinder/Java < BENCH_MIN_RATIO.
# Also prints client CPU per request (user+sys of the client's processes over every request
# it made, warm-up included): on a machine shared with HBase, injector CPU is what the tool
# takes from the server, and it is steadier than throughput when neighbours are noisy.
#   BENCH_ROUNDS (3) BENCH_THREADS (8) BENCH_SECONDS (20, measured) BENCH_WARMUP (10: the Grinder worker JIT-compiles Jython and instrumented code longer than the plain loop)
#   BENCH_MIX (get:70,put:30: any hbaseload.operations mix) BENCH_MIN_RATIO (0.90)
set -euo pipefail
SUITE_ME="suite bench injector"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/runs.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/run-properties.sh"

ROUNDS=${BENCH_ROUNDS:-3}
THREADS=${BENCH_THREADS:-8}
SECONDS_MEASURED=${BENCH_SECONDS:-20}
WARMUP=${BENCH_WARMUP:-10}
MIX=${BENCH_MIX:-get:70,put:30}
MIN_RATIO=${BENCH_MIN_RATIO:-0.90}

"$SUITE_ROOT/suite" hbase start
"$SUITE_ROOT/suite" prepare

out_dir=$(allocate_run_dir)
results=$out_dir/bench-injector.csv
echo "round,client,requests,throughput_rps,cpu_us_per_request" > "$results"
info "injector benchmark: $ROUNDS rounds x (plain Java, Grinder), $THREADS threads, $MIX, ${WARMUP}s warm-up + ${SECONDS_MEASURED}s measured ($out_dir)"

# CHILD_CPU = CPU seconds (user+sys) of every finished child of this shell so far. `times`
# must run in this shell, not in a $(...) subshell, which has no children of its own yet.
read_children_cpu() {
  times > "$out_dir/.times"
  CHILD_CPU=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$out_dir/.times")
}

# The round's properties, for both clients: the Grinder run's exact grinder.properties (its
# log folder, threads, duration, mix), which PlainJavaLoad reads too (hbaseload.* and
# grinder.threads; its warm-up and measured seconds are given as options).
write_round_properties() {
  local round=$1
  write_run_properties "$SUITE_ROOT/grinder.properties" "$out_dir/round-$round.properties" "$out_dir/grinder-$round" \
    "grinder.processes = 1" "grinder.threads = $THREADS" "grinder.runs = 0" \
    "grinder.duration = $(( (WARMUP + SECONDS_MEASURED) * 1000 + 500 ))" "hbaseload.operations = $MIX"
}

java_round() {
  local round=$1 line cpu_before cpu
  read_children_cpu; cpu_before=$CHILD_CPU
  run_worker_java PlainJavaLoad "$out_dir/round-$round.properties" --warmup-seconds "$WARMUP" \
    --seconds "$SECONDS_MEASURED" > "$out_dir/java-$round.out" 2>> "$out_dir/java.err"
  read_children_cpu
  cpu=$(awk -v a="$cpu_before" -v b="$CHILD_CPU" 'BEGIN { print b - a }')
  line=$(grep '^plain-java:' "$out_dir/java-$round.out" || true)
  [[ -n $line ]] || die "the plain Java loop printed no result: $(tail -1 "$out_dir/java.err") (log: $out_dir/java.err)"
  grep -q ' errors=0$' <<< "$line" || die "the plain Java loop had errors: $line"
  local requests rps all
  read -r requests rps all < <(sed -E 's/.* requests=([0-9]+) throughput_rps=([0-9.]+) .* all=([0-9]+) .*/\1 \2 \3/' <<< "$line")
  echo "$requests $rps $(awk -v c="$cpu" -v n="$all" 'BEGIN { printf "%.1f", c * 1e6 / n }')"
}

grinder_round() {
  local round=$1 log_dir=$out_dir/grinder-$1 cpu_before cpu
  read_children_cpu; cpu_before=$CHILD_CPU
  "$SUITE_ROOT/injectors/local-agent.sh" "$out_dir/round-$round.properties" "$log_dir" \
    $((WARMUP + SECONDS_MEASURED + 90)) > "$out_dir/grinder-$round.out"
  read_children_cpu
  cpu=$(awk -v a="$cpu_before" -v b="$CHILD_CPU" 'BEGIN { print b - a }')
  # Requests started in [first start + warm-up, + measured seconds) and finished inside it, read
  # by the report's own data-log reader: "in_window errors all"
  local in_window errors all
  read -r in_window errors all < <(Rscript "$SUITE_ROOT/r-analysis/peers.R" --window "$log_dir" "$WARMUP" "$SECONDS_MEASURED") \
    || die "the Grinder round's data logs could not be read (log folder: $log_dir)"
  ((errors == 0)) || die "the Grinder round had $errors errors (log folder: $log_dir)"
  awk -v n="$in_window" -v span="$SECONDS_MEASURED" -v cpu="$cpu" -v all="$all" 'BEGIN { printf "%d %.1f %.1f\n", n, n / span, cpu * 1e6 / all }'
}

for ((round = 1; round <= ROUNDS; round++)); do
  write_round_properties "$round"
  if ((round % 2)); then order=(java grinder); else order=(grinder java); fi
  for client in "${order[@]}"; do
    read -r requests rps cpu_us < <("${client}_round" "$round")
    echo "$round,$client,$requests,$rps,$cpu_us" >> "$results"
    info "  round $round: $client $rps requests/s ($requests requests), client CPU $cpu_us us/request"
  done
done

# medians over the rounds and the ratio (exit 1 when Grinder is below BENCH_MIN_RATIO of plain Java)
Rscript "$SUITE_ROOT/r-analysis/peers.R" --injector "$results" "$MIN_RATIO" | indent \
  || die "Grinder reached less than $MIN_RATIO of the plain Java loop ($results)"
