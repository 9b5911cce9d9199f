# shellcheck shell=bash
# shellcheck disable=SC2153  # RUN_DIR, RUN_ID, PLAN, UI, INJECTOR_MODE and the HOST_* arrays are libexec/suite-run's
# An injector session: one Grinder console and its agents kept for many runs (./suite sweep, the
# demo, ./suite run --warmup), so that console and agents start once per session instead of once
# per run (Grinder still starts a new worker JVM for every run: its JIT is paid per run).
# SUITE_SESSION names the session's folder; the first ./suite run under it starts the
# session with that run's hosts (its lab, console and agents), every run after it submits a request
# to the console (console/.../SessionRequests) and follows it as it would its own console; the
# owner of the session (./suite sweep) ends it with session_stop. Hosts-file hosts reached by ssh
# and the Swing console run without a session. Sourced by libexec/suite-run and libexec/suite-sweep
# after suite.d/common.sh, injectors/lib.sh and suite.d/lab.sh.
#
# SESSION/session.json  the hosts the session was started with (each run must have the same)
# SESSION/.grinder_console  the console's settings (lifecycle session-start; user.home = SESSION)
# SESSION/console.pid   SESSION/console.out   SESSION/distribution/  (scripts, each run's properties)
# SESSION/hosts/ID/     each agent's working folder: agent.properties (rewritten for every run:
#                       the agent reads it again at each start), agent.out, agent.pid
# SESSION/requests/     RUN-ID.request -> RUN-ID.done (kind, code)
# SESSION/stop          asks the console to stop its agents and exit

# Can this run use a session? (local hosts only, the headless console)
session_usable() {
  [[ -n ${SUITE_SESSION:-} && $UI == headless && $INJECTOR_MODE != ssh ]]
}

session_alive() {
  pid_alive "$(pid_from_file "$SUITE_SESSION/console.pid")"
}

# Where the session's workers run, as a run must match it: "fresh", or "warm" with the agents' JVM
# arguments (a warm session's agent JVM is every run's worker JVM).
session_workers() { jq -c '.workers // {mode: "fresh"} | if .mode == "warm" then {mode, jvm_arguments} else {mode} end' "$1"; }

# The session's hosts as "id kind" lines, and this run's.
session_hosts() { jq -r '.hosts[] | "\(.id) \(.kind)"' "$SUITE_SESSION/session.json"; }
plan_hosts() {
  local i
  for i in "${!HOST_IDS[@]}"; do echo "${HOST_IDS[$i]} ${HOST_KIND[$i]}"; done
}

# Start the session for this run's hosts: its lab, console (session mode) and agents.
session_start() {
  local i dir
  mkdir -p "$SUITE_SESSION/requests" "$SUITE_SESSION/distribution" "$SUITE_SESSION/hosts"
  rm -f "$SUITE_SESSION/stop"
  # session.json (the hosts and workers every run of the session must have) and the console's
  # settings (.grinder_console: where it listens, what it distributes, the session it serves)
  lifecycle session-start --plan "$PLAN" --session "$SUITE_SESSION" || die "the session's files could not be written in $SUITE_SESSION"
  (cd "$SUITE_ROOT/grinder-scripts" && find . \( -path ./tests -o -path ./target -o -path ./src \) -prune -o -name '*.py' -print0 \
     | tar --null -T - -cf -) | tar -C "$SUITE_SESSION/distribution" -xf - || die "copying grinder-scripts/ into the session failed"
  cp "$RUN_DIR/distribution/grinder.properties" "$SUITE_SESSION/distribution/grinder.properties"
  if [[ $INJECTOR_MODE == namespaces ]]; then
    echo 1 > "$SUITE_SESSION/lab-up"   # before lab_up: a half-built lab is taken down too
    lab_up "${#HOST_IDS[@]}"
  fi
  if port_listening "$PORT_CONSOLE"; then
    die "console port $PORT_CONSOLE on 127.0.0.1 is already taken by $(port_owner "$PORT_CONSOLE"); another run at this offset? (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"
  fi
  # shellcheck disable=SC2086  # BRIEF_JVM_OPTS is a list of words
  (lab_exec console "$JAVA" $SERVICE_HEAP_START -Xmx512m $BRIEF_JVM_OPTS -cp "$(grinder_classpath)" "-Duser.home=$SUITE_SESSION" \
    net.grinder.Console -headless) > "$SUITE_SESSION/console.out" 2>&1 < /dev/null &
  echo $! > "$SUITE_SESSION/console.pid"
  local started=$SECONDS
  while ! grep -q 'run controller: session .*: waiting for runs' "$SUITE_SESSION/console.out" 2> /dev/null || ! port_listening "$PORT_CONSOLE"; do
    session_alive || die "the session's Grinder console exited at start: $(last_error_line "$SUITE_SESSION/console.out") (log: $SUITE_SESSION/console.out)"
    ((SECONDS - started < 60)) || die "the session's Grinder console is not ready after 60s (log: $SUITE_SESSION/console.out)"
    sleep 0.2
  done
  for i in "${!HOST_IDS[@]}"; do
    dir=$SUITE_SESSION/hosts/${HOST_IDS[$i]}
    mkdir -p "$dir"
    cp "$RUN_DIR/injectors/${HOST_IDS[$i]}/agent.properties" "$dir/agent.properties"
    # start_agent keeps the agent in its host's folder: the session's, not this run's
    local run_dir=${HOST_RUN_DIR[$i]}
    HOST_RUN_DIR[i]=$dir
    start_agent "$i" "$dir/agent.properties"
    HOST_RUN_DIR[i]=$run_dir
    # the session's agent, not this run's: session_stop stops it (by its agent.pid); suite-run's
    # watch over its own agents reads HOST_AGENT_PID
    # shellcheck disable=SC2034
    HOST_AGENT_PID[i]=""
  done
  echo 0 > "$SUITE_SESSION/runs-served"
  info "  session $SUITE_SESSION: console (pid $(cat "$SUITE_SESSION/console.pid")) and ${#HOST_IDS[@]} agent(s) started for the runs to come$([[ ${WORKERS:-fresh} == warm ]] && echo ", workers warm in the agents' JVMs")"
}

