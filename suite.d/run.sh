#!/usr/bin/env bash
# Usage: ./suite run [--properties F] [--injectors N [--lab auto|loopback|namespaces] | --hosts F]
#                    [--threads T] [--processes P] [--duration D] [--target direct|thrift]
#                    [--set KEY=VALUE]... [--console-host ADDR] [--agent-timeout S]
#                    [--worker-start-timeout S] [--run-timeout S] [--hbase-ssh DEST]
#                    [--ui headless|swing] [--linger S] [--slo GATES]
# Summary: one load run orchestrated by the Grinder console into runs/run-N
# Help:
#   --properties F     the run's properties (default: grinder.properties)
#   --injectors N      N injector hosts on this machine (default 1): network namespaces where
#                      permitted (--lab auto, the default), else N agents on loopback
#   --lab MODE         auto | namespaces | loopback, for --injectors
#   --hosts F          injector hosts from a hosts file: DESTINATION JAVA WORK_DIR [HOST_ID] per
#                      line, DESTINATION an ssh destination or 'local' (see injectors/README.md)
#   --threads T        threads in TOTAL over all injectors, split equally; a remainder goes one
#                      each to the first hosts (301 over 4: 76,75,75,75). Default: grinder.threads
#                      per worker process on every host
#   --processes P      worker processes per injector (default: grinder.processes)
#   --duration D       length of the load: 30, 30s, 2m (default: grinder.duration)
#   --target T         hbaseload.target: direct | thrift
#   --set KEY=VALUE    any other property, e.g. --set hbaseload.operations=get:100
#   --console-host A   address the console listens on (default 127.0.0.1; ssh hosts need one they reach)
#   --agent-timeout S  seconds to wait for every agent (default 60)
#   --worker-start-timeout S
#                      seconds for every worker to report its start (default 180; a worker JVM
#                      took up to 105 s to start on this machine under heavy load)
#   --run-timeout S    seconds from start to all workers finished (default: duration + worker start + 60)
#   --hbase-ssh DEST   sample host metrics on a remote HBase host too (default: the embedded one here)
#   --ui swing         the Swing console instead of the headless one (needs a display; ./suite console)
#   --linger S         seconds the console stays up after the run (swing; default 30)
#   --slo GATES        service-level gates, e.g. 'p99_ms<50,error_rate<0.001,get.witness_p99_ms<=5':
#                      checked before anything starts; after the run the report is written
#                      (runs/run-N/report/) with its verdict, and the exit status is 99 when a gate fails
#
# Bash starts and stops the processes; Java decides (lifecycle/). `plan` checks the options and the
# properties (the worker's own Settings) before anything starts and writes runs/run-N with plan.json,
# the console's and every agent's properties and a first manifest; bash then builds the lab, starts
# the host-metrics samplers, the console with the suite's run controller and one agent per host,
# relays the controller's progress, stops everything by PID and collects every host's files;
# `finalise` judges the run from that evidence and writes manifest.json. Exit: 0 complete, 1 not
# (the reason on stderr), 99 complete with a failed gate, 130 interrupted.
set -euo pipefail
SUITE_ME="suite run"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$SUITE_ROOT/injectors/lib.sh"

