#!/usr/bin/env bash
# ./suite bench [NAME ...]: benchmarks. Targets are ratios measured side by side in one
# invocation (this machine is shared and noisy), never absolute times in unit tests.
#   peers     ./suite run against HBase's PerformanceEvaluation, with client CPU (suite.d/bench-peers.sh)
#   injector  Grinder direct target vs a plain Java loop (suite.d/bench-injector.sh)
#   shim      thrift-shim vs HBase's thrift2 gateway vs direct (thrift-shim/bench.sh)
#   report    report.R on 10 million requests (r-analysis/bench/bench-report.sh)
#   scale     the reference shape: 4 injectors, 300 and 600 threads (suite.d/bench-scale.sh)
set -euo pipefail
SUITE_ME="suite bench"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

declare -A BENCHES=(
  [peers]=$SUITE_ROOT/suite.d/bench-peers.sh
  [injector]=$SUITE_ROOT/suite.d/bench-injector.sh
  [shim]=$SUITE_ROOT/thrift-shim/bench.sh
  [report]=$SUITE_ROOT/r-analysis/bench/bench-report.sh
  [scale]=$SUITE_ROOT/suite.d/bench-scale.sh
)
ORDER=(peers injector shim report scale)

# ./suite bench                 every benchmark with its defaults
# ./suite bench NAME [OPTIONS]  one benchmark; its options (./suite bench NAME --help) pass through
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  echo "usage: ./suite bench [NAME [OPTIONS...]]   NAME: ${ORDER[*]} (all when none; NAME --help for its options)"
  exit 0
fi
names=("${ORDER[@]}") options=()
if (($#)); then names=("$1") options=("${@:2}"); fi
[[ -n ${BENCHES[${names[0]}]:-} ]] || die "unknown benchmark '${names[0]}' (accepted: ${ORDER[*]})"

failed=()
for name in "${names[@]}"; do
  script=${BENCHES[$name]}
  info "== bench $name"
  if [[ ! -x $script ]]; then
    info "  not available in this checkout (${script#"$SUITE_ROOT"/} is missing)"
    failed+=("$name")
    continue
  fi
  "$script" "${options[@]}" || failed+=("$name")
done
((${#failed[@]} == 0)) || die "benchmarks missing or below target: ${failed[*]}"
