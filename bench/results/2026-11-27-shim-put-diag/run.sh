#!/usr/bin/env bash
# Runs Diag (compiled into DIAG_CLASSES) with the benchmark client's JVM options, in the lab's worker
# role, as thrift-shim/bench.sh runs ShimBenchmark. Arguments: see Diag.main and ../2026-11-27-shim-put.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
export SUITE_PORT_OFFSET=${SUITE_PORT_OFFSET:-700}
# shellcheck source=../../../suite.d/common.sh
source suite.d/common.sh
# shellcheck source=../../../suite.d/lab.sh
source suite.d/lab.sh
mapfile -t JVM_OPTS < <(grep -vE '^\s*(#|$)' thrift-shim/jvm.options)
CP="${DIAG_CLASSES:-/tmp/wtshim700/diag/classes}:$SUITE_LIB/thrift-shim.jar:$SUITE_LIB/hbase-grinder-worker.jar:$(cat "$SUITE_LIB/thrift-shim.classpath")"
lab_resolve ""
lab_prepare
info "$(lab_describe)"
(lab_exec worker "$JAVA" -Xms1g -Xmx1g "${JVM_OPTS[@]}" "-Dlog4j.configuration=thrift-shim-log4j.properties" \
  -cp "$CP" io.github.hbasegrindersuite.shim.bench.Diag "$@")
