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

# cds_options on a fake lib/: record first; a recording whose JVM was killed is dropped, one whose
# JVM exited becomes the archive; an archive older than a suite jar is not used; SUITE_CDS=off adds
# nothing. Then a real JVM records one and maps it.
u_class_data_archives_are_recorded_once_then_used_until_the_jars_change() {
  local lib=$TEST_LOGS/cds-lib got=() real killed
  rm -rf "$lib"; mkdir -p "$lib"
  touch -d '-1 hour' "$lib/hbase-grinder-lifecycle.jar"
  SUITE_LIB=$lib cds_options lifecycle-plan; got+=("${CDS_OPTS[0]:-none}")
  killed=$CDS_RECORDING; echo partial > "$killed"
  SUITE_LIB=$lib cds_recorded 137   # killed while writing: a truncated archive crashes the JVM mapping it
  SUITE_LIB=$lib cds_options lifecycle-plan; got+=("${CDS_OPTS[0]:-none}")
  echo data > "$CDS_RECORDING"
  SUITE_LIB=$lib cds_recorded 1     # exited by itself (with its own error): the recording is whole
  SUITE_LIB=$lib cds_options lifecycle-plan; got+=("${CDS_OPTS[0]:-none}")
  touch "$lib/hbase-grinder-lifecycle.jar"   # rebuilt: newer than the archive
  SUITE_LIB=$lib cds_options lifecycle-plan; got+=("${CDS_OPTS[0]:-none}")
  SUITE_CDS=off SUITE_LIB=$lib cds_options lifecycle-plan; got+=("${CDS_OPTS[0]:-none}")
  # a real recording and its use, with nothing printed by the JVM about either
  real=$TEST_LOGS/cds-real; rm -rf "$real"; mkdir -p "$real"
  SUITE_LIB=$real cds_options probe
  "$JAVA" "${CDS_OPTS[@]}" -version > "$TEST_LOGS/cds-record.out" 2>&1
  SUITE_LIB=$real cds_recorded $?
  SUITE_LIB=$real cds_options probe
  "$JAVA" "${CDS_OPTS[@]}" -Xshare:on -version > "$TEST_LOGS/cds-use.out" 2>&1
  local want="-XX:ArchiveClassesAtExit=$lib/cds/lifecycle-plan.jsa.new.* -XX:ArchiveClassesAtExit=$lib/cds/lifecycle-plan.jsa.new.* -XX:SharedArchiveFile=$lib/cds/lifecycle-plan.jsa -XX:ArchiveClassesAtExit=$lib/cds/lifecycle-plan.jsa.new.* none"
  # shellcheck disable=SC2053  # want is a pattern
  if [[ ${got[*]} == $want && ! -e $killed && ! -e $lib/cds/lifecycle-plan.jsa && ${CDS_OPTS[0]} == -XX:SharedArchiveFile=$real/cds/probe.jsa \
        && -s $real/cds/probe.jsa ]] && ! grep -qi 'warning\|error' "$TEST_LOGS/cds-record.out" "$TEST_LOGS/cds-use.out"; then
    pass "class-data archives: recorded by the first JVM, kept only if it exited by itself, used by the next, dropped when a suite jar is newer, off with SUITE_CDS=off; the JDK maps a recorded one (-Xshare:on)"
  else
    fail "class-data archives: ${got[*]}; real: ${CDS_OPTS[*]}; $(cat "$TEST_LOGS/cds-record.out" "$TEST_LOGS/cds-use.out" | grep -i 'warning\|error' | head -2)"
  fi
}

