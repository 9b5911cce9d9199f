#!/usr/bin/env bash
# bench/shim-put-path/diag.sh: issue 25 part 3 diagnostics (not part of ./suite). Starts one shim
# per NAME=JAR (each from that thrift-shim.jar, the rest of its classpath from lib/), as bench.sh
# starts its shims (lab shim role, setsid, jvm.options), against the running embedded HBase, and
# runs ShimLoad.java through them in the lab's worker role, with the CPU (utime + stime) and
# context switches of every shim and of HBase per request. With PROFILE=1 each shim carries
# async-profiler (AP_LIB) and ShimLoad writes a collapsed CPU profile of each measured slice
# (OUT/OP-NAME-ROUND.collapsed; stages.py attributes it per request by stage). async-profiler from
# Maven Central: mvn dependency:copy -Dartifact=tools.profiler:async-profiler:4.0:jar:linux-x64
# -DoutputDirectory=/tmp/ap, then unzip it there (AP_LIB=/tmp/ap/linux-x64/libasyncProfiler.so).
#   bench/shim-put-path/diag.sh NAME=JAR[@shim.key=value...] [NAME=JAR...] -- [ShimLoad options]
#   e.g. diag.sh before=/tmp/main-thrift-shim.jar after=lib/thrift-shim.jar -- --op put --requests 8000 \
#          --warmup 40000 --rate 1000 --rounds 10 --together true
set -euo pipefail
SUITE_ME="shim-put-path diag"
# shellcheck source=../../suite.d/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../suite.d/common.sh"
# shellcheck source=../../suite.d/lab.sh
source "$SUITE_ROOT/suite.d/lab.sh"

OUT=${DIAG_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/shim-put-path.XXXXXX")}
mkdir -p "$OUT"
AP_LIB=${AP_LIB:-/tmp/ap/linux-x64/libasyncProfiler.so}
mapfile -t JVM_OPTS < <(grep -vE '^\s*(#|$)' "$SUITE_ROOT/thrift-shim/jvm.options")
shims=()
while (($#)) && [[ $1 != -- ]]; do shims+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
PIDS=()
declare -A PID_OF=()
# shellcheck disable=SC2317
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_pid "$pid" 20 "diag shim"; done
}
trap cleanup EXIT

lab_resolve ""
lab_prepare
lab_join_servers
for spec in "${shims[@]}"; do
  name=${spec%%=*} rest=${spec#*=}
  jar=${rest%%@*} own=()
  [[ $rest == *@* ]] && IFS=@ read -r -a own <<< "${rest#*@}"
  extra=()
  [[ ${PROFILE:-0} == 1 ]] && extra+=("-agentpath:$AP_LIB")
  (lab_exec shim setsid "$JAVA" -Xms1g -Xmx1g "${JVM_OPTS[@]}" "${extra[@]}" \
    -cp "$jar:$SUITE_LIB/hbase-grinder-worker.jar:$(classpath_of thrift-shim)" io.github.hbasegrindersuite.shim.ShimMain \
    shim.port=0 shim.metrics.port=0 "shim.ready.file=$OUT/$name.ready" \
    shim.hbase.zookeeper.quorum=127.0.0.1 "shim.hbase.zookeeper.port=$PORT_ZK" "${own[@]}") \
    > "$OUT/$name.out" 2>&1 < /dev/null &
  PIDS+=($!)
  PID_OF[$name]=$!
done
load_args=()
for spec in "${shims[@]}"; do
  name=${spec%%=*}
  for _ in $(seq 300); do [[ -s $OUT/$name.ready ]] && break; sleep 0.2; done
  [[ -s $OUT/$name.ready ]] || die "shim $name not ready: $(tail -2 "$OUT/$name.out")"
  load_args+=(--target "$name=$(sed -n 's/^port=//p' "$OUT/$name.ready")" --cpu "$name=${PID_OF[$name]}")
done
load_args+=(--cpu "hbase=$(pid_from_file "$HBASE_LOCAL_DIR/pids/master.pid")")
info "shims: $(for s in "${shims[@]}"; do printf '%s(pid %s) ' "${s%%=*}" "${PID_OF[${s%%=*}]}"; done); out $OUT"
# PROFILE=1: ShimLoad starts and stops async-profiler in the shim around each measured slice
# (OUT/OP-NAME-ROUND.collapsed), so a profile holds exactly that slice's requests.
if [[ ${PROFILE:-0} == 1 ]]; then
  export PROFILE_LIB=$AP_LIB PROFILE_DIR=$OUT
fi
# in a subshell: lab_exec execs, and this shell must live on to stop the shims (EXIT trap)
(lab_exec worker "$JAVA" -cp "$(classpath_of thrift-shim)" "$SUITE_ROOT/bench/shim-put-path/ShimLoad.java" "${load_args[@]}" "$@")
