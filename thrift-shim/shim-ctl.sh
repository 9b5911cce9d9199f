#!/usr/bin/env bash
# Usage: ./suite shim start|stop|status
# Summary: the thrift-shim (HBase's thrift2 service over the Java client) on 127.0.0.1:9092
# Help:
#   In front of the embedded HBase, or of a real cluster when SHIM_HBASE_SITE names its client
#   hbase-site.xml; latency metrics on /metrics (127.0.0.1:9097). See thrift-shim/README.md.
#
set -euo pipefail
SUITE_ME="suite shim"
# shellcheck source=../suite.d/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/suite.d/lab.sh"
offer_help "${BASH_SOURCE[0]}" "$@"

SHIM_DIR=$SUITE_ROOT/thrift-shim
# PORT_SHIM and PORT_SHIM_METRICS: suite.d/common.sh (SUITE_PORT_OFFSET, or SHIM_PORT and SHIM_METRICS_PORT)
SHIM_HEAP=${SHIM_HEAP:-1g}
READY_TIMEOUT=${SHIM_READY_TIMEOUT:-60}
LOGS=$HBASE_LOCAL_DIR/logs
PIDS=$HBASE_LOCAL_DIR/pids
PID_FILE=$PIDS/thrift-shim.pid
READY_FILE=$PIDS/thrift-shim.ready
METRICS_FILE=$LOGS/thrift-shim-metrics.prom
MAIN_CLASS=io.github.hbasegrindersuite.shim.ShimMain

usage() {
  echo "usage: ./suite shim start|stop|status" >&2
  echo "  env: SUITE_PORT_OFFSET, SHIM_HBASE_SITE (a real cluster's client hbase-site.xml), SHIM_CONFIG (shim.* properties)," >&2
  echo "       SHIM_PORT (default 9092+offset), SHIM_METRICS_PORT (9097+offset), SHIM_HEAP (1g), SHIM_READY_TIMEOUT (60 s)" >&2
  exit 2
}

# The shim jar first, the worker's jar for the suite's one properties reader (PropertiesFiles; the
# shim loads nothing else of it), then the shim's runtime closure in Maven's order.
shim_classpath() {
  printf '%s:%s:%s' "$SUITE_LIB/thrift-shim.jar" "$SUITE_LIB/hbase-grinder-worker.jar" "$(classpath_of thrift-shim)"
}

require_shim_build() {
  [[ -s $SUITE_LIB/thrift-shim.jar && -s $SUITE_LIB/thrift-shim.classpath && -s $SUITE_LIB/hbase-grinder-worker.jar ]] \
    || die "lib/thrift-shim.jar, lib/thrift-shim.classpath or lib/hbase-grinder-worker.jar is missing: run ./suite setup first"
}

# The PID from the PID file when that process is alive and is a shim (PIDs get reused).
running_pid() {
  pid_of_ours "$PID_FILE" "$MAIN_CLASS"
}

# key=value from the ready file the shim writes once it serves.
ready_value() {
  sed -n "s/^$1=//p" "$READY_FILE" 2>/dev/null | head -1
}

describe_hbase() {
  if [[ -n ${SHIM_HBASE_SITE:-} ]]; then
    printf 'the cluster in %s' "$SHIM_HBASE_SITE"
  else
    printf 'ZooKeeper 127.0.0.1:%s' "$PORT_ZK"
  fi
}

# Settings passed as arguments (they win over SHIM_CONFIG's file).
shim_settings() {
  printf '%s\n' "shim.port=$PORT_SHIM" "shim.metrics.port=$PORT_SHIM_METRICS" \
    "shim.ready.file=$READY_FILE" "shim.metrics.file=$METRICS_FILE"
  if [[ -n ${SHIM_HBASE_SITE:-} ]]; then
    printf '%s\n' "shim.hbase.site=$SHIM_HBASE_SITE"
  else
    printf '%s\n' "shim.hbase.zookeeper.quorum=127.0.0.1" "shim.hbase.zookeeper.port=$PORT_ZK"
  fi
}

# How a taken port can be avoided, for check_ports_free (common.sh).
PORT_HINT="set SUITE_PORT_OFFSET (or SHIM_PORT, SHIM_METRICS_PORT)"

# Why the shim died: its own one-line reason on stderr, else the last error in its log.
failure_reason() {
  local reason
  reason=$(grep -h '^thrift-shim: ' "$LOGS/thrift-shim.out" 2>/dev/null | tail -1 | cut -c1-300 || true)
  [[ -n $reason ]] || reason=$(last_error_line "$LOGS/thrift-shim.log")
  [[ -n $reason ]] || reason=$(tail -1 "$LOGS/thrift-shim.out" 2>/dev/null | cut -c1-300)
  printf '%s' "${reason:-no error logged}"
}

