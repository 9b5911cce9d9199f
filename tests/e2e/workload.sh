# shellcheck shell=bash
# End-to-end tests of the workload (grinder-scripts and the worker jar) on the real stack:
# every operation through each target, a verified put-then-get round trip, pacing and an
# unreachable server. Sourced by libexec/suite-test after e2e-tests.sh (uses its
# helpers: grinder_run, e2e_properties, run_logged) while the private HBase is up.

# Test numbers present in RUN_DIR's data logs, as "1 2 3".
tests_in_run() {
  summarise_data_logs "$RUN_DIR" | awk '$1 == "test" { printf "%s%s", sep, $2; sep = " " }'
}

run_total() {
  summarise_data_logs "$RUN_DIR" | awk -v f="$1" '$1 == "total" { print $f }'
}

ALL_OPERATIONS="get:20,put:20,scan:10,batch-get:10,batch-put:10,delete:10,increment:20"

# LABEL [OVERRIDES]: every operation through the target the overrides choose.
t_every_operation_through() {
  local target=$1; shift
  # 2 threads x 150 runs: an operation of weight 10% is missing with probability 0.9^300.
  grinder_run "ops-${target//[^a-z0-9]/-}" 120 "hbaseload.operations = $ALL_OPERATIONS" \
    "grinder.runs = 150" "grinder.duration = 0" "$@"
  local tests requests errors
  tests=$(tests_in_run); requests=$(run_total 3); errors=$(run_total 4)
  if ((RC == 0)) && [[ $tests == "1 2 3 4 5 6 7" ]] && ((requests == 300 && errors == 0)); then
    pass "$target: all 7 operations in the data log, $requests requests, zero errors"
  else
    fail "$target: rc $RC, tests '$tests', requests ${requests:-0}, errors ${errors:-?}: $OUT"
  fi
  local lines bad
  read -r lines bad < <(check_witness_lines "$RUN_DIR"/injectors/*/*-data.log)
  if ((lines > 0 && bad == 0)); then
    pass "$target: witness within Grinder's time on all $lines requests"
  else
    fail "$target: $bad of $lines witness values missing or beyond Grinder's time"
  fi
}

t_round_trip() {
  # prepare loads rows 0..299; thrift puts (sequential: thread 0 walks 0..299, thread 1
  # 300..599, one lap each) write rows 300..599 for the first time; direct gets then verify
  # 600 random rows: the upper half can only verify if the thrift puts wrote them right.
  # Bounded by counts, not time, so a slow machine changes nothing but the duration.
  local props=$TEST_LOGS/roundtrip.properties
  e2e_properties "$props" "hbaseload.table = e2e_roundtrip" "hbaseload.rows = 300"
  run_logged roundtrip-prepare 180 "$SUITE" prepare --properties "$props"
  grinder_run roundtrip-put 120 "hbaseload.table = e2e_roundtrip" "hbaseload.rows = 600" \
    "hbaseload.operations = put:100" "hbaseload.target = thrift" "hbaseload.key.distribution = sequential" \
    "grinder.runs = 300" "grinder.duration = 0"
  local put_requests put_errors
  put_requests=$(run_total 3); put_errors=$(run_total 4)
  grinder_run roundtrip-get 120 "hbaseload.table = e2e_roundtrip" "hbaseload.rows = 600" \
    "hbaseload.operations = get:100" "hbaseload.verify = true" "grinder.runs = 300" "grinder.duration = 0"
  if ((RC == 0 && put_requests == 600 && put_errors == 0)) && (($(run_total 3) == 600 && $(run_total 4) == 0)); then
    pass "round trip: 600 thrift puts over rows 0..599, then 600 direct gets verified, zero errors"
  else
    fail "round trip: rc $RC, puts ${put_requests:-0} (errors ${put_errors:-?}), gets $(run_total 3), errors $(run_total 4): $OUT"
  fi
  # The control: rows 600..1199 were never written, so about half the gets must fail verification.
  grinder_run roundtrip-missing 120 "hbaseload.table = e2e_roundtrip" "hbaseload.rows = 1200" \
    "hbaseload.operations = get:100" "hbaseload.verify = true" "grinder.runs = 150" "grinder.duration = 0"
  local errors requests
  errors=$(run_total 4); requests=$(run_total 3)
  if ((requests == 300)) && awk -v e="$errors" -v n="$requests" 'BEGIN { exit !(e > 0.3 * n && e < 0.7 * n) }' \
     && grep -rq 'VerificationException=' "$RUN_DIR"/injectors/*/*-0.log; then
    pass "round trip control: $errors of $requests gets of unwritten rows failed verification"
  else
    fail "round trip control: $errors errors of $requests requests"
  fi
}

t_pacing() {
  grinder_run paced 6 "hbaseload.operations = get:100" "hbaseload.rate.per.thread = 50"
  local requests header
  requests=$(run_total 3)
  header=$(find "$RUN_DIR" -name '*-data.log' -exec head -qn1 {} + | head -1)
  # 2 threads x 50/s x 6 s = 600 intended starts (minus the last partial interval).
  if ((RC == 0)) && [[ $header == *'Lag (us)'* ]] && ((requests >= 540 && requests <= 620)); then
    pass "pacing: 50/s per thread gave $requests requests in 6 s, 'Lag (us)' logged"
  else
    fail "pacing: rc $RC, $requests requests, header '$header'"
  fi
}

t_unreachable_thrift() {
  # Nothing listens on this port: each request fails within the timeout, is counted, and the
  # run still ends at its duration.
  local started=$SECONDS
  grinder_run unreachable 4 "hbaseload.operations = get:100" "hbaseload.target = thrift" \
    "hbaseload.thrift.port = $((PORT_THRIFT2 + 7))" "hbaseload.timeout.ms = 500"
  local errors requests
  errors=$(run_total 4); requests=$(run_total 3)
  if ((requests > 0 && errors == requests && SECONDS - started < 60)) \
     && grep -rq 'TTransportException=' "$RUN_DIR"/injectors/*/*-0.log; then
    pass "unreachable thrift server: $errors requests, all counted as errors, run ended in $((SECONDS - started))s"
  else
    fail "unreachable thrift server: $errors errors of $requests requests in $((SECONDS - started))s: $OUT"
  fi
}

t_prepare_options() {
  local props=$TEST_LOGS/layout.properties
  e2e_properties "$props" "hbaseload.table = e2e_layout" "hbaseload.rows = 200" "hbaseload.families = 2" \
    "hbaseload.columns = 3" "hbaseload.compression = gz" "hbaseload.bloom = rowcol" \
    "hbaseload.value.kind = compressible" "hbaseload.in.memory = true" "hbaseload.block.size = 16384"
  run_logged prepare-layout 180 "$SUITE" prepare --properties "$props"
  if ((RC == 0)) && grep -q 'families \[f0, f1\], compression gz, bloom rowcol' <<< "$OUT" \
     && grep -q 'prepared table e2e_layout: 4 regions, 200 rows, 1200 cells, 1.1 MiB of values' <<< "$OUT"; then
    pass "prepare with 2 families x 3 columns, gz, rowcol bloom: created and loaded (1,200 cells)"
  else
    fail "prepare with layout options: rc $RC: $OUT"
  fi
  e2e_properties "$props" "hbaseload.table = e2e_snappy" "hbaseload.rows = 50" "hbaseload.compression = snappy"
  run_logged prepare-snappy 180 "$SUITE" prepare --properties "$props"
  if ((RC == 0)) && grep -q 'compression snappy' <<< "$OUT" && grep -q 'prepared table e2e_snappy: 4 regions, 50 rows' <<< "$OUT"; then
    pass "prepare with snappy compression (snappy-java codec in the embedded HBase)"
  else
    fail "prepare with snappy: rc $RC: $OUT"
  fi
  grinder_run layout 3 "hbaseload.table = e2e_layout" "hbaseload.rows = 200" "hbaseload.families = 2" \
    "hbaseload.columns = 3" "hbaseload.operations = get:50,put:50" "hbaseload.verify = true" \
    "hbaseload.client.buffering = true" "hbaseload.durability = async_wal"
  if ((RC == 0 && $(run_total 3) > 0 && $(run_total 4) == 0)); then
    pass "buffered async_wal puts and verified gets on 2 families x 3 columns: zero errors"
  else
    fail "layout run: rc $RC, $(run_total 3) requests, $(run_total 4) errors: $OUT"
  fi
}

t_shim() {
  run_logged shim-start 120 "$SUITE" shim start
  local pid wide
  pid=$(cat "$HBASE_LOCAL_DIR/pids/thrift-shim.pid" 2>/dev/null)
  wide=$(ss -Hltnp | grep "pid=${pid:-none}," | awk '{print $4}' | grep -v '^127\.0\.0\.1:' || true)
  if ((RC == 0)) && port_listening "$PORT_SHIM" && [[ -z $wide ]]; then
    pass "shim start: thrift-shim serving on 127.0.0.1:$PORT_SHIM, every listener on loopback"
  else
    fail "shim start: rc $RC, listeners off loopback: ${wide:-none}: $OUT"
  fi
  t_every_operation_through "thrift target through the shim" "hbaseload.target = thrift" "hbaseload.thrift.port = 9092"
  run_logged shim-stop 60 "$SUITE" shim stop
  if ((RC == 0)) && ! port_listening "$PORT_SHIM" && ! kill -0 "${pid:-0}" 2>/dev/null; then
    pass "shim stop: stopped, port closed"
  else
    fail "shim stop: rc $RC: $OUT"
  fi
}

run_workload_tests() {
  t_every_operation_through "direct target" "hbaseload.target = direct" "hbaseload.client.buffering = true"
  t_every_operation_through "thrift target (HBase's thrift2 gateway)" "hbaseload.target = thrift"
  t_shim
  t_round_trip
  t_pacing
  t_unreachable_thrift
  t_prepare_options
}
