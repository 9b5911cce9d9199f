# shellcheck shell=bash
# ./suite sweep's server variants (sweep.server.variants, sweep.server.regionservers): restart the
# embedded HBase with a variant's conf folder (written by lifecycle's SweepPlanner under the sweep
# folder) and region servers, have lifecycle read back what the region server runs with and spread
# the sweep's tables over the servers, and bring the HBase back to its normal configuration and
# size when the sweep ends, fails or is interrupted. Sourced by libexec/suite-sweep after
# common.sh; lifecycle (SweepSteps) decides when to restart, this only stops and starts processes.

SV_KEYS=""          # the overridden keys, comma-separated ("" = no server variants)
SV_CURRENT=""       # the conf folder the HBase runs with now ("" = its normal one)
SV_READ_BACK=""     # server-conf.json of the configuration running now
SV_RESTARTED=0      # 1 once the sweep restarted the HBase: the restore is due
SV_WAS_RUNNING=0
SV_ACTIVE=0         # 1 once sv_begin found server variants: sv_restore is due at the sweep's exit
SV_REGIONSERVERS=1  # the region servers the HBase ran with (./suite hbase start --regionservers): restored at the end
SV_CURRENT_N=1      # the region servers it runs with now
SV_TABLES=""        # the sweep's tables, spread after each restart at a size above 1

# Before the first run (KEYS: the overridden keys, comma-separated; RESTARTS: "yes" when any point
# has a server variant or a cluster size): remember whether and how the HBase runs, and read back
# its normal configuration.
sv_begin() {
  SV_KEYS=$1
  [[ -n $2 ]] || return 0
  if "$SUITE_ROOT/suite" hbase status > /dev/null 2>&1; then
    SV_WAS_RUNNING=1
    SV_REGIONSERVERS=$(local_regionservers)
    SV_CURRENT_N=$SV_REGIONSERVERS
  else
    lifecycle sweep-record "$SWEEP_DIR" incomplete
    die "sweep.server.variants and sweep.server.regionservers restart the embedded HBase, which is not running (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET): ./suite hbase start"
  fi
  # shellcheck disable=SC2034  # read by libexec/suite-sweep's exit handler
  SV_ACTIVE=1
  [[ -z $SV_KEYS ]] || sv_read_back "default" "{}"
}

# Stop, then start with CONF ("" = the normal conf, whatever HBASE_LOCAL_CONF the sweep was given)
# and N region servers ("" = as many as the sweep found).
sv_restart() {
  local conf=$1 why=$2 n=${3:-$SV_REGIONSERVERS} started=$SECONDS rc=0
  SV_RESTARTED=1
  info "$SWEEP_ID: restarting the embedded HBase for $why"
  "$SUITE_ROOT/suite" hbase stop 2>&1 | indent || rc=$?
  ((rc == 0)) || die "the embedded HBase did not stop for $why (exit $rc)"
  if [[ -n $conf ]]; then
    HBASE_LOCAL_CONF=$conf "$SUITE_ROOT/suite" hbase start --regionservers "$n" 2>&1 | indent || rc=$?
  else
    "$SUITE_ROOT/suite" hbase start --regionservers "$n" 2>&1 | indent || rc=$?
  fi
  ((rc == 0)) || die "the embedded HBase did not start for $why (its log: $HBASE_LOCAL_DIR/logs/master.log)"
  SV_CURRENT=$conf
  SV_CURRENT_N=$n
  info "$SWEEP_ID: HBase restarted in $((SECONDS - started))s"
}

# TABLES (comma-separated) spread evenly over the region servers of the cluster just started, where
# its master put them as it chose (lifecycle's ClusterSpread: the fewest moves).
sv_spread() {
  local tables=$1 out rc=0 started=$SECONDS
  SV_TABLES=$tables   # spread again at the restore
  # it waits first until every region server has reported: the master gives regions to no other (HBASE-25032)
  local why
  out=$(lifecycle cluster-spread --zookeeper-port "$PORT_ZK" --wait "$SV_CURRENT_N" --tables "$tables" --timeout 120 2>&1) || rc=$?
  why=$(sed -n "s/^SPREAD_FAILURE='\(.*\)'$/\1/p" <<< "$out" | head -1)
  ((rc == 0)) || die "the sweep's tables could not be spread over $SV_CURRENT_N region servers: ${why:-$(grep -v '^\s*at \|^SLF4J' <<< "$out" | head -1)}"
  info "$SWEEP_ID: tables spread over $SV_CURRENT_N region servers in $((SECONDS - started))s"
  grep -v '^SLF4J' <<< "$out" | sed 's/^/  /'
}

sv_read_back() {
  local variant=$1 expect=$2 out err
  out=$SWEEP_DIR/server-conf-$((++SV_READS)).json
  err=$(lifecycle server-conf --url "http://127.0.0.1:$PORT_REGIONSERVER_INFO/conf?format=json" --keys "$SV_KEYS" \
    --variant "$variant" --expect "$expect" --out "$out" 2>&1 > /dev/null) \
    || die "server variant $variant: $(grep -v '^\s*at \|^SLF4J' <<< "$err" | head -1)"
  SV_READ_BACK=$out
  info "$SWEEP_ID: the region server runs with $(jq -r '.read_back | to_entries | map("\(.key)=\(.value.value // "(built-in default)")") | join(", ")' "$out")"
}
SV_READS=0

# After the restore: the server reports what it reported before the first restart, or the sweep fails.
sv_check_normal() {
  local first=$SWEEP_DIR/server-conf-1.json
  sv_read_back "default" "{}"
  jq -e --slurpfile before "$first" '.read_back == $before[0].read_back' "$SV_READ_BACK" > /dev/null \
    || die "the embedded HBase runs with other settings than before the sweep after its restore: compare $first and $SV_READ_BACK"
}

# At the sweep's exit (RC its status): the normal configuration again (or stopped, had the sweep found it stopped).
sv_restore() {
  local rc=$1
  # a server variant that failed (a restart, a setting not taken) leaves no sweep marked running
  if ((rc != 0)) && [[ $(jq -r .status "$SWEEP_DIR/sweep.json" 2> /dev/null) == running ]]; then
    lifecycle sweep-record "$SWEEP_DIR" incomplete || true
  fi
  if ((SV_RESTARTED)) && [[ -n $SV_CURRENT || $SV_CURRENT_N != "$SV_REGIONSERVERS" ]]; then
    info "$SWEEP_ID: bringing the embedded HBase back to its normal configuration ($SV_REGIONSERVERS region server(s))"
    if ((SV_WAS_RUNNING)); then
      ( sv_restart "" "its normal configuration" "$SV_REGIONSERVERS" \
        && { ((SV_REGIONSERVERS < 2)) || [[ -z $SV_TABLES ]] || sv_spread "$SV_TABLES"; } \
        && { [[ -z $SV_KEYS ]] || sv_check_normal; } ) || rc=1
    else
      "$SUITE_ROOT/suite" hbase stop 2>&1 | indent
    fi
  fi
  exit "$rc"
}
