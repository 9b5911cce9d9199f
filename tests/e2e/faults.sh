# shellcheck shell=bash
# End-to-end fault tests: runs that meet failures on the real stack (2 injectors) keep measuring,
# keep what they recorded, end in bounded time and say how they ended. Sourced by
# libexec/suite-test after tests/e2e/runs.sh (rt_* helpers, RT_PROPS) once its private HBase is
# up. Entry point: run_fault_tests.

# PID of the worker JVM of injector HOST in RUN_DIR (it runs in the agent's file store below
# injectors/HOST).
ft_worker_pid() {
  local run_dir=$1 host=$2 pid
  for pid in $(pgrep -f 'WorkerProcessEntryPoint' || true); do
    if [[ $(readlink "/proc/$pid/cwd" 2> /dev/null) == "$run_dir/injectors/$host/"* ]]; then
      echo "$pid"
      return
    fi
  done
}

# Wait (at most BOUND seconds) until FILE holds at least N lines.
ft_wait_lines() {
  local file=$1 n=$2 bound=$3 started=$SECONDS
  while (($(wc -l 2> /dev/null < "$file" || echo 0) < n)); do
    ((SECONDS - started < bound)) || return 1
    sleep 0.5
  done
}

# The run folders there are now, into FILE: a background ./suite run's folder is the one not in it
# (ft_newest_run). A list, not a file's time: no second's wait for the clock to tick.
ft_runs_now() {
  find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' -type d 2> /dev/null | sort > "$1"
}

# The run folders not in the list FILE (ft_runs_now), oldest first.
ft_new_runs() {
  find "$SUITE_RUNS_DIR" -maxdepth 1 -name 'run-*' -type d 2> /dev/null | sort | comm -13 "$1" - | sort -V
}

# The folder of the run that a background ./suite run is making: the newest not in the list FILE.
ft_newest_run() {
  ft_new_runs "$1" | tail -1
}

# Start ./suite run RUN_ARGS... in the background (output in $TEST_LOGS/fault-NAME.log, its PID in
# FT_RUN_PID) and wait until it is going (ft_run_going FILE N; its folder in FT_RUN_DIR). When it
# does not get going, waits for it to end and returns 1.
ft_start_run() {
  local name=$1 file=$2 n=$3 marker=$TEST_LOGS/fault-$1.start
  shift 3
  ft_runs_now "$marker"
  "$RT_SUITE" run "$@" > "$TEST_LOGS/fault-$name.log" 2>&1 &
  FT_RUN_PID=$!
  ft_run_going "$marker" "$file" "$n" && return 0
  wait "$FT_RUN_PID"
  return 1
}

# Wait (bounded: 60 s for the folder, 90 s for the lines) until the run not in the list MARKER has
# its folder (then in FT_RUN_DIR) and its FILE there holds N lines: the load is going.
ft_run_going() {
  local marker=$1 file=$2 n=$3
  FT_RUN_DIR=""
  for _ in $(seq 1 120); do FT_RUN_DIR=$(ft_newest_run "$marker"); [[ -n $FT_RUN_DIR ]] && break; sleep 0.5; done
  [[ -n $FT_RUN_DIR ]] && ft_wait_lines "$FT_RUN_DIR/$file" "$n" 90
}

# Whether the last line of FILE holding PREFIX names every one of WORDS, in any order (which of two
# faults the console notices first is a race).
ft_said() {
  local file=$1 prefix=$2 line word
  shift 2
  line=$(grep -F -- "$prefix" "$file" | tail -1)
  [[ -n $line ]] || return 1
  for word in "$@"; do [[ $line == *"$word"* ]] || return 1; done
}

