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
