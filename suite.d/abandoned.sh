# shellcheck shell=bash
# Runs and sweeps whose ./suite run or ./suite sweep was killed (SIGKILL, a closed terminal): their
# manifest or sweep.json still says "running" and nothing else would ever judge them. The next
# ./suite run (judge_abandoned_runs) and ./suite sweep (both) do. Sourced after common.sh; the
# lifecycle's stale-runs decides which (plan.json / sweep-plan.json record the owner's PID and start).

# Every process that names folder DIR (run_processes): SIGTERM, up to 10 s to leave, then SIGKILL.
stop_processes_below() {
  local dir=$1 pid
  for pid in $(run_processes "$dir"); do kill -TERM "$pid" 2> /dev/null || true; done
  for _ in $(seq 1 10); do [[ -n $(run_processes "$dir") ]] || return 0; sleep 1; done
  for pid in $(run_processes "$dir"); do kill -KILL "$pid" 2> /dev/null || true; done
}

# Runs still "running" whose ./suite run is gone (SIGKILL, a closed terminal): stop what they left
# (console and agents, identified by their run folder; the lab at this port offset) and judge
# them incomplete with what they recorded, before this run takes the console port.
judge_abandoned_runs() {
  local dir owner pid name
  # A JVM only when some manifest still says running: run start-up stays as it was.
  grep -qlF '"status":"running"' "$SUITE_RUNS_DIR"/run-*/manifest.json 2> /dev/null || return 0
  declare -F lab_down > /dev/null || source "$SUITE_ROOT/injectors/lib.sh"
  while IFS=$'\t' read -r dir owner; do
    [[ -d $dir ]] || continue
    local -a left=()
    for pid in $(run_processes "$dir"); do
      case $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null) in
        *net.grinder.Console*) name=console ;;
        *WorkerProcessEntryPoint*) name=worker ;;
        *net.grinder.Grinder*) name=agent ;;
        *CpuSampler*) name="CPU sampler" ;;
        *) name="metrics sampler" ;;
      esac
      left+=("$name $pid")
    done
    stop_processes_below "$dir"
    if [[ $(jq -r '.injector_mode + " " + (.port_offset | tostring)' "$dir/plan.json" 2> /dev/null) == "namespaces $SUITE_PORT_OFFSET" ]] \
       && ip link show "$(lab_bridge)" > /dev/null 2>&1; then
      lab_down; left+=("network lab $(lab_bridge)")
    fi
    local stopped=""
    ((${#left[@]} == 0)) || stopped="; it had left running: $(printf '%s, ' "${left[@]}" | sed 's/, $//') (stopped)"
    lifecycle finalise "$dir" --no-table-info --aborted "./suite run (pid $owner) ended without judging this run (killed?); judged ${JUDGED_WHEN:-when the next run started}, $(date -u +%FT%TZ)$stopped; the data logs written so far are kept" > /dev/null 2>&1 || true
    info "${dir##*/} had lost its ./suite run (pid $owner): now $(jq -r .status "$dir/manifest.json" 2> /dev/null)$stopped"
    if [[ -z ${JUDGED_WHEN:-} ]] && jq -e '[.hosts[].kind] | any(. == "ssh" or . == "local")' "$dir/plan.json" > /dev/null 2>&1; then
      info "  its hosts-file hosts still hold their logs: ./suite collect ${dir##*/} brings them in"
    fi
  done < <(lifecycle stale-runs --runs-dir "$SUITE_RUNS_DIR" 2> /dev/null | grep '/run-[0-9]*'$'\t')
  return 0
}

# Sweeps still "running" whose ./suite sweep is gone: recorded as interrupted, with their runs'
# outcomes as they stand (judge_abandoned_runs first, so a run the sweep left is judged too).
judge_abandoned_sweeps() {
  local dir owner
  grep -qlF '"status":"running"' "$SUITE_RUNS_DIR"/sweep-*/sweep.json 2> /dev/null || return 0
  while IFS=$'\t' read -r dir owner; do
    [[ -d $dir ]] || continue
    lifecycle sweep-record "$dir" interrupted > /dev/null 2>&1 || true
    local session_left=""
    # its injector session (console and agents, by their folder) would hold the console port
    if [[ -n $(run_processes "$dir/session") ]]; then
      stop_processes_below "$dir/session"
      session_left="; its injector session's console and agents were still running (stopped)"
    fi
    info "${dir##*/} had lost its ./suite sweep (pid $owner): now $(jq -r .status "$dir/sweep.json" 2> /dev/null)$session_left"
  done < <(lifecycle stale-runs --runs-dir "$SUITE_RUNS_DIR" 2> /dev/null | grep '/sweep-[0-9]*'$'\t')
  return 0
}
