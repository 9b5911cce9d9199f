# shellcheck shell=bash
# A run's fault schedule (./suite run --faults, faults.schedule; lifecycle/README.md, "faults.csv"):
# lifecycle's planner checked it before anything started and put it in plan.json; here its executor
# (lifecycle faults-run, a small JVM) is started beside the run and stopped by PID when the load is
# over or the run is interrupted. The executor times the actions, signals the local cluster's region
# servers and writes runs/run-N/faults.csv; a start goes through hbase-ctl.sh start-regionserver.
# Sourced by libexec/suite-run, never run.

# The local cluster's region servers that ./suite hbase start laid out here (its layout file), for
# the planner: N of --regionservers N, 1 for a running standalone, 0 when no HBase of ours runs.
local_regionservers() {
  (
    # shellcheck source=/dev/null  # written by lifecycle cluster: single-quoted assignments only
    if [[ -s $HBASE_LAYOUT_FILE ]] && source "$HBASE_LAYOUT_FILE" && [[ ${CLUSTER_MODE:-} != standalone ]]; then
      echo "${CLUSTER_REGIONSERVERS:-0}"
    elif [[ -n $(pid_of_ours "$HBASE_LOCAL_DIR/pids/master.pid" "-Dhbase.local.dir=$HBASE_LOCAL_DIR") ]]; then
      echo 1
    else
      echo 0
    fi
  )
}

# The local cluster's region servers (their numbers, comma-separated) that its layout names but that
# do not run now: a kill of an earlier run is not undone, and a schedule must start from what runs.
local_regionservers_down() {
  local name _ down=""
  while read -r name _; do
    [[ -n $(pid_of_ours "$HBASE_LOCAL_DIR/pids/$name.pid" "-Dhbase.local.dir=$HBASE_LOCAL_DIR") ]] || down+="${down:+,}${name#regionserver-}"
  done < <(layout_region_servers)
  printf '%s' "$down"
}

# start_faults MAX_SECONDS: reads RUN_DIR, PLAN, FAULTS_COUNT, FAULTS_SCHEDULE; sets FAULTS_PID.
start_faults() {
  local max=$1
  ((${FAULTS_COUNT:-0} > 0)) || return 0
  info "  fault schedule: $FAULTS_SCHEDULE (timed from the load's start; faults.csv)"
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  # --foreground: the executor's SIGTERM reaches it alone; it ends its own children (a start under way)
  # the lifecycle's classpath whole: the move action is an HBase client (slf4j from Grinder's jars)
  (lab_exec lifecycle timeout --foreground "$max" "$JAVA" -Xmx128m $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle):$(worker_classpath):$(grinder_classpath)" \
    io.github.hbasegrindersuite.lifecycle.Main faults-run --plan "$PLAN" --hbase-dir "$HBASE_LOCAL_DIR" \
    --hbase-ctl "$SUITE_ROOT/hbase-local/hbase-ctl.sh") > "$RUN_DIR/faults.out" 2>&1 < /dev/null &
  FAULTS_PID=$!
}

# Stop the executor by PID (SIGTERM: it resumes a paused region server and records what had not
# happened), then SIGCONT to every region server of the cluster whatever happened to the executor:
# no JVM stays frozen after a run. SIGCONT to a running process does nothing.
stop_faults() {
  [[ -n ${FAULTS_PID:-} ]] || return 0
  stop_pid "$FAULTS_PID" 8 "fault executor"
  wait "$FAULTS_PID" 2> /dev/null || true
  FAULTS_PID=""
  local file pid
  for file in "$HBASE_LOCAL_DIR"/pids/regionserver-*.pid; do
    [[ -e $file ]] || continue
    pid=$(pid_of_ours "$file" "-Dhbase.local.dir=$HBASE_LOCAL_DIR")
    [[ -z $pid ]] || kill -CONT "$pid" 2> /dev/null || true
  done
}
