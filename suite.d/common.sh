# shellcheck shell=bash
# Shared by every ./suite command: paths, ports, messages, process and port helpers.
# Sourced, never run. Callers have `set -euo pipefail`.
# shellcheck disable=SC2034  # the variables here are read by the scripts that source this file

SUITE_ROOT=${SUITE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
SUITE_LIB=${SUITE_LIB:-$SUITE_ROOT/lib}
SUITE_RUNS_DIR=${SUITE_RUNS_DIR:-$SUITE_ROOT/runs}
export SUITE_ROOT SUITE_LIB SUITE_RUNS_DIR

# JDK 17 everywhere: HBase 2.6.1's Hadoop 2.10 jars fail on newer JDKs.
if [[ -z ${JAVA_HOME:-} ]]; then
  for candidate in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-arm64 /usr/lib/jvm/temurin-17-jdk-amd64; do
    if [[ -x $candidate/bin/java ]]; then JAVA_HOME=$candidate; break; fi
  done
fi
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
export JAVA_HOME

# Every loopback port the embedded stack uses, shifted by SUITE_PORT_OFFSET so that two
# copies of the suite (two developers, CI beside a session) can run side by side.
SUITE_PORT_OFFSET=${SUITE_PORT_OFFSET:-0}
# Checked before any arithmetic: bash would evaluate x[$(cmd)] inside $((...)) and run cmd.
if [[ ! $SUITE_PORT_OFFSET =~ ^[0-9]{1,5}$ ]] || ((10#$SUITE_PORT_OFFSET > 50000)); then
  printf '%s: SUITE_PORT_OFFSET %q is not a whole number from 0 to 50000\n' "${SUITE_ME:-suite}" "$SUITE_PORT_OFFSET" >&2
  exit 1
fi
SUITE_PORT_OFFSET=$((10#$SUITE_PORT_OFFSET))
PORT_ZK=$((2181 + SUITE_PORT_OFFSET))
PORT_MASTER=$((16000 + SUITE_PORT_OFFSET))
PORT_MASTER_INFO=$((16010 + SUITE_PORT_OFFSET))
# The first region server; in a local cluster (./suite hbase start --regionservers N, N <= 8) region
# server i has PORT_REGIONSERVER+i-1 and PORT_REGIONSERVER_INFO+i-1 (lifecycle's LocalCluster).
PORT_REGIONSERVER=$((16020 + SUITE_PORT_OFFSET))
PORT_REGIONSERVER_INFO=$((16030 + SUITE_PORT_OFFSET))
PORT_THRIFT2=$((9091 + SUITE_PORT_OFFSET))
PORT_THRIFT2_INFO=$((9096 + SUITE_PORT_OFFSET))
PORT_SHIM=${SHIM_PORT:-$((9092 + SUITE_PORT_OFFSET))}
PORT_SHIM_METRICS=${SHIM_METRICS_PORT:-$((9097 + SUITE_PORT_OFFSET))}
PORT_CONSOLE=$((6372 + SUITE_PORT_OFFSET))
PORT_CONSOLE_METRICS=$((9098 + SUITE_PORT_OFFSET))   # a run's live Prometheus endpoint (./suite run --metrics-port)
# What lifecycle maps a run's default ZooKeeper, gateway and shim ports onto (it adds no offset itself).
EMBEDDED_PORTS="$PORT_ZK,$PORT_THRIFT2,$PORT_SHIM"

# Where the embedded HBase keeps data, logs and PID files (git-ignored).
HBASE_LOCAL_DIR=${HBASE_LOCAL_DIR:-$SUITE_ROOT/hbase-local/data}
# What ./suite hbase start last laid out (lifecycle cluster: CLUSTER_* assignments; none: the standalone).
HBASE_LAYOUT_FILE=$HBASE_LOCAL_DIR/pids/layout.sh

SUITE_ME=${SUITE_ME:-suite}

die() {
  printf '%s: %s\n' "$SUITE_ME" "$*" >&2
  exit 1
}

# A command line that cannot be right (an unknown option, a missing argument): exit 2, as getopt does.
usage_error() {
  printf '%s: %s\n' "$SUITE_ME" "$*" >&2
  exit 2
}

info() {
  printf '%s\n' "$*"
}

# A command file's "# Usage:" header: its usage lines and its help text (./suite help CMD, --help).
usage_of() {
  awk 'NR == 1 { next }
       /^# Usage:/ { on = 1 }
       on && (/^# Summary:/ || /^# Help:/) { next }
       on && (/^#$/ || !/^#/) { exit }
       on { sub(/^# ?/, ""); print }' "$1"
}

# The one-line "# Summary:" of a command file (./suite help).
summary_of() {
  sed -n 's/^# Summary: //p' "$1" | head -1
}

# --help or -h as a command's first argument: print its usage and exit 0.
offer_help() {
  local file=$1; shift
  case ${1:-} in -h | --help) usage_of "$file"; exit 0 ;; esac
}

# A progress line: what is being done and for how long.
progress() {
  local started=$1; shift
  printf '  ... %s (%ds)\n' "$*" $((SECONDS - started))
}

# The Java build's inputs, as paths from the project's root: the poms and sources of the Maven
# modules (pom.xml's <module>s). FIND_ACTIONS (e.g. -print) apply to each. ./suite setup digests
# them; require_setup looks for one newer than lib/'s build.
java_build_inputs() {
  (cd "$SUITE_ROOT" && find pom.xml console grinder-scripts hbase-local/pom.xml thrift-shim lifecycle bench/pe -path '*/target' -prune \
    -o \( -name pom.xml -o -path '*/src/*' \) -type f "$@")
}

# Maven, its own JVM compiling with C1 only unless MAVEN_OPTS says otherwise: a build is too short
# to repay C2 (a fresh clone's package: 12.5 -> 9.4 s, and half the CPU, 22 -> 11 s).
maven() {
  MAVEN_OPTS=${MAVEN_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC} mvn "$@"
}

require_setup() {
  local f
  for f in grinder worker hbase-server lifecycle; do
    [[ -s $SUITE_LIB/$f.classpath ]] || die "lib/$f.classpath is missing: run ./suite setup first"
  done
  [[ -s $SUITE_LIB/hbase-grinder-lifecycle.jar ]] || die "lib/hbase-grinder-lifecycle.jar is missing: run ./suite setup first"
  # Java sources edited (or pulled) since lib/ was built run as the old code until ./suite setup
  # rebuilds it: say so once per command rather than run it silently. (R reinstalls itself.)
  local newer
  newer=$(java_build_inputs -newer "$SUITE_LIB/.java-build.stamp" -print -quit 2> /dev/null) || true
  [[ -z $newer || -n ${SUITE_STALE_LIB_SAID:-} ]] || printf '%s: lib/ was built before %s changed: this runs the old code (./suite setup rebuilds it)\n' "$SUITE_ME" "$newer" >&2
  export SUITE_STALE_LIB_SAID=1
}

classpath_of() {
  cat "$SUITE_LIB/$1.classpath"
}

# The Grinder classpath: the project's Java 17 fix jar first, so its net.grinder.util.JVM wins.
grinder_classpath() {
  printf '%s:%s' "$SUITE_LIB/hbase-grinder-console.jar" "$(classpath_of grinder)"
}

# What workers get as grinder.jvm.classpath: the project's worker jar and the HBase client subset.
worker_classpath() {
  printf '%s:%s' "$SUITE_LIB/hbase-grinder-worker.jar" "$(classpath_of worker)"
}

# shellcheck source=suite.d/cds.sh
source "$SUITE_ROOT/suite.d/cds.sh"

# JVM options for the suite's own JVMs that do little work: the console and agents (idle between
# reports) and short-lived helpers (table info). C1 only and a serial collector: their work
# never repays C2's compiles or G1's threads, and every CPU second they take is the injector's.
# SUITE_BRIEF_JVM_EXTRA adds options for an investigation (e.g. -XX:NativeMemoryTracking=summary).
BRIEF_JVM_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC${SUITE_BRIEF_JVM_EXTRA:+ $SUITE_BRIEF_JVM_EXTRA}"
# The console and agents live as long as a run and allocate little: with the default initial heap
# (1/64 of RAM: 384 MB here, a 100 MB eden) their resident memory grew for 15 minutes as eden was
# touched for the first time (NMT: native memory flat, +0.2 MB in 6 min). A small start heap
# grows only when needed and keeps their footprint, and a soak's RSS, honest.
SERVICE_HEAP_START="-Xms16m"

# Run a Java main class of the worker jar with what a Grinder worker has on its classpath
# (the HBase client subset, then Grinder's slf4j/logback); logging at warnings only.
# WORKER_JAVA_OPTS: more JVM options (words).
run_worker_java() {
  local main=$1; shift
  local rc=0
  cds_options "worker-$main"
  # shellcheck disable=SC2086  # WORKER_JAVA_OPTS is a list of words
  "$JAVA" "${CDS_OPTS[@]}" ${WORKER_JAVA_HEAP:+"-Xmx$WORKER_JAVA_HEAP"} ${WORKER_JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    -cp "$(worker_classpath):$(grinder_classpath)" "io.github.hbasegrindersuite.worker.$main" "$@" || rc=$?
  cds_recorded "$rc"
  return "$rc"
}

# The run lifecycle's decisions (lifecycle/, io.github.hbasegrindersuite.lifecycle.Main): plan,
# finalise, sweep-plan, sweep-record. A brief JVM on the worker's classpath, gson first (Grinder
# brings an old one), logging at warnings.
lifecycle() {
  local rc=0
  cds_options "lifecycle-${1:-none}"
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  "$JAVA" "${CDS_OPTS[@]}" $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle):$(worker_classpath):$(grinder_classpath)" \
    io.github.hbasegrindersuite.lifecycle.Main "$@" || rc=$?
  cds_recorded "$rc"
  return "$rc"
}

pid_alive() {
  [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null
}

pid_from_file() {
  if [[ -s $1 ]]; then cat "$1"; fi
}

# The local cluster's region servers as ./suite hbase start laid them out (HBASE_LAYOUT_FILE, there
# while a cluster runs): a line "NAME RPC_PORT WEB_PORT" each (ports empty if the layout has none);
# nothing for the standalone. The one reader of the layout outside hbase-ctl.sh.
layout_region_servers() {
  (
    CLUSTER_NAMES=() CLUSTER_PORTS=()
    # shellcheck source=/dev/null  # written by lifecycle cluster: single-quoted assignments only
    [[ ! -s $HBASE_LAYOUT_FILE ]] || source "$HBASE_LAYOUT_FILE"
    local i
    for i in "${!CLUSTER_NAMES[@]}"; do
      [[ ${CLUSTER_NAMES[i]} == regionserver-* ]] || continue
      echo "${CLUSTER_NAMES[i]} ${CLUSTER_PORTS[i]:-}"
    done
  )
}

# The PID in PIDFILE when that process is alive and its command line holds MARK (a fixed
# string): a PID file left by a crash may name another program by now, never to be killed.
pid_of_ours() {
  local pid
  pid=$(pid_from_file "$1")
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  if pid_alive "$pid" && tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | grep -qF -- "$2"; then
    printf '%s' "$pid"
  fi
}

# PIDs of the processes a run in DIR started (console, agents, workers, metrics samplers): Grinder
# and sampler processes whose command line names a path below DIR or whose working folder is in it.
run_processes() {
  local dir=${1%/} pid cwd
  for pid in $(pgrep -f 'net\.grinder|host-metrics|RunSamplers|ServerMetricsSampler|CpuSampler' || true); do
    cwd=$(readlink "/proc/$pid/cwd" 2> /dev/null || true)
    if tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | grep -qF -- "$dir/" || [[ $cwd == "$dir" || $cwd == "$dir/"* ]]; then
      echo "$pid"
    fi
  done
}

# Keep the previous start's log as FILE.1 instead of truncating it: the evidence of a crash.
keep_previous_log() {
  if [[ -s $1 ]]; then mv -f "$1" "$1.1"; fi
}

# Is something listening on 127.0.0.1:PORT (or on all interfaces)?
port_listening() {
  [[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]
}

# Which process listens on PORT, for error messages.
port_owner() {
  ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:(("[^"]*",pid=[0-9]*' | head -1 | sed 's/users:(("//; s/",pid=/ pid /' || true
}

# Refuse to start when one of PORTS already listens, naming the port and its owner.
# PORT_HINT says how to move out of the way (the shim adds its own port variables).
check_ports_free() {
  local port owner
  for port in "$@"; do
    if port_listening "$port"; then
      owner=$(port_owner "$port")
      die "port $port on 127.0.0.1 is already taken${owner:+ by $owner}; stop it or ${PORT_HINT:-set SUITE_PORT_OFFSET}"
    fi
  done
}

# Indent a child command's output by four spaces under ours, line by line: written to a file or a
# pipe, a run's progress would otherwise come out in one block at its end.
indent() {
  sed -u 's/^/    /'
}

# Stop PID: SIGTERM, wait up to GRACE seconds, then SIGKILL. Returns once it is gone.
stop_pid() {
  local pid=$1 grace=${2:-20} name=${3:-process} polls=0 waited=5
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  # Every 0.05 s for the first second, where most processes are gone (a run stops several, one
  # after another), then every 0.2 s up to the grace.
  while pid_alive "$pid" && ((polls < 20)); do sleep 0.05; polls=$((polls + 1)); done
  while pid_alive "$pid" && ((waited < grace * 5)); do sleep 0.2; waited=$((waited + 1)); done
  if pid_alive "$pid"; then
    info "  $name (pid $pid) ignored SIGTERM for ${grace}s: killing it"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
}

# One-line summary of the last error in a log, for failure messages.
last_error_line() {
  grep -E 'ERROR|FATAL|Exception|Error:' "$1" 2>/dev/null | grep -v 'WARN' | tail -1 | cut -c1-300 || true
}
