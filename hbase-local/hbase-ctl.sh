#!/usr/bin/env bash
# Usage: ./suite hbase start|stop|status
# Summary: the embedded HBase 2.6.1 standalone and its thrift2 gateway, on 127.0.0.1
# Help:
#   start   master, regionserver and ZooKeeper in one JVM (4 GiB heap; HBASE_LOCAL_HEAP) and
#           HBase's own thrift2 gateway; waits until ready (HBASE_READY_TIMEOUT, 120 s)
#   stop    a clean shutdown (memstores flushed), then SIGTERM/SIGKILL by PID if needed
#   status  what runs, on which ports, since when (exit 3 when stopped)
#   SUITE_PORT_OFFSET shifts every port; HBASE_LOCAL_DIR moves data, logs and PID files.
#   Both JVMs run on the lab's server CPUs (lab.cpus of grinder.properties, or SUITE_LAB_CPUS:
#   auto, off or SERVER:CLIENT such as 0:1; see suite.d/lab.sh), each counted in its role's cgroup.
#
set -euo pipefail
SUITE_ME="suite hbase"
# shellcheck source=../suite.d/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/suite.d/lab.sh"
offer_help "${BASH_SOURCE[0]}" "$@"

HBASE_CONF=${HBASE_LOCAL_CONF:-$SUITE_ROOT/hbase-local/conf}
HBASE_HEAP=${HBASE_LOCAL_HEAP:-4g}
READY_TIMEOUT=${HBASE_READY_TIMEOUT:-120}
LOGS=$HBASE_LOCAL_DIR/logs
PIDS=$HBASE_LOCAL_DIR/pids
MASTER_PID_FILE=$PIDS/master.pid
THRIFT_PID_FILE=$PIDS/thrift2.pid

usage() {
  echo "usage: ./suite hbase start|stop|status" >&2
  exit 2
}

jvm_options() {
  grep -vE '^\s*(#|$)' "$SUITE_ROOT/hbase-local/jvm.options"
}

# System properties that hbase-site.xml expands (${hbase.local.*}).
site_properties() {
  printf '%s\n' \
    "-Dhbase.local.dir=$HBASE_LOCAL_DIR" \
    "-Dhbase.local.port.zk=$PORT_ZK" \
    "-Dhbase.local.port.master=$PORT_MASTER" \
    "-Dhbase.local.port.master.info=$PORT_MASTER_INFO" \
    "-Dhbase.local.port.regionserver=$PORT_REGIONSERVER" \
    "-Dhbase.local.port.regionserver.info=$PORT_REGIONSERVER_INFO" \
    "-Dhbase.log.dir=$LOGS"
}

# Fill JAVA_CMD with the java command line that runs an HBase main class on the server
# classpath; arguments after the heap size are the class and its arguments.
hbase_java_cmd() {
  local log_file=$1 heap=$2; shift 2
  local -a opts
  mapfile -t opts < <(jvm_options; site_properties)
  JAVA_CMD=("$JAVA" "-Xms$heap" "-Xmx$heap" "${opts[@]}" "-Dhbase.log.file=$log_file"
            -cp "$HBASE_CONF:$(classpath_of hbase-server)" "$@")
}

# Why a server died: the last error in its log, else in its stdout/stderr.
failure_reason() {
  local log=$1 out=${1%.log}.out reason
  reason=$(last_error_line "$log")
  [[ -n $reason ]] || reason=$(last_error_line "$out")
  [[ -n $reason ]] || reason=$(tail -1 "$out" 2>/dev/null | cut -c1-300)
  printf '%s' "${reason:-no error logged}"
}

check_conf() {
  local f
  for f in hbase-site.xml log4j.properties; do
    [[ -s $HBASE_CONF/$f ]] || die "$HBASE_CONF/$f is missing"
  done
  # A malformed site file makes HBase die half-started; say so before launching anything.
  if command -v python3 >/dev/null; then
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$HBASE_CONF/hbase-site.xml" 2>/dev/null \
      || die "$HBASE_CONF/hbase-site.xml is not well-formed XML"
  fi
}


# Wait until the master log says initialization completed, the JVM dies, or time runs out.
wait_master_ready() {
  local pid=$1 log=$2 started=$SECONDS next=5
  while ! grep -q 'Master has completed initialization' "$log" 2>/dev/null; do
    if ! pid_alive "$pid"; then
      die "HBase master exited during start-up: $(failure_reason "$log") (log: $log)"
    fi
    if ((SECONDS - started >= READY_TIMEOUT)); then
      stop_pid "$pid" 10 "HBase master"
      die "HBase master not ready after ${READY_TIMEOUT}s, stopped it: $(failure_reason "$log") (log: $log)"
    fi
    if ((SECONDS - started >= next)); then
      progress "$started" "waiting for the HBase master to initialize"
      next=$((next + 5))
    fi
    sleep 1
  done
}

wait_port() {
  local pid=$1 port=$2 name=$3 log=$4 timeout=${5:-60} started=$SECONDS
  while ! port_listening "$port"; do
    if ! pid_alive "$pid"; then
      die "$name exited during start-up: $(failure_reason "$log") (log: $log)"
    fi
    if ((SECONDS - started >= timeout)); then
      stop_pid "$pid" 10 "$name"
      die "$name not listening on 127.0.0.1:$port after ${timeout}s, stopped it (log: $log)"
    fi
    sleep 1
  done
}

# This HBase's processes: their command line names this data folder.
OUR_MARK="-Dhbase.local.dir=$HBASE_LOCAL_DIR"

