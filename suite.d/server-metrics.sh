# shellcheck shell=bash
# The HBase server-metrics sampler of a run (lifecycle/README.md, "server-metrics.csv"): a small JVM
# that reads every HBase server's JMX servlet once a second into runs/run-N/hbase/server-metrics.csv.
# Started by libexec/suite-run beside the HBase host's metrics sampler and stopped by PID. The
# embedded HBase's servers are named here (their info ports follow SUITE_PORT_OFFSET); a real
# cluster's are found by the sampler through the client's Admin. A sampler that fails leaves the
# run alone: the report says which server had no metrics. Sourced, never run.

# It shares the 2 cores with HBase and the injectors: C1, serial GC, a small heap (lifecycle/README.md
# gives its CPU per second of run).
# java.nio opened as for the lifecycle's JVM: the HBase client (real clusters' discovery) asks for it.
SERVER_METRICS_JVM_OPTS="-Xmx48m -Xss256k -XX:CICompilerCount=1 $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED"

# start_server_metrics MAX_SECONDS: reads RUN_DIR, PLAN, EMBEDDED_HBASE; sets SERVER_METRICS_PID.
# SUITE_SERVER_METRICS=off: no sampler (a benchmark that counts every process of a run as the client's).
start_server_metrics() {
  local max=$1 dir=$RUN_DIR/hbase
  local -a servers
  [[ ${SUITE_SERVER_METRICS:-on} != off ]] || return 0
  if [[ $EMBEDDED_HBASE == true ]]; then
    servers=(--server "master=127.0.0.1:$PORT_MASTER_INFO")
    local port
    for port in $(embedded_region_server_web_ports); do servers+=(--server "regionserver=127.0.0.1:$port"); done
  else
    servers=(--discover "$PLAN")
  fi
  mkdir -p "$dir"
  # shellcheck disable=SC2086  # SERVER_METRICS_JVM_OPTS is a list of words
  (lab_exec sampler "$JAVA" $SERVER_METRICS_JVM_OPTS \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle):$(worker_classpath):$(grinder_classpath)" \
    io.github.hbasegrindersuite.lifecycle.servermetrics.ServerMetricsSampler \
    --out "$dir/server-metrics.csv" --notes "$dir/server-metrics.json" --max-seconds "$max" "${servers[@]}") \
    > "$dir/server-metrics.out" 2>&1 < /dev/null &
  SERVER_METRICS_PID=$!
}

# The web ports of the embedded HBase's region servers: a local cluster's N from its layout, else
# the standalone's one.
embedded_region_server_web_ports() {
  local ports
  ports=$(layout_region_servers | awk '$3 != "" { print $3 }')
  printf '%s\n' "${ports:-$PORT_REGIONSERVER_INFO}"
}

stop_server_metrics() {
  [[ -n ${SERVER_METRICS_PID:-} ]] || return 0
  # SIGTERM: it finishes its sample and writes its final notes (within 4 s)
  stop_pid "$SERVER_METRICS_PID" 5 "server-metrics sampler"
  wait "$SERVER_METRICS_PID" 2> /dev/null || true
  SERVER_METRICS_PID=""
}