usage() { sed -n '/^# Usage:/,/^# Summary:/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; sed -n '/^# Help:/,/^#$/p' "${BASH_SOURCE[0]}" | sed '1d; $d; s/^# \{0,1\}//'; }

# die, remembered for the manifest first.
die() {
  RUN_FAILURE="$*"
  printf '%s: %s\n' "$SUITE_ME" "$*" >&2
  exit 1
}

# The value of OPTION among the run's arguments (empty when absent): the one thing bash needs
# before Java has read them, to check --slo with the report's own parser.
option_value() {
  local option=$1; shift
  while (($#)); do
    if [[ $1 == "$option" && $# -ge 2 ]]; then printf '%s' "$2"; return; fi
    shift
  done
}

# ---------------------------------------------------------------- the plan

plan_run() {
  local out err
  out=$(mktemp) err=$(mktemp)
  namespaces_permitted > /dev/null 2>&1 || true
  if ! lifecycle plan --plan-out "$out" --suite-root "$SUITE_ROOT" --runs-dir "$SUITE_RUNS_DIR" --java "$JAVA" \
      --port-offset "$SUITE_PORT_OFFSET" --console-port "$PORT_CONSOLE" \
      --namespaces "$([[ -z ${NS_REFUSAL:-} ]] && echo yes || echo no)" --namespaces-refusal "${NS_REFUSAL:-}" \
      --worker-classpath "$(worker_classpath)" --grinder-classpath "$(grinder_classpath)" \
      --git-rev "$(git -C "$SUITE_ROOT" rev-parse HEAD 2> /dev/null || echo unknown)" \
      --git-dirty "$([[ -n $(git -C "$SUITE_ROOT" status --porcelain 2> /dev/null | head -1) ]] && echo true || echo false)" \
      -- "$@" > /dev/null 2> "$err"; then
    local reason
    reason=$(grep -v '^\s*at \|^SLF4J' "$err" | head -1)
    rm -f "$out" "$err"
    die "${reason:-the plan of the run failed}"
  fi
  RUN_DIR=$(jq -r .run_dir "$out")
  RUN_ID=$(jq -r .run_id "$out")
  rm -f "$out" "$err"
  PLAN=$RUN_DIR/plan.json
}

# The plan's hosts into the arrays injectors/lib.sh works on.
read_plan() {
  local id kind index dest java work dir
  while IFS=$'\t' read -r id kind index dest java work dir; do
    HOST_IDS+=("$id"); HOST_KIND+=("$kind"); HOST_DEST+=("$dest"); HOST_JAVA+=("$java"); HOST_WORK+=("$work")
    HOST_RUN_DIR+=("$dir")
    if [[ $kind == netns ]]; then HOST_NS+=("$(lab_ns "$index")"); else HOST_NS+=(""); fi
  done < <(jq -r '.hosts[] | [.id, .kind, .index, .destination, .java, .work_dir, .run_dir_on_host] | @tsv' "$PLAN")
  INJECTOR_MODE=$(jq -r .injector_mode "$PLAN")
  CONSOLE_HOST=$(jq -r .console.host "$PLAN")
  UI=$(jq -r .console.ui "$PLAN")
  LINGER=$(jq -r .console.linger_s "$PLAN")
  AGENT_TIMEOUT=$(jq -r .timeouts.agent_s "$PLAN")
  WORKER_START_TIMEOUT=$(jq -r .timeouts.worker_start_s "$PLAN")
  RUN_TIMEOUT=$(jq -r .timeouts.run_s "$PLAN")
  HBASE_SSH=$(jq -r '.hbase_ssh // empty' "$PLAN")
  EMBEDDED_HBASE=$(jq -r .embedded_hbase "$PLAN")
  SLO=$(jq -r '.slo // empty' "$PLAN")
}

# ---------------------------------------------------------------- the processes

# The distribution the console sends: the Jython sources (plan wrote its grinder.properties).
copy_scripts() {
  (cd "$SUITE_ROOT/grinder-scripts" && find . \( -path ./tests -o -path ./target -o -path ./src \) -prune -o -name '*.py' -print0 \
     | tar --null -T - -cf -) | tar -C "$RUN_DIR/distribution" -xf - || die "copying grinder-scripts/ into $RUN_DIR/distribution failed"
  [[ -f $RUN_DIR/distribution/hbase_load.py ]] || die "grinder-scripts/hbase_load.py is missing"
}

hbase_ssh() {
  local -a ssh_cmd
  read -r -a ssh_cmd <<< "$INJECTOR_SSH_CMD"
  "${ssh_cmd[@]}" -- "$HBASE_SSH" "$*"
}

start_samplers() {
  local max=$((AGENT_TIMEOUT + RUN_TIMEOUT + 120)) i
  mkdir -p "$RUN_DIR/hbase"
  if [[ -n $HBASE_SSH ]]; then
    HBASE_REMOTE_DIR=$(hbase_ssh "mktemp -d /tmp/hbase-grinder-metrics.XXXXXXXX" < /dev/null) \
      || die "cannot make a folder for the metrics sampler on the HBase host $HBASE_SSH"
    tar -C "$SUITE_ROOT/injectors" -cf - host-metrics.sh host-metrics.awk | hbase_ssh "tar -C $HBASE_REMOTE_DIR -xf -" \
      || die "copying the metrics sampler to the HBase host $HBASE_SSH failed"
    HBASE_SAMPLER_PID=$(hbase_ssh "cd $HBASE_REMOTE_DIR && { nohup setsid bash host-metrics.sh metrics.csv $max > metrics.out 2>&1 < /dev/null & echo \$!; }" < /dev/null)
    [[ $HBASE_SAMPLER_PID =~ ^[0-9]+$ ]] || die "the HBase host's metrics sampler gave no PID ('$HBASE_SAMPLER_PID')"
    HBASE_METRICS_NOTE="sampled on $HBASE_SSH by ssh"
  elif [[ $EMBEDDED_HBASE == true ]]; then
    local exclude='^lo$'
    [[ $INJECTOR_MODE == loopback || ${HOST_KIND[0]} == local ]] && exclude='^$'
    [[ $INJECTOR_MODE == namespaces ]] && exclude="^(lo|hgs${SUITE_PORT_OFFSET}i[0-9]+)\$"
    METRICS_NET_EXCLUDE=$exclude "$SUITE_ROOT/injectors/host-metrics.sh" "$RUN_DIR/hbase/metrics.csv" "$max" \
      > "$RUN_DIR/hbase/metrics.out" 2>&1 < /dev/null &
    HBASE_SAMPLER_PID=$!
    HBASE_METRICS_NOTE="the embedded HBase on this machine: sampled locally"
    [[ $exclude == '^$' ]] && HBASE_METRICS_NOTE+=", loopback traffic counted"
  else
    HBASE_METRICS_NOTE="not sampled: a real cluster (hbaseload.hbase.site) without --hbase-ssh"
  fi
  for i in "${!HOST_IDS[@]}"; do start_sampler "$i" "$max"; done
}

stop_hbase_sampler() {
  [[ -n ${HBASE_SAMPLER_PID:-} ]] || return 0
  if [[ -n $HBASE_SSH ]]; then
    hbase_ssh "kill $HBASE_SAMPLER_PID 2>/dev/null" < /dev/null || true
    hbase_ssh "cat $HBASE_REMOTE_DIR/metrics.csv && rm -rf $HBASE_REMOTE_DIR" < /dev/null > "$RUN_DIR/hbase/metrics.csv" \
      || info "  warning: no metrics from the HBase host $HBASE_SSH"
  else
    stop_pid "$HBASE_SAMPLER_PID" 5 "metrics sampler"
  fi
  HBASE_SAMPLER_PID=""
}

start_console() {
  local -a ui_args=(-headless) extra=()
  [[ $UI == swing ]] && ui_args=() && extra=("-Dhbasegrinder.linger=$LINGER")
  if port_listening "$PORT_CONSOLE"; then
    die "console port $PORT_CONSOLE on 127.0.0.1 is already taken by $(port_owner "$PORT_CONSOLE"); another run at this offset? (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"
  fi
  mkdir -p "$RUN_DIR/console"
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  "$JAVA" -Xmx512m $BRIEF_JVM_OPTS -cp "$(grinder_classpath)" "-Duser.home=$RUN_DIR/console" \
    "-Dgrinder.console.consoleHost=$CONSOLE_HOST" "-Dgrinder.console.consolePort=$PORT_CONSOLE" \
    -Dgrinder.console.httpHost=127.0.0.1 \
    "-Dgrinder.console.scriptDistributionDirectory=$RUN_DIR/distribution" \
    "-Dgrinder.console.propertiesFile=$RUN_DIR/distribution/grinder.properties" \
    -Dgrinder.console.numberToIgnore=0 -Dgrinder.console.numberToCollect=0 -Dgrinder.console.sampleInterval=1000 \
    "-Dhbasegrinder.run.dir=$RUN_DIR" "-Dhbasegrinder.agents=$(IFS=,; echo "${HOST_IDS[*]}")" \
    "-Dhbasegrinder.agentTimeout=$AGENT_TIMEOUT" "-Dhbasegrinder.runTimeout=$RUN_TIMEOUT" \
    "-Dhbasegrinder.workerStartTimeout=$WORKER_START_TIMEOUT" \
    "${extra[@]}" net.grinder.Console "${ui_args[@]}" > "$RUN_DIR/console/console.out" 2>&1 < /dev/null &
  CONSOLE_PID=$!
  echo "$CONSOLE_PID" > "$RUN_DIR/console/console.pid"
  local started=$SECONDS
  while ! port_listening "$PORT_CONSOLE"; do
    pid_alive "$CONSOLE_PID" || die "the Grinder console exited at start: $(last_error_line "$RUN_DIR/console/console.out") (log: $RUN_DIR/console/console.out)"
    ((SECONDS - started < 60)) || die "the Grinder console does not listen on $PORT_CONSOLE after 60s (log: $RUN_DIR/console/console.out)"
    sleep 0.5
  done
}

start_agents() {
  local i
  for i in "${!HOST_IDS[@]}"; do
    start_agent "$i" "$RUN_DIR/injectors/${HOST_IDS[$i]}/agent.properties"
  done
}

# Wait for the console to end the run, bounded, relaying its controller's progress lines and
# noting agents that leave before it has an outcome (they leave after it, normally).
follow_console() {
  local started=$SECONDS bound=$((AGENT_TIMEOUT + RUN_TIMEOUT + 90)) shown=0 i lines
  local progress_log=$RUN_DIR/console/progress.log
  while pid_alive "$CONSOLE_PID"; do
    if ((SECONDS - started >= bound)); then
      ABORT_REASON="the console did not end the run within ${bound}s: stopped it (log: $RUN_DIR/console/console.out)"
      stop_pid "$CONSOLE_PID" 10 "Grinder console"
      break
    fi
    if [[ -s $progress_log ]]; then
      lines=$(wc -l < "$progress_log")
      if ((lines > shown)); then
        tail -n "+$((shown + 1))" "$progress_log" | head -n "$((lines - shown))" | sed "s/\$/ ($((SECONDS - started))s)/; s/^/  ... /"
        shown=$lines
      fi
    fi
    if [[ ! -f $RUN_DIR/console/outcome.properties ]]; then
      for i in "${!HOST_IDS[@]}"; do
        if [[ -n ${HOST_AGENT_PID[$i]:-} && ${AGENT_GONE[$i]:-0} == 0 ]] && ! agent_alive "$i"; then
          AGENT_GONE[i]=1
          info "  agent ${HOST_IDS[$i]} exited before the run ended"
        fi
      done
    fi
    sleep 1
  done
  CONSOLE_RC=0
  wait "$CONSOLE_PID" || CONSOLE_RC=$?
  CONSOLE_PID=""
}

# Agents leave by themselves once the console stops them: wait a little, then by PID; then
# bring every host's logs and metrics into runs/run-N/injectors/<host>/.
stop_and_collect() {
  local waited=0 alive i dir
  while ((waited < 15)); do
    alive=0
    for i in "${!HOST_IDS[@]}"; do agent_alive "$i" && alive=1; done
    ((alive)) || break
    sleep 1; waited=$((waited + 1))
  done
  for i in "${!HOST_IDS[@]}"; do stop_agent "$i"; stop_sampler "$i"; done
  stop_hbase_sampler
  info "collecting logs and metrics from ${#HOST_IDS[@]} host(s)"
  for i in "${!HOST_IDS[@]}"; do
    dir=$RUN_DIR/injectors/${HOST_IDS[$i]}
    collect_host "$i" "$dir" || true
    # Loopback hosts are this machine: its metrics are every host's.
    if [[ ${HOST_KIND[$i]} == loopback && -s $RUN_DIR/hbase/metrics.csv ]]; then cp "$RUN_DIR/hbase/metrics.csv" "$dir/metrics.csv"; fi
  done
}

# Java judges the run and writes manifest.json; the summary it prints goes to the user.
finalise() {
  local -a seen=(--console-exit "${CONSOLE_RC:-}" --hbase-metrics "${HBASE_METRICS_NOTE:-}")
  local i
  [[ -n ${ABORT_REASON:-} ]] && seen+=(--aborted "$ABORT_REASON")
  for i in "${!HOST_IDS[@]}"; do [[ ${AGENT_GONE[$i]:-0} == 1 ]] && seen+=(--agent-exited "${HOST_IDS[$i]}"); done
  FINALISED=1
  lifecycle finalise "$RUN_DIR" "${seen[@]}" "$@"
}

# Stop everything this run started, by PID; a run that did not reach its finalisation is still
# judged (interrupted, or ended unexpectedly) so its manifest says how it ended.
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  if [[ -n ${CONSOLE_PID:-} ]] && pid_alive "$CONSOLE_PID"; then stop_pid "$CONSOLE_PID" 10 "Grinder console"; fi
  local i
  for i in "${!HOST_IDS[@]}"; do stop_agent "$i"; stop_sampler "$i"; done
  stop_hbase_sampler
  [[ ${LAB_CREATED:-0} == 1 ]] && lab_down
  if [[ -n ${RUN_DIR:-} && ${FINALISED:-0} != 1 ]]; then
    if ((${INTERRUPTED:-0})); then
      finalise --interrupted --no-table-info > /dev/null 2>&1
    else
      ABORT_REASON="${RUN_FAILURE:-./suite run ended unexpectedly (status $rc)}"
      finalise --no-table-info > /dev/null 2>&1
    fi
  fi
  exit "$rc"
}

# The report with the gates: its verdict and gate lines, and exit 99 when a gate fails (k6's way).
judge_gates() {
  local rc=0
  info "report and gates ($SLO):"
  Rscript "$SUITE_ROOT/r-analysis/report.R" --quiet --slo "$SLO" "$RUN_DIR" | sed 's/^report.R: /  /' || rc=$?
  case $rc in
    0) ;;
    99) printf '%s: %s: an SLO gate failed (%s)\n' "$SUITE_ME" "$RUN_ID" "$SLO" >&2; exit 99 ;;
    *) die "the report of $RUN_ID failed (exit $rc); the run itself is complete: $RUN_DIR" ;;
  esac
}

main() {
  case ${1:-} in -h | --help) usage; exit 0 ;; esac
  require_setup
  local slo slo_error
  slo=$(option_value --slo "$@")
  if [[ -n $slo ]] && ! slo_error=$(Rscript "$SUITE_ROOT/r-analysis/report.R" --check --slo "$slo" 2>&1); then
    die "--slo: ${slo_error#report.R: }"
  fi
  if port_listening "$PORT_CONSOLE"; then
    die "console port $PORT_CONSOLE on 127.0.0.1 is already taken by $(port_owner "$PORT_CONSOLE"); another run at this offset? (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"
  fi
  plan_run "$@"
  trap cleanup EXIT
  trap 'INTERRUPTED=1; RUN_FAILURE="interrupted"; exit 130' INT TERM
  info "$RUN_ID: $RUN_DIR"
  read_plan
  if [[ $UI == swing && -z ${DISPLAY:-} ]]; then
    die "the Swing console needs a display (DISPLAY is not set); on a headless machine: xvfb-run -a ./suite console ..."
  fi
  info "$RUN_ID: ${#HOST_IDS[@]} injector(s) ($INJECTOR_MODE: ${HOST_IDS[*]}), $(jq -r .threads_total "$PLAN") threads ($(jq -r '[.hosts[].threads] | join(",")' "$PLAN") per host x $(jq -r .processes "$PLAN") process(es)), $(jq -r .duration_s "$PLAN")s, target $(jq -r .target "$PLAN")"
  [[ $INJECTOR_MODE == loopback ]] && info "  note: $(jq -r .injector_note "$PLAN")"
  copy_scripts
  local i
  for i in "${!HOST_IDS[@]}"; do provision_host "$i"; done
  if [[ $INJECTOR_MODE == namespaces ]]; then
    lab_up "${#HOST_IDS[@]}"
    LAB_CREATED=1
  fi
  start_samplers
  start_console
  info "console listening on $CONSOLE_HOST:$PORT_CONSOLE ($UI, pid $CONSOLE_PID); starting ${#HOST_IDS[@]} agent(s)"
  AGENT_GONE=()
  start_agents
  follow_console
  stop_and_collect
  local rc=0
  finalise || rc=$?
  if ((rc != 0)); then
    RUN_FAILURE=$(jq -r .reason "$RUN_DIR/manifest.json" 2> /dev/null || echo "the run did not complete")
    printf '%s: %s %s: %s\n' "$SUITE_ME" "$RUN_ID" "$(jq -r .status "$RUN_DIR/manifest.json" 2> /dev/null || echo incomplete)" "$RUN_FAILURE" >&2
    exit 1
  fi
  [[ -z $SLO ]] || judge_gates
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
