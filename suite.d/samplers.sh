# shellcheck shell=bash
# The run's JVM-side samplers, in one small JVM (lifecycle/.../RunSamplers; lifecycle/README.md):
# - the CPU accounting (cpu.CpuSampler, "cpu.csv"): once a second, each role's CPU seconds (HBase,
#   gateway, shim, console, agents, workers, samplers, ./suite itself) split by JVM thread class,
#   and the machine's rest, into runs/run-N/cpu.csv and cpu.json. It counts the lab's cgroups when
#   the lab has them (suite.d/lab.sh), else every process of this checkout by its command line;
# - the HBase server metrics (servermetrics.ServerMetricsSampler, "server-metrics.csv"): every
#   HBase server's JMX servlet once a second into runs/run-N/hbase/server-metrics.csv. The embedded
#   HBase's servers are named here (their info ports follow SUITE_PORT_OFFSET); a real cluster's
#   are found by the sampler through the client's Admin.
# One JVM for both: a JVM start less on the client CPU in every run. Started by libexec/suite-run
# before the console and agents (beside the HBase host's metrics sampler), stopped after them, by
# PID. A sampler that fails leaves the run alone (the report says what it lacks); its line is in
# runs/run-N/samplers.out. SUITE_CPU_SAMPLER=off or SUITE_SERVER_METRICS=off leaves one out.
# Sourced after suite.d/lab.sh, never run.

# A small C1 JVM that shares the 2 cores with HBase and the injectors; its own CPU is counted too
# (role sampler). java.nio opened as for the lifecycle's JVM: the HBase client (a real cluster's
# discovery) asks for it. bench/peers.sh starts a CpuSampler alone with the same options.
SAMPLERS_JVM_OPTS="-Xmx48m -Xss256k -XX:CICompilerCount=1 $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED"

# start_run_samplers MAX_SECONDS: reads RUN_DIR, PLAN, EMBEDDED_HBASE; sets RUN_SAMPLERS_PID (none
# when both are off).
start_run_samplers() {
  local max=$1
  local -a args=() where servers
  if [[ ${SUITE_CPU_SAMPLER:-on} != off ]]; then
    mapfile -t where < <(lab_sampler_args)
    ((${#where[@]} > 0)) || where=(--mark "$SUITE_ROOT")
    args+=(cpu --out "$RUN_DIR/cpu.csv" --notes "$RUN_DIR/cpu.json" --max-seconds "$max" --clock-ticks "$(getconf CLK_TCK)" "${where[@]}")
  fi
  if [[ ${SUITE_SERVER_METRICS:-on} != off ]]; then
    if [[ $EMBEDDED_HBASE == true ]]; then
      servers=(--server "master=127.0.0.1:$PORT_MASTER_INFO")
      local port
      for port in $(embedded_region_server_web_ports); do servers+=(--server "regionserver=127.0.0.1:$port"); done
    else
      servers=(--discover "$PLAN")
    fi
    mkdir -p "$RUN_DIR/hbase"
    ((${#args[@]} == 0)) || args+=(---)
    args+=(server-metrics --out "$RUN_DIR/hbase/server-metrics.csv" --notes "$RUN_DIR/hbase/server-metrics.json" --max-seconds "$max"
      --clock-ticks "$(getconf CLK_TCK)" "${servers[@]}")
  fi
  ((${#args[@]} > 0)) || return 0
  # shellcheck disable=SC2086  # SAMPLERS_JVM_OPTS is a list of words
  (lab_exec sampler "$JAVA" $SAMPLERS_JVM_OPTS \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle):$(worker_classpath):$(grinder_classpath)" \
    io.github.hbasegrindersuite.lifecycle.RunSamplers "${args[@]}") > "$RUN_DIR/samplers.out" 2>&1 < /dev/null &
  RUN_SAMPLERS_PID=$!
}

# The web ports of the embedded HBase's region servers: a local cluster's N from its layout, else
# the standalone's one.
embedded_region_server_web_ports() {
  local ports
  ports=$(layout_region_servers | awk '$3 != "" { print $3 }')
  printf '%s\n' "${ports:-$PORT_REGIONSERVER_INFO}"
}

stop_run_samplers() {
  [[ -n ${RUN_SAMPLERS_PID:-} ]] || return 0
  # SIGTERM: each finishes its sample in hand and writes its final notes (within 4 s)
  stop_pid "$RUN_SAMPLERS_PID" 5 "run samplers"
  wait "$RUN_SAMPLERS_PID" 2> /dev/null || true
  RUN_SAMPLERS_PID=""
}
