# shellcheck shell=bash
# End-to-end test of the local cluster (issue 24 part 1): ./suite hbase start --regionservers 2 on a
# data folder and port offset of its own (beside the private standalone HBase of the other tests),
# both region servers live as the master counts them, rows written and read back by a client that
# finds the cluster through ZooKeeper only (tests/e2e/ClusterRoundTrip.java), then stop: no process
# left. 80 s at a load average of 7, 99 s at 15 (start 57 s, round trip 18 s, stop 21 s), most of it
# the JVMs starting. Its data folder is not named hbase-*: the private HBase's PID check matches
# command lines by the prefix -Dhbase.local.dir=$TEST_LOGS/hbase. Sourced by libexec/suite-test. Entry point:
# run_cluster_tests.

# The cluster's offset: 200 above the tests' own (the port-taken tests use +100).
CLUSTER_TEST_OFFSET=${SUITE_CLUSTER_TEST_PORT_OFFSET:-$((SUITE_PORT_OFFSET + 200))}

# Run ./suite ARGS against the test cluster (bounded by SECONDS); output in $TEST_LOGS/NAME.log, OUT, RC.
cluster_suite() {
  local name=$1 bound=$2; shift 2
  SUITE_PORT_OFFSET=$CLUSTER_TEST_OFFSET HBASE_LOCAL_DIR=$TEST_LOGS/cluster-hbase \
    run_logged "$name" "$bound" "$SUITE_ROOT/suite" "$@"
}

run_cluster_tests() {
  local dir=$TEST_LOGS/cluster-hbase zk pids left started=$SECONDS
  # shellcheck disable=SC2016  # expanded by the inner bash, with the cluster's offset
  zk=$(SUITE_PORT_OFFSET=$CLUSTER_TEST_OFFSET bash -c 'source "$SUITE_ROOT/suite.d/common.sh"; echo "$PORT_ZK"')
  cluster_suite cluster-start 240 hbase start --regionservers 2
  if ((RC != 0)); then
    fail "hbase cluster: start --regionservers 2 failed: $(tail -1 <<< "$OUT") (log: $TEST_LOGS/cluster-start.log)"
    cluster_suite cluster-stop 120 hbase stop
    return
  fi
  pids=$(cat "$dir"/pids/*.pid)
  cluster_suite cluster-status 30 hbase status
  if ((RC == 0)) && grep -q '^the master counts 2 live region servers of 2 (0 dead)' <<< "$OUT" \
      && (($(grep -cE '^HBase (zookeeper|master|regionserver-[12]): running, pid [0-9]+' <<< "$OUT") == 4)); then
    pass "hbase cluster: ZooKeeper, master and 2 region servers running, the master counts 2 live"
  else
    fail "hbase cluster: status rc $RC: $(paste -sd'|' <<< "$OUT")"
  fi
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  run_logged cluster-roundtrip 90 "$JAVA" $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" -cp "$(worker_classpath):$(grinder_classpath)" \
    "$SUITE_ROOT/tests/e2e/ClusterRoundTrip.java" "$zk" e2e_cluster 400 4
  local line
  line=$(grep -E '^rows=' <<< "$OUT" | tail -1)
  if ((RC == 0)) && [[ $line == "rows=400 intact=400 scanned=400 regions=4 servers=2" ]]; then
    pass "hbase cluster: 400 rows written and read back through ZooKeeper, 4 regions on both region servers"
  else
    fail "hbase cluster: round trip rc $RC: ${line:-$(tail -1 <<< "$OUT")} (log: $TEST_LOGS/cluster-roundtrip.log)"
  fi
  cluster_suite cluster-stop 120 hbase stop
  # shellcheck disable=SC2086  # pids: one number per line
  left=$(for pid in $pids; do kill -0 "$pid" 2> /dev/null && echo "$pid"; done; pgrep -f "hbase.local.dir=$dir" || true)
  if ((RC == 0)) && [[ -z $left ]]; then
    pass "hbase cluster: stop leaves no process ($((SECONDS - started))s in all)"
  else
    fail "hbase cluster: stop rc $RC, processes left: ${left:-none} ($(tail -1 <<< "$OUT"))"
    # shellcheck disable=SC2086
    [[ -z $left ]] || kill -KILL $left 2> /dev/null
  fi
}
