# shellcheck shell=bash
# End-to-end tests of distributed runs (./suite run, ./suite sweep), sourced by libexec/suite-test
# once its private HBase is up, with SUITE_PORT_OFFSET, HBASE_LOCAL_DIR, SUITE_RUNS_DIR and
# TEST_LOGS exported and pass/fail defined. Each t_run_* asserts real outcomes (exit codes,
# messages, files, counts) of real runs: real console with the run controller, real agents
# and workers against the embedded HBase. Entry point: run_distributed_tests.
source "$SUITE_ROOT/suite.d/runs.sh"
source "$SUITE_ROOT/tests/e2e/server-metrics.sh"
source "$SUITE_ROOT/tests/e2e/live.sh"

RT_SUITE=$SUITE_ROOT/suite
RT_METRICS_HEADER="time_ms,cpu_user_pct,cpu_sys_pct,cpu_iowait_pct,cpu_idle_pct,load1,mem_used_mb,mem_free_mb,disk_read_kbs,disk_write_kbs,net_rx_kbs,net_tx_kbs,tcp_retrans_s,conntrack_pct,cpu_steal_pct,procs_running,procs_blocked,cpu_busiest_core_pct$(for ((c = 0; c < $(grep -c '^cpu[0-9]' /proc/stat); c++)); do printf ',cpu%d_busy_pct' "$c"; done)"

# Run a command with a time bound; output to $TEST_LOGS/NAME.log, status to RT_RC, output to
# RT_OUT, seconds taken to RT_SECONDS.
rt_logged() {
  local name=$1 bound=$2 started=$SECONDS; shift 2
  RT_RC=0
  timeout "$bound" "$@" > "$TEST_LOGS/$name.log" 2>&1 < /dev/null || RT_RC=$?
  RT_OUT=$(cat "$TEST_LOGS/$name.log")
  RT_SECONDS=$((SECONDS - started))
}

# The properties of the test runs, written to FILE (then in RT_PROPS): a small table, a 50/50 mix.
rt_properties() {
  RT_PROPS=$1
  { e2e_worker_c1 < "$SUITE_ROOT/grinder.properties"
    printf 'hbaseload.table = e2erun\nhbaseload.rows = 2000\nhbaseload.regions = 4\nhbaseload.value.size = 100\n'
    printf 'hbaseload.operations = get:50,put:50\n'; } > "$RT_PROPS"
}

# The run folder a ./suite run printed ("run-N: /path").
rt_run_dir() {
  sed -n 's/^run-[0-9]*: \(\/.*\)$/\1/p' <<< "$RT_OUT" | head -1
}

# Is FILE valid JSON? (jq, else python3; true when neither is installed)
rt_json_ok() {
  if command -v jq > /dev/null; then jq -e . "$1" > /dev/null 2>&1
  elif command -v python3 > /dev/null; then python3 -m json.tool "$1" > /dev/null 2>&1
  else true; fi
}

# PIDs of processes started for a run: command line or working directory inside DIR.
rt_procs_in() {
  run_processes "$1"
}

# Requests per test in the data logs below DIR: "1 1677" lines.
rt_datalog_counts() {
  summarise_data_logs "$1" | awk '$1 == "test" { print $2, $3 }' | sort -n
}

# Requests per test as the console counted them (Tests + Errors): "1 1677" lines.
rt_console_counts() {
  awk -F, 'NR > 1 && $3 + $4 > 0 { print $1, $3 + $4 }' "$1/console/statistics.csv" | sort -n
}

t_run_prepare() {
  rt_properties "$TEST_LOGS/run-tests.properties"
  rt_logged run-prepare 240 "$RT_SUITE" prepare --properties "$RT_PROPS"
  if ((RT_RC == 0)); then
    pass "run tests: table e2erun prepared"
  else
    fail "run tests: prepare failed, rc $RT_RC: $(tail -2 <<< "$RT_OUT")"
  fi
}

