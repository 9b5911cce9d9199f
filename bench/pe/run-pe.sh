#!/usr/bin/env bash
# HBase's PerformanceEvaluation against the embedded HBase (its ZooKeeper port follows
# SUITE_PORT_OFFSET), as threads in one JVM with one shared connection, 1000-byte values.
# The log starts with a "# pe: ARGS" line, so a parser knows the rows and cycles asked for.
#   bench/pe/run-pe.sh LOG PE_ARGS...      e.g. LOG --table=t --rows=12500 --cycles=3 randomRead 8
set -euo pipefail
SUITE_ME="run-pe"
source "$(dirname "${BASH_SOURCE[0]}")/../../suite.d/common.sh"
[[ $# -ge 2 ]] || { echo "usage: bench/pe/run-pe.sh LOG PE_ARGS..." >&2; exit 2; }
log=$1; shift
[[ -s $SUITE_LIB/hbase-pe.classpath ]] || die "lib/hbase-pe.classpath is missing: run ./suite setup"
printf '# pe: %s\n' "$*" > "$log"
# In the bench's lab (bench/peers.sh exports its split): PE is a peer on the client CPUs, as the suite's injectors are.
if [[ -n ${LAB_CLIENT_CPUS:-} ]]; then
  source "$SUITE_ROOT/suite.d/lab.sh"
  lab_join peer $$
fi
# shellcheck disable=SC2086  # PE_JAVA_OPTS: extra JVM options (words), e.g. a profiler
exec "$JAVA" -Xmx1g ${PE_JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED \
  -cp "$SUITE_ROOT/bench/pe:$(classpath_of hbase-pe):$(classpath_of hbase-server)" \
  org.apache.hadoop.hbase.PerformanceEvaluation \
  -Dhbase.zookeeper.quorum=127.0.0.1 "-Dhbase.zookeeper.property.clientPort=$PORT_ZK" \
  --nomapred --oneCon=true --valueSize=1000 "$@" >> "$log" 2>&1 < /dev/null
