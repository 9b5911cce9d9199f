# shellcheck shell=bash
# End-to-end tests on the real stack, sourced by libexec/suite-test once its private HBase is up.
# Each t_* function asserts real outcomes (exit codes, messages, counts, values) through
# pass/fail. Runs last: t_stop stops the HBase.
source "$SUITE_ROOT/suite.d/runs.sh"
source "$SUITE_ROOT/suite.d/run-properties.sh"

SUITE=$SUITE_ROOT/suite

# Run a command with a time bound; its output goes to $TEST_LOGS/NAME.log, its status to RC.
run_logged() {
  local name=$1 bound=$2; shift 2
  RC=0
  timeout "$bound" "$@" > "$TEST_LOGS/$name.log" 2>&1 < /dev/null || RC=$?
  OUT=$(cat "$TEST_LOGS/$name.log")
}

# "test <n> <requests> <errors> <mean_ms> <witness_us>" rows for the data logs below DIR: the
# tests' own reading of Grinder's data logs (tools/datalog-summary.awk), kept apart from the
# suite's readers (lifecycle's DataLogs, r-analysis) so that it checks them rather than repeats them.
summarise_data_logs() {
  find "$1" -name '*-data.log' -print0 | xargs -0 -r awk -f "$SUITE_ROOT/tests/e2e/tools/datalog-summary.awk" | sort
}

# grinder.properties with C1-only workers, as tiny sweeps have them: the tests check what the tools
# do, not how fast, and a worker with C1 only starts in about half the time (3.6 s against 6.7-9 s).
e2e_worker_c1() {
  sed 's/^grinder.jvm.arguments = /grinder.jvm.arguments = -XX:TieredStopAtLevel=1 /'
}

# A properties file for a small e2e run: defaults plus OVERRIDES (key = value lines).
e2e_properties() {
  local file=$1; shift
  { e2e_worker_c1 < "$SUITE_ROOT/grinder.properties"
    printf 'hbaseload.table = e2e\nhbaseload.rows = 2000\nhbaseload.regions = 4\n'
    printf '%s\n' "$@"; } > "$file"
}

# A standalone Grinder run of SECONDS with OVERRIDES (they win over the defaults here, so
# "grinder.runs = N" "grinder.duration = 0" makes a run bounded by count); sets RUN_DIR, RC, OUT.
grinder_run() {
  local name=$1 seconds=$2; shift 2
  RUN_DIR=$(allocate_run_dir)
  local log_dir
  log_dir=$RUN_DIR/injectors/$(hostname)
  e2e_properties "$TEST_LOGS/$name.properties" "$@"
  write_run_properties "$TEST_LOGS/$name.properties" "$RUN_DIR/grinder.properties" "$log_dir" \
    "grinder.processes = 1" "grinder.threads = 2" "grinder.runs = 0" \
    "grinder.duration = $((seconds * 1000))" "grinder.useConsole = false" "$@"
  run_logged "$name" $((seconds + 90)) "$SUITE_ROOT/injectors/local-agent.sh" \
    "$RUN_DIR/grinder.properties" "$log_dir" $((seconds + 60))
}