u_a_lib_older_than_the_java_sources_is_said_once() {
  local lib=$TEST_LOGS/stale-lib out_old out_new f
  mkdir -p "$lib"
  for f in grinder worker hbase-server lifecycle; do echo x > "$lib/$f.classpath"; done
  echo x > "$lib/hbase-grinder-lifecycle.jar"
  touch -d '2000-01-01' "$lib/.java-build.stamp"
  # shellcheck disable=SC2016  # expanded by the inner bash
  out_old=$(SUITE_LIB=$lib SUITE_ME=t bash -c 'source "$SUITE_ROOT/suite.d/common.sh"; require_setup; require_setup' 2>&1)
  touch -d '+1 hour' "$lib/.java-build.stamp"
  # shellcheck disable=SC2016
  out_new=$(SUITE_LIB=$lib SUITE_ME=t bash -c 'source "$SUITE_ROOT/suite.d/common.sh"; require_setup' 2>&1)
  if [[ $(grep -c '^t: lib/ was built before .* changed: this runs the old code (./suite setup rebuilds it)$' <<< "$out_old") == 1 && -z $out_new ]]; then
    pass "require_setup: a lib/ built before the Java sources changed is said in one line, once; an up-to-date one says nothing"
  else
    fail "require_setup on a stale lib/: '$out_old'; on a fresh one: '$out_new'"
  fi
}

# lab_start_wide on a fake cpuset tree: an idle isolated lab widens the roles that hold no process,
# gives their JVMs the server side's CPU count, and lab_start_done puts them back; a lab with a run
# in it (a process in a client role) is left as it is.
u_servers_start_wide_in_an_idle_lab_and_go_back() {
  local out
  # shellcheck disable=SC2016  # expanded by the inner bash
  out=$(SUITE_PORT_OFFSET=700 FAKE=$TEST_LOGS/fake-cpuset bash -c '
    source "$SUITE_ROOT/suite.d/common.sh"
    source "$SUITE_ROOT/suite.d/lab.sh"
    info() { echo "said: $*"; }
    lab_online_cpus() { echo 0-3; }
    LAB_CGROUPS=v1 LAB_ACCT_ROOT=$FAKE LAB_CPUSET_ROOT=$FAKE
    LAB_ISOLATED=true LAB_SERVER_CPUS=0-1 LAB_SERVER_CPU_COUNT=2 LAB_CLIENT_CPUS=2-3
    rm -rf "$FAKE"
    for role in $LAB_SERVER_ROLES $LAB_CLIENT_ROLES; do
      mkdir -p "$FAKE/hgs700/$role"; echo 0 > "$FAKE/hgs700/$role/cpuset.mems"; : > "$FAKE/hgs700/$role/cgroup.procs"
      lab_side_cpus "$role" > "$FAKE/hgs700/$role/cpuset.cpus"
    done
    cpus() { echo "hbase=$(cat "$FAKE/hgs700/hbase/cpuset.cpus") gateway=$(cat "$FAKE/hgs700/gateway/cpuset.cpus") shim=$(cat "$FAKE/hgs700/shim/cpuset.cpus")"; }
    echo 4242 > "$FAKE/hgs700/shim/cgroup.procs"   # a running shim keeps its CPUs
    lab_start_wide hbase gateway shim
    echo "wide: $(cpus) opts: ${LAB_START_JVM_OPTS[*]}"
    lab_start_done
    echo "done: $(cpus)"
    echo 99 > "$FAKE/hgs700/agent/cgroup.procs"   # a run: nothing moves
    lab_start_wide hbase gateway
    echo "busy: $(cpus) opts: ${LAB_START_JVM_OPTS[*]:-none}"
    LAB_ISOLATED=false; : > "$FAKE/hgs700/agent/cgroup.procs"
    lab_start_wide hbase
    echo "shared: $(cpus) opts: ${LAB_START_JVM_OPTS[*]:-none}"' 2>&1)
  if [[ $out == "said:   starting on CPUs 0-3, sized for the server side's 2 CPU(s); on CPUs 0-1 once ready
wide: hbase=0-3 gateway=0-3 shim=0-1 opts: -XX:ActiveProcessorCount=2
done: hbase=0-1 gateway=0-1 shim=0-1
busy: hbase=0-1 gateway=0-1 shim=0-1 opts: none
shared: hbase=0-1 gateway=0-1 shim=0-1 opts: none" ]]; then
    pass "lab_start_wide: an idle isolated lab starts empty server roles on every CPU sized for the server side (-XX:ActiveProcessorCount=2) and puts them back; a running server, a run or a shared lab keeps its CPUs"
  else
    fail "lab_start_wide: $out"
  fi
}
