#!/usr/bin/env bash
# Usage: bench/server-metrics-ab.sh BEFORE_JAR AFTER_JAR [ROUNDS]
#   What the server-metrics sampler costs the embedded HBase: the sampler of each lifecycle jar
#   alone for 40 s against the running, idle HBase, then 40 s with none, ROUNDS (3) times in that
#   order; HBase's CPU ticks over each window (/proc/PID/stat) and the /jmx requests each sampler
#   made. Start HBase first (./suite hbase start) and keep load off it.
#   bench/results/2026-11-28-server-metrics-cost.md.
#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/suite.d/samplers.sh"
offer_help "${BASH_SOURCE[0]}" "$@"
[[ $# -ge 2 && -f $1 && -f $2 ]] || die "usage: bench/server-metrics-ab.sh BEFORE_JAR AFTER_JAR [ROUNDS] (two lifecycle jars)"
before=$1 after=$2 rounds=${3:-3}
[[ $rounds =~ ^[1-9][0-9]?$ ]] || die "ROUNDS '$rounds': a whole number from 1 to 99"
hbase=$(pgrep -f 'org.apache.hadoop.hbase.master.HMaster' | head -1) || die "no embedded HBase running (./suite hbase start)"
out=$(mktemp -d /tmp/server-metrics-ab.XXXXXX)
trap 'rm -rf "$out"' EXIT
ticks() { awk '{ print $14 + $15 }' "/proc/$hbase/stat"; }
sampler() {
  # shellcheck disable=SC2086  # SAMPLERS_JVM_OPTS is a list of words: the JVM a run's samplers get
  "$JAVA" $SAMPLERS_JVM_OPTS \
    -cp "$1:$(classpath_of lifecycle)" io.github.hbasegrindersuite.lifecycle.RunSamplers server-metrics \
    --out "$out/sm.csv" --notes "$out/sm.json" --max-seconds 40 "${@:2}" \
    --server "master=127.0.0.1:$PORT_MASTER_INFO" --server "regionserver=127.0.0.1:$PORT_REGIONSERVER_INFO" > "$out/sm.out" 2>&1
}
echo "round before_ticks after_ticks idle_ticks before_requests after_requests"
for ((r = 1; r <= rounds; r++)); do
  t0=$(ticks); sampler "$before"; t1=$(ticks); req_before=$(jq -r '.jmx_requests // "unknown"' "$out/sm.json")
  # a jar from before --clock-ticks refuses it: only the after jar gets it
  sampler "$after" --clock-ticks "$(getconf CLK_TCK)"; t2=$(ticks); req_after=$(jq -r '.jmx_requests // "unknown"' "$out/sm.json")
  sleep 40; t3=$(ticks)
  echo "$r $((t1 - t0)) $((t2 - t1)) $((t3 - t2)) $req_before $req_after"
done
