#!/usr/bin/env bash
# Usage: ./suite hbase start [--regionservers N]
#        ./suite hbase stop|status
# Summary: the embedded HBase 2.6.1 (standalone or a local cluster) and its thrift2 gateway, on 127.0.0.1
# Help:
#   start   master, regionserver and ZooKeeper in one JVM (4 GiB heap; HBASE_LOCAL_HEAP) and
#           HBase's own thrift2 gateway; waits until ready (HBASE_READY_TIMEOUT, 120 s)
#   start --regionservers N   (N from 1 to 8; 1 is the standalone above) a local cluster instead:
#           ZooKeeper (HQuorumPeer, 256 MiB), the master (1 GiB) and N region servers (2 GiB each,
#           less above 4 so that all take at most 8 GiB; HBASE_LOCAL_RS_HEAP), each its own JVM with
#           its own log and PID file, sharing the data folder (HBase's pseudo-distributed mode on the
#           local filesystem, conf written to HBASE_LOCAL_DIR/conf-cluster). Region server i listens on
#           PORT_REGIONSERVER+i-1 and PORT_REGIONSERVER_INFO+i-1 (16020+i-1 and 16030+i-1 plus the
#           offset). ZooKeeper sessions last 6 s: a dead region server is noticed within seconds. Ready
#           when the master counts N live region servers (HBASE_READY_TIMEOUT, 180 s for a cluster).
#           Clients find it through ZooKeeper as before. Again on a running cluster whose region
#           servers are not all up (a fault schedule killed one): starts the missing ones, waits for N live.
#   stop    a clean shutdown (memstores flushed), then SIGTERM/SIGKILL by PID if needed; a cluster's
#           region servers and ZooKeeper too, each bounded
#   status  what runs, on which ports, since when, and for a cluster the live region servers as the
#           master counts them and each one's regions (exit 3 when any process is stopped)
#   SUITE_PORT_OFFSET shifts every port; HBASE_LOCAL_DIR moves data, logs and PID files.
#   Every JVM runs on the lab's server CPUs (lab.cpus of grinder.properties, or SUITE_LAB_CPUS:
#   auto, off or SERVER:CLIENT such as 0:1; see suite.d/lab.sh), each counted in its role's cgroup.
#   A start in an isolated lab with no run in it uses every CPU until ready, the JVMs sized for the
#   server CPUs (-XX:ActiveProcessorCount), then moves them there (SUITE_LAB_WIDE_START=off: not).
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
# What the last start laid out (lifecycle cluster): stop and status read it. None: the standalone.
LAYOUT_FILE=$HBASE_LAYOUT_FILE
# The conf the servers run with: the project's, or for a cluster the one lifecycle wrote from it.
RUN_CONF=$HBASE_CONF

usage() {
  echo "usage: ./suite hbase start [--regionservers N] | stop | status" >&2
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
  # SERVER_PROPS after the shared ones: the JVM keeps the last -D of a name (a region server's ports).
  JAVA_CMD=("$JAVA" "-Xms$heap" "-Xmx$heap" "${opts[@]}" "${LAB_START_JVM_OPTS[@]}" "${SERVER_PROPS[@]}" "-Dhbase.log.file=$log_file"
            -cp "$RUN_CONF:$(classpath_of hbase-server)" "$@")
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
    # every 0.2 s: a second's polling cost every start half a second on average
    sleep 0.2
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
    sleep 0.2
  done
}

# This HBase's processes: their command line names this data folder.
OUR_MARK="-Dhbase.local.dir=$HBASE_LOCAL_DIR"
SERVER_PROPS=()

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

# The processes for N region servers, from lifecycle's LocalCluster (which refuses a bad N in one
# line before anything starts): CLUSTER_* shell assignments, kept in LAYOUT_FILE for stop and status.
cluster_layout() {
  local n=$1 out rc=0
  out=$(lifecycle cluster --regionservers "$n" \
    --ports "$PORT_ZK,$PORT_MASTER,$PORT_MASTER_INFO,$PORT_REGIONSERVER,$PORT_REGIONSERVER_INFO" \
    --standalone-heap "$HBASE_HEAP" --regionserver-heap "${HBASE_LOCAL_RS_HEAP:-}" \
    --conf "$HBASE_CONF" --cluster-conf "$HBASE_LOCAL_DIR/conf-cluster" 2>&1) || rc=$?
  if ((rc != 0)); then
    # exit 2 for a misuse of the command line (--regionservers two), 1 otherwise
    printf '%s: %s\n' "$SUITE_ME" "$(grep -v '^\s*at ' <<< "$out" | head -1)" >&2
    exit "$rc"
  fi
  eval "$out"
  LAYOUT_TEXT=$out
}

