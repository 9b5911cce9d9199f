# shellcheck shell=bash
# End-to-end check of the HBase server-metrics sampler on a run that already happened (no run of
# its own: t_run_two_injectors hands over its folder). Sourced by tests/e2e/runs.sh; pass/fail,
# TEST_LOGS and SUITE_ROOT come from libexec/suite-test.

SM_HEADER="time_ms,server,role,status,handlers,rpc_queue_calls,rpc_queue_bytes,rpc_queue_time_mean_ms,rpc_queue_time_p99_ms,rpc_process_time_mean_ms,rpc_process_time_p99_ms,handlers_active,read_requests_per_s,write_requests_per_s,memstore_mb,flush_queue,compaction_queue,block_cache_hit_ratio,store_files,updates_blocked_ms_per_s,blocked_requests_per_s,gc_pause_ms_per_s,regions,process_cpu_pct,host_load1"

# t_run_server_metrics RUN_DIR: the embedded region server answered once a second with every
# column filled, its request rates saw the load, the notes were closed, and the report shows them.
t_run_server_metrics() {
  local dir=$1 csv=$1/hbase/server-metrics.csv notes=$1/hbase/server-metrics.json summary
  if [[ ! -s $csv || $(head -1 "$csv") != "$SM_HEADER" ]]; then
    fail "server metrics: $csv missing or its header differs: $(head -1 "$csv" 2>&1 | cut -c1-200)"
    return
  fi
  # ok rows of the region server with all 20 metric columns but the rates of its first row and
  # the block cache ratio (empty without lookups), its regions among them, its process CPU (a rate)
  # and its machine's load; a second with reads or writes counted
  summary=$(awk -F, 'NR > 1 && $3 == "regionserver" && $4 == "ok" {
                       ok++; filled = 1
                       for (i = 5; i <= 12; i++) if ($i == "") filled = 0
                       if ($15 == "" || $19 == "" || $23 !~ /^[1-9][0-9]*$/ || $22 == "" && ok > 1) filled = 0
                       if ($24 !~ /^[0-9.]+$/ && ok > 1 || $25 !~ /^[0-9.]+$/) filled = 0
                       full += filled; if ($13 + $14 > 0) loaded++ }
                     NR > 1 && $4 == "ok" && NF != 25 { bad++ }
                     END { printf "%d %d %d %d", ok, full, loaded, bad }' "$csv")
  local ok full loaded bad
  read -r ok full loaded bad <<< "$summary"
  if ((ok >= 5 && full == ok && loaded >= 2 && bad == 0)); then
    pass "server metrics: $ok rows from the embedded region server, every column filled (regions, process CPU and host load too), load seen in $loaded of them"
  else
    fail "server metrics: region server rows ok $ok, filled $full, with requests $loaded, malformed $bad: $(sed -n 2,4p "$csv" | tr '\n' ' ' | cut -c1-300)"
  fi
  if rt_json_ok "$notes" && grep -q '"ended": "20' "$notes" && grep -q '"role": "regionserver"' "$notes"; then
    pass "server metrics: server-metrics.json names the servers and was closed at the run's end"
  else
    fail "server metrics: notes: $(head -c 400 "$notes" 2>&1)"
  fi
  # the embedded master and region server are one JVM, on this machine: its JvmMetrics read once a
  # sample and its process CPU from /proc (4 /jmx requests, not 7); the master's rows carry the
  # region server's GC and CPU of the same sample
  local jvms per_sample differ
  jvms=$(jq -r '[.servers[] | select(.process_from_proc) | .jvm] | unique | map(select(. != null)) | length' "$notes" 2> /dev/null)
  # (floor: a sample that finds a bean re-registered asks once more)
  per_sample=$(jq -r '.jmx_requests / ([.servers[].samples] | max) | floor' "$notes" 2> /dev/null)
  # (a row without a rate, when that server's previous sample gave none, is no difference)
  differ=$(awk -F, 'NR > 1 && $4 == "ok" { if ($3 == "master") { m = $22 "," $24; next } if (m != "" && $22 != "" && $24 != "" && $22 "," $24 != m) d++; m = "" }
                    END { print d + 0 }' "$csv")
  if [[ $jvms == 1 && $per_sample == 4 && $differ == 0 ]]; then
    pass "server metrics: master and region server seen as one JVM on this machine, 4 /jmx requests a sample, the JVM's GC and CPU equal on both rows"
  else
    fail "server metrics: local JVMs $jvms (want 1), /jmx requests per sample $per_sample (want 4), rows whose JVM figures differ $differ: $(head -c 300 "$notes")"
  fi
  # the finaliser read the table's facts from the same servers' /jmx, not through an HBase client
  local facts
  facts=$(jq -r '"\(.table.source) \(.table.via) \(.table.regions) \(.table.store_mb > 0) \(.cluster.region_servers)"' "$dir/manifest.json" 2> /dev/null)
  if [[ $facts == "hbase jmx $(jq -r '.properties["hbaseload.regions"]' "$dir/plan.json") true 1" ]]; then
    pass "server metrics: the manifest's table facts come from the region server's /jmx ($facts)"
  else
    fail "server metrics: manifest table facts '$facts' (want: hbase jmx, the plan's regions, a store size, 1 region server)"
  fi
  rt_logged server-metrics-report 120 Rscript "$SUITE_ROOT/r-analysis/report.R" --quiet --out "$TEST_LOGS/server-metrics-report" "$dir"
  if ((RT_RC == 0)) && grep -q '<h2 id="server-metrics">HBase server metrics</h2>' "$TEST_LOGS/server-metrics-report/index.html" \
     && [[ -s $TEST_LOGS/server-metrics-report/server-metrics.png ]] && grep -q '^report.R: verdict: .*; HBase: ' <<< "$RT_OUT"; then
    pass "server metrics: the report draws them and its verdict ends with HBase's side ($(grep -o '; HBase: .*' <<< "$RT_OUT" | cut -c1-80)...)"
  else
    fail "server metrics: report rc $RT_RC: $(tail -2 <<< "$RT_OUT")"
  fi
}