wait_ready() {
  local pid=$1 started=$SECONDS next=5
  while [[ ! -s $READY_FILE ]]; do
    if ! pid_alive "$pid"; then
      rm -f "$PID_FILE"
      die "thrift-shim exited during start-up: $(failure_reason) (log: $LOGS/thrift-shim.out)"
    fi
    if ((SECONDS - started >= READY_TIMEOUT)); then
      stop_pid "$pid" 10 "thrift-shim"
      rm -f "$PID_FILE"
      die "thrift-shim not serving after ${READY_TIMEOUT}s, stopped it: $(failure_reason) (log: $LOGS/thrift-shim.out)"
    fi
    if ((SECONDS - started >= next)); then
      progress "$started" "waiting for thrift-shim to reach HBase and open 127.0.0.1:$PORT_SHIM"
      next=$((next + 5))
    fi
    sleep 0.2
  done
}

cmd_start() {
  local pid started=$SECONDS
  require_shim_build
  pid=$(running_pid)
  lab_resolve ""
  lab_prepare
  if [[ -n $pid ]]; then
    lab_join shim "$pid"
    info "thrift-shim already running (pid $pid, thrift 127.0.0.1:$(ready_value port), CPUs $(lab_side_cpus shim))"
    return 0
  fi
  check_ports_free "$PORT_SHIM" "$PORT_SHIM_METRICS"
  local -a config=()
  if [[ -n ${SHIM_CONFIG:-} ]]; then
    [[ -r $SHIM_CONFIG ]] || die "SHIM_CONFIG=$SHIM_CONFIG: no such readable file"
    config=(--config "$SHIM_CONFIG")
  fi
  if [[ -n ${SHIM_HBASE_SITE:-} ]]; then
    [[ -r $SHIM_HBASE_SITE ]] || die "SHIM_HBASE_SITE=$SHIM_HBASE_SITE: no such readable file"
  elif ! port_listening "$PORT_ZK"; then
    die "no HBase at ZooKeeper 127.0.0.1:$PORT_ZK: start it (./suite hbase start) or set SHIM_HBASE_SITE"
  fi
  mkdir -p "$LOGS" "$PIDS"
  rm -f "$READY_FILE"
  keep_previous_log "$LOGS/thrift-shim.log"
  keep_previous_log "$LOGS/thrift-shim.out"
  local -a opts settings
  mapfile -t opts < <(grep -vE '^\s*(#|$)' "$SHIM_DIR/jvm.options")
  mapfile -t settings < <(shim_settings)
  info "starting thrift-shim on 127.0.0.1:$PORT_SHIM (heap $SHIM_HEAP, HBase at $(describe_hbase))"
  lab_start_wide shim
  trap lab_start_done EXIT
  # setsid: the shim outlives this shell and gets no terminal signals.
  # On the lab's server CPUs, beside HBase (suite.d/lab.sh).
  (lab_exec shim setsid "$JAVA" "-Xms$SHIM_HEAP" "-Xmx$SHIM_HEAP" "${opts[@]}" "${LAB_START_JVM_OPTS[@]}" \
    "-Dlog4j.configuration=file:$SHIM_DIR/conf/log4j.properties" "-Dthrift.shim.log.dir=$LOGS" \
    -cp "$(shim_classpath)" "$MAIN_CLASS" "${config[@]}" "${settings[@]}") \
    > "$LOGS/thrift-shim.out" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$PID_FILE"
  wait_ready "$pid"
  lab_start_done
  trap - EXIT
  info "thrift-shim ready in $((SECONDS - started))s: thrift 127.0.0.1:$(ready_value port) (pid $pid)," \
    "metrics http://127.0.0.1:$(ready_value metrics_port)/metrics, log $LOGS/thrift-shim.log, CPUs $(lab_side_cpus shim)"
}

cmd_stop() {
  local pid started=$SECONDS
  pid=$(running_pid)
  if [[ -z $pid ]]; then
    rm -f "$PID_FILE" "$READY_FILE"
    info "thrift-shim is not running"
    return 0
  fi
  info "stopping thrift-shim (pid $pid): finishing calls in progress"
  # SIGTERM: the shim drains (shim.shutdown.grace.ms, 10 s by default) and writes its metrics.
  stop_pid "$pid" 30 "thrift-shim"
  rm -f "$PID_FILE" "$READY_FILE"
  info "thrift-shim stopped ($((SECONDS - started))s); metrics in $METRICS_FILE and ${METRICS_FILE%.prom}.csv"
}

cmd_status() {
  local pid since
  pid=$(running_pid)
  if [[ -n $pid ]]; then
    since=$(ps -o lstart= -p "$pid" | sed 's/^ *//')
    info "thrift-shim: running, pid $pid, since $since, thrift 127.0.0.1:$(ready_value port)," \
      "metrics http://127.0.0.1:$(ready_value metrics_port)/metrics, HBase at $(ready_value hbase)"
    return 0
  fi
  info "thrift-shim: stopped"
  return 3
}

(($# <= 1)) || usage_error "'${1}' takes no arguments (got: ${*:2}); usage: ./suite shim start|stop|status"
case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) usage ;;
esac
