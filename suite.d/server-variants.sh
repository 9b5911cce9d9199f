# shellcheck shell=bash
# ./suite sweep's server variants (sweep.server.variants): restart the embedded HBase with a
# variant's conf folder (written by lifecycle's SweepPlanner under the sweep folder), have
# lifecycle read back what the region server runs with, and bring the HBase back to its normal
# configuration when the sweep ends, fails or is interrupted. Sourced by libexec/suite-sweep after
# common.sh; lifecycle (SweepSteps) decides when to restart, this only stops and starts processes.

SV_KEYS=""          # the overridden keys, comma-separated ("" = no server variants)
SV_CURRENT=""       # the conf folder the HBase runs with now ("" = its normal one)
SV_READ_BACK=""     # server-conf.json of the configuration running now
SV_RESTARTED=0      # 1 once the sweep restarted the HBase: the restore is due
SV_WAS_RUNNING=0
SV_ACTIVE=0         # 1 once sv_begin found server variants: sv_restore is due at the sweep's exit
SV_REGIONSERVERS=1  # the region servers the HBase ran with (./suite hbase start --regionservers): kept by restarts

# Before the first run (KEYS: the overridden keys, comma-separated): remember whether the HBase
# runs, and read back its normal configuration.
sv_begin() {
  SV_KEYS=$1
  [[ -n $SV_KEYS ]] || return 0
  if "$SUITE_ROOT/suite" hbase status > /dev/null 2>&1; then
    SV_WAS_RUNNING=1
    # shellcheck disable=SC2016  # expanded by the inner bash, which sources the layout alone
    SV_REGIONSERVERS=$(bash -c 'source "$1" 2> /dev/null; echo "${CLUSTER_REGIONSERVERS:-1}"' _ "$HBASE_LAYOUT_FILE")
  else
    lifecycle sweep-record "$SWEEP_DIR" incomplete
    die "sweep.server.variants restart the embedded HBase, which is not running (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET): ./suite hbase start"
  fi
  # shellcheck disable=SC2034  # read by libexec/suite-sweep's exit handler
  SV_ACTIVE=1
  sv_read_back "default" "{}"
}

# Stop, then start with CONF ("" = the normal conf, whatever HBASE_LOCAL_CONF the sweep was given).
sv_restart() {
  local conf=$1 why=$2 started=$SECONDS rc=0
  SV_RESTARTED=1
  info "$SWEEP_ID: restarting the embedded HBase for $why"
  "$SUITE_ROOT/suite" hbase stop 2>&1 | sed 's/^/    /' || rc=$?
  ((rc == 0)) || die "the embedded HBase did not stop for $why (exit $rc)"
  if [[ -n $conf ]]; then
    HBASE_LOCAL_CONF=$conf "$SUITE_ROOT/suite" hbase start --regionservers "$SV_REGIONSERVERS" 2>&1 | sed 's/^/    /' || rc=$?
  else
    "$SUITE_ROOT/suite" hbase start --regionservers "$SV_REGIONSERVERS" 2>&1 | sed 's/^/    /' || rc=$?
  fi
  ((rc == 0)) || die "the embedded HBase did not start for $why (its log: $HBASE_LOCAL_DIR/logs/master.log)"
  SV_CURRENT=$conf
  SV_RESTARTED=1
  info "$SWEEP_ID: HBase restarted in $((SECONDS - started))s"
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
  if ((SV_RESTARTED)) && [[ -n $SV_CURRENT ]]; then
    info "$SWEEP_ID: bringing the embedded HBase back to its normal configuration"
    if ((SV_WAS_RUNNING)); then
      ( sv_restart "" "its normal configuration" && sv_check_normal ) || rc=1
    else
      "$SUITE_ROOT/suite" hbase stop 2>&1 | sed 's/^/    /'
    fi
  fi
  exit "$rc"
}