# Warm agents that have served their runs (session.workers.runs): each ended worker leaves part
# of its classes in the agent (WarmWorkers.java), so the session starts its agents afresh.
session_worn_out() {
  [[ ${WORKERS:-fresh} == warm ]] && (($(cat "$SUITE_SESSION/runs-served" 2> /dev/null || echo 0) >= WARM_RUNS_PER_AGENT))
}

# This run's request: each host's agent.properties in place, the run's properties in the
# distribution, and the request itself (written whole, then renamed).
session_submit() {
  local i dir request=$SUITE_SESSION/requests/$RUN_ID session_has run_has
  session_has=$(session_workers "$SUITE_SESSION/session.json") run_has=$(session_workers "$PLAN")
  [[ $session_has == "$run_has" ]] \
    || die "this run's workers ($run_has) are not the session's ($session_has): session.workers and, when warm, grinder.jvm.arguments stay the same for a whole session"
  for i in "${!HOST_IDS[@]}"; do
    dir=$SUITE_SESSION/hosts/${HOST_IDS[$i]}
    cp "$RUN_DIR/injectors/${HOST_IDS[$i]}/agent.properties" "$dir/agent.properties.new" && mv -f "$dir/agent.properties.new" "$dir/agent.properties"
    # where this run's part of the agent's log begins
    stat -c %s "$dir/agent.out" > "$RUN_DIR/injectors/${HOST_IDS[$i]}/.agent-out-offset" 2> /dev/null || echo 0 > "$RUN_DIR/injectors/${HOST_IDS[$i]}/.agent-out-offset"
  done
  cp "$RUN_DIR/distribution/grinder.properties" "$SUITE_SESSION/distribution/$RUN_ID.properties"
  # the run's settings are its plan's; the properties are the session's copy of the run's
  jq -n --arg plan "$PLAN" --arg properties "$SUITE_SESSION/distribution/$RUN_ID.properties" \
    '{plan: $plan, properties: $properties}' > "$request.tmp"
  mv -f "$request.tmp" "$request.request"
  echo $(($(cat "$SUITE_SESSION/runs-served" 2> /dev/null || echo 0) + 1)) > "$SUITE_SESSION/runs-served"
  info "  submitted to the session's console ($SUITE_SESSION)"
}

# The outcome code of this run's request, once answered (empty before).
session_done_code() {
  sed -n 's/^code=//p' "$SUITE_SESSION/requests/$RUN_ID.done" 2> /dev/null
}

# Each host's part of the agent's log (since this run's submission) into the run's host folder,
# and the workers' GC logs found beside it (the report keeps the pauses of its window).
session_collect() {
  local i dir target offset gc
  for i in "${!HOST_IDS[@]}"; do
    dir=$SUITE_SESSION/hosts/${HOST_IDS[$i]}
    target=$RUN_DIR/injectors/${HOST_IDS[$i]}
    offset=$(cat "$target/.agent-out-offset" 2> /dev/null || echo 0)
    tail -c "+$((offset + 1))" "$dir/agent.out" > "$target/agent.out" 2> /dev/null || true
    rm -f "$target/.agent-out-offset"
    cp "$dir/agent.pid" "$target/agent.pid" 2> /dev/null || true
    for gc in "$dir"/*-gc.*.log; do
      if [[ -e $gc ]]; then cp "$gc" "$target/"; fi
    done
  done
}

# End the session: the console stops its agents and exits; whatever is left is stopped by PID; the
# network lab, when the session built one, is taken down.
session_stop() {
  [[ -n ${SUITE_SESSION:-} && -d $SUITE_SESSION ]] || return 0
  local pid started=$SECONDS dir
  touch "$SUITE_SESSION/stop"
  pid=$(pid_from_file "$SUITE_SESSION/console.pid")
  while pid_alive "$pid" && ((SECONDS - started < 20)); do sleep 0.2; done
  [[ -z $pid ]] || stop_pid "$pid" 10 "session console"
  for dir in "$SUITE_SESSION"/hosts/*/; do
    [[ -d $dir ]] || continue
    pid=$(pid_from_file "$dir/agent.pid")
    [[ -z $pid ]] || stop_pid "$pid" 10 "session agent $(basename "$dir")"
  done
  if [[ -f $SUITE_SESSION/lab-up ]]; then
    lab_down
    rm -f "$SUITE_SESSION/lab-up"
  fi
}
