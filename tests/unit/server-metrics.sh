# shellcheck shell=bash
# shellcheck disable=SC2030,SC2031  # each test sets the run's variables in its own subshell, on purpose
# suite.d/samplers.sh: which servers ./suite run hands the server-metrics sampler, that it shares
# one JVM with the CPU sampler, and that it is stopped by its PID. Sourced by libexec/suite-test (unit stage); JAVA is a stub that records its arguments.

# A stub java: its arguments one per line in $1, then it waits to be stopped (as the sampler does).
us_stub_java() {
  local log=$1 stub=$TEST_LOGS/stub-java
  # shellcheck disable=SC2016  # $@ and $! belong to the stub
  printf '#!/usr/bin/env bash\nprintf "%%s\\n" "$@" > %q\ntrap '"'"'kill $! 2> /dev/null; exit 0'"'"' TERM\nsleep 30 & wait\n' "$log" > "$stub"
  chmod +x "$stub"
  printf '%s' "$stub"
}

u_server_metrics_get_the_embedded_servers_at_the_offset_and_stop_by_pid() {
  local out=$TEST_LOGS/server-metrics-args run_dir
  run_dir=$(mktemp -d "$TEST_LOGS/run.XXXX")
  (
    SUITE_PORT_OFFSET=500
    source "$SUITE_ROOT/suite.d/common.sh"
    HBASE_LAYOUT_FILE=$run_dir/no-layout.sh  # a standalone: no local cluster's layout
    source "$SUITE_ROOT/suite.d/samplers.sh"
    SUITE_LAB_CGROUPS=none   # the sampler starts in its role (lab_exec); no lab made here
    source "$SUITE_ROOT/suite.d/lab.sh"
    JAVA=$(us_stub_java "$out") RUN_DIR=$run_dir PLAN=$run_dir/plan.json EMBEDDED_HBASE=true
    start_run_samplers 90
    pid=$RUN_SAMPLERS_PID
    for _ in $(seq 1 50); do [[ -s $out ]] && break; sleep 0.1; done
    stop_run_samplers
    pid_alive "$pid" && echo "still alive: $pid"
    [[ -z $RUN_SAMPLERS_PID ]] || echo "pid kept: $RUN_SAMPLERS_PID"
  ) > "$TEST_LOGS/server-metrics-unit.out" 2>&1
  if grep -qx 'master=127.0.0.1:16510' "$out" && grep -qx 'regionserver=127.0.0.1:16530' "$out" \
     && grep -qx 'io.github.hbasegrindersuite.lifecycle.RunSamplers' "$out" && grep -qx -- '---' "$out" \
     && grep -qx 'cpu' "$out" && grep -qx 'server-metrics' "$out" && grep -qx "$run_dir/cpu.csv" "$out" \
     && grep -qx "$run_dir/hbase/server-metrics.csv" "$out" && grep -qx -- '-Xmx48m' "$out" && grep -qx '90' "$out" \
     && ! grep -q -- '--discover' "$out" && [[ ! -s $TEST_LOGS/server-metrics-unit.out ]]; then
    pass "server metrics: the embedded master and region server at offset 500 (info ports 16510, 16530), in one JVM with the CPU sampler, stopped by PID"
  else
    fail "server metrics, embedded: args [$(tr '\n' ' ' < "$out" 2> /dev/null | cut -c1-300)] $(cat "$TEST_LOGS/server-metrics-unit.out")"
  fi
}

# A local cluster (./suite hbase start --regionservers 3): each region server on the web port of
# the layout lifecycle's LocalCluster gave it, beside the master.
u_server_metrics_get_each_region_server_of_a_local_cluster() {
  local out=$TEST_LOGS/server-metrics-cluster-args run_dir
  run_dir=$(mktemp -d "$TEST_LOGS/run.XXXX")
  (
    SUITE_PORT_OFFSET=500
    source "$SUITE_ROOT/suite.d/common.sh"
    HBASE_LAYOUT_FILE=$run_dir/layout.sh
    lifecycle cluster --regionservers 3 \
      --ports "$PORT_ZK,$PORT_MASTER,$PORT_MASTER_INFO,$PORT_REGIONSERVER,$PORT_REGIONSERVER_INFO" \
      --standalone-heap 4g --regionserver-heap "" --conf "$SUITE_ROOT/hbase-local/conf" --cluster-conf "$run_dir/conf-cluster" \
      > "$HBASE_LAYOUT_FILE"
    source "$SUITE_ROOT/suite.d/samplers.sh"
    SUITE_LAB_CGROUPS=none
    source "$SUITE_ROOT/suite.d/lab.sh"
    JAVA=$(us_stub_java "$out") RUN_DIR=$run_dir PLAN=$run_dir/plan.json EMBEDDED_HBASE=true
    start_run_samplers 90
    for _ in $(seq 1 50); do [[ -s $out ]] && break; sleep 0.1; done
    stop_run_samplers
  ) > "$TEST_LOGS/server-metrics-cluster-unit.out" 2>&1
  local servers
  servers=$(grep -E '^(master|regionserver)=' "$out" 2> /dev/null | tr '\n' ' ')
  if [[ $servers == "master=127.0.0.1:16510 regionserver=127.0.0.1:16530 regionserver=127.0.0.1:16531 regionserver=127.0.0.1:16532 " ]]; then
    pass "server metrics: a local cluster's master and its 3 region servers (web ports 16530-16532 from its layout)"
  else
    fail "server metrics, local cluster: servers [$servers] $(head -c 300 "$TEST_LOGS/server-metrics-cluster-unit.out")"
  fi
}

u_server_metrics_discover_a_real_cluster_or_stay_off() {
  local out=$TEST_LOGS/server-metrics-args-2 off=$TEST_LOGS/server-metrics-args-off run_dir
  run_dir=$(mktemp -d "$TEST_LOGS/run.XXXX")
  (
    source "$SUITE_ROOT/suite.d/common.sh"
    source "$SUITE_ROOT/suite.d/samplers.sh"
    SUITE_LAB_CGROUPS=none   # the sampler starts in its role (lab_exec); no lab made here
    source "$SUITE_ROOT/suite.d/lab.sh"
    RUN_DIR=$run_dir PLAN=$run_dir/plan.json EMBEDDED_HBASE=false
    JAVA=$(us_stub_java "$out")
    start_run_samplers 90
    for _ in $(seq 1 50); do [[ -s $out ]] && break; sleep 0.1; done
    stop_run_samplers
    JAVA=$(us_stub_java "$off")
    SUITE_SERVER_METRICS=off SUITE_CPU_SAMPLER=off start_run_samplers 90
    [[ -z ${RUN_SAMPLERS_PID:-} ]] || echo "started although off: $RUN_SAMPLERS_PID"
  ) > "$TEST_LOGS/server-metrics-unit-2.out" 2>&1
  if grep -qx -- '--discover' "$out" && grep -qx "$run_dir/plan.json" "$out" && ! grep -q -- '--server' "$out" \
     && [[ ! -e $off && ! -s $TEST_LOGS/server-metrics-unit-2.out ]]; then
    pass "server metrics: a real cluster's servers are discovered from plan.json; both off start no JVM"
  else
    fail "server metrics, cluster: args [$(tr '\n' ' ' < "$out" 2> /dev/null | cut -c1-300)] off $(ls "$off" 2>&1) $(cat "$TEST_LOGS/server-metrics-unit-2.out")"
  fi
}
