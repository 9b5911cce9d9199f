# shellcheck shell=bash
# End-to-end tests of the CPU lab and its accounting (suite.d/lab.sh, CpuSampler, r-analysis/R/cpu.R),
# sourced by libexec/suite-test after tests/e2e/runs.sh (RT_* helpers) with its private HBase up:
# that HBase was started in the lab (lab.cpus = auto). Entry point: run_lab_tests.

# The CPUs a process may run on ("0", "1", "0-1").
lt_allowed() {
  awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status" 2> /dev/null
}

t_lab_bad_split() {
  local before after
  before=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' 2> /dev/null | wc -l)
  rt_logged lab-bad 60 "$RT_SUITE" run --properties "$RT_PROPS" --injectors 1 --duration 5 --set lab.cpus=0:99
  after=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' 2> /dev/null | wc -l)
  if ((RT_RC == 1)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] && grep -q "lab.cpus '0:99' names CPUs this machine does not have online: \[99\]" <<< "$RT_OUT" \
     && ((before == after)); then
    pass "lab: a split naming a CPU that is not there is one line and exit 1, before any run folder ($RT_SECONDS s)"
  else
    fail "lab: bad split: rc $RT_RC, run folders $before -> $after: $RT_OUT"
  fi
}

t_lab_isolated_run() {
  local hbase_pid server client
  hbase_pid=$(cat "$HBASE_LOCAL_DIR/pids/master.pid" 2> /dev/null)
  # the default lab (./suite test runs everything else with SUITE_LAB_CPUS=off, for time)
  rt_logged lab-run 240 "$RT_SUITE" run --properties "$RT_PROPS" --injectors 1 --threads 4 --duration 8 --set lab.cpus=auto
  local dir
  dir=$(rt_run_dir)
  if ((RT_RC != 0)) || [[ ! -s $dir/cpu.csv ]]; then
    fail "lab run: rc $RT_RC, no cpu.csv: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  server=$(jq -r .lab.server_cpus "$dir/manifest.json"); client=$(jq -r .lab.client_cpus "$dir/manifest.json")
  if [[ $(jq -r .lab.isolated "$dir/manifest.json") == true && -n $server && $server != "$client" ]] \
     && [[ $(lt_allowed "$hbase_pid") == "$server" ]] && grep -q "lab: lab.cpus = auto: server CPUs $server, client CPUs $client" <<< "$RT_OUT"; then
    pass "lab run: HBase (pid $hbase_pid) runs on the server CPUs $server only, the client side on $client (manifest, progress line)"
  else
    fail "lab run: lab $(jq -c .lab "$dir/manifest.json"), HBase allowed CPUs '$(lt_allowed "$hbase_pid")'"
  fi
  # every interval has a row for every role, and the roles the run started used CPU
  local header want=12 bad
  header=$(head -1 "$dir/cpu.csv")
  bad=$(awk -F, -v want=$want 'NR > 1 { n[$1]++ } END { for (t in n) if (n[t] != want) print t }' "$dir/cpu.csv" | head -3)
  local used
  used=$(awk -F, 'NR > 1 { s[$3] += $6 } END { for (r in s) if (s[r] > 0) print r }' "$dir/cpu.csv" | sort | tr '\n' ' ')
  if [[ $header == time_ms,interval_s,role,side,processes,cpu_s,jit_s,gc_s,io_s,load_s && -z $bad ]] \
     && [[ $used =~ agent.*console.*hbase.*idle.*lifecycle.*sampler.*worker ]]; then
    pass "lab run: cpu.csv has every role each second; CPU charged to: $used"
  else
    fail "lab run: cpu.csv header '$header', intervals without $want rows: '$bad', roles with CPU: $used"
  fi
  local method ratio allowed_worker
  method=$(jq -r .method "$dir/cpu.json"); ratio=$(jq -r .closure.root_over_busy "$dir/cpu.json")
  allowed_worker=$(jq -r '.roles.worker.cpus_allowed | join(",")' "$dir/cpu.json")
  if [[ $method == cgroup-v1 || $method == cgroup-v2 ]] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }' \
     && [[ $allowed_worker == "$client" ]] && [[ $(jq -r '.roles.hbase.cpus_allowed | join(",")' "$dir/cpu.json") == "$server" ]]; then
    pass "lab run: counted by $method; the cgroup root and the kernel's busy time agree (ratio $ratio); the worker ran on CPUs $allowed_worker"
  else
    fail "lab run: method $method, root/busy $ratio, worker on '$allowed_worker': $(jq -c .closure "$dir/cpu.json")"
  fi
  # each process's parent and peak memory: the worker JVM is its agent's child (./suite bench scale
  # reads them per host), and each role's peak is at least its largest process's
  local agent_pid memory
  agent_pid=$(cat "$dir/injectors/inj1/agent.pid" 2> /dev/null)
  memory=$(jq -r --argjson agent "${agent_pid:-0}" '[.roles.worker.processes[] | select(.pid != null)] as $w
    | [($w | length), ($w | map(select(.ppid == $agent)) | length), (.roles.worker.rss_peak_mb >= ($w | map(.rss_peak_mb) | max)),
       (.roles.worker.rss_peak_mb > 50), (.roles.hbase.rss_peak_mb > 100), .roles.worker.rss_peak_mb, .roles.hbase.rss_peak_mb] | join(" ")' "$dir/cpu.json" 2>&1)
  if [[ $memory == "1 1 true true true "* ]]; then
    pass "lab run: cpu.json gives the worker JVM's parent (its agent, pid $agent_pid) and peak memory per role (worker, HBase MB: ${memory#1 1 true true true })"
  else
    fail "lab run: workers, of the agent, role >= process, worker > 50 MB, HBase > 100 MB: '$memory' (agent pid $agent_pid)"
  fi
  rt_logged lab-report 180 "$RT_SUITE" report "$dir"
  local json=$dir/report/report.json
  if ((RT_RC == 0)) && [[ $(jq -r '.runs[0].cpu.isolated' "$json") == true ]] \
     && [[ $(jq -r '.runs[0].cpu.server.cpus' "$json") -ge 1 ]] \
     && [[ $(jq -r '[.runs[0].checks[] | select(.name == "server CPU" or .name == "JIT" or .name == "contention") | .status] | join(",")' "$json") =~ ^(ok|FLAG),(ok|FLAG),(ok|FLAG)$ ]] \
     && grep -q 'Where the CPU went' "$dir/report/index.html" && [[ -s $dir/report/cpu.png ]]; then
    pass "lab run: the report judges the CPU ($(jq -r '.runs[0].verdict.kinds | join(", ")' "$json")), server side $(jq -r '.runs[0].cpu.server.busy_pct | floor' "$json")% busy, and draws where it went"
  else
    fail "lab run: report rc $RT_RC: $(jq -c '.runs[0].cpu | {isolated, server, client}' "$json" 2>&1 | head -c 400)"
  fi
}

