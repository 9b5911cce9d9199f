#!/usr/bin/env bash
# What the acknowledged-write audit costs per put: ROUNDS rounds (default 3) of the same put run
# without and with hbaseload.audit=true, alternating which goes first, against the running embedded
# HBase and an already prepared table (PROPERTIES). Prints per run: puts/s, witness mean and p99 of
# the puts (their data log), the worker's and HBase's CPU per put (cpu.json), and for audited runs
# the audit log's bytes per put and the read-back's keys/s (audit.json). Not part of ./suite bench:
# a measurement for the audit's README figures.
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
  # witness of the puts over the run (test 2): mean and nearest-rank p99, in us
  # shellcheck disable=SC2016  # awk programs
  find "$dir/injectors" -name '*-data.log' -print0 | xargs -0 awk -F', *' 'FNR == 1 { next } $3 == 2 && $6 == 0 { print $7 }' \
    | sort -n | awk -v audit="$audit" -v dir="$dir" -v s="$SECONDS_PER_RUN" '{ v[NR] = $1; sum += $1 }
        END { p99 = v[int(NR * 0.99 + 0.999999)]; printf "%s audit=%-5s puts=%d puts/s=%.0f witness_mean_us=%.0f witness_p99_us=%d", dir, audit, NR, NR / s, sum / NR, p99 }'
  # shellcheck disable=SC2016  # an awk program and jq filters
  jq -r --argjson n "$(find "$dir/injectors" -name '*-data.log' -print0 | xargs -0 awk -F', *' 'FNR > 1 && $3 == 2 && $6 == 0' | wc -l)" \
    '" worker_cpu_us_per_put=\(.roles.worker.cpu_s * 1e6 / $n | floor) hbase_cpu_us_per_put=\(.roles.hbase.cpu_s * 1e6 / $n | floor)"' "$dir/cpu.json" | tr -d '\n'
  if [[ -f $dir/audit.json ]]; then
    jq -r '" audit_bytes_per_put=\(.audit_log_bytes / .records * 100 | floor / 100) verify_s=\(.seconds) keys_per_s=\(.records / .seconds | floor) lost=\(.lost)"' "$dir/audit.json" | tr -d '\n'
  fi
  echo
}

for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2)); then one_run false; one_run true; else one_run true; one_run false; fi
done