t_run_bad_input() {
  local before after
  before=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' 2> /dev/null | wc -l || true)
  rt_logged run-bad-threads 30 "$RT_SUITE" run --threads 0
  local ok=1
  ((RT_RC != 0)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] && grep -q -- "--threads '0' is not a whole number > 0" <<< "$RT_OUT" || ok=0
  rt_logged run-bad-lab 30 "$RT_SUITE" run --injectors 2 --lab moon
  ((RT_RC != 0)) && grep -q -- "--lab 'moon' is not accepted" <<< "$RT_OUT" || ok=0
  rt_logged run-bad-arg 30 "$RT_SUITE" run --frobnicate 1
  ((RT_RC != 0)) && grep -q "unknown argument '--frobnicate'" <<< "$RT_OUT" || ok=0
  rt_logged run-bad-hosts 30 "$RT_SUITE" run --hosts "$TEST_LOGS/no-such-hosts"
  ((RT_RC != 0)) && grep -q "hosts file .*no-such-hosts not found" <<< "$RT_OUT" || ok=0
  rt_logged run-bad-slo 30 "$RT_SUITE" run --slo 'p99<5'
  ((RT_RC == 1)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] && grep -q -- "--slo: bad --slo term 'p99<5': unknown metric 'p99'" <<< "$RT_OUT" || ok=0
  after=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' 2> /dev/null | wc -l || true)
  if ((ok)) && ((before == after)); then
    pass "run: bad arguments give a one-line reason naming the culprit, non-zero, no run folder"
  else
    fail "run: bad arguments: rc $RT_RC, folders $before -> $after: $RT_OUT"
  fi
}

# The main case: 2 injectors (namespaces where permitted, else loopback), 5 threads in total
# (3 + 2: the remainder goes to the first host), real load for a few seconds.
# cpu-meter's file of a 2-injector run: the console, both agents and workers and the lifecycle's
# JVMs (the plan, brief, may fall between two samples; the finalisation asks HBase for the table)
# were all in the meter's cgroup, and the total is at least their sampled CPU.
rt_cpu_meter_saw_the_run() {
  local csv=$1 kinds
  kinds=$(awk -F, '$1 == "process" { k = $2
      if (k ~ /net\.grinder\.Console/) print "console"; else if (k ~ /WorkerProcessEntryPoint/) print "worker"
      else if (k ~ /net\.grinder\.Grinder$/) print "agent"; else if (k ~ /lifecycle\.Main/) print "lifecycle" }' "$csv" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')
  if [[ $kinds =~ ^agent=2\ console=1\ lifecycle=[12]\ worker=2\ $ ]] \
     && awk -F, '$1 == "total" { t = $4; m = $2 } $1 == "process" { s += $4 }
                 END { exit !(m ~ /^cgroup/ && t > 0 && t >= 0.95 * s) }' "$csv"; then
    pass "run under cpu-meter: every process counted ($kinds), total $(awk -F, '$1 == "total" { print $4 }' "$csv") CPU s"
  else
    fail "run under cpu-meter: processes seen [$kinds] (want agent=2 console=1 lifecycle=1-2 worker=2): $(head -3 "$csv" | tr '\n' ' ')"
  fi
}