# SIGKILL one injector's worker (inj2) and another injector's agent (inj3) in the same run: the
# third host measures to its end; each lost host's data log is collected, short of at most about
# a second before the kill; the run ends incomplete, non-zero, naming both; nothing is left
# running. (One run for both faults: each costs a run's start otherwise.)
t_fault_worker_and_agent_killed() {
  local run_dir worker agent kill_ms rc=0 started=$SECONDS
  if ! ft_start_run killed injectors/inj3/inj3-0-data.log 500 --properties "$RT_PROPS" --injectors 3 --threads 6 --duration 14; then
    fail "fault, worker and agent killed: the run did not get going: $(tail -3 "$TEST_LOGS/fault-killed.log")"
    return
  fi
  local run_pid=$FT_RUN_PID
  run_dir=$FT_RUN_DIR
  ft_wait_lines "$run_dir/injectors/inj2/inj2-0-data.log" 500 30
  sleep 2
  worker=$(ft_worker_pid "$run_dir" inj2)
  agent=$(cat "$run_dir/injectors/inj3/agent.pid" 2> /dev/null)
  kill_ms=$(date +%s%3N)
  [[ -n $worker ]] && kill -KILL "$worker"
  [[ -n $agent ]] && kill -KILL "$agent"
  wait "$run_pid" || rc=$?
  local host last short="" inj1_span status reason
  declare -A before_kill
  for host in inj2 inj3; do
    last=$(awk -F', *' 'NR > 1 && $4 ~ /^[0-9]+$/ { if ($4 > m) m = $4 } END { printf "%.0f\n", m }' "$run_dir/injectors/$host/$host-0-data.log")
    before_kill[$host]=$((kill_ms - last))
    short+="$host $((kill_ms - last)) ms "
    ((kill_ms - last <= 1500)) || short+="(too early) "
  done
  inj1_span=$(awk -F', *' 'NR > 1 && $4 ~ /^[0-9]+$/ { if (!f || $4 < f) f = $4; if ($4 > l) l = $4 } END { print int((l - f) / 1000) }' "$run_dir/injectors/inj1/inj1-0-data.log")
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  if [[ -n $worker && -n $agent && $short != *"too early"* ]] && ((rc == 1 && inj1_span >= 11)) && [[ $status == incomplete ]] \
     && [[ $reason == *"agent inj3 "*"its workers stop"* && $reason == *"inj2-0"* && $reason == *"ran to the end"* ]] \
     && [[ -z $(rt_procs_in "$run_dir") ]] && ft_said "$TEST_LOGS/fault-killed.log" "suite run: ${run_dir##*/} incomplete: " inj3 inj2-0; then
    pass "fault, worker killed: inj1 measured on for ${inj1_span}s, inj2's log kept to ${before_kill[inj2]} ms before the kill, incomplete naming inj2-0, exit 1"
    pass "fault, agent killed (same run): inj3's log ends ${before_kill[inj3]} ms before the kill, its worker gone with it, the run naming inj3, nothing left, in $((SECONDS - started))s"
  else
    fail "fault, worker and agent killed: pids ${worker:-none}/${agent:-none}, rc $rc, status $status ($reason), logs short: $short inj1 ${inj1_span}s, left: $(rt_procs_in "$run_dir" | tr '\n' ' ')"
  fi
}

