# shellcheck shell=bash
# bench/scale-summary.R, the tables of ./suite bench scale. Sourced by libexec/suite-test (unit
# stage), which runs each u_* function in a subshell with pass/fail and TEST_LOGS defined.

# A sweep of two runs. run-1 (complete, 300 threads, get:70,put:30) on two injectors:
#   statistics: get 7,000 ok + 10 errors at 2.0 ms, 700.4 TPS; put 3,000 ok at 4.0 ms, 300.3 TPS
#     -> requests 10,010, errors 10, TPS 1001 (700.4 + 300.3 rounded), mean (7000 x 2 + 3000 x 4) / 10000 = 2.6 ms
#   cpu.json: console 1.24 s 65.4 MB; agents 100 (inj1, 0.71 s, 55.6 MB) and 200 (inj2, 0.8 s, 56 MB);
#     workers 101 and 102 of agent 100 (3.0 + 4.04 s -> 7.0 s; 300 + 310.6 MB -> 611 MB), 201 of
#     agent 200 (5 s, 320 MB), 301 of an agent of another run (not counted), and a process gone
#     before its pid was read (pid null: not counted)
# run-2 failed before its console wrote anything: its row says so, with NA for what is missing.
# run-3 left nothing but its folder (no plan, manifest or hosts): one row of NA all the same.
u_bench_scale_summary_counts_each_agent_and_its_workers() {
  local dir=$TEST_LOGS/bench-scale-fixture out rc=0 csv
  rm -rf "$dir"; mkdir -p "$dir/sweep-1" "$dir/run-3" "$dir/run-1/console" "$dir/run-1/injectors/inj1" "$dir/run-1/injectors/inj2" "$dir/run-2/injectors/inj1"
  echo '{"runs": ["run-1", "run-2", "run-3"]}' > "$dir/sweep-1/sweep.json"
  echo '{"threads_total": 300, "properties": {"hbaseload.operations": "get:70,put:30"}}' > "$dir/run-1/plan.json"
  echo '{"threads_total": 600, "properties": {"hbaseload.operations": "get:100"}}' > "$dir/run-2/plan.json"
  echo '{"status": "complete"}' > "$dir/run-1/manifest.json"
  echo '{"status": "failed"}' > "$dir/run-2/manifest.json"
  printf 'test,name,count,errors,mean_ms,sd_ms,tps\n1,get,7000,10,2.0,1.0,700.4\n2,put,3000,0,4.0,1.0,300.3\n' > "$dir/run-1/console/statistics.csv"
  echo 100 > "$dir/run-1/injectors/inj1/agent.pid"
  echo 200 > "$dir/run-1/injectors/inj2/agent.pid"
  cat > "$dir/run-1/cpu.json" <<'JSON'
{"roles": {
  "console": {"processes": [{"pid": 10, "ppid": 1, "cpu_s": 1.24, "rss_peak_mb": 65.4}]},
  "agent": {"processes": [{"pid": 100, "ppid": 1, "cpu_s": 0.71, "rss_peak_mb": 55.6}, {"pid": 200, "ppid": 1, "cpu_s": 0.8, "rss_peak_mb": 56}]},
  "worker": {"processes": [{"pid": 101, "ppid": 100, "cpu_s": 3.0, "rss_peak_mb": 300}, {"pid": 102, "ppid": 100, "cpu_s": 4.04, "rss_peak_mb": 310.6},
                           {"pid": 201, "ppid": 200, "cpu_s": 5, "rss_peak_mb": 320}, {"pid": 301, "ppid": 300, "cpu_s": 9, "rss_peak_mb": 999},
                           {"pid": null, "ppid": null, "cpu_s": 0.5, "rss_peak_mb": null}]}}}
JSON
  out=$(Rscript "$SUITE_ROOT/bench/scale-summary.R" "$dir/sweep-1" 2>&1) || rc=$?
  csv=$(cat "$dir/sweep-1/bench-scale.csv" 2> /dev/null)
  if ((rc == 0)) && [[ $csv == "run,threads,operations,status,requests,errors,tps,mean_ms,console_cpu_s,console_rss_mb,host,agent_cpu_s,agent_rss_mb,workers_cpu_s,workers_rss_mb
run-1,300,get:70;put:30,complete,10010,10,1001,2.6,1.2,65,inj1,0.7,56,7,611
run-1,300,get:70;put:30,complete,10010,10,1001,2.6,1.2,65,inj2,0.8,56,5,320
run-2,600,get:100,failed,0,0,0,NA,NA,NA,inj1,NA,NA,NA,NA
run-3,NA,,unknown,0,0,0,NA,NA,NA,NA,NA,NA,NA,NA" ]] && grep -q '^1 of 3 runs complete' <<< "$out"; then
    pass "bench scale summary: each agent with its own workers, failed runs kept with NA"
  else
    fail "bench scale summary: rc $rc, csv: $csv; output: $(tail -5 <<< "$out")"
  fi
  # no run complete: exit 1, the csv still written
  echo '{"runs": ["run-2"]}' > "$dir/sweep-1/sweep.json"
  rc=0; out=$(Rscript "$SUITE_ROOT/bench/scale-summary.R" "$dir/sweep-1" 2>&1) || rc=$?
  if ((rc == 1)) && grep -q '^0 of 1 runs complete' <<< "$out" && [[ $(wc -l < "$dir/sweep-1/bench-scale.csv") == 2 ]]; then
    pass "bench scale summary: no run complete exits 1"
  else
    fail "bench scale summary without a complete run: rc $rc: $(tail -3 <<< "$out")"
  fi
  rc=0; out=$(Rscript "$SUITE_ROOT/bench/scale-summary.R" "$dir/nowhere" 2>&1) || rc=$?
  if ((rc == 1)) && grep -q 'usage: Rscript bench/scale-summary.R SWEEP_DIR' <<< "$out"; then
    pass "bench scale summary: a folder without sweep.json is refused in one line"
  else
    fail "bench scale summary of a missing folder: rc $rc: $out"
  fi
}