# The layout of what runs (or ran last), else the standalone's: sets CLUSTER_* and RUN_CONF.
load_layout() {
  CLUSTER_MODE=standalone CLUSTER_REGIONSERVERS=1 CLUSTER_NAMES=(master) CLUSTER_PORTS=() CLUSTER_CONF=$HBASE_CONF
  # shellcheck source=/dev/null  # written by lifecycle cluster: single-quoted assignments only
  [[ ! -s $LAYOUT_FILE ]] || source "$LAYOUT_FILE"
  [[ $CLUSTER_MODE == standalone ]] || RUN_CONF=$CLUSTER_CONF
}

# PIDs of this HBase's servers that are alive, by the names of the last layout ("name pid" lines).
running_servers() {
  local name pid
  for name in "${CLUSTER_NAMES[@]}"; do
    pid=$(pid_of_ours "$PIDS/$name.pid" "$OUR_MARK")
    [[ -z $pid ]] || echo "$name $pid"
  done
}

cmd_start() {
  local n=$1
  require_setup
  cluster_layout "$n"
  local wanted_mode=$CLUSTER_MODE wanted_n=$CLUSTER_REGIONSERVERS wanted_text=$LAYOUT_TEXT running
  # What runs now, by the layout it was started with: another N is refused, the same N is no error.
  load_layout
  running=$(running_servers)
  if [[ -n $running ]] && ((CLUSTER_REGIONSERVERS != wanted_n)); then
    die "HBase already runs with $CLUSTER_REGIONSERVERS region server(s) ($(paste -sd, <<< "$running" | sed 's/,/, /g')); ./suite hbase stop first"
  fi
  lab_resolve ""
  lab_prepare
  # a start that fails leaves no empty lab cgroups behind (lab_teardown keeps any in use)
  trap '(($? == 0)) || { lab_start_done; lab_teardown; }' EXIT
  info "$(lab_describe)"
  lab_start_wide hbase gateway
  if [[ $wanted_mode == standalone ]]; then
    rm -f "$LAYOUT_FILE"
    RUN_CONF=$HBASE_CONF
    start_master
  else
    mkdir -p "$PIDS"
    eval "$wanted_text"
    RUN_CONF=$CLUSTER_CONF
    start_cluster "$running"
    printf '%s\n' "$wanted_text" > "$LAYOUT_FILE"
  fi
  start_thrift2
  lab_start_done
  trap - EXIT
}