# Stop HBase mid-run and start it again: failed calls end at the watchdog's deadline (timeout + 10%),
# at most one in ten later and none past the deadline plus the timeout (a wait the interrupt cannot
# reach ends at its own timeout, and it may have begun just before the deadline: a get failed after
# 4,123 ms, past twice the timeout, in a run on 2026-11-27), failures are counted by class, load resumes once HBase is back,
# and the run ends degraded (non-zero) naming the failures and the silent seconds. 90 s of load:
# the stop (a flush, about 20 s), the 5 s pause and the start (25-30 s) took 57 s of a 60-s run
# with the e2e tests beside it, and left no load after the restart to see.
t_fault_hbase_restart() {
  local run_dir rc=0 started=$SECONDS timeout_ms=2000
  if ! ft_start_run hbase injectors/inj1/inj1-0-data.log 500 --properties "$RT_PROPS" --injectors 2 --threads 4 --duration 90 \
    --set hbaseload.timeout.ms=$timeout_ms; then
    fail "fault, HBase restarted: the run did not get going: $(tail -3 "$TEST_LOGS/fault-hbase.log")"
    return
  fi
  local run_pid=$FT_RUN_PID
  run_dir=$FT_RUN_DIR
  sleep 3
  timeout 120 "$RT_SUITE" hbase stop > "$TEST_LOGS/fault-hbase-stop.log" 2>&1
  sleep 5
  local start_rc=0
  timeout 240 "$RT_SUITE" hbase start > "$TEST_LOGS/fault-hbase-start.log" 2>&1 || start_rc=$?
  ((start_rc == 0)) || fail "fault, HBase restarted: HBase did not start again (rc $start_rc): $(tail -1 "$TEST_LOGS/fault-hbase-start.log")"
  wait "$run_pid" || rc=$?
  # Over both data logs: failures, the longest failed call, how many failed calls overran the
  # watchdog's deadline by more than a tick, and successes after the last failure (HBase back;
  # `hbase start` returns only once the thrift2 gateway is up too, so its return is no marker).
  local figures status reason failed longest overran resumed deadline_ms=$((timeout_ms + timeout_ms / 10))
  figures=$(cat "$run_dir"/injectors/inj*/inj*-data.log | awk -F', *' -v late=$((deadline_ms + 250)) '
    $4 ~ /^[0-9]+$/ { n++; start[n] = $4; ok[n] = ($6 == 0)
                      if ($6 != 0) { failed++; if ($5 > longest) longest = $5; if ($5 > late) overran++
                                     if ($4 > last) last = $4 } }
    END { for (i = 1; i <= n; i++) if (ok[i] && start[i] > last) resumed++
          printf "%d %d %d %d\n", failed, longest, overran, resumed }')
  read -r failed longest overran resumed <<< "$figures"
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  local datalog console silent
  datalog=$(rt_datalog_counts "$run_dir/injectors" || true)
  console=$(rt_console_counts "$run_dir" || true)
  silent=$(grep -o '[0-9]* second(s) without a successful request' <<< "$reason" | cut -d' ' -f1)
  # HBase was down at least the 5 s between stop and start: at least 5 seconds got nothing done.
  if ((rc == 1)) && [[ $status == degraded ]] && [[ $reason == *"requests failed"* ]] && ((${silent:-0} >= 5)) \
     && ((failed > 0 && longest <= deadline_ms + timeout_ms + 250 && overran * 10 <= failed && resumed > 100)) \
     && [[ -n $datalog && $datalog == "$console" ]] \
     && [[ -z $(rt_procs_in "$run_dir") ]]; then
    pass "fault, HBase restarted: $failed failed calls ($overran past the ${deadline_ms} ms deadline), the longest ${longest} ms (timeout $timeout_ms), $resumed requests after the last failure, degraded, data logs = console, in $((SECONDS - started))s"
  else
    fail "fault, HBase restarted: rc $rc, status $status ($reason), failed $failed, longest ${longest} ms (timeout $timeout_ms), $overran past the ${deadline_ms} ms deadline, resumed $resumed, data logs [$datalog] console [$console]"
  fi
}

# Ctrl-C on ./suite run (SIGINT to its process group, as a terminal sends it): everything it
# started stops (console, agents, workers, samplers, the lab), the run says "interrupted" and
# keeps its data logs, and the command exits 130 within a bound.
t_fault_ctrl_c_run() {
  local marker=$TEST_LOGS/fault-ctrl-c-run.start run_dir rc=0
  ft_runs_now "$marker"
  setsid python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$RT_SUITE" run --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 60 > "$TEST_LOGS/fault-ctrl-c-run.log" 2>&1 < /dev/null &
  local run_pid=$!
  if ! ft_run_going "$marker" injectors/inj1/inj1-0-data.log 300; then
    kill -INT -- "-$run_pid" 2> /dev/null
    wait "$run_pid"
    fail "fault, Ctrl-C on a run: it did not get going: $(tail -3 "$TEST_LOGS/fault-ctrl-c-run.log")"
    return
  fi
  run_dir=$FT_RUN_DIR
  local interrupted_at=$SECONDS waited=0
  kill -INT -- "-$run_pid"
  while kill -0 "$run_pid" 2> /dev/null && ((waited < 120)); do sleep 0.5; waited=$((waited + 1)); done
  if kill -0 "$run_pid" 2> /dev/null; then
    kill -KILL -- "-$run_pid" 2> /dev/null
    fail "fault, Ctrl-C on a run: still running 60 s after Ctrl-C: $(tail -3 "$TEST_LOGS/fault-ctrl-c-run.log")"
    return
  fi
  wait "$run_pid" || rc=$?
  local status lines
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  lines=$(cat "$run_dir"/injectors/inj*/inj*-data.log 2> /dev/null | wc -l)
  if ((rc == 130 && lines > 300)) && [[ $status == interrupted && -z $(rt_procs_in "$run_dir") ]] \
     && ! ip link show "hgsbr$SUITE_PORT_OFFSET" > /dev/null 2>&1; then
    pass "fault, Ctrl-C on a run: stopped in $((SECONDS - interrupted_at))s, exit 130, interrupted, $lines data-log lines kept, no process or lab left"
  else
    fail "fault, Ctrl-C on a run: rc $rc, status $status, $lines lines, left: $(rt_procs_in "$run_dir" | tr '\n' ' ')$(ip link show "hgsbr$SUITE_PORT_OFFSET" > /dev/null 2>&1 && echo ' and the lab')"
  fi
}

# Ctrl-C on ./suite sweep (SIGINT to its process group, as a terminal sends it) during its first
# run: everything started stops, the run and the sweep say "interrupted", what was recorded is
# kept, no further run starts, and the sweep exits 130 within a bound.
t_fault_ctrl_c_sweep() {
  local scenario=$TEST_LOGS/ctrl-c-sweep.properties marker=$TEST_LOGS/fault-ctrl-c.start run_dir sweep_dir rc=0
  printf '%s\n' '# Two points of 30 s: Ctrl-C arrives during the first.' 'sweep.threads = 2,4' 'sweep.operations = get:100' \
    'sweep.injectors = 2' 'sweep.duration = 30' 'sweep.warmup = off' 'hbaseload.table = e2erun' 'hbaseload.rows = 2000' 'hbaseload.regions = 4' \
    'hbaseload.value.size = 100' > "$scenario"
  ft_runs_now "$marker"
  # A background job of a script starts with SIGINT ignored (bash, without job control), which
  # would make this test pass nothing; the sweep gets its own process group with SIGINT restored.
  setsid python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$RT_SUITE" sweep "$scenario" > "$TEST_LOGS/fault-ctrl-c.log" 2>&1 < /dev/null &
  local sweep_pid=$!
  if ! ft_run_going "$marker" injectors/inj1/inj1-0-data.log 300; then
    kill -INT -- "-$sweep_pid" 2> /dev/null
    wait "$sweep_pid"
    fail "fault, Ctrl-C on a sweep: its first run did not get going: $(tail -3 "$TEST_LOGS/fault-ctrl-c.log")"
    return
  fi
  run_dir=$FT_RUN_DIR
  local interrupted_at=$SECONDS waited=0
  kill -INT -- "-$sweep_pid"
  # Bounded: everything must stop within 60 s, or the test says so and kills what is left.
  while kill -0 "$sweep_pid" 2> /dev/null && ((waited < 120)); do sleep 0.5; waited=$((waited + 1)); done
  if kill -0 "$sweep_pid" 2> /dev/null; then
    kill -KILL -- "-$sweep_pid" 2> /dev/null
    fail "fault, Ctrl-C on a sweep: still running 60 s after Ctrl-C: $(tail -3 "$TEST_LOGS/fault-ctrl-c.log")"
    return
  fi
  wait "$sweep_pid" || rc=$?
  sweep_dir=$(sed -n 's|^\(sweep-[0-9]*\): \(/.*\)$|\2|p' "$TEST_LOGS/fault-ctrl-c.log" | head -1)
  local run_status sweep_status runs lines
  run_status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  sweep_status=$(jq -r .status "$sweep_dir/sweep.json" 2> /dev/null)
  runs=$(jq -r '.runs | length' "$sweep_dir/sweep.json" 2> /dev/null)
  lines=$(cat "$run_dir"/injectors/inj*/inj*-data.log 2> /dev/null | wc -l)
  if ((rc == 130)) && [[ $run_status == interrupted && $sweep_status == interrupted ]] && ((${runs:-9} <= 1 && lines > 300)) \
     && [[ -z $(rt_procs_in "$run_dir") ]] && [[ $(ft_new_runs "$marker") == "$run_dir" ]]; then
    pass "fault, Ctrl-C on a sweep: stopped in $((SECONDS - interrupted_at))s, exit 130, run and sweep interrupted, $lines data-log lines kept, no further run, nothing left"
  else
    fail "fault, Ctrl-C on a sweep: rc $rc, run $run_status, sweep $sweep_status (${sweep_dir:-no sweep dir}), runs $runs, $lines lines, left: $(rt_procs_in "$run_dir" | tr '\n' ' '), runs since: $(ft_new_runs "$marker" | tr '\n' ' ')"
  fi
}

# SIGKILL ./suite run itself mid-run (nothing of it can clean up): its manifest still says
# "running". The next ./suite run finds the run's owner gone, stops what it left (console,
# agents, workers, samplers, the network lab), judges it incomplete with the data logs it wrote,
# and then runs normally.
t_fault_run_killed() {
  local run_dir rc=0 next_rc=0 started=$SECONDS
  if ! ft_start_run run injectors/inj1/inj1-0-data.log 300 --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 60; then
    fail "fault, ./suite run killed: the run did not get going: $(tail -3 "$TEST_LOGS/fault-run.log")"
    return
  fi
  local run_pid=$FT_RUN_PID
  run_dir=$FT_RUN_DIR
  kill -KILL "$run_pid"
  wait "$run_pid" 2> /dev/null || rc=$?
  sleep 1
  local at_kill status_then left_then
  at_kill=$(cat "$run_dir"/injectors/inj*/inj*-data.log | wc -l)
  status_then=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  left_then=$(rt_procs_in "$run_dir" | wc -l)
  "$RT_SUITE" run --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 5 > "$TEST_LOGS/fault-run-next.log" 2>&1 || next_rc=$?
  local status reason kept
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  kept=$(cat "$run_dir"/injectors/inj*/inj*-data.log | wc -l)
  if ((rc == 137 && next_rc == 0)) && [[ $status_then == running && $status == incomplete ]] && ((left_then > 0)) \
     && [[ $reason == "./suite run (pid $run_pid) ended without judging this run (killed?)"* ]] \
     && [[ $reason == *"console "* && $reason == *"agent "* && $reason == *"network lab"* ]] \
     && ((kept >= at_kill)) && [[ -z $(rt_procs_in "$run_dir") ]] \
     && grep -q "^${run_dir##*/} had lost its ./suite run (pid $run_pid): now incomplete" "$TEST_LOGS/fault-run-next.log"; then
    pass "fault, ./suite run killed: left 'running' with $left_then processes; the next run stopped them, judged it incomplete, kept its $kept data-log lines, then ran (exit 0), in $((SECONDS - started))s"
  else
    fail "fault, ./suite run killed: rc $rc, next rc $next_rc, status $status_then -> $status ($reason), $left_then processes left then, lines $at_kill -> $kept, left now: $(rt_procs_in "$run_dir" | tr '\n' ' '); next: $(grep -m1 'had lost\|suite run:' "$TEST_LOGS/fault-run-next.log")"
  fi
}

# SIGKILL ./suite run on two hosts-file ("ssh") hosts: their logs stay on the hosts. ./suite collect
# judges the abandoned run, stops the agents it left there (by PID, checked by working folder),
# brings every data log in, removes the hosts' folders and judges the run again: the manifest's
# count is the collected logs' count, the collection is listed, a second collect finds nothing.
t_fault_run_killed_collect() {
  local hosts=$TEST_LOGS/hosts-collect fake rc=0 collect_rc=0 again_rc=0 started=$SECONDS marker=$TEST_LOGS/fault-collect.start
  fake=$(rt_fake_ssh)
  rm -rf "$TEST_LOGS/collect-east" "$TEST_LOGS/collect-west"
  printf 'tester@east - %s\ntester@west - %s\n' "$TEST_LOGS/collect-east" "$TEST_LOGS/collect-west" > "$hosts"
  ft_runs_now "$marker"
  INJECTOR_SSH="$fake -o BatchMode=yes" "$RT_SUITE" run --properties "$RT_PROPS" --hosts "$hosts" --threads 2 --duration 60 \
    > "$TEST_LOGS/fault-collect.log" 2>&1 &
  local run_pid=$! run_dir="" id
  for _ in $(seq 1 120); do run_dir=$(ft_newest_run "$marker"); [[ -n $run_dir ]] && break; sleep 0.5; done
  id=${run_dir##*/}
  local west_log=""  # the host keeps the run in runs/run-N-<plan time> below its work dir
  for _ in $(seq 1 180); do
    [[ -n $id ]] && west_log=$(compgen -G "$TEST_LOGS/collect-west/runs/$id-*/west-0-data.log" | head -1)
    [[ -n $west_log ]] && break; sleep 0.5
  done
  if [[ -z $west_log ]] || ! ft_wait_lines "$west_log" 300 90; then
    kill -TERM "$run_pid" 2> /dev/null; wait "$run_pid" 2> /dev/null
    fail "fault, run killed, collect: the run did not get going: $(tail -3 "$TEST_LOGS/fault-collect.log")"
    return
  fi
  kill -KILL "$run_pid"
  wait "$run_pid" 2> /dev/null || rc=$?
  INJECTOR_SSH="$fake -o BatchMode=yes" timeout 120 "$RT_SUITE" collect "$id" > "$TEST_LOGS/fault-collect-1.log" 2>&1 || collect_rc=$?
  INJECTOR_SSH="$fake -o BatchMode=yes" timeout 60 "$RT_SUITE" collect "$id" > "$TEST_LOGS/fault-collect-2.log" 2>&1 || again_rc=$?
  local status reason lines counted collections left_hosts left_procs pid
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  counted=$(jq -r .datalog_requests "$run_dir/manifest.json" 2> /dev/null)
  collections=$(jq -r '.collections | length' "$run_dir/manifest.json" 2> /dev/null)
  lines=$(cat "$run_dir"/injectors/{east,west}/*-data.log 2> /dev/null | grep -c '^[0-9]')
  left_hosts=$(find "$TEST_LOGS/collect-east/runs" "$TEST_LOGS/collect-west/runs" -mindepth 1 -maxdepth 1 2> /dev/null)
  left_procs=$(for pid in $(pgrep -f 'net\.grinder' || true); do
    [[ $(readlink "/proc/$pid/cwd" 2> /dev/null) == "$TEST_LOGS/collect-"* ]] && echo "$pid"; done; rt_procs_in "$run_dir")
  if ((rc == 137 && collect_rc == 0 && again_rc == 0)) && [[ $status == incomplete && $collections == 1 ]] \
     && [[ $reason == "./suite run (pid $run_pid) ended without judging this run"*"; logs of east west collected by ./suite collect at "* ]] \
     && ((lines >= 300)) && [[ $counted == "$lines" ]] && [[ -z $left_hosts && -z $left_procs ]] \
     && grep -q "^$id had lost its ./suite run" "$TEST_LOGS/fault-collect-1.log" \
     && grep -q "^west (tester@west): [0-9]* data-log lines collected" "$TEST_LOGS/fault-collect-1.log" \
     && grep -q "^west (tester@west): nothing left there" "$TEST_LOGS/fault-collect-2.log"; then
    pass "fault, ./suite run on ssh hosts killed: ./suite collect judged it, stopped the hosts' agents, brought in $lines data-log lines (the manifest counts $counted), emptied the hosts; a second collect found nothing; in $((SECONDS - started))s"
  else
    fail "fault, run killed, collect: rc $rc, collect $collect_rc/$again_rc, $status ($reason), $collections collection(s), lines $lines counted $counted, left on hosts: $left_hosts, processes: $(tr '\n' ' ' <<< "$left_procs"); $(tail -2 "$TEST_LOGS/fault-collect-1.log" | tr '\n' ' ')"
    for pid in $left_procs; do kill -KILL "$pid" 2> /dev/null; done
  fi
}

# SIGKILL the thrift-shim mid-run and start it again: the thrift target's threads reconnect by
# themselves, the failures in between are counted, load resumes, and the run ends degraded.
t_fault_shim_killed() {
  local run_dir rc=0 started=$SECONDS pid
  if ! "$RT_SUITE" shim start > "$TEST_LOGS/fault-shim-start.log" 2>&1; then
    fail "fault, shim killed: the shim did not start: $(tail -1 "$TEST_LOGS/fault-shim-start.log")"
    return
  fi
  if ! ft_start_run shim injectors/inj1/inj1-0-data.log 500 --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 40 \
    --set hbaseload.target=thrift --set "hbaseload.thrift.port=$PORT_SHIM"; then
    "$RT_SUITE" shim stop > /dev/null 2>&1
    fail "fault, shim killed: the run did not get going: $(tail -3 "$TEST_LOGS/fault-shim.log")"
    return
  fi
  local run_pid=$FT_RUN_PID
  run_dir=$FT_RUN_DIR
  sleep 2
  pid=$(cat "$HBASE_LOCAL_DIR/pids/thrift-shim.pid" 2> /dev/null)
  [[ -n $pid ]] && kill -KILL "$pid"
  sleep 3
  local restart_rc=0
  timeout 120 "$RT_SUITE" shim start > "$TEST_LOGS/fault-shim-restart.log" 2>&1 || restart_rc=$?
  wait "$run_pid" || rc=$?
  "$RT_SUITE" shim stop > "$TEST_LOGS/fault-shim-stop.log" 2>&1
  local figures failed resumed status reason silent datalog console
  figures=$(cat "$run_dir"/injectors/inj*/inj*-data.log | awk -F', *' '
    $4 ~ /^[0-9]+$/ { n++; start[n] = $4; ok[n] = ($6 == 0); if ($6 != 0) { failed++; if ($4 > last) last = $4 } }
    END { for (i = 1; i <= n; i++) if (ok[i] && start[i] > last) resumed++; printf "%d %d\n", failed, resumed }')
  read -r failed resumed <<< "$figures"
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  silent=$(grep -o '[0-9]* second(s) without a successful request' <<< "$reason" | cut -d' ' -f1)
  datalog=$(rt_datalog_counts "$run_dir/injectors" || true)
  console=$(rt_console_counts "$run_dir" || true)
  if [[ -n $pid ]] && ((restart_rc == 0 && rc == 1)) && [[ $status == degraded && $reason == *"requests failed"* ]] \
     && ((${silent:-0} >= 2 && failed > 0 && resumed > 100)) && [[ -n $datalog && $datalog == "$console" ]] \
     && [[ -z $(rt_procs_in "$run_dir") ]]; then
    pass "fault, shim killed: $failed failed calls while it was down, $resumed requests after the last failure, ${silent}s without a success, degraded, data logs = console, in $((SECONDS - started))s"
  else
    fail "fault, shim killed: pid ${pid:-none}, restart rc $restart_rc, rc $rc, status $status ($reason), failed $failed, resumed $resumed, data logs [$datalog] console [$console]"
  fi
}

# A runs folder whose disk fills during a run (an 8 MB tmpfs, 6 MB of it an earlier run): the run
# stops while there is room left, says why in one line, writes a whole manifest, and the earlier
# run comes through byte for byte.
t_fault_disk_full() {
  local dir=$TEST_LOGS/small-runs rc=0 started=$SECONDS
  mkdir -p "$dir"
  if ! mount -t tmpfs -o size=8m tmpfs "$dir" 2> "$TEST_LOGS/fault-disk-mount.log"; then
    fail "fault, disk full: cannot mount a tmpfs for the test: $(head -1 "$TEST_LOGS/fault-disk-mount.log")"
    return
  fi
  mkdir -p "$dir/run-1/injectors/inj1"
  # about 6.7 MB of the 8: some 1,050 KB above the floor (5%) when the run starts, so that a slow
  # run (another lane beside it) fills it too (with 5.9 MB a run of 27,000 requests did not)
  head -c 5100000 /dev/urandom | base64 -w 76 > "$dir/run-1/injectors/inj1/inj1-0-data.log"
  echo '{"run_id":"run-1","status":"complete"}' > "$dir/run-1/manifest.json"
  local before after
  before=$(cd "$dir" && find run-1 -type f -exec sha1sum {} + | sort | sha1sum)
  SUITE_RUNS_DIR=$dir "$RT_SUITE" run --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 60 \
    > "$TEST_LOGS/fault-disk.log" 2>&1 || rc=$?
  local took=$((SECONDS - started)) status reason lines left span
  status=$(jq -r .status "$dir/run-2/manifest.json" 2> /dev/null)
  # seconds of load the data logs hold: under the 60 s asked for when the run was stopped early
  # (the command's own time also holds the workers' start, slow on a loaded machine)
  span=$(cat "$dir"/run-2/injectors/inj*/inj*-data.log 2> /dev/null \
    | awk -F', ' '$4 ~ /^[0-9]+$/ { if (!lo || $4 < lo) lo = $4; if ($4 + $5 > hi) hi = $4 + $5 } END { print int((hi - lo) / 1000) }')
  reason=$(jq -r .reason "$dir/run-2/manifest.json" 2> /dev/null)
  lines=$(cat "$dir"/run-2/injectors/inj*/inj*-data.log 2> /dev/null | wc -l)
  after=$(cd "$dir" && find run-1 -type f -exec sha1sum {} + | sort | sha1sum)
  left=$(rt_procs_in "$dir/run-2" | tr '\n' ' ')
  df -k "$dir" > "$TEST_LOGS/fault-disk.df" 2>&1
  umount "$dir" 2> /dev/null || umount -l "$dir"
  if ((rc == 1)) && [[ $status == incomplete && $reason == *"KB free of"*"stopped there to keep what it recorded"* && $reason != *"silent for 30s"* ]] \
     && [[ $before == "$after" && -z $left ]] && ((lines > 100 && ${span:-60} < 58)) \
     && grep -q "suite run: run-2 incomplete: the runs folder's filesystem" "$TEST_LOGS/fault-disk.log"; then
    pass "fault, disk full: stopped after ${span}s of load (of 60) with room left, one line naming the free space, a whole manifest, $lines data-log lines kept, the earlier run untouched"
  else
    fail "fault, disk full: rc $rc in ${took}s (${span}s of load), status $status ($reason), $lines lines, earlier run $([[ $before == "$after" ]] && echo untouched || echo CHANGED), left: $left; $(grep -m1 'suite run:' "$TEST_LOGS/fault-disk.log")"
  fi
}

# SIGKILL the console mid-run: nobody will tell the agents to stop, so ./suite run stops them at
# once, their workers' data logs are kept up to the stop (flushed every second), and the run
# ends incomplete, naming the console's exit, in bounded time, with nothing left running.
t_fault_console_killed() {
  local run_dir pid kill_ms rc=0 started=$SECONDS
  if ! ft_start_run console injectors/inj2/inj2-0-data.log 500 --properties "$RT_PROPS" --injectors 2 --threads 2 --duration 40; then
    fail "fault, console killed: the run did not get going: $(tail -3 "$TEST_LOGS/fault-console.log")"
    return
  fi
  local run_pid=$FT_RUN_PID
  run_dir=$FT_RUN_DIR
  sleep 2
  pid=$(cat "$run_dir/console/console.pid" 2> /dev/null)
  kill_ms=$(date +%s%3N)
  [[ -n $pid ]] && kill -KILL "$pid"
  local kill_s=$SECONDS gone_ms=""
  for _ in $(seq 1 150); do  # agents and workers gone (bounded: 30 s)
    rt_procs_in "$run_dir" | grep -qvx "$pid" || { gone_ms=$(($(date +%s%3N) - kill_ms)); break; }
    sleep 0.2
  done
  wait "$run_pid" || rc=$?
  local stop_took=$((SECONDS - kill_s)) host last ends="" short=0 status reason
  for host in inj1 inj2; do
    last=$(awk -F', *' 'NR > 1 && $4 ~ /^[0-9]+$/ { if ($4 > m) m = $4 } END { printf "%.0f\n", m }' "$run_dir/injectors/$host/$host-0-data.log")
    ends+="$host $((last - kill_ms)) ms, "
    ((last - kill_ms >= -1500)) || short=1
  done
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  if [[ -n $pid && -n $gone_ms ]] && ((rc == 1 && short == 0 && stop_took <= 30)) && [[ $status == incomplete && $reason == *"console exited (status 137)"* && $reason != *"silent for 30s"* ]] \
     && [[ -z $(rt_procs_in "$run_dir") ]] && grep -q "suite run: ${run_dir##*/} incomplete: .*console exited" "$TEST_LOGS/fault-console.log"; then
    pass "fault, console killed: agents and workers gone ${gone_ms} ms after, ./suite run ended ${stop_took}s after, data logs end ${ends%, } from the kill, incomplete naming the console's exit, exit 1"
  else
    fail "fault, console killed: pid ${pid:-none}, rc $rc, stopped after ${stop_took}s, status $status ($reason), data logs end ${ends%, } from the kill, left: $(rt_procs_in "$run_dir" | tr '\n' ' ')"
  fi
}

# SIGKILL a whole sweep (its process group: the sweep, its ./suite run, console, agents, workers):
# the sweep and its run still say "running" and the lab is left. The next ./suite sweep judges
# the run incomplete, takes the lab down, records the lost sweep as interrupted, then runs.
t_fault_sweep_killed() {
  local scenario=$TEST_LOGS/killed-sweep.properties next=$TEST_LOGS/next-sweep.properties marker=$TEST_LOGS/fault-sweep.start
  local run_dir sweep_dir rc=0 started=$SECONDS
  printf '%s\n' 'sweep.threads = 2,4' 'sweep.operations = get:100' 'sweep.injectors = 2' 'sweep.duration = 30' 'sweep.warmup = off' \
    'hbaseload.table = e2erun' 'hbaseload.rows = 2000' 'hbaseload.regions = 4' 'hbaseload.value.size = 100' > "$scenario"
  printf '%s\n' 'sweep.threads = 2' 'sweep.operations = get:100' 'sweep.injectors = 2' 'sweep.duration = 5' 'sweep.warmup = off' \
    'hbaseload.table = e2erun' 'hbaseload.rows = 2000' 'hbaseload.regions = 4' 'hbaseload.value.size = 100' > "$next"
  ft_runs_now "$marker"
  setsid "$RT_SUITE" sweep "$scenario" > "$TEST_LOGS/fault-sweep.log" 2>&1 < /dev/null &
  local sweep_pid=$!
  if ! ft_run_going "$marker" injectors/inj1/inj1-0-data.log 300; then
    kill -KILL -- "-$sweep_pid" 2> /dev/null
    wait "$sweep_pid"
    fail "fault, sweep killed: its first run did not get going: $(tail -3 "$TEST_LOGS/fault-sweep.log")"
    return
  fi
  run_dir=$FT_RUN_DIR
  kill -KILL -- "-$sweep_pid"
  wait "$sweep_pid" 2> /dev/null
  sweep_dir=$(sed -n 's|^\(sweep-[0-9]*\): \(/.*\)$|\2|p' "$TEST_LOGS/fault-sweep.log" | head -1)
  local then_sweep then_run
  then_sweep=$(jq -r .status "$sweep_dir/sweep.json" 2> /dev/null)
  then_run=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  "$RT_SUITE" sweep "$next" > "$TEST_LOGS/fault-sweep-next.log" 2>&1 || rc=$?
  local now_sweep now_run
  now_sweep=$(jq -r .status "$sweep_dir/sweep.json" 2> /dev/null)
  now_run=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  if ((rc == 0)) && [[ $then_sweep == running && $then_run == running && $now_sweep == interrupted && $now_run == incomplete ]] \
     && grep -q "^${sweep_dir##*/} had lost its ./suite sweep (pid $sweep_pid): now interrupted" "$TEST_LOGS/fault-sweep-next.log" \
     && grep -q "^${run_dir##*/} had lost its ./suite run (pid [0-9]*): now incomplete; it had left running: .*network lab" "$TEST_LOGS/fault-sweep-next.log" \
     && [[ -z $(rt_procs_in "$run_dir") ]]; then
    pass "fault, sweep killed: the next sweep judged its run incomplete (lab taken down) and the sweep interrupted, then ran (exit 0), in $((SECONDS - started))s"
  else
    fail "fault, sweep killed: next sweep rc $rc; sweep $then_sweep -> $now_sweep, run $then_run -> $now_run; $(grep -m2 'had lost\|suite sweep:' "$TEST_LOGS/fault-sweep-next.log" | tr '\n' ' ')"
  fi
}

# A worker JVM that exits at its start (here: an option the JVM refuses in grinder.jvm.arguments)
# never reaches the console, and Grinder's agent keeps reporting itself running: the run ends
# within seconds, not at the 180 s worker-start timeout, naming the worker and what its JVM said.
t_fault_worker_exits_at_start() {
  local props=$TEST_LOGS/bad-jvm.properties run_dir status reason left
  sed 's/^grinder.jvm.arguments = /grinder.jvm.arguments = -XX:+NoSuchOptionHere /' "$RT_PROPS" > "$props"
  rt_logged fault-bad-jvm 120 "$RT_SUITE" run --properties "$props" --injectors 2 --threads 2 --duration 20
  run_dir=$(rt_run_dir)
  status=$(jq -r .status "$run_dir/manifest.json" 2> /dev/null)
  reason=$(jq -r .reason "$run_dir/manifest.json" 2> /dev/null)
  left=$(rt_procs_in "$run_dir" | tr '\n' ' ')
  if ((RT_RC == 1 && RT_SECONDS < 60)) && [[ $status == incomplete && -z $left ]] \
     && [[ $reason == *"the workers of inj1, inj2 exited at their start: Unrecognized VM option 'NoSuchOptionHere'"* ]] \
     && grep -q "suite run: ${run_dir##*/} incomplete: the workers of inj1, inj2 exited at their start: Unrecognized VM option" <<< "$RT_OUT"; then
    pass "fault, worker exits at its start: the run ended in ${RT_SECONDS}s (not at the 180 s worker-start timeout), exit 1, naming both hosts' workers and the option their JVM refused"
  else
    fail "fault, worker exits at its start: rc $RT_RC in ${RT_SECONDS}s, status $status ($reason), left: $left; $(grep -m1 'suite run:' <<< "$RT_OUT")"
  fi
}

run_fault_tests() {
  t_fault_worker_exits_at_start
  t_fault_worker_and_agent_killed
  t_fault_console_killed
  t_fault_run_killed
  t_fault_run_killed_collect
  t_fault_ctrl_c_run
  t_fault_ctrl_c_sweep
  t_fault_sweep_killed
  t_fault_disk_full
  t_fault_shim_killed
  t_fault_hbase_restart
}
