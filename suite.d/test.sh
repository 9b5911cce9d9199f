#!/usr/bin/env bash
# ./suite test: every test the project has, then one closing line `N passed, M failed`.
#   static   shellcheck over every bash file
#   unit     the suite's bash tools (suite.d/unit-tests.sh)
#   jython   grinder-scripts/tests (Jython 2.7 unittest)
#   r        r-analysis/tests (testthat)
#   java     Maven Surefire unit tests and Failsafe integration tests (*IT), the latter
#            against the real embedded HBase started below
#   e2e      the real stack: embedded HBase 2.6.1, a real Grinder 3.11 agent and worker
# The end-to-end HBase is a private one (own ports, own data folder, removed afterwards),
# so a developer's running HBase is left alone. Exit 1 when anything failed.
set -euo pipefail
SUITE_ME="suite test"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ $# -eq 0 ]] || die "test takes no arguments"

"$SUITE_ROOT/suite" setup

PASSED=0
FAILED=0
FAILURES=()
TEST_LOGS=$(mktemp -d /tmp/suite-test.XXXXXX)

pass() { PASSED=$((PASSED + ${2:-1})); info "  ok    $1"; }
fail() { FAILED=$((FAILED + ${2:-1})); FAILURES+=("$1"); info "  FAIL  $1"; }

# Add a runner's own closing line "name: N passed, M failed" (last one in LOG) to the totals.
count_closing_line() {
  local name=$1 log=$2 line p f
  line=$(grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
  if [[ -z $line ]]; then
    fail "$name: the runner printed no closing line (log: $log)"
    tail -20 "$log" | sed 's/^/        /'
    return
  fi
  p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$line")
  f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<< "$line")
  ((p == 0)) || pass "$name: $p tests" "$p"
  if ((f > 0)); then
    fail "$name: $f tests failed (log: $log)" "$f"
    grep -E 'FAIL|Error|failure' "$log" | head -20 | sed 's/^/        /'
  fi
}

stage_static() {
  info "== static: shellcheck"
  local -a files
  mapfile -t files < <(cd "$SUITE_ROOT" && git ls-files -co --exclude-standard | grep -E '(\.sh$|^suite$|^\.ci/run$)')
  if (cd "$SUITE_ROOT" && shellcheck "${files[@]}") > "$TEST_LOGS/shellcheck.log" 2>&1; then
    pass "shellcheck: ${#files[@]} bash files clean"
  else
    fail "shellcheck (log: $TEST_LOGS/shellcheck.log)"
    head -30 "$TEST_LOGS/shellcheck.log" | sed 's/^/        /'
  fi
}

stage_jython() {
  info "== jython: grinder-scripts unit tests"
  source "$SUITE_ROOT/suite.d/jython.sh"
  run_jython tests/run_tests.py > "$TEST_LOGS/jython.log" 2>&1 || true
  count_closing_line jython "$TEST_LOGS/jython.log"
}

stage_r() {
  info "== r: r-analysis testthat"
  local runner=$SUITE_ROOT/r-analysis/tests/run-tests.R
  if [[ ! -f $runner ]]; then
    fail "r-analysis/tests/run-tests.R is missing"
    return
  fi
  Rscript "$runner" > "$TEST_LOGS/r.log" 2>&1 || true
  count_closing_line r-analysis "$TEST_LOGS/r.log"
}