start_master() {
  local pid
  pid=$(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK")
  if [[ -n $pid ]]; then
    lab_join hbase "$pid"
    info "HBase master already running (pid $pid, CPUs $(lab_side_cpus hbase))"
    return 0
  fi
  check_conf
  check_ports_free "$PORT_ZK" "$PORT_MASTER" "$PORT_MASTER_INFO" "$PORT_REGIONSERVER" "$PORT_REGIONSERVER_INFO"
  mkdir -p "$LOGS" "$PIDS"
  keep_previous_log "$LOGS/master.log"
  keep_previous_log "$LOGS/master.out"
  info "starting HBase 2.6.1 standalone (heap $HBASE_HEAP, data $HBASE_LOCAL_DIR)"
  # setsid: the server outlives this shell and gets no terminal signals.
  hbase_java_cmd master.log "$HBASE_HEAP" org.apache.hadoop.hbase.master.HMaster start
  # On the server CPUs from its first instruction: the JVM sizes its GC and thread pools from them.
  (lab_exec hbase setsid "${JAVA_CMD[@]}") > "$LOGS/master.out" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$MASTER_PID_FILE"
  wait_master_ready "$pid" "$LOGS/master.log"
  info "HBase ready: ZooKeeper 127.0.0.1:$PORT_ZK, master 127.0.0.1:$PORT_MASTER (pid $pid, web :$PORT_MASTER_INFO, CPUs $(lab_side_cpus hbase))"
}

start_thrift2() {
  local pid
  pid=$(pid_of_ours "$THRIFT_PID_FILE" "$OUR_MARK")
  if [[ -n $pid ]]; then
    lab_join gateway "$pid"
    info "HBase thrift2 gateway already running (pid $pid, CPUs $(lab_side_cpus gateway))"
    return 0
  fi
  check_ports_free "$PORT_THRIFT2" "$PORT_THRIFT2_INFO"
  keep_previous_log "$LOGS/thrift2.log"
  keep_previous_log "$LOGS/thrift2.out"
  hbase_java_cmd thrift2.log 1g org.apache.hadoop.hbase.thrift2.ThriftServer \
    -b 127.0.0.1 -p "$PORT_THRIFT2" --infoport "$PORT_THRIFT2_INFO" start
  (lab_exec gateway setsid "${JAVA_CMD[@]}") > "$LOGS/thrift2.out" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$THRIFT_PID_FILE"
  wait_port "$pid" "$PORT_THRIFT2" "HBase thrift2 gateway" "$LOGS/thrift2.log" 60
  info "HBase thrift2 gateway ready: 127.0.0.1:$PORT_THRIFT2 (pid $pid, CPUs $(lab_side_cpus gateway))"
}

cmd_start() {
  require_setup
  lab_resolve ""
  lab_prepare
  # a start that fails leaves no empty lab cgroups behind (lab_teardown keeps any in use)
  trap '(($? == 0)) || lab_teardown' EXIT
  info "$(lab_describe)"
  start_master
  start_thrift2
  trap - EXIT
}

stop_thrift2() {
  local pid
  pid=$(pid_of_ours "$THRIFT_PID_FILE" "$OUR_MARK")
  if [[ -n $pid ]]; then
    info "stopping HBase thrift2 gateway (pid $pid)"
    stop_pid "$pid" 15 "thrift2 gateway"
  fi
  rm -f "$THRIFT_PID_FILE"
}

stop_master() {
  local pid started=$SECONDS
  pid=$(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK")
  if [[ -z $pid ]]; then
    rm -f "$MASTER_PID_FILE"
    info "HBase is not running"
    return 0
  fi
  info "stopping HBase (pid $pid): flushing and shutting the cluster down"
  # Plain `stop` does nothing in standalone mode; --shutDownCluster flushes memstores.
  timeout 60 "${BASH_SOURCE[0]}" shutdown-request > "$LOGS/stop.out" 2>&1 < /dev/null \
    || info "  shutdown request failed or timed out; falling back to SIGTERM"
  while pid_alive "$pid" && ((SECONDS - started < 60)); do
    sleep 1
  done
  stop_pid "$pid" 30 "HBase master"
  rm -f "$MASTER_PID_FILE"
  info "HBase stopped ($((SECONDS - started))s)"
}

cmd_stop() {
  stop_thrift2
  stop_master
  lab_teardown
}

describe() {
  local name=$1 pid_file=$2; shift 2
  local pid since
  pid=$(pid_of_ours "$pid_file" "$OUR_MARK")
  if [[ -n $pid ]]; then
    since=$(ps -o lstart= -p "$pid" | sed 's/^ *//')
    info "$name: running, pid $pid, since $since, $*"
    return 0
  fi
  info "$name: stopped"
  return 1
}

cmd_status() {
  local rc=0
  describe "HBase 2.6.1 standalone" "$MASTER_PID_FILE" \
    "ZooKeeper 127.0.0.1:$PORT_ZK, master 127.0.0.1:$PORT_MASTER, regionserver 127.0.0.1:$PORT_REGIONSERVER, data $HBASE_LOCAL_DIR" || rc=3
  describe "HBase thrift2 gateway" "$THRIFT_PID_FILE" "127.0.0.1:$PORT_THRIFT2" || rc=3
  lab_status hbase "$(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK")"
  return "$rc"
}

(($# <= 1)) || usage_error "'${1}' takes no arguments (got: ${*:2}); usage: ./suite hbase start|stop|status"
case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  # Internal: the client JVM that asks the running master to shut the cluster down.
  shutdown-request)
    hbase_java_cmd stop.log 256m org.apache.hadoop.hbase.master.HMaster stop --shutDownCluster
    exec "${JAVA_CMD[@]}" ;;
  *) usage ;;
esac
