#!/usr/bin/env bash
# What the acknowledged-write audit costs per put: ROUNDS rounds (default 3) of the same put run
# without and with hbaseload.audit=true, alternating which goes first, against the running embedded
# HBase and an already prepared table (PROPERTIES). Prints per run, over its measured window (its
# report.json): puts/s, the puts' witness mean and p99, the worker's and HBase's CPU per put; for
# audited runs the audit log's bytes per put and the read-back's keys/s (audit.json). Not part of
# ./suite bench: a measurement for the audit's README figures.
# Usage: bench/audit-cost.sh PROPERTIES [ROUNDS] [SECONDS] [THREADS]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROPS=${1:?usage: bench/audit-cost.sh PROPERTIES [ROUNDS] [SECONDS] [THREADS]}
ROUNDS=${2:-3}
SECONDS_PER_RUN=${3:-20}
THREADS=${4:-4}
[[ -f $PROPS ]] || { echo "audit-cost: no properties file $PROPS" >&2; exit 1; }

one_run() {
  local audit=$1 out dir
  out=$("$ROOT/suite" run --properties "$PROPS" --threads "$THREADS" --duration "$SECONDS_PER_RUN" \
        --set hbaseload.operations=put:100 --set "hbaseload.audit=$audit" 2>&1) || { echo "audit-cost: run failed: $(tail -2 <<< "$out")" >&2; exit 1; }
  dir=$(sed -n 's/^run-[0-9]*: \(\/.*\)$/\1/p' <<< "$out" | head -1)
  # its report (a run writes one only with --slo; the figures are all this needs)
  [[ -f $dir/report/report.json ]] || Rscript "$ROOT/r-analysis/report.R" --quiet --no-plots "$dir" > /dev/null \
    || { echo "audit-cost: the report of $dir failed" >&2; exit 1; }
  # the run's report: the puts' witness (mean, nearest-rank p99) and each role's CPU per request,
  # over its measured window
  # shellcheck disable=SC2016  # jq filters
  jq -r --arg audit "$audit" --arg dir "$dir" '.runs[0] | (.tests[] | select(.test == "put")) as $p
    | (.cpu.roles | map({(.role): .us_per_request}) | add) as $cpu
    | "\($dir) audit=\($audit) puts=\($p.count) puts/s=\($p.throughput_rps | round) witness_mean_us=\($p.witness_mean_ms * 1000 | round) witness_p99_us=\($p.witness_p99_ms * 1000 | round) worker_cpu_us_per_put=\($cpu.worker | floor) hbase_cpu_us_per_put=\($cpu.hbase | floor)"' \
    "$dir/report/report.json" | tr -d '\n'
  if [[ -f $dir/audit.json ]]; then
    jq -r '" audit_bytes_per_put=\(.audit_log_bytes / .records * 100 | floor / 100) verify_s=\(.seconds) keys_per_s=\(.records / .seconds | floor) lost=\(.lost)"' "$dir/audit.json" | tr -d '\n'
  fi
  echo
}

for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2)); then one_run false; one_run true; else one_run true; one_run false; fi
done
