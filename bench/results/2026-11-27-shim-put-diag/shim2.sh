#!/usr/bin/env bash
# A second shim (defaults plus the given shim.key=value settings) in lab role $1 (shim: the server
# CPUs; worker: the client CPUs), on a free port; its ready file and pid in DIAG_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
export SUITE_PORT_OFFSET=${SUITE_PORT_OFFSET:-700}
# shellcheck source=../../../suite.d/common.sh
source suite.d/common.sh
# shellcheck source=../../../suite.d/lab.sh
source suite.d/lab.sh
dir=${DIAG_DIR:-/tmp/wtshim700/diag}
mapfile -t JVM_OPTS < <(grep -vE '^\s*(#|$)' thrift-shim/jvm.options)
lab_resolve ""
lab_prepare
rm -f "$dir/shim2.ready"
(lab_exec "$1" setsid "$JAVA" -Xms1g -Xmx1g "${JVM_OPTS[@]}" -cp "$SUITE_LIB/thrift-shim.jar:$(cat "$SUITE_LIB/thrift-shim.classpath")" \
  io.github.hbasegrindersuite.shim.ShimMain shim.port=0 shim.metrics.port=0 "shim.ready.file=$dir/shim2.ready" \
  shim.hbase.zookeeper.quorum=127.0.0.1 "shim.hbase.zookeeper.port=$((2181 + SUITE_PORT_OFFSET))" "${@:2}") \
  > "$dir/shim2.out" 2>&1 < /dev/null &
echo $! > "$dir/shim2.pid"