t_listeners_on_loopback() {
  local pids wide
  pids=$(cat "$HBASE_LOCAL_DIR"/pids/*.pid | paste -sd'|')
  wide=$(ss -Hltnp | grep -E "pid=($pids)," | awk '{print $4}' | grep -v '^127\.0\.0\.1:' || true)
  local count
  count=$(ss -Hltnp | grep -cE "pid=($pids),")
  if [[ -z $wide && $count -ge 7 ]]; then
    pass "hbase: all $count listeners of master and thrift2 bind 127.0.0.1"
  else
    fail "hbase: listeners off loopback or missing ($count found): ${wide:-none off loopback}"
  fi
}

t_start_twice_and_status() {
  run_logged start-again 60 "$SUITE" hbase start
  if ((RC == 0)) && grep -q 'already running' <<< "$OUT"; then
    pass "hbase start twice: harmless, says already running"
  else
    fail "hbase start twice: rc $RC: $OUT"
  fi
  run_logged status 30 "$SUITE" hbase status
  if ((RC == 0)) && grep -q "running, pid .*ZooKeeper 127.0.0.1:$PORT_ZK" <<< "$OUT" \
     && grep -q "thrift2 gateway: running.*127.0.0.1:$PORT_THRIFT2" <<< "$OUT"; then
    pass "hbase status: names pids, ports and start times"
  else
    fail "hbase status: rc $RC: $OUT"
  fi
}

t_port_taken() {
  # Same ports, another data folder: must refuse at once, naming the port, and leave no JVM.
  run_logged port-taken 60 env HBASE_LOCAL_DIR="$TEST_LOGS/hbase-second" "$SUITE" hbase start
  if ((RC != 0)) && grep -q "port $PORT_ZK on 127.0.0.1 is already taken" <<< "$OUT" \
     && ! pgrep -f "hbase.local.dir=$TEST_LOGS/hbase-second" > /dev/null; then
    pass "hbase start with a port taken: one-line reason, non-zero, no JVM left"
  else
    fail "hbase start with a port taken: rc $RC: $OUT"
  fi
}

t_bad_site_xml() {
  local conf=$TEST_LOGS/bad-conf
  mkdir -p "$conf"
  cp "$SUITE_ROOT"/hbase-local/conf/* "$conf/"
  echo '<configuration><property>' > "$conf/hbase-site.xml"
  run_logged bad-xml 60 env HBASE_LOCAL_CONF="$conf" HBASE_LOCAL_DIR="$TEST_LOGS/hbase-bad" \
    SUITE_PORT_OFFSET=$((SUITE_PORT_OFFSET + 100)) "$SUITE" hbase start
  if ((RC != 0)) && grep -q 'hbase-site.xml is not well-formed XML' <<< "$OUT"; then
    pass "hbase start with a malformed hbase-site.xml: refused before launch"
  else
    fail "hbase start with a malformed hbase-site.xml: rc $RC: $OUT"
  fi
  cp "$SUITE_ROOT/hbase-local/conf/hbase-site.xml" "$conf/"
  # shellcheck disable=SC2016  # the ${...} is hbase-site.xml's own, matched literally
  sed -i 's|file://${hbase.local.dir}/hbase|bogus://nowhere/hbase|' "$conf/hbase-site.xml"
  run_logged bad-rootdir 150 env HBASE_LOCAL_CONF="$conf" HBASE_LOCAL_DIR="$TEST_LOGS/hbase-bad" \
    SUITE_PORT_OFFSET=$((SUITE_PORT_OFFSET + 100)) "$SUITE" hbase start
  if ((RC != 0)) && grep -q 'No FileSystem for scheme "bogus"' <<< "$OUT" \
     && ! pgrep -f "hbase.local.dir=$TEST_LOGS/hbase-bad" > /dev/null; then
    pass "hbase start with a bad hbase.rootdir: the cause in one line, no JVM left"
  else
    fail "hbase start with a bad hbase.rootdir: rc $RC: $OUT"
  fi
}

t_unknown_command() {
  run_logged unknown 10 "$SUITE" frobnicate
  if ((RC == 2)) && grep -q "unknown command 'frobnicate'" <<< "$OUT"; then
    pass "unknown subcommand: exit 2 naming it"
  else
    fail "unknown subcommand: rc $RC: $OUT"
  fi
}

t_prepare() {
  local props=$TEST_LOGS/prepare.properties
  e2e_properties "$props"
  run_logged prepare 180 "$SUITE" prepare --properties "$props"
  if ((RC == 0)) && grep -q 'prepared table e2e: 4 regions, 2000 rows' <<< "$OUT"; then
    pass "prepare: table e2e created with 4 regions and 2000 rows"
  else
    fail "prepare: rc $RC: $OUT"
  fi
  run_logged prepare-again 120 "$SUITE" prepare --properties "$props"
  if ((RC == 0)) && grep -q 'already prepared' <<< "$OUT"; then
    pass "prepare again: skipped, table already matches"
  else
    fail "prepare again: rc $RC: $OUT"
  fi
  e2e_properties "$props" "hbaseload.rows = 3000"
  run_logged prepare-mismatch 120 "$SUITE" prepare --properties "$props"
  if ((RC != 0)) && grep -q 'exists but holds rows=2000.*--force' <<< "$OUT"; then
    pass "prepare with other rows: refused, names --force"
  else
    fail "prepare with other rows: rc $RC: $OUT"
  fi
}

# Every data-log line: witness numeric and inside Grinder's own timer (at most Grinder's
# whole-millisecond time plus the millisecond it truncates).
check_witness_lines() {
  awk -F', *' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; w = $c["Witness (us)"]; t = $c["Test time"]
      if (w !~ /^[0-9]+$/ || w > (t + 1) * 1000) bad++ }
    END { printf "%d %d\n", n, bad + 0 }' "$@"
}

t_grinder_run() {
  grinder_run grinder-run 8 "hbaseload.operations = get:50,put:50"
  local data_logs summary lines bad worker_total
  data_logs=$(find "$RUN_DIR" -name '*-data.log')
  if ((RC != 0)) || [[ -z $data_logs ]]; then
    fail "grinder run: rc $RC, no data log: $OUT"
    return
  fi
  summary=$(summarise_data_logs "$RUN_DIR")
  if grep -q '^test 1 ' <<< "$summary" && grep -q '^test 2 ' <<< "$summary" \
     && awk '$1 == "total" { exit !($3 > 100 && $4 == 0) }' <<< "$summary"; then
    pass "grinder run: data log holds get and put, >100 requests, zero errors"
  else
    fail "grinder run: data log summary: $summary"
  fi
  # shellcheck disable=SC2086  # one or more data logs
  read -r lines bad < <(check_witness_lines $data_logs)
  if ((lines > 0 && bad == 0)); then
    pass "grinder run: witness numeric and within Grinder's time on all $lines requests"
  else
    fail "grinder run: $bad of $lines witness values missing or beyond Grinder's time"
  fi
  # The worker's own final statistics must count what the data log holds.
  worker_total=$(find "$RUN_DIR" -name '*-0.log' -exec grep -h '^Totals' {} + | awk '{print $2}')
  if [[ $worker_total == "$(awk '$1 == "total" {print $3}' <<< "$summary")" ]]; then
    pass "grinder run: worker totals ($worker_total) equal the data-log line count"
  else
    fail "grinder run: worker totals '$worker_total' differ from the data log: $summary"
  fi
}

# summary.csv's total row against an independent computation from the same data logs: count,
# errors, mean Grinder time, and the witness p90 by nearest rank (sort, take rank ceil(0.9 n)).
t_report_on_real_run() {
  run_logged report 300 Rscript "$SUITE_ROOT/r-analysis/report.R" "$RUN_DIR" --warmup 0
  local csv=$RUN_DIR/report/summary.csv
  if ((RC != 0)) || [[ ! -s $csv || ! -s $RUN_DIR/report/index.html ]]; then
    fail "report.R on a real run: rc $RC: $(tail -2 <<< "$OUT")"
    return
  fi
  local expected actual
  expected=$(awk -F', *' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { n++; e += ($c["Errors"] > 0); t += $c["Test time"]; print $c["Witness (us)"] > "/dev/stderr" }
      END { printf "%d %d %.4f", n, e, t / n }' "$RUN_DIR"/injectors/*/*-data.log 2> "$TEST_LOGS/witness.txt")
  expected="$expected $(sort -n "$TEST_LOGS/witness.txt" | awk '{ v[NR] = $1 } END { r = int(0.9 * NR); if (r < 0.9 * NR) r++; printf "%.3f", v[r] / 1000 }')"
  actual=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["test"] == "total" { printf "%d %d %.4f %.3f", $c["count"], $c["errors"], $c["mean_ms"], $c["witness_p90_ms"] }' "$csv")
  if [[ $expected == "$actual" ]]; then
    pass "report.R on a real run: summary.csv total (count errors mean_ms witness_p90_ms) = $actual, as computed independently"
  else
    fail "report.R on a real run: summary.csv total '$actual', independent computation '$expected'"
  fi
}

