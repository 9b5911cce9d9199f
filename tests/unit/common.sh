# shellcheck shell=bash
# suite.d/common.sh and the run command's own helpers. Sourced by libexec/suite-test (unit
# stage); each u_* runs in a subshell with pass/fail and TEST_LOGS defined.

u_stop_pid_kills_what_ignores_sigterm() {
  local pid started=$SECONDS
  bash -c 'trap "" TERM; sleep 30' &
  pid=$!
  sleep 0.3
  stop_pid "$pid" 2 "stubborn" > "$TEST_LOGS/stop-pid.out"
  wait "$pid" 2> /dev/null   # reap it here, quietly
  if ! pid_alive "$pid" && ((SECONDS - started <= 6)) && grep -q 'stubborn (pid [0-9]*) ignored SIGTERM for 2s: killing it' "$TEST_LOGS/stop-pid.out"; then
    pass "stop_pid: a process ignoring SIGTERM is killed after the grace, and said so"
  else
    kill -9 "$pid" 2> /dev/null
    fail "stop_pid: still alive or no message: $(cat "$TEST_LOGS/stop-pid.out")"
  fi
}

u_ports_follow_the_offset() {
  local out
  out=$(SUITE_PORT_OFFSET=500 bash -c 'source "$SUITE_ROOT/suite.d/common.sh"; echo "$PORT_ZK $PORT_MASTER $PORT_THRIFT2 $PORT_SHIM $PORT_CONSOLE"')
  if [[ $out == "2681 16500 9591 9592 6872" ]]; then
    pass "ports: SUITE_PORT_OFFSET=500 moves ZooKeeper, master, thrift2, shim and console ($out)"
  else
    fail "ports with offset 500: $out"
  fi
}

u_the_port_offset_is_a_number_only() {
  local out rc=0
  out=$(SUITE_PORT_OFFSET='x[$(touch /tmp/suite-offset-injected)]' bash -c 'source "$SUITE_ROOT/suite.d/common.sh"' 2>&1) || rc=$?
  if ((rc != 0)) && [[ ! -e /tmp/suite-offset-injected ]] && grep -q 'SUITE_PORT_OFFSET .* is not a whole number from 0 to 50000' <<< "$out"; then
    pass "SUITE_PORT_OFFSET: anything but a number is refused before it is used in arithmetic"
  else
    rm -f /tmp/suite-offset-injected
    fail "SUITE_PORT_OFFSET with a command substitution: rc $rc, $out"
  fi
}

u_run_finds_its_slo_before_java_reads_the_options() {
  local out
  # shellcheck source=../../libexec/suite-run
  out=$(source "$SUITE_ROOT/libexec/suite-run"; option_value --slo --threads 4 --slo 'p99_ms<5' --duration 3; echo "|"; option_value --slo --threads 4)
  if [[ $out == "p99_ms<5|" ]]; then
    pass "suite-run: option_value finds --slo among the run's options, and nothing when absent"
  else
    fail "suite-run option_value: '$out'"
  fi
}

u_lab_names_follow_the_offset() {
  local out
  out=$(SUITE_PORT_OFFSET=500 bash -c 'source "$SUITE_ROOT/suite.d/common.sh"; source "$SUITE_ROOT/injectors/lib.sh"; echo "$(lab_ns 2) $(lab_veth 2) $(lab_bridge) $(lab_addr 2) $(lab_gateway)"')
  if [[ $out == "hgs500-inj2 hgs500i2 hgsbr500 10.231.5.12 10.231.5.1" ]]; then
    pass "lab: namespaces, links and addresses are named after the port offset ($out)"
  else
    fail "lab names at offset 500: $out"
  fi
}