t_run_two_injectors() {
  # Under cpu-meter, as ./suite bench peers runs it: every process of the run must be counted.
  rt_logged run-two 300 env CPU_METER_INTERVAL=0.2 "$SUITE_ROOT/bench/cpu-meter.sh" "$TEST_LOGS/run-two.cpu.csv" \
    "$RT_SUITE" run --properties "$RT_PROPS" --injectors 2 --threads 5 --duration 6
  local dir manifest mode
  dir=$(rt_run_dir); manifest=$dir/manifest.json
  if ((RT_RC != 0)) || [[ ! -f $manifest ]]; then
    fail "run with 2 injectors: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  mode=$(grep -o '"injector_mode":"[a-z]*"' "$manifest" | cut -d'"' -f4 || true)
  if rt_json_ok "$manifest" && grep -q '"status":"complete"' "$manifest" \
     && grep -q '"hosts":\["inj1","inj2"\]' "$manifest" && grep -q '"threads_total":5,' "$manifest" \
     && grep -q '"threads_per_host":{"inj1":3,"inj2":2}' "$manifest" && grep -q '"grinder.threads":"3,2"' "$manifest" \
     && grep -q '"tests":{"1":"get","2":"put"}' "$manifest" && grep -qE '"git_rev":"[0-9a-f]{40}"' "$manifest" \
     && grep -qE '"versions":\{"grinder":"3\.11","jython":"2\.7\.[0-9]+","java":"17\.[^"]*","hbase":"2\.6\.[0-9]+"\}' "$manifest" \
     && grep -qE '"table":\{"name":"e2erun","regions":4,"rows":2000' "$manifest" \
     && grep -qE '"start_time":"20[0-9-]+T[0-9:.]+Z","end_time":"20[0-9-]+T[0-9:.]+Z"' "$manifest"; then
    pass "run with 2 injectors ($mode): manifest complete, hosts, threads 3+2, tests, versions, git rev, table"
  else
    fail "run with 2 injectors: manifest: $(head -c 600 "$manifest")"
  fi
  local host missing=""
  for host in inj1 inj2; do
    [[ -s $dir/injectors/$host/$host-0-data.log && -s $dir/injectors/$host/$host-0.log && -s $dir/injectors/$host/agent.out ]] \
      || missing+="$host "
  done
  if [[ -z $missing ]]; then
    pass "run with 2 injectors: both agents' data logs, worker logs and agent logs collected, distinct names"
  else
    fail "run with 2 injectors: logs missing for $missing: $(find "$dir/injectors" -maxdepth 2 | head -20 | tr '\n' ' ')"
  fi
  local datalog console
  datalog=$(rt_datalog_counts "$dir/injectors" || true)
  console=$(rt_console_counts "$dir" || true)
  if [[ -n $datalog && $datalog == "$console" ]] && grep -q '^test,name,count,errors,mean_ms,sd_ms,tps$' "$dir/console/statistics.csv"; then
    pass "run with 2 injectors: data-log requests per test equal the console's totals ($(tr '\n' ' ' <<< "$datalog"))"
  else
    fail "run with 2 injectors: data logs [$(tr '\n' ' ' <<< "$datalog")] vs console [$(tr '\n' ' ' <<< "$console")]"
  fi
  if [[ $(head -1 "$dir/console/timeline.csv") == time_ms,elapsed_s,test,name,count,errors,mean_ms,tps ]] \
     && (($(wc -l < "$dir/console/timeline.csv") > 2)); then
    pass "run with 2 injectors: console timeline.csv holds $(($(wc -l < "$dir/console/timeline.csv") - 1)) sample rows"
  else
    fail "run with 2 injectors: timeline.csv: $(head -3 "$dir/console/timeline.csv" 2>&1 | tr '\n' ' ')"
  fi
  local csv bad=""
  for csv in "$dir/injectors/inj1/metrics.csv" "$dir/injectors/inj2/metrics.csv" "$dir/hbase/metrics.csv"; do
    if [[ ! -s $csv || $(head -1 "$csv") != "$RT_METRICS_HEADER" ]] || (($(wc -l < "$csv") < 3)) \
       || awk -F, 'NR == 1 { n = NF } NR > 1 && NF != n { bad = 1 } END { exit !bad }' "$csv"; then
      bad+="${csv#"$dir"/} "
    fi
  done
  if [[ -z $bad ]]; then
    pass "run with 2 injectors: metrics.csv with the contract header and rows for inj1, inj2 and hbase"
  else
    fail "run with 2 injectors: metrics missing or malformed: $bad"
  fi
  if grep -qE '^  \.\.\. run-[0-9]+ [0-9]+s, [0-9.NA]+ TPS, mean [0-9.NA]+ ms, [0-9]+ errors' <<< "$RT_OUT"; then
    pass "run with 2 injectors: progress lines with elapsed, TPS, mean and errors"
  else
    fail "run with 2 injectors: no progress line: $(head -8 <<< "$RT_OUT")"
  fi
  rt_cpu_meter_saw_the_run "$TEST_LOGS/run-two.cpu.csv"
  # Under the meter the lab leaves accounting to it: the run's own sampler counts roles by command line.
  if [[ $(jq -r .method "$dir/cpu.json" 2> /dev/null) == proc ]] \
     && [[ $(jq -r '[.roles.worker.processes[] | select(.label == "WorkerProcessEntryPoint")] | length' "$dir/cpu.json") == 2 ]]; then
    pass "run under cpu-meter: the run's cpu.json counted its 2 workers by command line"
  else
    fail "run under cpu-meter: cpu.json $(jq -c '{method, w: .roles.worker}' "$dir/cpu.json" 2>&1 | head -c 300)"
  fi
  t_run_server_metrics "$dir"
  local left
  left=$(rt_procs_in "$dir")
  if [[ -z $left ]] && ! ip -o link show 2> /dev/null | grep -q ": hgs${SUITE_PORT_OFFSET}i"; then
    pass "run with 2 injectors: no console, agent, worker, sampler or lab link left"
  else
    fail "run with 2 injectors: left behind: pids $(tr '\n' ' ' <<< "$left")$(ip -o link show 2> /dev/null | grep -o "hgs${SUITE_PORT_OFFSET}i[0-9]*" | head -2)"
  fi
}