# A run with a bad hbaseload setting must fail, naming it: NAME SETTING EXPECTED_MESSAGE.
t_refused_setting() {
  local name=$1 setting=$2 message=$3
  grinder_run "$name" 5 "$setting"
  if ((RC != 0)) && grep -qF "$message" <<< "$OUT"; then
    pass "grinder run with '$setting': fails naming it"
  else
    fail "grinder run with '$setting': rc $RC: $OUT"
  fi
}

t_run_ids_never_reused() {
  local first second
  first=$(allocate_run_dir)
  echo keep > "$first/marker"
  mkdir "$SUITE_RUNS_DIR/run-$(( ${first##*-} + 5 ))"
  second=$(allocate_run_dir)
  if [[ ${second##*-} -eq $(( ${first##*-} + 6 )) && $(cat "$first/marker") == keep ]]; then
    pass "run folders: numbered past the highest, existing ones untouched"
  else
    fail "run folders: got $second after $first"
  fi
}

t_demo() {
  # One repeat and no warm-ups keep it to 6 short runs here; the demo's own defaults measure. Two
  # injectors, so that a whole sweep's session with several agents is run end to end.
  run_logged demo 900 env DEMO_SECONDS=6 DEMO_THREADS=4 DEMO_INJECTORS=2 DEMO_REPEAT=1 DEMO_WARMUP=off "$SUITE" demo
  # 6 runs (get, put, mix x direct, shim): get and put rows for each target, 8 in all.
  local rows costs
  rows=$(grep -cE '^  run-[0-9]+ +(direct|thrift) +(get|put) ' <<< "$OUT")
  costs=$(sed -nE 's#^  ([a-z:0-9,]+), [0-9]+ threads: thrift/direct (at (most|least) )?x[0-9.]+ .*#\1#p' <<< "$OUT" | sort | tr '\n' ' ')
  if ((RC == 0 && rows == 8)) && grep -qE '^  run-[0-9]+ +direct +get ' <<< "$OUT" \
     && grep -qE '^  run-[0-9]+ +thrift +put ' <<< "$OUT" && grep -qE '^  verdict: [a-zA-Z -]+: ' <<< "$OUT" \
     && [[ $costs == "get get:70,put:30 put " ]] \
     && [[ -s $(sed -n 's/^  report: \(.*index.html\)$/\1/p' <<< "$OUT" | head -1) ]]; then
    pass "demo: console + 2 injectors, get/put/mix direct and through the shim, the thrift cost per workload, report and its verdict, zero errors"
  else
    fail "demo: rc $RC, $rows result rows: $(tail -12 <<< "$OUT")"
  fi
}

# A series of the shim's /metrics as a whole number (-1 when absent), e.g. 'hbasegrinder_shim_connections_accepted_total'.
shim_metric() {
  curl -s --max-time 5 "http://127.0.0.1:$PORT_SHIM_METRICS/metrics" \
    | awk -v s="$1" '$1 == s { printf "%d\n", $2; found = 1 } END { if (!found) print -1 }'
}

# hbaseload.target = both, what a sweep's shared warm-up runs (after t_demo, with the shim up):
# of 4 threads, the 2nd and 4th reach HBase through the shim, each on its own connection, the
# others directly. The shim accepts exactly 2 connections and serves some but not all of the
# run's gets; no request fails.
t_target_both() {
  local accepted served total
  accepted=$(shim_metric hbasegrinder_shim_connections_accepted_total)
  served=$(shim_metric 'hbasegrinder_shim_call_seconds_count{operation="get"}')
  grinder_run target-both 4 "hbaseload.operations = get:100" "hbaseload.target = both" "hbaseload.thrift.port = $PORT_SHIM" \
    "grinder.threads = 4"
  accepted=$(( $(shim_metric hbasegrinder_shim_connections_accepted_total) - accepted ))
  served=$(( $(shim_metric 'hbasegrinder_shim_call_seconds_count{operation="get"}') - ${served/#-1/0} ))
  total=$(summarise_data_logs "$RUN_DIR" | awk '$1 == "total" && $4 == 0 { print $3 }')
  if ((RC == 0 && accepted == 2)) && [[ -n $total ]] && ((served > 0 && served < total)); then
    pass "target both: 2 of 4 threads through the shim (2 connections, $served of $total gets), the others direct, zero errors"
  else
    fail "target both: rc $RC, shim connections accepted $accepted (want 2), gets through the shim $served of '${total:-errors}': $(tail -5 <<< "$OUT")"
  fi
}

t_stop() {
  local master_pid
  "$SUITE" shim stop > "$TEST_LOGS/shim-stop-final.log" 2>&1
  master_pid=$(cat "$HBASE_LOCAL_DIR/pids/master.pid")
  run_logged stop 150 "$SUITE" hbase stop
  if ((RC == 0)) && ! pgrep -f "hbase.local.dir=$HBASE_LOCAL_DIR" > /dev/null && ! kill -0 "$master_pid" 2>/dev/null; then
    pass "hbase stop: no HBase or thrift2 process left"
  else
    fail "hbase stop: rc $RC, left: $(pgrep -af "hbase.local.dir=$HBASE_LOCAL_DIR" | cut -c1-100)"
  fi
  run_logged stop-again 60 "$SUITE" hbase stop
  if ((RC == 0)) && grep -q 'not running' <<< "$OUT"; then
    pass "hbase stop when stopped: harmless"
  else
    fail "hbase stop when stopped: rc $RC: $OUT"
  fi
}

run_e2e_tests() {
  t_unknown_command
  t_listeners_on_loopback
  t_start_twice_and_status
  t_port_taken
  t_bad_site_xml
  t_run_ids_never_reused
  t_prepare
  t_grinder_run
  t_report_on_real_run
  t_refused_setting bad-key "hbaseload.rowz = 5" "unknown key hbaseload.rowz"
  t_refused_setting bad-mix "hbaseload.operations = get:70,put:20" \
    "hbaseload.operations=get:70,put:20: percentages sum to 90, not 100"
  run_workload_tests
  t_demo
  t_target_both
  t_stop
}
