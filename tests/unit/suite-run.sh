# shellcheck shell=bash
# libexec/suite-run's own checks: every bad option value, or a properties file it cannot use, is
# one line naming the culprit and what it accepts, exit 1, before any run folder exists.
# Sourced by libexec/suite-test (unit stage); each u_* runs in a subshell with pass/fail and
# TEST_LOGS defined.

u_run_refuses_bad_values_by_name_before_any_folder() {
  local runs=$TEST_LOGS/run-refusals rc out bad="" case
  mkdir -p "$runs"
  # "ARGS|what the one line must contain"
  local -a cases=(
    "--threads 0|--threads '0' is not a whole number > 0"
    "--duration 5x|--duration '5x' is not a duration (accepted: 30, 30s, 2m)"
    "--target grpc|--target 'grpc' is not accepted (accepted: direct, thrift)"
    "--set noequals|--set 'noequals' is not KEY=VALUE on one line"
    "--injectors 65|--injectors 65: at most 64"
    "--console-host 0.0.0.0|--console-host '0.0.0.0' is not an address"
    "--properties $TEST_LOGS/absent.properties|properties file $TEST_LOGS/absent.properties not found"
    "--set hbaseload.rows=many|hbaseload.rows=many is not a whole number"
  )
  for case in "${cases[@]}"; do
    local -a args
    read -r -a args <<< "${case%%|*}"
    rc=0
    out=$(SUITE_RUNS_DIR=$runs timeout 60 "$SUITE_ROOT/suite" run "${args[@]}" 2>&1 < /dev/null) || rc=$?
    if ((rc != 1)) || [[ $(wc -l <<< "$out") != 1 || $out != *"${case#*|}"* ]]; then
      bad+="[${case%%|*}: rc $rc: $(head -2 <<< "$out" | tr '\n' ' ' | cut -c1-160)] "
    fi
  done
  if [[ -z $bad && -z $(find "$runs" -mindepth 1 -maxdepth 1) ]]; then
    pass "run: ${#cases[@]} bad values (threads, duration, target, --set, injectors, console host, a missing properties file, a bad hbaseload value) each one line naming it, exit 1, no run folder"
  else
    fail "run refusals: $bad; runs folder: $(find "$runs" -mindepth 1 -maxdepth 1 -printf '%f ')"
  fi
}

# --faults (a fault schedule, issue 24): a malformed schedule, one that does not fit the cluster or
# the run, or any against a standalone or absent HBase is one line naming it, exit 2, no run folder.
# A local cluster of 2 region servers is faked by its layout file only: nothing runs.
u_run_refuses_bad_fault_schedules() {
  local runs=$TEST_LOGS/run-fault-refusals hbase=$TEST_LOGS/fault-refusals-hbase none=$TEST_LOGS/fault-refusals-none
  local named=$TEST_LOGS/fault-refusals-named rc out bad="" case dir
  mkdir -p "$runs" "$hbase/pids" "$none" "$named/pids"
  printf "CLUSTER_REGIONSERVERS='2'\nCLUSTER_MODE='distributed'\n" > "$hbase/pids/layout.sh"
  # a layout that names its region servers, none of which runs (no PID file): a kill of an earlier run
  printf "CLUSTER_REGIONSERVERS='2'\nCLUSTER_MODE='distributed'\nCLUSTER_NAMES=('zookeeper' 'master' 'regionserver-1' 'regionserver-2')\n" \
    > "$named/pids/layout.sh"
  # "HBASE_DIR|DURATION|SCHEDULE|what the one line must contain"
  local -a cases=(
    "$hbase|20|at=5s kil regionserver=2|faults: action 1 'at=5s kil regionserver=2': unknown action 'kil' (accepted: kill, stop, start, pause, move)"
    "$hbase|20|at=5s pause regionserver=1|a pause needs for=TIME"
    "$hbase|20|at=5s kill regionserver=3|regionserver=3 is not one of the local cluster's 1..2"
    "$hbase|20|at=25s kill regionserver=1|at=25s is past the run's 20 s of load"
    "$hbase|20|at=5s kill regionserver=1; at=9s kill regionserver=1|regionserver=1 is down then"
    "$hbase|20|kill regionserver=1|no at=TIME"
    "$named|20|at=5s kill regionserver=1|faults: regionserver=1 is not running when the run starts"
    "$none|20|at=5s kill regionserver=1|only against the local cluster of ./suite hbase start --regionservers N (N >= 2); none is running here"
  )
  for case in "${cases[@]}"; do
    IFS='|' read -r dir duration schedule want <<< "$case"
    rc=0
    out=$(SUITE_RUNS_DIR=$runs HBASE_LOCAL_DIR=$dir timeout 60 "$SUITE_ROOT/suite" run --duration "$duration" --faults "$schedule" 2>&1 < /dev/null) || rc=$?
    if ((rc != 2)) || [[ $(wc -l <<< "$out") != 1 || $out != *"$want"* ]]; then
      bad+="[$schedule: rc $rc: $(head -2 <<< "$out" | tr '\n' ' ' | cut -c1-200)] "
    fi
  done
  if [[ -z $bad && -z $(find "$runs" -mindepth 1 -maxdepth 1) ]]; then
    pass "run --faults: ${#cases[@]} bad schedules (unknown action, pause without for=, region server out of range, past the run, killed twice, no at=, a server down when the run starts, no cluster) each one line naming it, exit 2, no run folder"
  else
    fail "run --faults refusals: $bad; runs folder: $(find "$runs" -mindepth 1 -maxdepth 1 -printf '%f ')"
  fi
}
