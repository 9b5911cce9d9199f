# shellcheck shell=bash
# The CPU accounting of a run (lifecycle/.../cpu/CpuSampler, lifecycle/README.md "cpu.csv"): once a
# second, each role's CPU seconds (HBase, gateway, shim, console, agents, workers, samplers, ./suite
# itself) split by JVM thread class, and the machine's rest, into runs/run-N/cpu.csv and cpu.json.
# It counts the lab's cgroups when the lab has them (suite.d/lab.sh), else every process of this
# checkout by its command line. Started before the console and agents, stopped after them, by PID.
# Sourced after suite.d/lab.sh.

# A small C1 JVM like the server-metrics sampler: its own CPU is counted too (role sampler).
CPU_SAMPLER_JVM_OPTS="-Xmx32m -Xss256k -XX:CICompilerCount=1 $BRIEF_JVM_OPTS"

# start_cpu_sampler MAX_SECONDS: reads RUN_DIR; sets CPU_SAMPLER_PID. SUITE_CPU_SAMPLER=off: none.
start_cpu_sampler() {
  local max=$1
  local -a where
  [[ ${SUITE_CPU_SAMPLER:-on} != off ]] || return 0
  mapfile -t where < <(lab_sampler_args)
  ((${#where[@]} > 0)) || where=(--mark "$SUITE_ROOT")
  # shellcheck disable=SC2086  # CPU_SAMPLER_JVM_OPTS is a list of words
  (lab_exec sampler "$JAVA" $CPU_SAMPLER_JVM_OPTS -cp "$SUITE_LIB/hbase-grinder-lifecycle.jar:$(classpath_of lifecycle)" \
    io.github.hbasegrindersuite.lifecycle.cpu.CpuSampler --out "$RUN_DIR/cpu.csv" --notes "$RUN_DIR/cpu.json" \
    --max-seconds "$max" --clock-ticks "$(getconf CLK_TCK)" "${where[@]}") > "$RUN_DIR/cpu-sampler.out" 2>&1 < /dev/null &
  CPU_SAMPLER_PID=$!
}

stop_cpu_sampler() {
  [[ -n ${CPU_SAMPLER_PID:-} ]] || return 0
  # SIGTERM: it takes a last sample and writes cpu.json's totals (within 4 s)
  stop_pid "$CPU_SAMPLER_PID" 5 "CPU sampler"
  wait "$CPU_SAMPLER_PID" 2> /dev/null || true
  CPU_SAMPLER_PID=""
}