# A warm-up of an isolated lab: HBase on every CPU while its load runs, on the server CPUs again after.
t_lab_warmup_widens() {
  local hbase_pid seen=$TEST_LOGS/lab-warmup-allowed.txt poller dir server online
  hbase_pid=$(cat "$HBASE_LOCAL_DIR/pids/master.pid" 2> /dev/null)
  : > "$seen"
  # bounded: 600 looks 0.1 s apart, ended when the run ends
  (for _ in $(seq 600); do lt_allowed "$hbase_pid" >> "$seen"; sleep 0.1; done) &
  poller=$!
  rt_logged lab-warmup 180 "$RT_SUITE" run --properties "$RT_PROPS" --injectors 1 --threads 2 --warmup-only 6 --set lab.cpus=auto
  kill "$poller" 2> /dev/null; wait "$poller" 2> /dev/null
  dir=$(sed -n 's/^warmup-[0-9]*: \(\/.*\)$/\1/p' <<< "$RT_OUT" | head -1)
  server=$(jq -r .lab.server_cpus "$dir/manifest.json" 2> /dev/null); online=$(jq -r .lab.online_cpus "$dir/manifest.json" 2> /dev/null)
  if ((RT_RC == 0)) && [[ -n $server && $server != "$online" ]] && [[ $(jq -r .lab.warmup_server_cpus "$dir/manifest.json") == "$online" ]] \
     && grep -qx "$online" "$seen" && [[ $(lt_allowed "$hbase_pid") == "$server" ]] \
     && grep -q "warm-up: HBase and its servers on CPUs $online while it lasts" <<< "$RT_OUT"; then
    pass "lab warm-up: HBase on every CPU ($online) during it, back on the server CPUs ($server) after ($RT_SECONDS s)"
  else
    fail "lab warm-up: rc $RT_RC, HBase allowed $(sort "$seen" | uniq -c | tr '\n' ' '), now '$(lt_allowed "$hbase_pid")', server '$server', online '$online': $(tail -3 <<< "$RT_OUT")"
  fi
}

run_lab_tests() {
  t_lab_bad_split
  t_lab_isolated_run
  t_lab_warmup_widens
}