# Host 2's java does not exist: its agent never comes. The run must fail within the agent
# timeout, name the missing agent, keep the partial data, and not touch an existing run.
t_run_missing_agent() {
  local hosts=$TEST_LOGS/hosts-missing last keep
  printf '# two local hosts; beta cannot start\nlocal  -  %s  alpha\nlocal  /nonexistent/java  %s  beta\n' \
    "$TEST_LOGS/work-alpha" "$TEST_LOGS/work-beta" > "$hosts"
  last=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' -printf '%f\n' 2> /dev/null | sed 's/run-//' | sort -n | tail -1 || true)
  keep=$SUITE_RUNS_DIR/run-$((${last:-0} + 5))
  mkdir -p "$keep"
  echo '{"run_id":"keep"}' > "$keep/manifest.json"
  rt_logged run-missing 120 "$RT_SUITE" run --properties "$RT_PROPS" --hosts "$hosts" --threads 2 --duration 4 --agent-timeout 15
  local dir
  dir=$(rt_run_dir)
  if ((RT_RC != 0)) && grep -q 'agent beta did not connect within 15s (connected: alpha)' <<< "$RT_OUT" \
     && ((RT_SECONDS < 60)); then
    pass "run with an agent that never comes: fails in ${RT_SECONDS}s naming it (agent beta did not connect within 15s)"
  else
    fail "run with an agent that never comes: rc $RT_RC in ${RT_SECONDS}s: $(tail -2 <<< "$RT_OUT")"
  fi
  if [[ -f $dir/manifest.json ]] && grep -q '"status":"incomplete","reason":"agent beta did not connect' "$dir/manifest.json" \
     && [[ -s $dir/console/console.out && -f $dir/injectors/alpha/agent.out ]]; then
    pass "run with an agent that never comes: manifest incomplete with the reason, partial data kept"
  else
    fail "run with an agent that never comes: manifest: $(head -c 300 "$dir/manifest.json" 2>&1)"
  fi
  if [[ $dir == "$SUITE_RUNS_DIR/run-$((${last:-0} + 6))" && $(cat "$keep/manifest.json") == '{"run_id":"keep"}' ]]; then
    pass "run ids: a new run takes the next free number, an existing run is never overwritten"
  else
    fail "run ids: got $dir after $keep; kept manifest: $(cat "$keep/manifest.json")"
  fi
  local left
  left="$(rt_procs_in "$dir") $(rt_procs_in "$TEST_LOGS/work-alpha")"
  if [[ -z ${left// /} ]]; then
    pass "run with an agent that never comes: no agent, sampler or console left"
  else
    fail "run with an agent that never comes: left: pids $left"
  fi
}

# Hosts reached "by ssh": a stand-in ssh that runs the command here exercises the real path
# (jars copied to the host's work dir, agent and sampler started and stopped by PID, logs and
# metrics copied back), without an ssh server. rt_fake_ssh writes it and prints its path.
rt_fake_ssh() {
  local fake=$TEST_LOGS/fake-ssh
  cat > "$fake" <<'EOF'
#!/usr/bin/env bash
# Stand-in for ssh in tests: drops options and destination, runs the command here.
set -euo pipefail
while [[ $1 == -* ]]; do case $1 in -o | -p | -i | -l) shift 2 ;; *) shift ;; esac; done
shift
exec bash -c "$*"
EOF
  chmod +x "$fake"
  echo "$fake"
}

t_run_ssh_hosts() {
  local hosts=$TEST_LOGS/hosts-ssh fake
  fake=$(rt_fake_ssh)
  printf 'tester@east - %s\ntester@west - %s\n' "$TEST_LOGS/ssh-east" "$TEST_LOGS/ssh-west" > "$hosts"
  rt_logged run-ssh 300 env INJECTOR_SSH="$fake -o BatchMode=yes" "$RT_SUITE" run --properties "$RT_PROPS" \
    --hosts "$hosts" --threads 2 --duration 4
  local dir
  dir=$(rt_run_dir)
  if ((RT_RC == 0)) && grep -q '"status":"complete"' "$dir/manifest.json" && grep -q '"injector_mode":"ssh"' "$dir/manifest.json" \
     && [[ -s $dir/injectors/east/east-0-data.log && -s $dir/injectors/west/west-0-data.log ]] \
     && [[ -s $dir/injectors/east/metrics.csv && -s $dir/injectors/west/metrics.csv ]] \
     && [[ -s $TEST_LOGS/ssh-east/lib/jars/grinder-core-3.11.jar ]] \
     && [[ -z $(find "$TEST_LOGS/ssh-east/runs" "$TEST_LOGS/ssh-west/runs" -mindepth 1 -maxdepth 1 2> /dev/null) ]] \
     && [[ $(rt_datalog_counts "$dir/injectors" || true) == "$(rt_console_counts "$dir" || true)" ]]; then
    pass "run on hosts-file hosts over (stand-in) ssh: jars copied, logs and metrics copied back and removed from the hosts, counts agree"
  else
    fail "run on ssh hosts: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
  fi
}

# Gates after a run: the report is written with its verdict, and a gate that cannot hold gives exit 99
# while the run itself stays complete.
t_run_slo() {
  rt_logged run-slo 300 "$RT_SUITE" run --properties "$RT_PROPS" --threads 2 --duration 4 \
    --slo 'error_rate<0.5,throughput_rps>=1000000000'
  local dir
  dir=$(rt_run_dir)
  if ((RT_RC == 99)) && grep -q '"status":"complete"' "$dir/manifest.json" 2> /dev/null \
     && grep -q '^  verdict: ' <<< "$RT_OUT" && grep -q '^  gates: 1 of 2 fail: throughput_rps>=1000000000 (' <<< "$RT_OUT" \
     && rt_json_ok "$dir/report/report.json" && grep -q '"exit_status": 99' "$dir/report/report.json"; then
    pass "run --slo: report written with its verdict; the gate that cannot hold named; exit 99, run complete"
  else
    fail "run --slo: rc $RT_RC (want 99): $(tail -4 <<< "$RT_OUT")"
  fi
}

t_sweep() {
  local scenario=$TEST_LOGS/tiny-sweep.properties
  cat > "$scenario" <<EOF
# A two-point sweep for the tests, each point twice in alternating order, with a gate.
sweep.threads = 2,4
sweep.operations = get:100
sweep.repeat = 2
sweep.slo = error_rate<0.5
sweep.injectors = 2
sweep.duration = 3
# a warm-up before the first run, bounded short (sweep.json lists it)
sweep.warmup = 10
hbaseload.table = e2erun
hbaseload.rows = 2000
hbaseload.regions = 4
hbaseload.value.size = 100
EOF
  rt_logged sweep 400 "$RT_SUITE" sweep "$scenario"
  local sweep_dir runs ok=1 run
  sweep_dir=$(sed -n 's/^\(sweep-[0-9]*\): \(\/.*\)$/\2/p' <<< "$RT_OUT" | head -1)
  if ((RT_RC != 0)) || [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "sweep: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  mapfile -t runs < <(grep -o '"runs":\[[^]]*\]' "$sweep_dir/sweep.json" | grep -o 'run-[0-9]*')
  ((${#runs[@]} == 4)) || ok=0
  local threads=""
  for run in "${runs[@]}"; do
    grep -q "\"sweep_id\":\"${sweep_dir##*/}\"" "$SUITE_RUNS_DIR/$run/manifest.json" || ok=0
    grep -q '"status":"complete"' "$SUITE_RUNS_DIR/$run/manifest.json" || ok=0
    threads+="$(grep -o '"threads_total":[0-9]*' "$SUITE_RUNS_DIR/$run/manifest.json" | cut -d: -f2) "
  done
  if ((ok)) && rt_json_ok "$sweep_dir/sweep.json" && grep -q "\"scenario\":\"tiny-sweep\"" "$sweep_dir/sweep.json" \
     && [[ $threads == "2 4 4 2 " ]] && grep -q '"label":"4 threads, get:100 (repeat 2 of 2)"' "$sweep_dir/sweep.json"; then
    pass "sweep: 2 points x 2 repeats in alternating order (threads $threads) under ${sweep_dir##*/}, manifests carry the sweep id"
  else
    fail "sweep: threads [$threads] (want 2 4 4 2): $(cat "$sweep_dir/sweep.json"): runs ${runs[*]}"
  fi
  # Where the sweep's wall time went: 4 runs of 3 s are 12 s of load; the steps add up to no more than the wall.
  local time_ok
  time_ok=$(jq -r '.time | (.load_s == 12 and .wall_s > .load_s and .runs_s > .load_s and .warmups_s > 0
    and (.runs_s + .warmups_s + .prepare_s) <= .wall_s + 0.01)' "$sweep_dir/sweep.json" 2> /dev/null)
  if [[ $time_ok == true && $(jq '.steps | map(select(.step == "run")) | length' "$sweep_dir/sweep.json") == 4 ]] \
     && grep -q '^  of its [0-9]* s, 12 s were load' <<< "$RT_OUT"; then
    pass "sweep: sweep.json and the last lines say where its time went ($(grep -m1 '^  of its' <<< "$RT_OUT" | cut -c3-90))"
  else
    fail "sweep time: $(jq -c .time "$sweep_dir/sweep.json" 2> /dev/null); steps $(jq -c '[.steps[].step]' "$sweep_dir/sweep.json" 2> /dev/null)"
  fi
  # One injector session for the sweep: one console for every run, and yet each run's workers had
  # its own properties and wrote only its own data logs (threads per injector = its point's).
  local consoles own=1 host per data
  consoles=$(grep -o 'console (\?pid [0-9]*' <<< "$RT_OUT" | grep -o '[0-9]*' | sort -u | tr '\n' ' ')
  for run in "${runs[@]}"; do
    per=$(($(jq -r .threads_total "$SUITE_RUNS_DIR/$run/manifest.json") / 2))
    for host in inj1 inj2; do
      grep -qx "grinder.threads = $per" "$SUITE_RUNS_DIR/$run/injectors/$host/agent.properties" || own=0
      data=$(find "$SUITE_RUNS_DIR/$run/injectors/$host" -name '*-data.log' | head -2)
      [[ $(wc -l <<< "$data") == 1 && -n $data ]] || { own=0; continue; }
      [[ $(awk -F', ' 'NR > 1 { print $1 }' "$data" | sort -u | wc -l) == "$per" ]] || own=0
    done
  done
  local warmups
  warmups=$(jq -c '[.warmups[] | {before_point, bounded: (.seconds <= 12)}]' "$sweep_dir/sweep.json" 2> /dev/null)
  if [[ $consoles =~ ^[0-9]+\ $ ]] && [[ $(grep -c 'in the session .*(console pid' <<< "$RT_OUT") == 4 ]] && ((own)) \
     && [[ $warmups == '[{"before_point":1,"bounded":true}]' ]]; then
    pass "sweep: one injector session (console pid $consoles) for its warm-up (within sweep.warmup = 10 s) and all 4 runs; each run's properties and data logs are its own point's"
  else
    fail "sweep session: consoles [$consoles], runs in the session $(grep -c 'in the session' <<< "$RT_OUT"), own properties and data logs: $own, warm-ups $warmups"
  fi
  if grep -q '^  capacity: [0-9,]* req/s' <<< "$RT_OUT" \
     && python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["capacity"]; sys.exit(0 if c["run"] in sys.argv[2:] else 1)' \
          "$sweep_dir/report/report.json" "${runs[@]}" 2> /dev/null; then
    pass "sweep with sweep.slo: the sweep's report names the capacity ($(grep -m1 '^  capacity:' <<< "$RT_OUT" | cut -c3-80))"
  else
    fail "sweep with sweep.slo: no capacity line or report.json: $(tail -4 <<< "$RT_OUT")"
  fi
}

# Warm workers (session.workers = warm): the workers are threads of the session's agent JVM. Four
# runs in one session, ABBA: a good point, then twice a point whose every request fails (a
# thrift port nothing listens on: the run is degraded), then the good point again. Each run has its own data log and
# properties; the failures do not leak into the last run (all its requests succeed); one agent JVM
# served all four (the same pid in every run folder), and the last run's worker JIT is below the
# first's (the HBase client's code stayed compiled).
t_sweep_warm_workers() {
  local scenario=$TEST_LOGS/warm-sweep.properties
  cat > "$scenario" <<EOF
sweep.name = warm-e2e
sweep.injectors = 1
sweep.threads = 2
sweep.operations = get:100
sweep.variants = hbaseload.target=direct | hbaseload.target=thrift;hbaseload.thrift.port=1
sweep.repeat = 2
sweep.duration = 4
sweep.warmup = off
session.workers = warm
hbaseload.table = e2erun
hbaseload.rows = 2000
hbaseload.regions = 4
hbaseload.value.size = 100
EOF
  rt_logged sweep-warm 400 "$RT_SUITE" sweep --keep-going "$scenario"
  local sweep_dir runs run why="" pids="" data first_jit last_jit statuses=""
  sweep_dir=$(sed -n 's/^\(sweep-[0-9]*\): \(\/.*\)$/\2/p' <<< "$RT_OUT" | head -1)
  if [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "warm sweep: rc $RT_RC, no sweep.json: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  mapfile -t runs < <(jq -r '.runs[]' "$sweep_dir/sweep.json")
  for run in "${runs[@]}"; do
    statuses+="$(jq -r .status "$SUITE_RUNS_DIR/$run/manifest.json") "
    pids+="$(cat "$SUITE_RUNS_DIR/$run/injectors/inj1/agent.pid" 2> /dev/null) "
  done
  if ((${#runs[@]} != 4)) || [[ $statuses != "complete degraded degraded complete " ]]; then
    fail "warm sweep: runs ${runs[*]} ended [$statuses] (want complete degraded degraded complete): $(tail -3 <<< "$RT_OUT")"
    return
  fi
  for run in "${runs[0]}" "${runs[3]}"; do
    grep -qx 'grinder.debug.singleprocess = true' "$SUITE_RUNS_DIR/$run/injectors/inj1/agent.properties" || why+="$run not single-process; "
    data=$(find "$SUITE_RUNS_DIR/$run/injectors/inj1" -name '*-data.log')
    [[ $(wc -l <<< "$data") == 1 && -n $data ]] || { why+="$run data logs [$data]; "; continue; }
    # every request of the run is its own point's: test 1 (get), no error, from its 2 threads
    [[ $(awk -F', ' 'NR > 1 && ($3 != 1 || $6 != 0)' "$data" | wc -l) == 0 && $(awk -F', ' 'NR > 1' "$data" | wc -l) -gt 100 ]] || why+="$run has requests not its point's; "
    [[ $(awk -F', ' 'NR > 1 { print $1 }' "$data" | sort -u | wc -l) == 2 ]] || why+="$run threads not 2; "
  done
  # the worker role's one lasting process in every run is the agent itself: no worker JVM was
  # started. Brief children are allowed unless one is a JVM: Hadoop's Shell probes for setsid at
  # class load, which the sampler sometimes catches as "1 brief process(es): jspawnhelper".
  for run in "${runs[@]}"; do
    [[ $(jq -r '[.roles.worker.processes[] | select(.pid != null) | .pid] | map(tostring) | join(" ")' "$SUITE_RUNS_DIR/$run/cpu.json") == "$(cat "$SUITE_RUNS_DIR/$run/injectors/inj1/agent.pid")" ]] || why+="$run worker processes $(jq -c '[.roles.worker.processes[].label]' "$SUITE_RUNS_DIR/$run/cpu.json"); "
    jq -e '[.roles.worker.processes[] | select(.pid == null) | .label | test("java")] | any | not' "$SUITE_RUNS_DIR/$run/cpu.json" > /dev/null || why+="$run a brief worker JVM; "
  done
  first_jit=$(jq '.roles.worker.jit_s' "$SUITE_RUNS_DIR/${runs[0]}/cpu.json")
  last_jit=$(jq '.roles.worker.jit_s' "$SUITE_RUNS_DIR/${runs[3]}/cpu.json")
  if [[ -z $why && $pids =~ ^[0-9]+\ ([0-9]+\ ){3}$ && $(tr ' ' '\n' <<< "$pids" | grep -c . ) == 4 && $(tr ' ' '\n' <<< "$pids" | sort -u | grep -c .) == 1 ]] && awk -v a="$last_jit" -v b="$first_jit" 'BEGIN { exit !(a < b) }'; then
    pass "warm sweep: one agent JVM (pid ${pids%% *}) ran 4 runs' workers, no worker JVM started; the failed points did not leak into the last (its own data log, every request a get, 0 errors); worker JIT ${first_jit} s in the first run, ${last_jit} s in the last"
  else
    fail "warm sweep: ${why:-own data logs, no leak}; agent pids [$pids]; worker JIT first $first_jit s, last $last_jit s"
  fi
}

# The acknowledged-write audit (issue 24 part 4): a short audited run verifies itself at its end
# (0 lost, as many acknowledged puts as the data logs' successful puts, every one intact); then a
# plain HBase client deletes 3 of its acknowledged rows (tests/e2e/AuditDelete.java) and
# ./suite verify names exactly those 3 as lost, with exit 4. About 35 s: the run, two read-backs
# and the delete's JVM.
# TEXT with Java's digit grouping taken out of its numbers ("1,138" -> "1138").
rt_plain_numbers() {
  sed -E ':a; s/([0-9]),([0-9]{3})/\1\2/; ta' <<< "$1"
}

t_run_audit() {
  # settled first (hbaseload.settle): the earlier tests' writes flushed before this one's load
  rt_logged run-audit 240 "$RT_SUITE" run --properties "$RT_PROPS" --threads 4 --duration 5 --set hbaseload.audit=true \
    --set hbaseload.settle=true
  local dir audit acked ok_puts
  dir=$(rt_run_dir); audit=$dir/audit.json
  if ((RT_RC != 0)) || [[ ! -f $audit ]]; then
    fail "audited run: rc $RT_RC, no audit.json: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  if grep -q '^  e2erun: flushed in [0-9.]* s$' "$dir/settle.log" 2> /dev/null && grep -q '^  settled in [0-9.]* s' "$dir/settle.log" \
     && grep -q 'settling the table before the load' <<< "$RT_OUT" && grep -q '"hbaseload.settle":"true"' "$dir/plan.json"; then
    pass "hbaseload.settle: the run's table flushed and its compactions waited for before the load ($(grep -o 'settled in [0-9.]* s' "$dir/settle.log"))"
  else
    fail "hbaseload.settle: no settle before the load: $(tail -3 "$dir/settle.log" 2> /dev/null)"
  fi
  acked=$(grep -o '"acknowledged":[0-9]*' "$audit" | cut -d: -f2)
  ok_puts=$(summarise_data_logs "$dir" | awk '$1 == "test" && $2 == 2 { print $3 - $4 }')
  if rt_json_ok "$audit" && ((acked > 0)) && [[ $acked == "$ok_puts" ]] && grep -q '"complete":true' "$audit" \
     && grep -q "\"intact\":$acked," "$audit" && grep -q '"lost":0,"corrupted":0,' "$audit" \
     && grep -q "verify run-[0-9]*: $acked acknowledged puts: $acked intact, 0 lost, 0 corrupted" <<< "$(rt_plain_numbers "$RT_OUT")"; then
    pass "audited run: verified at its end, $acked acknowledged puts = the data logs' successful puts, all intact, 0 lost"
  else
    fail "audited run: acknowledged $acked, data logs' successful puts ${ok_puts:-none}: $(head -c 500 "$audit")"
    return
  fi
  local log
  log=$(find "$dir/injectors" -name '*.audit' | head -1)
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  run_logged audit-delete 90 "$JAVA" $BRIEF_JVM_OPTS --add-opens=java.base/java.nio=ALL-UNNAMED \
    "-Dlog4j.configuration=file:$SUITE_ROOT/grinder-scripts/log4j-cli.properties" \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" -cp "$(worker_classpath):$(grinder_classpath)" \
    "$SUITE_ROOT/tests/e2e/AuditDelete.java" "$PORT_ZK" e2erun "$log" 3 5
  local deleted
  deleted=$(grep -E '^[0-9]+/' <<< "$OUT" | sort | paste -sd' ')
  if ((RC != 0)) || [[ $(wc -w <<< "$deleted") -ne 3 ]]; then
    fail "audited run: deleting 3 audited rows failed, rc $RC: $(tail -2 <<< "$OUT")"
    return
  fi
  rt_logged verify-lost 120 "$RT_SUITE" verify "$dir"
  local lost
  lost=$(grep -o '"lost_keys":\[[^]]*\]' "$audit" | grep -o '"[0-9][^"]*"' | tr -d '"' | sort | paste -sd' ')
  if ((RT_RC == 4)) && [[ $lost == "$deleted" ]] && grep -q '"lost":3,"corrupted":0,' "$audit" \
     && grep -q "\"intact\":$((acked - 3))," "$audit" \
     && grep -q "^suite verify: run-[0-9]*: acknowledged writes were lost or corrupted" <<< "$RT_OUT" \
     && grep -q "ACKNOWLEDGED WRITES LOST: 3 lost and 0 corrupted of $acked acknowledged puts" <<< "$(rt_plain_numbers "$RT_OUT")"; then
    pass "./suite verify: the 3 rows deleted behind its back are exactly the 3 lost acknowledged writes, exit 4"
  else
    fail "./suite verify after deleting [$deleted]: rc $RT_RC, lost [$lost]: $(tail -3 <<< "$RT_OUT")"
  fi
  local ok=1 plain
  rt_logged verify-none 30 "$RT_SUITE" verify
  ((RT_RC == 2)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] || ok=0
  rt_logged verify-missing 30 "$RT_SUITE" verify run-does-not-exist
  ((RT_RC == 1)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] && grep -q "run-does-not-exist: no such run" <<< "$RT_OUT" || ok=0
  plain=$(grep -L '"hbaseload.audit":"true"' "$SUITE_RUNS_DIR"/run-*/plan.json 2> /dev/null | head -1 || true)
  if [[ -n $plain ]]; then
    rt_logged verify-unaudited 60 "$RT_SUITE" verify "$(dirname "$plain")"
    ((RT_RC == 1)) && [[ $(wc -l <<< "$RT_OUT") -eq 1 ]] && grep -q "was not audited (hbaseload.audit=false" <<< "$RT_OUT" || ok=0
  fi
  if ((ok)); then
    pass "./suite verify: no run, an unknown run$([[ -n $plain ]] && echo ", an unaudited run"): one line naming it, non-zero"
  else
    fail "./suite verify bad input: rc $RT_RC: $RT_OUT"
  fi
}

run_distributed_tests() {
  t_run_bad_input
  t_run_prepare
  t_run_two_injectors
  t_run_audit
  t_run_live_metrics
  t_run_missing_agent
  t_run_ssh_hosts
  t_run_slo
  t_sweep
  t_sweep_warm_workers
}
