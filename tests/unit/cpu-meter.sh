# shellcheck shell=bash
# bench/cpu-meter.sh. Sourced by libexec/suite-test (unit stage), which runs each u_* function
# in a subshell with pass/fail and TEST_LOGS defined. Each asserts real outcomes: exit codes, CPU.

# A command whose grandchild detaches (setsid, never reaped by its parent) and burns CPU until
# it is done: cpu-meter must charge that CPU to the command, as `times` would not.
u_cpu_meter_counts_detached_processes() {
  local csv=$TEST_LOGS/cpu-meter.csv done=$TEST_LOGS/cpu-meter.done total detached rc=0
  rm -f "$done"
  # shellcheck disable=SC2016  # the inner script expands its own $1
  "$SUITE_ROOT/bench/cpu-meter.sh" "$csv" bash -c '
    setsid bash -c "end=\$((SECONDS + 30))
      while ((SECONDS < end)); do
        read -r -a s < /proc/\$BASHPID/stat; ((s[13] + s[14] >= 130)) && break
        for ((j = 0; j < 2000; j++)); do :; done
      done; touch \"$1\"" < /dev/null > /dev/null 2>&1 &
    for ((i = 0; i < 320; i++)); do [[ -f $1 ]] && exit 7; sleep 0.1; done; exit 1' burner "$done" || rc=$?
  total=$(awk -F, '$1 == "total" { print $4 }' "$csv")
  detached=$(awk -F, '$1 == "process" && $2 == "bash" && $4 > m { m = $4 } END { print m + 0 }' "$csv")
  if ((rc == 7)) && awk -v t="$total" 'BEGIN { exit !(t >= 1.0) }' && grep -q '^total,cgroup-v[12],' "$csv"; then
    pass "cpu-meter: a detached grandchild's CPU is counted (total ${total}s, its sample ${detached}s), the command's exit status kept"
  elif grep -q '^total,children,' "$csv"; then
    fail "cpu-meter: no cgroup could be made here, so detached processes go uncounted: $(head -2 "$csv" | tr '\n' ' ')"
  else
    fail "cpu-meter: rc $rc (want 7), total ${total:-none}s for a detached burner of 1.3 CPU s: $(tr '\n' ' ' < "$csv")"
  fi
}

u_cpu_meter_bad_input() {
  local out rc=0
  out=$("$SUITE_ROOT/bench/cpu-meter.sh" 2>&1) || rc=$?
  if ((rc == 2)) && grep -q '^usage: bench/cpu-meter.sh OUT_CSV COMMAND' <<< "$out"; then
    pass "cpu-meter: no command is a usage line and exit 2"
  else
    fail "cpu-meter without a command: rc $rc: $out"
  fi
}

# Stopped by SIGTERM (a bench interrupted): the command gets SIGTERM, its file is still written and
# nothing is left behind, neither the command nor the meter's cgroup.
u_cpu_meter_interrupted_writes_its_file() {
  local csv=$TEST_LOGS/cpu-meter-term.csv meter rc=0 i sleeper='' cgroup=''
  rm -f "$csv"
  "$SUITE_ROOT/bench/cpu-meter.sh" "$csv" sleep 41.5 &
  meter=$!
  for ((i = 0; i < 100; i++)); do sleeper=$(pgrep -f '^sleep 41.5$') && break; sleep 0.1; done
  # This meter's own cgroup, the one holding the command: other meters may run beside this test
  # (the e2e lane runs a run under cpu-meter), so their cgroups are not this test's business.
  cgroup=$(grep -lx "$sleeper" /sys/fs/cgroup/*/hgs-meter-*/cgroup.procs 2> /dev/null | head -1)
  kill -TERM "$meter"
  wait "$meter" || rc=$?
  if ((rc == 143)) && grep -q '^total,cgroup-v[12],,' "$csv" && [[ -n $cgroup && ! -e $cgroup ]] \
     && ! pgrep -f '^sleep 41.5$' > /dev/null; then
    pass "cpu-meter: SIGTERM reaches the command (exit 143), the file is written, no process or cgroup left"
  else
    pkill -f '^sleep 41.5$' || true
    fail "cpu-meter under SIGTERM: rc $rc (want 143), file: $(tr '\n' ' ' < "$csv" 2>&1), sleep left: $(pgrep -f '^sleep 41.5$' || echo none), its cgroup: ${cgroup:-not found} $([[ -e $cgroup ]] && echo left || echo gone)"
  fi
}