# Sum tests/failures/errors over Surefire and Failsafe XML reports.
count_maven_reports() {
  local log=$1 totals tests failures errors skipped
  totals=$(find "$SUITE_ROOT" -path '*/target/*-reports/TEST-*.xml' -newer "$TEST_LOGS/maven.start" -print0 \
    | xargs -0 -r grep -h -o -m1 '<testsuite [^>]*>' \
    | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=\""); v = kv[2]; sub(/".*/, "", v);
             if (kv[1] == "tests") t += v; if (kv[1] == "failures") f += v;
             if (kv[1] == "errors") e += v; if (kv[1] == "skipped") s += v } }
           END { printf "%d %d %d %d\n", t, f, e, s }')
  read -r tests failures errors skipped <<< "$totals"
  local ok=$((tests - failures - errors - skipped))
  ((ok == 0)) || pass "java: $ok tests (Surefire + Failsafe)" "$ok"
  ((skipped == 0)) || fail "java: $skipped tests skipped (a skipped test proves nothing)" "$skipped"
  if ((failures + errors > 0)); then
    fail "java: $((failures + errors)) tests failed (log: $log)" "$((failures + errors))"
    grep -E 'FAIL|ERROR\]' "$log" | head -20 | sed 's/^/        /'
  fi
}

stage_java() {
  info "== java: Maven Surefire + Failsafe (HBase on 127.0.0.1:$PORT_ZK)"
  touch "$TEST_LOGS/maven.start"
  sleep 1
  local rc=0
  (cd "$SUITE_ROOT" && mvn -B "-Dsuite.lib=$SUITE_LIB" "-Dsuite.hbase.zk.port=$PORT_ZK" verify) \
    > "$TEST_LOGS/maven.log" 2>&1 || rc=$?
  count_maven_reports "$TEST_LOGS/maven.log"
  if ((rc != 0)) && ! grep -q 'There are test failures\|There were test failures\|FAILURE' "$TEST_LOGS/maven.log"; then
    fail "java: maven verify failed before running tests: $(grep -E '^\[ERROR\]' "$TEST_LOGS/maven.log" | head -1 | cut -c1-200)"
  fi
}

stage_unit() {
  info "== unit: the suite's bash tools"
  source "$SUITE_ROOT/suite.d/unit-tests.sh"
  set +e
  run_unit_tests
  set -e
}

stage_e2e() {
  info "== e2e: the real stack"
  source "$SUITE_ROOT/suite.d/e2e-tests.sh"
  source "$SUITE_ROOT/suite.d/e2e-workload-tests.sh"
  source "$SUITE_ROOT/suite.d/e2e-run-tests.sh"
  # Each test asserts its outcomes itself; an unexpected failing command inside one must
  # fail that assertion, not end the whole suite. run_e2e_tests ends by stopping HBase.
  set +e
  run_distributed_tests
  run_e2e_tests
  set -e
}

# The private HBase for the java integration tests and the end-to-end tests.
export SUITE_PORT_OFFSET=${SUITE_TEST_PORT_OFFSET:-500}
export HBASE_LOCAL_DIR=$TEST_LOGS/hbase
export SUITE_RUNS_DIR=$TEST_LOGS/runs
source "$SUITE_ROOT/suite.d/common.sh"  # re-derive ports from the test offset

cleanup() {
  "$SUITE_ROOT/suite" shim stop > "$TEST_LOGS/shim-stop.log" 2>&1 || true
  "$SUITE_ROOT/suite" hbase stop > "$TEST_LOGS/hbase-stop.log" 2>&1 || true
}
trap cleanup EXIT

started=$SECONDS
stage_static
stage_unit
stage_jython
stage_r
info "== starting a private embedded HBase for the tests (ports +$SUITE_PORT_OFFSET, data $HBASE_LOCAL_DIR)"
if "$SUITE_ROOT/suite" hbase start > "$TEST_LOGS/hbase-start.log" 2>&1; then
  pass "hbase start: master and thrift2 ready"
  stage_java
  stage_e2e
else
  fail "hbase start: $(tail -1 "$TEST_LOGS/hbase-start.log")"
fi
cleanup
trap - EXIT

info ""
info "test logs: $TEST_LOGS ($((SECONDS - started))s)"
if ((FAILED > 0)); then
  info "failed:"
  printf '  %s\n' "${FAILURES[@]}"
fi
echo "$PASSED passed, $FAILED failed"
((FAILED == 0))