# Stop every server of the layout that is alive (SIGTERM, then SIGKILL after GRACE s), region servers
# and master before ZooKeeper, which they need to shut down cleanly.
stop_servers() {
  local grace=$1 i name pid
  for ((i = ${#CLUSTER_NAMES[@]} - 1; i >= 0; i--)); do
    name=${CLUSTER_NAMES[i]}
    pid=$(pid_of_ours "$PIDS/$name.pid" "$OUR_MARK")
    [[ -z $pid ]] || stop_pid "$pid" "$grace" "$name"
    rm -f "$PIDS/$name.pid"
  done
}

# Start the layout's server I (its JVM, heap, main, arguments and properties) on the lab's server
# CPUs, its earlier log kept, its PID in pids/NAME.pid and in LAUNCHED_PID; no wait.
launch_server() {
  local i=$1 name=${CLUSTER_NAMES[$1]}
  local -a args=()
  keep_previous_log "$LOGS/$name.log"
  keep_previous_log "$LOGS/$name.out"
  read -ra SERVER_PROPS <<< "${CLUSTER_PROPS[i]}"
  read -ra args <<< "${CLUSTER_ARGS[i]}"
  hbase_java_cmd "$name.log" "${CLUSTER_HEAPS[i]}" "${CLUSTER_MAINS[i]}" "${args[@]}"
  SERVER_PROPS=()
  (lab_exec hbase setsid "${JAVA_CMD[@]}") > "$LOGS/$name.out" 2>&1 < /dev/null &
  LAUNCHED_PID=$!
  echo "$LAUNCHED_PID" > "$PIDS/$name.pid"
}

# A cluster that did not come up: stop what started (by PID, bounded) and say why in one line.
cluster_abort() {
  info "  stopping what started of the cluster"
  stop_servers 10 > /dev/null
  rm -f "$LAYOUT_FILE"
  die "$*"
}

# ZooKeeper, the master and N region servers, each its own JVM on the lab's server CPUs; ready when
# the master has initialised and counts N live region servers (it waits for all N before assigning).
start_cluster() {
  local running=$1 started=$SECONDS i name pid log next=5
  # Four JVMs and more starting on the lab's one server CPU: a fresh 3-server cluster took 102 s
  # here while other work kept the load average at 15.
  local ready_timeout=${HBASE_READY_TIMEOUT:-180}
  local -a watch=()
  if [[ -n $running ]]; then
    while read -r name pid; do lab_join hbase "$pid"; done <<< "$running"
    info "HBase cluster already running: $(paste -sd, <<< "$running" | sed 's/,/, /g') (CPUs $(lab_side_cpus hbase))"
    start_missing_regionservers "$running"
    return 0
  fi
  check_conf
  # shellcheck disable=SC2086  # CLUSTER_ALL_PORTS is a list of port numbers
  check_ports_free $CLUSTER_ALL_PORTS
  mkdir -p "$LOGS" "$PIDS"
  info "starting an HBase 2.6.1 cluster: ZooKeeper, master and $CLUSTER_REGIONSERVERS region servers (heaps ${CLUSTER_HEAPS[*]}, data $HBASE_LOCAL_DIR)"
  for i in "${!CLUSTER_NAMES[@]}"; do
    name=${CLUSTER_NAMES[i]}
    launch_server "$i"
    pid=$LAUNCHED_PID
    watch+=(--watch "$name=$pid")
    # Master and region servers retry ZooKeeper, but a start without it only fills their logs.
    if [[ $name == zookeeper ]]; then
      wait_port_or_abort "$pid" "$PORT_ZK" ZooKeeper "$LOGS/$name.log" 30
    fi
  done
  # Until the master has initialised: every server still alive, within ready_timeout.
  while ! grep -q 'Master has completed initialization' "$LOGS/master.log" 2> /dev/null; do
    for name in "${CLUSTER_NAMES[@]}"; do
      pid=$(pid_from_file "$PIDS/$name.pid")
      log=$LOGS/$name.log
      pid_alive "$pid" || cluster_abort "HBase $name exited during start-up: $(failure_reason "$log") (log: $log)"
    done
    ((SECONDS - started < ready_timeout)) \
      || cluster_abort "HBase master not ready after ${ready_timeout}s: $(failure_reason "$LOGS/master.log") (log: $LOGS/master.log)"
    if ((SECONDS - started >= next)); then
      progress "$started" "waiting for the HBase master to initialize with $CLUSTER_REGIONSERVERS region servers"
      next=$((next + 5))
    fi
    sleep 1
  done
  local live
  if ! live=$(lifecycle cluster-live --master "http://127.0.0.1:$PORT_MASTER_INFO" --wait "$CLUSTER_REGIONSERVERS" \
      --timeout 30 "${watch[@]}" 2>&1); then
    local why
    why=$(sed -n "s/^WAIT_FAILURE='\(.*\)'$/\1/p" <<< "$live" | head -1)
    cluster_abort "HBase cluster not ready: ${why:-$(head -1 <<< "$live")}"
  fi
  info "HBase cluster ready in $((SECONDS - started))s: ZooKeeper 127.0.0.1:$PORT_ZK, master 127.0.0.1:$PORT_MASTER (web :$PORT_MASTER_INFO), $CLUSTER_REGIONSERVERS live region servers on $(region_server_ports) (CPUs $(lab_side_cpus hbase))"
}

# A running cluster whose region servers are not all up (a fault schedule killed or stopped one, or it
# died): start each again with its ports, heap and conf, then wait until the master counts them all
# live, as a sweep needs before its next point. Without ZooKeeper or the master nothing is started:
# the cluster is not the one its layout describes, and only a stop and a start make it whole.
start_missing_regionservers() {
  local running=$1 name missing=() started=$SECONDS live
  for name in "${CLUSTER_NAMES[@]}"; do
    grep -q "^$name " <<< "$running" || missing+=("$name")
  done
  ((${#missing[@]} > 0)) || return 0
  local core
  for core in zookeeper master; do
    [[ " ${missing[*]} " != *" $core "* ]] || die "HBase cluster partly running: its $core is down ($(paste -sd, <<< "$running" | sed 's/,/, /g') run); ./suite hbase stop, then start"
  done
  info "  region server(s) down: ${missing[*]}: starting them again"
  for name in "${missing[@]}"; do
    start_one_regionserver "${name#regionserver-}"
  done
  # Live in the master's count is not enough: it gives a region server regions only after its first
  # report (HBASE-25032), and a table made before that leaves it out (lifecycle's ClusterReady).
  if ! live=$(lifecycle cluster-ready --zookeeper-port "$PORT_ZK" --wait "$CLUSTER_REGIONSERVERS" --timeout 90 2>&1); then
    die "HBase cluster: ${missing[*]} started, but $(sed -n "s/^WAIT_FAILURE='\(.*\)'$/\1/p" <<< "$live" | head -1)"
  fi
  info "HBase cluster whole again in $((SECONDS - started))s: $(sed -n "s/^READY='\(.*\)'$/\1/p" <<< "$live" | head -1) (${missing[*]} started again)"
}

# "16820/16830, 16821/16831": each region server's RPC/web ports.
region_server_ports() {
  local i out=""
  for i in "${!CLUSTER_NAMES[@]}"; do
    [[ ${CLUSTER_NAMES[i]} == regionserver-* ]] || continue
    out+="${out:+, }${CLUSTER_PORTS[i]// //}"
  done
  printf '%s' "$out"
}

wait_port_or_abort() {
  local pid=$1 port=$2 name=$3 log=$4 timeout=$5 started=$SECONDS
  while ! port_listening "$port"; do
    pid_alive "$pid" || cluster_abort "$name exited during start-up: $(failure_reason "$log") (log: $log)"
    ((SECONDS - started < timeout)) || cluster_abort "$name not listening on 127.0.0.1:$port after ${timeout}s (log: $log)"
    sleep 0.5
  done
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
    sleep 0.2
  done
  stop_pid "$pid" 30 "HBase master"
  rm -f "$MASTER_PID_FILE"
  info "HBase stopped ($((SECONDS - started))s)"
}

# A cluster: the master asks every region server to flush and stop (--shutDownCluster); what is left
# after 60 s, and ZooKeeper last, is stopped by PID.
stop_cluster() {
  local started=$SECONDS running master
  running=$(running_servers)
  if [[ -z $running ]]; then
    stop_servers 1
    info "HBase is not running"
    return 0
  fi
  master=$(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK")
  info "stopping the HBase cluster ($(paste -sd, <<< "$running" | sed 's/,/, /g')): $([[ -n $master ]] \
    && echo "flushing and shutting it down" || echo "no master to shut it down, SIGTERM to each")"
  # Without a master nothing tells the region servers to stop: SIGTERM at once (their shutdown
  # hook closes their regions).
  if [[ -n $master ]]; then
    if timeout 60 "${BASH_SOURCE[0]}" shutdown-request > "$LOGS/stop.out" 2>&1 < /dev/null; then
      # Until every server but ZooKeeper has gone (or 60 s from the start of the stop).
      while running_servers | awk '$1 != "zookeeper" { n++ } END { exit n == 0 }' && ((SECONDS - started < 60)); do
        sleep 0.5
      done
    else
      info "  shutdown request failed or timed out; falling back to SIGTERM"
    fi
  fi
  stop_servers 20
  rm -f "$LAYOUT_FILE"
  info "HBase cluster stopped ($((SECONDS - started))s)"
}

cmd_stop() {
  load_layout
  stop_thrift2
  if [[ $CLUSTER_MODE == standalone ]]; then
    stop_master
  else
    stop_cluster
  fi
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

# One line per process of the cluster, then the master's count of live region servers.
status_cluster() {
  local rc=0 i name ports what
  local -a rs=()
  for i in "${!CLUSTER_NAMES[@]}"; do
    name=${CLUSTER_NAMES[i]}
    read -ra ports <<< "${CLUSTER_PORTS[i]}"
    case $name in
      zookeeper) what="127.0.0.1:${ports[0]}" ;;
      *) what="RPC 127.0.0.1:${ports[0]}, web :${ports[1]}" ;;
    esac
    [[ $name != regionserver-* ]] || rs+=(--regionserver "$name=http://127.0.0.1:${ports[1]}")
    describe "HBase $name" "$PIDS/$name.pid" "$what" || rc=3
  done
  local live
  if [[ -n $(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK") ]] \
      && live=$(lifecycle cluster-live --master "http://127.0.0.1:$PORT_MASTER_INFO" "${rs[@]}" 2> /dev/null); then
    eval "$live"
    if ((LIVE_REGIONSERVERS >= 0)); then
      local regions=""
      for i in "${!RS_NAMES[@]}"; do
        regions+="${regions:+, }${RS_NAMES[i]} $( ((RS_REGIONS[i] >= 0)) && echo "${RS_REGIONS[i]}" || echo '?')"
      done
      info "the master counts $LIVE_REGIONSERVERS live region servers of $CLUSTER_REGIONSERVERS ($DEAD_REGIONSERVERS dead): ${LIVE_SERVERS[*]:-none}"
      info "regions per region server: $regions"
    else
      info "the master counts no region servers yet: $MASTER_REASON"
    fi
  fi
  info "data $HBASE_LOCAL_DIR, conf $CLUSTER_CONF"
  return "$rc"
}

cmd_status() {
  local rc=0
  load_layout
  if [[ $CLUSTER_MODE == standalone ]]; then
    describe "HBase 2.6.1 standalone" "$MASTER_PID_FILE" \
      "ZooKeeper 127.0.0.1:$PORT_ZK, master 127.0.0.1:$PORT_MASTER, regionserver 127.0.0.1:$PORT_REGIONSERVER, data $HBASE_LOCAL_DIR" || rc=3
  else
    status_cluster || rc=3
  fi
  describe "HBase thrift2 gateway" "$THRIFT_PID_FILE" "127.0.0.1:$PORT_THRIFT2" || rc=3
  lab_status hbase "$(pid_of_ours "$MASTER_PID_FILE" "$OUR_MARK")"
  return "$rc"
}

# Region server I of the running local cluster again, as start_cluster started it (its ports, heap,
# system properties and conf from the layout), on the lab's server CPUs; returns once its RPC port
# listens (HBASE_RS_START_TIMEOUT, 90 s). The fault schedule's start action (lifecycle faults-run,
# FaultExecutor) runs it; the master counts the server live again by itself.
start_one_regionserver() {
  local n=$1 i idx="" name pid
  [[ $n =~ ^[1-9]$ ]] || usage_error "start-regionserver: '$n' is not a region server's number (1 to 8)"
  load_layout
  [[ $CLUSTER_MODE != standalone ]] || die "start-regionserver: no local cluster runs here (./suite hbase start --regionservers N)"
  name=regionserver-$n
  for i in "${!CLUSTER_NAMES[@]}"; do [[ ${CLUSTER_NAMES[i]} != "$name" ]] || idx=$i; done
  [[ -n $idx ]] || die "start-regionserver: the cluster has $CLUSTER_REGIONSERVERS region servers, no $name"
  pid=$(pid_of_ours "$PIDS/$name.pid" "$OUR_MARK")
  [[ -z $pid ]] || die "start-regionserver: $name is already running (pid $pid)"
  local -a ports
  read -ra ports <<< "${CLUSTER_PORTS[idx]}"
  check_ports_free "${ports[@]}"
  lab_resolve ""
  launch_server "$idx"
  pid=$LAUNCHED_PID
  wait_port "$pid" "${ports[0]}" "HBase $name" "$LOGS/$name.log" "${HBASE_RS_START_TIMEOUT:-90}"
  info "HBase $name started again: pid $pid, RPC 127.0.0.1:${ports[0]}, web :${ports[1]}"
}

# start's options; lifecycle checks N itself (a whole number from 1 to 8).
start_options() {
  REGIONSERVERS=1
  while (($# > 0)); do
    case $1 in
      --regionservers) (($# >= 2)) || usage_error "--regionservers needs a value (1 to 8)"; REGIONSERVERS=$2; shift 2 ;;
      --regionservers=*) REGIONSERVERS=${1#*=}; shift ;;
      *) usage_error "start: unknown option '$1' (accepted: --regionservers N)" ;;
    esac
  done
}

if [[ ${1:-} != start && ${1:-} != start-regionserver ]]; then
  (($# <= 1)) || usage_error "'${1}' takes no arguments (got: ${*:2}); usage: ./suite hbase start [--regionservers N] | stop | status"
fi
case ${1:-} in
  start) start_options "${@:2}"; cmd_start "$REGIONSERVERS" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  # Internal: the fault schedule's start action (lifecycle faults-run).
  start-regionserver) (($# == 2)) || usage_error "usage: hbase-ctl.sh start-regionserver I"; start_one_regionserver "$2" ;;
  # Internal: the client JVM that asks the running master to shut the cluster down.
  shutdown-request)
    load_layout
    # A client that sends one request: with C1 only it starts seconds sooner on a busy machine.
    SERVER_PROPS=(-XX:TieredStopAtLevel=1)
    hbase_java_cmd stop.log 256m org.apache.hadoop.hbase.master.HMaster stop --shutDownCluster
    exec "${JAVA_CMD[@]}" ;;
  *) usage ;;
esac
