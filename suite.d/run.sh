#!/usr/bin/env bash
# ./suite run: one load run orchestrated by the Grinder console into runs/run-N.
# Allocates runs/run-N (never reusing one), writes manifest.json at once (incomplete, running)
# and again at the end, starts a host-metrics sampler on the HBase host and on every injector
# host, the headless console with the suite's run controller (console/: waits for the agents,
# distributes grinder-scripts/ and the run's properties, starts and follows the workers, writes
# console/statistics.csv and console/timeline.csv, exits with a status), one Grinder agent per
# injector host, prints a progress line every few seconds, collects every host's logs and
# metrics into runs/run-N/injectors/<host>/, checks them, and exits non-zero with the reason
# when anything failed (the partial data is kept and the manifest says incomplete, and why).
set -euo pipefail
SUITE_ME="suite run"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$SUITE_ROOT/suite.d/runs.sh"
source "$SUITE_ROOT/suite.d/run-properties.sh"
source "$SUITE_ROOT/injectors/lib.sh"

# The Grinder console's port for this copy of the suite (belongs in common.sh).
: "${PORT_CONSOLE:=$((6372 + SUITE_PORT_OFFSET))}"

USAGE="usage: ./suite run [--properties F] [--injectors N [--lab auto|loopback|namespaces] | --hosts F]
                  [--threads T] [--processes P] [--duration D] [--target direct|thrift]
                  [--set KEY=VALUE]... [--console-host ADDR] [--agent-timeout S] [--worker-start-timeout S]
                  [--run-timeout S] [--hbase-ssh DEST] [--sweep-id ID] [--ui headless|swing] [--linger S]
                  [--slo GATES]"

run_help() {
  cat <<EOF
$USAGE
  --properties F     the run's properties (default: grinder.properties)
  --injectors N      N injector hosts on this machine (default 1): network namespaces where
                     permitted (--lab auto, the default), else N agents on loopback
  --lab MODE         auto | namespaces | loopback, for --injectors
  --hosts F          injector hosts from a hosts file: DESTINATION JAVA WORK_DIR [HOST_ID] per
                     line, DESTINATION an ssh destination or 'local' (see injectors/lib.sh)
  --threads T        threads in TOTAL over all injectors, split equally; a remainder goes one
                     each to the first hosts (301 over 4: 76,75,75,75). Default: grinder.threads
                     per worker process on every host
  --processes P      worker processes per injector (default: grinder.processes)
  --duration D       length of the load: 30, 30s, 2m (default: grinder.duration)
  --target T         hbaseload.target: direct | thrift
  --set KEY=VALUE    any other property, e.g. --set hbaseload.operations=get:100
  --console-host A   address the console listens on (default 127.0.0.1; ssh hosts need one they reach)
  --agent-timeout S  seconds to wait for every agent (default 60)
  --worker-start-timeout S
                     seconds for every worker to report its start (default 180; a worker
                     JVM took up to 105 s to start on this machine under heavy load)
  --run-timeout S    seconds from start to all workers finished (default: duration + worker start + 60)
  --hbase-ssh DEST   sample host metrics on a remote HBase host too (default: the embedded one here)
  --sweep-id ID      record the run as part of a sweep (set by ./suite sweep)
  --ui swing         the Swing console instead of the headless one (needs a display; see ./suite console)
  --linger S         seconds the console stays up after the run (swing; default 30)
  --slo GATES        service-level gates, e.g. 'p99_ms<50,error_rate<0.001,get.witness_p99_ms<=5':
                     checked before anything starts; after the run the report is written
                     (runs/run-N/report/) with its verdict, and the exit status is 99 when a gate fails
EOF
}

# ---------------------------------------------------------------- JSON for the manifest

json_str() {
  local s=$1
  s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}; s=${s//$'\r'/\\r}
  s=$(printf '%s' "$s" | tr -d '\000-\010\013\014\016-\037')
  printf '"%s"' "$s"
}

# A JSON array of strings from the arguments.
json_array() {
  local first=1 item
  printf '['
  for item in "$@"; do
    ((first)) || printf ','
    json_str "$item"; first=0
  done
  printf ']'
}

# A number, or null when the text is not one.
json_num() {
  if [[ ${1:-} =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then printf '%s' "$1"; else printf 'null'; fi
}

iso_now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }

iso_ms() {
  [[ ${1:-} =~ ^[0-9]+$ ]] || { printf ''; return; }
  date -u -d "@$(($1 / 1000)).$(printf '%03d' $(($1 % 1000)))" +%Y-%m-%dT%H:%M:%S.%3NZ
}

# "key<TAB>value" lines of a Java properties file, later keys winning, sorted by key. Handles
# key=value, key: value and key value; skips comments; joins backslash continuations.
properties_table() {
  awk '
    function flush() { if (buf != "") { parse(buf) }; buf = "" }
    function parse(line,    key, value, m) {
      sub(/^[ \t\f]+/, "", line)
      if (line == "" || line ~ /^[#!]/) return
      if (match(line, /[ \t\f]*[=:][ \t\f]*|[ \t\f]+/)) {
        key = substr(line, 1, RSTART - 1); value = substr(line, RSTART + RLENGTH)
      } else { key = line; value = "" }
      sub(/[ \t\f]+$/, "", value)
      if (!(key in props)) order[++n] = key
      props[key] = value
    }
    { line = $0
      if (buf != "") { sub(/^[ \t\f]+/, "", line) }
      if (line ~ /\\$/ && line !~ /\\\\$/) { buf = buf substr(line, 1, length(line) - 1); next }
      buf = buf line; flush() }
    END { flush(); for (i = 1; i <= n; i++) printf "%s\t%s\n", order[i], props[order[i]] }
  ' "$1" | LC_ALL=C sort -t $'\t' -k1,1
}

# The value of KEY in a properties table file (empty when absent).
prop() {
  [[ -f $1 ]] || return 0
  awk -F'\t' -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"
}

# A copy of a properties file without the given keys (and their continuation lines).
drop_keys() {
  local file=$1; shift
  awk -v keys=" $* " '
    cont { cont = ($0 ~ /\\$/); next }
    { line = $0; sub(/^[ \t\f]+/, "", line)
      key = line; sub(/[ \t\f]*[=: \t\f].*$/, "", key)
      if (line !~ /^[#!]/ && index(keys, " " key " ")) { cont = ($0 ~ /\\$/); next }
      print }' "$file"
}

# ---------------------------------------------------------------- the manifest

versions_json() {
  local grinder jython java hbase
  grinder=$(classpath_of grinder | tr ':' '\n' | sed -n 's|.*/grinder-core-\(.*\)\.jar$|\1|p' | head -1)
  jython=$(classpath_of grinder | tr ':' '\n' | sed -n 's|.*/jython-standalone-\(.*\)\.jar$|\1|p' | head -1)
  hbase=$(classpath_of worker | tr ':' '\n' | sed -n 's|.*/hbase-client-\(.*\)\.jar$|\1|p' | head -1)
  java=$("${HOST_JAVA[0]:-$JAVA}" -version 2>&1 | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -1 || true)
  [[ -n $java ]] || java=$("$JAVA" -version 2>&1 | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -1)
  printf '{"grinder":%s,"jython":%s,"java":%s,"hbase":%s}' \
    "$(json_str "$grinder")" "$(json_str "$jython")" "$(json_str "$java")" "$(json_str "$hbase")"
}

# tests from the console's statistics.csv: {"1":"get","2":"put"}
tests_json() {
  local file=$RUN_DIR/console/statistics.csv first=1 test name
  printf '{'
  if [[ -s $file ]]; then
    while IFS=, read -r test name _; do
      [[ $test =~ ^[0-9]+$ ]] || continue
      ((first)) || printf ','
      printf '"%s":%s' "$test" "$(json_str "$name")"; first=0
    done < "$file"
  fi
  printf '}'
}

properties_json() {
  local first=1 key value
  printf '{'
  [[ -s $RUN_DIR/.properties.tsv ]] || { printf '}'; return; }
  while IFS=$'\t' read -r key value; do
    ((first)) || printf ','
    printf '%s:%s' "$(json_str "$key")" "$(json_str "$value")"; first=0
  done < "$RUN_DIR/.properties.tsv"
  printf '}'
}

threads_per_host_json() {
  local i first=1
  printf '{'
  for i in "${!HOST_IDS[@]}"; do
    ((first)) || printf ','
    printf '%s:%s' "$(json_str "${HOST_IDS[$i]}")" "$(json_num "$((${HOST_THREADS[$i]:-0} * PROCESSES))")"; first=0
  done
  printf '}'
}

table_json() {
  local info=$RUN_DIR/hbase/table.properties regions size source=declared
  regions=$(prop_line "$info" regions)
  size=$(prop_line "$info" store_mb)
  if [[ -n $regions ]]; then source=hbase; else regions=$(prop "$RUN_DIR/.properties.tsv" hbaseload.regions); fi
  printf '{"name":%s,"regions":%s,"rows":%s,"store_mb":%s,"source":%s}' \
    "$(json_str "$(prop "$RUN_DIR/.properties.tsv" hbaseload.table)")" "$(json_num "$regions")" \
    "$(json_num "$(prop "$RUN_DIR/.properties.tsv" hbaseload.rows)")" "$(json_num "$size")" "$(json_str "$source")"
}

# key=value files (outcome.properties, table.properties)
prop_line() {
  [[ -f $1 ]] || return 0
  sed -n "s/^$2=//p" "$1" | tail -1
}

# Write runs/run-N/manifest.json (atomically). STATUS complete|incomplete, REASON one line.
write_manifest() {
  local status=$1 reason=$2 end_time=${3:-} outcome=$RUN_DIR/console/outcome.properties sweep=null pacing=false
  [[ -n ${SWEEP_ID:-} ]] && sweep=$(json_str "$SWEEP_ID")
  # Paced: an open model (hbaseload.rate.per.thread) or think time between requests.
  local sleep_time rate
  sleep_time=$(prop "$RUN_DIR/.properties.tsv" grinder.sleepTime 2> /dev/null || true)
  rate=$(prop "$RUN_DIR/.properties.tsv" hbaseload.rate.per.thread 2> /dev/null || true)
  [[ ${sleep_time:-0} =~ ^[0-9]+$ && ${sleep_time:-0} -gt 0 ]] && pacing=true
  [[ ${rate:-0} =~ ^[0-9.]+$ && ${rate:-0} != 0 && ! ${rate:-0} =~ ^0+(\.0*)?$ ]] && pacing=true
  {
    printf '{"run_id":%s,"status":%s,"reason":%s,' "$(json_str "$RUN_ID")" "$(json_str "$status")" "$(json_str "$reason")"
    printf '"start_time":%s,"end_time":%s,' "$(json_str "$START_TIME")" "$(if [[ -n $end_time ]]; then json_str "$end_time"; else printf null; fi)"
    printf '"target":%s,"threads_total":%s,' "$(json_str "${TARGET:-}")" "$(json_num "${THREADS_TOTAL:-}")"
    printf '"hosts":%s,"injector_mode":%s,"injector_note":%s,' "$(json_array "${HOST_IDS[@]}")" \
      "$(json_str "${INJECTOR_MODE:-}")" "$(json_str "${INJECTOR_NOTE:-}")"
    printf '"threads_per_host":%s,"processes_per_host":%s,"duration_s":%s,' "$(threads_per_host_json)" \
      "$(json_num "${PROCESSES:-}")" "$(json_num "${DURATION_S:-}")"
    printf '"properties":%s,"tests":%s,"pacing":%s,"sweep_id":%s,' "$(properties_json)" "$(tests_json)" "$pacing" "$sweep"
    printf '"versions":%s,"git_rev":%s,"git_dirty":%s,"table":%s,' "$VERSIONS_JSON" \
      "$(json_str "$GIT_REV")" "$GIT_DIRTY" "$(table_json)"
    printf '"load_start_time":%s,"load_end_time":%s,' \
      "$(json_str "$(iso_ms "$(prop_line "$outcome" load_start_ms)")")" "$(json_str "$(iso_ms "$(prop_line "$outcome" load_end_ms)")")"
    printf '"console":{"port":%s,"host":%s,"exit_code":%s,"requests":%s},' "$PORT_CONSOLE" "$(json_str "$CONSOLE_HOST")" \
      "$(json_num "${CONSOLE_RC:-}")" "$(json_num "$(prop_line "$outcome" requests)")"
    printf '"datalog_requests":%s,"hbase_metrics":%s}\n' "$(json_num "${DATALOG_REQUESTS:-}")" "$(json_str "${HBASE_METRICS_NOTE:-}")"
  } > "$RUN_DIR/manifest.json.tmp"
  mv -f "$RUN_DIR/manifest.json.tmp" "$RUN_DIR/manifest.json"
}

# ---------------------------------------------------------------- arguments

parse_duration() {
  local d=$1
  case $d in
    *m) [[ ${d%m} =~ ^[0-9]+$ ]] && { echo $((${d%m} * 60)); return; } ;;
    *s) [[ ${d%s} =~ ^[0-9]+$ ]] && { echo "${d%s}"; return; } ;;
    *) [[ $d =~ ^[0-9]+$ ]] && { echo "$d"; return; } ;;
  esac
  die "--duration '$1' is not a duration (accepted: 30, 30s, 2m)"
}

positive() {
  [[ $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || die "$1 '$2' is not a whole number > 0"
}

parse_args() {
  PROPERTIES=$SUITE_ROOT/grinder.properties INJECTORS="" HOSTS_FILE="" LAB=auto THREADS="" PROCESSES_ARG=""
  DURATION_ARG="" TARGET_ARG="" CONSOLE_HOST=127.0.0.1 AGENT_TIMEOUT=60 WORKER_START_TIMEOUT=180 RUN_TIMEOUT="" HBASE_SSH=""
  SWEEP_ID="" UI=headless LINGER=30 SLO=""
  SETS=()
  while (($#)); do
    [[ $1 == -h || $1 == --help ]] && { run_help; exit 0; }
    [[ $# -ge 2 ]] || die "$1 needs a value ($USAGE)"
    case $1 in
      --properties) PROPERTIES=$2 ;;
      --injectors) positive --injectors "$2"; ((10#$2 <= 64)) || die "--injectors $2: at most 64"; INJECTORS=$((10#$2)) ;;
      --lab) [[ $2 =~ ^(auto|loopback|namespaces)$ ]] || die "--lab '$2' is not accepted (accepted: auto, loopback, namespaces)"; LAB=$2 ;;
      --hosts) HOSTS_FILE=$2 ;;
      --threads) positive --threads "$2"; THREADS=$((10#$2)) ;;
      --processes) positive --processes "$2"; PROCESSES_ARG=$((10#$2)) ;;
      --duration) DURATION_ARG=$(parse_duration "$2"); ((DURATION_ARG > 0)) || die "--duration must be > 0" ;;
      --target) [[ $2 =~ ^(direct|thrift)$ ]] || die "--target '$2' is not accepted (accepted: direct, thrift)"; TARGET_ARG=$2 ;;
      --set) [[ $2 =~ ^[A-Za-z][A-Za-z0-9._-]*=.*$ ]] || die "--set '$2' is not KEY=VALUE"; SETS+=("${2%%=*} = ${2#*=}") ;;
      --console-host) [[ $2 =~ ^[0-9A-Za-z.:-]+$ && $2 != 0.0.0.0 ]] || die "--console-host '$2' is not an address (0.0.0.0 is refused)"; CONSOLE_HOST=$2 ;;
      --agent-timeout) positive --agent-timeout "$2"; AGENT_TIMEOUT=$((10#$2)) ;;
      --worker-start-timeout) positive --worker-start-timeout "$2"; WORKER_START_TIMEOUT=$((10#$2)) ;;
      --run-timeout) positive --run-timeout "$2"; RUN_TIMEOUT=$((10#$2)) ;;
      --hbase-ssh) HBASE_SSH=$2 ;;
      --sweep-id) [[ $2 =~ ^sweep-[0-9]+$ ]] || die "--sweep-id '$2' is not sweep-N"; SWEEP_ID=$2 ;;
      --ui) [[ $2 =~ ^(headless|swing)$ ]] || die "--ui '$2' is not accepted (accepted: headless, swing)"; UI=$2 ;;
      --linger) [[ $2 =~ ^[0-9]+$ ]] || die "--linger '$2' is not a whole number"; LINGER=$2 ;;
      --slo) SLO=$2 ;;
      *) die "unknown argument '$1' ($USAGE)" ;;
    esac
    shift 2
  done
  [[ -f $PROPERTIES ]] || die "properties file $PROPERTIES not found"
  [[ -z $INJECTORS || -z $HOSTS_FILE ]] || die "--injectors and --hosts exclude each other"
  [[ -n $INJECTORS || -n $HOSTS_FILE ]] || INJECTORS=1
  # The gates are checked by the parser that will apply them, before anything starts.
  if [[ -n $SLO ]] && ! slo_error=$(Rscript "$SUITE_ROOT/r-analysis/report.R" --check --slo "$SLO" 2>&1); then
    die "--slo: ${slo_error#report.R: }"
  fi
  if [[ $UI == swing && -z ${DISPLAY:-} ]]; then
    die "the Swing console needs a display (DISPLAY is not set); on a headless machine: xvfb-run -a ./suite console ..."
  fi
}

# ---------------------------------------------------------------- the run

# Stop everything this run started, by PID, and write the final manifest if nobody did.
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  if [[ -n ${CONSOLE_PID:-} ]] && pid_alive "$CONSOLE_PID"; then stop_pid "$CONSOLE_PID" 10 "Grinder console"; fi
  local i
  for i in "${!HOST_IDS[@]}"; do stop_agent "$i"; stop_sampler "$i"; done
  if [[ -n ${HBASE_SAMPLER_PID:-} ]]; then
    if [[ -n $HBASE_SSH ]]; then hbase_ssh "kill $HBASE_SAMPLER_PID 2>/dev/null" < /dev/null; else stop_pid "$HBASE_SAMPLER_PID" 5 "metrics sampler"; fi
  fi
  if [[ -n ${TABLE_INFO_PID:-} ]] && pid_alive "$TABLE_INFO_PID"; then stop_pid "$TABLE_INFO_PID" 5 "table info"; fi
  [[ ${LAB_CREATED:-0} == 1 ]] && lab_down
  if [[ -n ${RUN_DIR:-} && ${MANIFEST_FINAL:-0} != 1 ]]; then
    write_manifest incomplete "${RUN_FAILURE:-./suite run ended unexpectedly (status $rc)}" "$(iso_now)"
  fi
  rm -f "${RUN_DIR:-/nonexistent}/.properties.tsv"
  exit "$rc"
}

# die, but remembered for the manifest first.
die() {
  RUN_FAILURE="$*"
  printf '%s: %s\n' "$SUITE_ME" "$*" >&2
  exit 1
}

hbase_ssh() {
  local -a ssh_cmd
  read -r -a ssh_cmd <<< "$INJECTOR_SSH_CMD"
  "${ssh_cmd[@]}" "$HBASE_SSH" "$*"
}

choose_hosts() {
  if [[ -n $HOSTS_FILE ]]; then
    local kinds
    kinds=$(printf '%s\n' "${HOST_KIND[@]}" | sort -u | paste -sd,)
    INJECTOR_MODE=ssh
    INJECTOR_NOTE="hosts from $HOSTS_FILE ($kinds); agents started by ssh ($INJECTOR_SSH_CMD), logs and metrics copied back"
    if [[ $kinds == local ]]; then
      INJECTOR_MODE=loopback
      INJECTOR_NOTE="hosts from $HOSTS_FILE, all 'local': agents on loopback on this one machine, each in its own work dir; they share CPU, memory, disk and network"
    fi
    return
  fi
  local kind=loopback
  case $LAB in
    namespaces)
      namespaces_permitted || die "network namespaces are not permitted here: $NS_REFUSAL (use --lab loopback)"
      kind=netns ;;
    auto) if namespaces_permitted; then kind=netns; fi ;;
  esac
  hosts_from_count "$INJECTORS" "$kind" "$RUN_DIR"
  if [[ $kind == netns ]]; then
    INJECTOR_MODE=namespaces
    INJECTOR_NOTE="$INJECTORS network namespaces ($(lab_ns 1)..) on bridge $(lab_bridge) $(lab_gateway)/24, one agent each at its own address; they reach HBase and the console (127.0.0.1 of this machine) over their veth link. CPU, memory and disk are this one machine's, shared by all."
  else
    INJECTOR_MODE=loopback
    INJECTOR_NOTE="$INJECTORS agents on loopback on this one machine$([[ $LAB == loopback ]] && echo " (--lab loopback)" || echo ": network namespaces not permitted ($NS_REFUSAL)"). They share CPU, memory, disk and network; every host's metrics.csv is this machine's."
  fi
}

# The console's properties: the run's properties minus what differs per host.
prepare_properties() {
  local full=$RUN_DIR/.full.properties overrides=()
  overrides+=("grinder.useConsole = true")
  [[ -n $PROCESSES_ARG ]] && overrides+=("grinder.processes = $PROCESSES_ARG")
  [[ -n $DURATION_ARG ]] && overrides+=("grinder.duration = $((DURATION_ARG * 1000))" "grinder.runs = 0")
  [[ -n $TARGET_ARG ]] && overrides+=("hbaseload.target = $TARGET_ARG")
  overrides+=("${SETS[@]}")
  write_run_properties "$PROPERTIES" "$full" "-" "${overrides[@]}"
  properties_table "$full" > "$RUN_DIR/.full.tsv"
  PROCESSES=$(prop "$RUN_DIR/.full.tsv" grinder.processes); PROCESSES=${PROCESSES:-1}
  positive grinder.processes "$PROCESSES"
  local per_thread duration_ms
  per_thread=$(prop "$RUN_DIR/.full.tsv" grinder.threads); per_thread=${per_thread:-1}
  positive grinder.threads "$per_thread"
  duration_ms=$(prop "$RUN_DIR/.full.tsv" grinder.duration); duration_ms=${duration_ms:-0}
  [[ $duration_ms =~ ^[0-9]+$ ]] || die "grinder.duration '$duration_ms' is not a whole number of ms"
  DURATION_S=$((duration_ms / 1000))
  TARGET=$(prop "$RUN_DIR/.full.tsv" hbaseload.target); TARGET=${TARGET:-direct}
  if [[ -n $THREADS ]]; then
    split_threads "$THREADS" "$PROCESSES"
  else
    HOST_THREADS=()
    local i
    for i in "${!HOST_IDS[@]}"; do HOST_THREADS+=("$per_thread"); done
  fi
  THREADS_TOTAL=0
  local t uniform=1
  for t in "${HOST_THREADS[@]}"; do
    THREADS_TOTAL=$((THREADS_TOTAL + t * PROCESSES))
    [[ $t == "${HOST_THREADS[0]}" ]] || uniform=0
  done
  # Sequential keys give every thread a slice numbered by its place; unequal hosts would overlap.
  if ((!uniform)) && [[ $(prop "$RUN_DIR/.full.tsv" hbaseload.key.distribution) == sequential ]]; then
    die "--threads $THREADS does not split equally over ${#HOST_IDS[@]} injectors, which sequential keys need; use a multiple of ${#HOST_IDS[@]}"
  fi
  # shellcheck disable=SC2086  # the key list is words
  {
    printf '# The properties the console sent to every agent for %s (./suite run).\n' "$RUN_ID"
    printf '# Per-host keys (%s) are in injectors/<host>/agent.properties.\n' "$HOST_SPECIFIC_KEYS"
    drop_keys "$full" $HOST_SPECIFIC_KEYS hbaseload.agents
    printf '\n# ---- for the console-orchestrated run\ngrinder.script = hbase_load.py\n'
    if ((uniform)); then printf 'grinder.threads = %s\n' "${HOST_THREADS[0]}"; fi
    # The workers split sequential keys over all hosts (where the scripts know the key).
    if [[ -n $(prop "$RUN_DIR/.full.tsv" hbaseload.agents) ]]; then printf 'hbaseload.agents = %s\n' "${#HOST_IDS[@]}"; fi
  } > "$RUN_DIR/grinder.properties"
  rm -f "$full"
  # The manifest's properties: what the console sent plus the threads per host ("76,75,75,75"
  # when a remainder made them differ).
  {
    properties_table "$RUN_DIR/grinder.properties" | awk -F'\t' '$1 != "grinder.threads"'
    printf 'grinder.threads\t%s\n' "$(IFS=,; ((uniform)) && echo "${HOST_THREADS[0]}" || echo "${HOST_THREADS[*]}")"
  } | LC_ALL=C sort -t $'\t' -k1,1 > "$RUN_DIR/.properties.tsv"
  rm -f "$RUN_DIR/.full.tsv"
  [[ -z $RUN_TIMEOUT ]] && RUN_TIMEOUT=$(( DURATION_S > 0 ? DURATION_S + WORKER_START_TIMEOUT + 60 : 3600 ))

  # The distribution: the scripts (Jython sources only) and the properties.
  mkdir -p "$RUN_DIR/distribution"
  (cd "$SUITE_ROOT/grinder-scripts" && find . \( -path ./tests -o -path ./target -o -path ./src \) -prune -o -name '*.py' -print0 \
     | tar --null -T - -cf -) | tar -C "$RUN_DIR/distribution" -xf - || die "copying grinder-scripts/ into $RUN_DIR/distribution failed"
  [[ -f $RUN_DIR/distribution/hbase_load.py ]] || die "grinder-scripts/hbase_load.py is missing"
  cp "$RUN_DIR/grinder.properties" "$RUN_DIR/distribution/grinder.properties"
}

# Regions and store size of the table, asked of HBase in the background once the load is over
# (so it never competes with the load), by a short-lived JVM kept cheap: C1 only, serial GC.
start_table_info() {
  mkdir -p "$RUN_DIR/hbase"
  WORKER_JAVA_OPTS="-Xmx256m $BRIEF_JVM_OPTS" run_worker_java TableInfo "$RUN_DIR/grinder.properties" \
    > "$RUN_DIR/hbase/table.properties" 2> "$RUN_DIR/hbase/table-info.log" < /dev/null &
  TABLE_INFO_PID=$!
}

start_console() {
  local -a ui_args=(-headless) extra=()
  [[ $UI == swing ]] && ui_args=() && extra=("-Dhbasegrinder.linger=$LINGER")
  if port_listening "$PORT_CONSOLE"; then
    local owner
    owner=$(port_owner "$PORT_CONSOLE")
    die "console port $PORT_CONSOLE on 127.0.0.1 is already taken${owner:+ by $owner}; another run at this offset? (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"
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

start_samplers() {
  local max=$((AGENT_TIMEOUT + RUN_TIMEOUT + 120)) i
  mkdir -p "$RUN_DIR/hbase"
  if [[ -n $HBASE_SSH ]]; then
    local remote=/tmp/hbase-grinder-metrics/$RUN_ID
    tar -C "$SUITE_ROOT/injectors" -cf - host-metrics.sh host-metrics.awk | hbase_ssh "mkdir -p $remote && tar -C $remote -xf -" \
      || die "copying the metrics sampler to the HBase host $HBASE_SSH failed"
    HBASE_SAMPLER_PID=$(hbase_ssh "cd $remote && { nohup setsid bash host-metrics.sh metrics.csv $max > metrics.out 2>&1 < /dev/null & echo \$!; }" < /dev/null)
    HBASE_METRICS_NOTE="sampled on $HBASE_SSH by ssh"
  elif [[ -z $(prop "$RUN_DIR/.properties.tsv" hbaseload.hbase.site) ]]; then
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

start_agents() {
  local i props
  for i in "${!HOST_IDS[@]}"; do
    props=$RUN_DIR/injectors/${HOST_IDS[$i]}/agent.properties
    mkdir -p "${props%/*}"
    write_agent_properties "$i" "$props" "$CONSOLE_HOST" "$PORT_CONSOLE"
    start_agent "$i" "$props"
  done
}

# Wait for the console to end the run, with a progress line every 5 s.
follow_console() {
  local started=$SECONDS bound=$((AGENT_TIMEOUT + RUN_TIMEOUT + 90)) next=5 line i werr tests
  while pid_alive "$CONSOLE_PID"; do
    if ((SECONDS - started >= bound)); then
      ABORT_REASON="the console did not end the run within ${bound}s: stopped it (log: $RUN_DIR/console/console.out)"
      stop_pid "$CONSOLE_PID" 10 "Grinder console"
      break
    fi
    if ((SECONDS - started >= next)); then
      line=$(grep -E '^(progress|waiting):' "$RUN_DIR/console/console.out" | tail -1 || true)
      if [[ -z $line ]]; then line="starting: console up, ${#HOST_IDS[@]} agent(s) starting"; fi
      # An agent gone before the console has an outcome (they leave after it, normally).
      for i in "${!HOST_IDS[@]}"; do
        [[ -f $RUN_DIR/console/outcome.properties ]] && break
        if [[ -n ${HOST_AGENT_PID[$i]:-} && ${AGENT_GONE[$i]:-0} == 0 ]] && ! agent_alive "$i"; then
          AGENT_GONE[i]=1
          info "  agent ${HOST_IDS[$i]} exited: $(agent_last_words "$i")"
        fi
      done
      # A worker that fails before its first request (a bad key, a script that does not load)
      # never reaches the console: its log says why, so stop waiting.
      tests=$(sed -n 's/.*, \([0-9]*\) tests,.*/\1/p' <<< "$line")
      if [[ ${tests:-0} == 0 ]] && werr=$(worker_error) && [[ -n $werr ]]; then
        ABORT_REASON="worker error: $werr"
        info "  $ABORT_REASON: stopping the run"
        stop_pid "$CONSOLE_PID" 10 "Grinder console"
        break
      fi
      progress "$started" "$RUN_ID ${line#progress: }"
      next=$((next + 5))
    fi
    sleep 1
  done
  CONSOLE_RC=0
  wait "$CONSOLE_PID" || CONSOLE_RC=$?
  CONSOLE_PID=""
}

# Worker errors named in the workers' own logs (a bad hbaseload key, a script that did not load).
worker_error() {
  find "$RUN_DIR/injectors" -name '*.log' ! -name '*-data.log' -print0 2> /dev/null \
    | xargs -0 -r grep -h -E 'ERROR|Aborting|aborted' 2> /dev/null | grep -v 'ShutdownException' \
    | sed -E 's/^[0-9-]+ [0-9:,]+ ERROR [^:]*: //' | head -1 | cut -c1-400 || true
}

# The longest worker start-up (worker started -> threads started) in the agents' logs, seconds.
worker_startup_seconds() {
  awk '/ agent: worker .* started$/ { split($2, t, /[:,]/); start = t[1] * 3600 + t[2] * 60 + t[3] }
       / starting threads$/ { split($2, t, /[:,]/); d = t[1] * 3600 + t[2] * 60 + t[3] - start; if (d > max) max = d }
       END { print max + 0 }' "$RUN_DIR"/injectors/*/agent.out 2> /dev/null || echo "?"
}

# Collect, check and summarise; sets FINAL_STATUS and FINAL_REASON.
wrap_up() {
  local outcome=$RUN_DIR/console/outcome.properties i dir status reason
  status=$(prop_line "$outcome" status)
  reason=$(prop_line "$outcome" reason)
  if [[ -n ${ABORT_REASON:-} ]]; then
    status=incomplete reason=$ABORT_REASON
  elif [[ -z $status ]]; then
    status=incomplete
    reason="the console exited (status $CONSOLE_RC) without an outcome: $(last_error_line "$RUN_DIR/console/console.out")"
  fi
  # Agents leave by themselves once the console stops them; wait a little, then by PID.
  local waited=0 alive
  while ((waited < 15)); do
    alive=0
    for i in "${!HOST_IDS[@]}"; do agent_alive "$i" && alive=1; done
    ((alive)) || break
    sleep 1; waited=$((waited + 1))
  done
  for i in "${!HOST_IDS[@]}"; do stop_agent "$i"; stop_sampler "$i"; done
  if [[ -n ${HBASE_SAMPLER_PID:-} ]]; then
    if [[ -n $HBASE_SSH ]]; then
      hbase_ssh "kill $HBASE_SAMPLER_PID 2>/dev/null" < /dev/null || true
      hbase_ssh "cat /tmp/hbase-grinder-metrics/$RUN_ID/metrics.csv" < /dev/null > "$RUN_DIR/hbase/metrics.csv" || info "  warning: no metrics from the HBase host $HBASE_SSH"
    else
      stop_pid "$HBASE_SAMPLER_PID" 5 "metrics sampler"
    fi
    HBASE_SAMPLER_PID=""
  fi
  info "collecting logs and metrics from ${#HOST_IDS[@]} host(s)"
  for i in "${!HOST_IDS[@]}"; do
    dir=$RUN_DIR/injectors/${HOST_IDS[$i]}
    collect_host "$i" "$dir" || true
    # Loopback hosts are this machine: its metrics are every host's.
    if [[ ${HOST_KIND[$i]} == loopback && -s $RUN_DIR/hbase/metrics.csv ]]; then cp "$RUN_DIR/hbase/metrics.csv" "$dir/metrics.csv"; fi
  done
  if [[ -n ${TABLE_INFO_PID:-} ]]; then
    local t=0
    while pid_alive "$TABLE_INFO_PID" && ((t < 30)); do sleep 1; t=$((t + 1)); done
    pid_alive "$TABLE_INFO_PID" && stop_pid "$TABLE_INFO_PID" 5 "table info"
    TABLE_INFO_PID=""
  fi

  # Checks: every host logged requests, no worker error, console totals = data-log lines.
  local summary console_requests missing_logs="" werr
  summary=$(summarise_data_logs "$RUN_DIR/injectors")
  DATALOG_REQUESTS=$(awk '$1 == "total" { print $3 }' <<< "$summary")
  DATALOG_REQUESTS=${DATALOG_REQUESTS:-0}
  console_requests=$(prop_line "$outcome" requests)
  for i in "${!HOST_IDS[@]}"; do
    [[ -n $(find "$RUN_DIR/injectors/${HOST_IDS[$i]}" -name '*-data.log' -size +0 2> /dev/null) ]] || missing_logs+="${HOST_IDS[$i]} "
  done
  werr=$(worker_error)
  if [[ $status == complete ]]; then
    if [[ -n $werr ]]; then
      status=incomplete; reason="worker error: $werr"
    elif [[ -n $missing_logs ]]; then
      status=incomplete; reason="no data log from ${missing_logs% }"
    elif [[ $console_requests != "$DATALOG_REQUESTS" ]]; then
      # A request in flight when a worker stops is logged after its last report to the console:
      # at most one per thread. More than that is lost statistics.
      local missing=$((DATALOG_REQUESTS - ${console_requests:-0}))
      if ((missing > 0 && missing <= THREADS_TOTAL)); then
        reason="$reason; the data logs hold $missing more requests than the console counted ($DATALOG_REQUESTS against $console_requests): requests in flight when the workers stopped"
      else
        status=incomplete; reason="the console counted ${console_requests:-no} requests, the data logs hold $DATALOG_REQUESTS"
      fi
    fi
  elif [[ -n $werr && $reason != *"$werr"* ]]; then
    reason="$reason; worker error: $werr"
  fi
  for i in "${!HOST_IDS[@]}"; do
    if [[ ${AGENT_GONE[$i]:-0} == 1 && $status != complete ]]; then
      reason="$reason; agent ${HOST_IDS[$i]} had exited: $(agent_last_words "$i")"
    fi
  done
  # Grinder's console closes a connection that stays silent for 30 s (hard-coded); a worker
  # whose start-up takes longer (an overloaded machine) loses its reports, not its data log.
  if [[ $status != complete ]] && grep -qs 'Report to console failed' "$RUN_DIR"/injectors/*/agent.out; then
    reason="$reason; the workers' reports to the console failed: the console drops a connection silent for 30s and worker start-up took $(worker_startup_seconds)s (an overloaded machine?); the data logs are complete"
  fi
  FINAL_STATUS=$status FINAL_REASON=$reason
  SUMMARY=$summary
}

print_summary() {
  local stats=$RUN_DIR/console/statistics.csv i n
  info "$RUN_ID $FINAL_STATUS in $((SECONDS - RUN_STARTED))s: ${#HOST_IDS[@]} injector(s) ($INJECTOR_MODE), $THREADS_TOTAL threads, $(prop "$RUN_DIR/.properties.tsv" hbaseload.operations), $TARGET, ${DURATION_S}s of load"
  if [[ -s $stats ]]; then
    printf '  %-5s %-10s %10s %7s %9s %9s %10s\n' test name requests errors mean_ms tps data-logs
    while IFS=, read -r test name count errors mean _ tps; do
      [[ $test =~ ^[0-9]+$ ]] || continue
      n=$(awk -v t="$test" '$1 == "test" && $2 == t { print $3 }' <<< "$SUMMARY")
      printf '  %-5s %-10s %10s %7s %9s %9s %10s\n' "$test" "$name" "$((count + errors))" "$errors" "$mean" "$tps" "${n:-0}"
    done < "$stats"
  fi
  local per_host=""
  for i in "${!HOST_IDS[@]}"; do
    n=$(find "$RUN_DIR/injectors/${HOST_IDS[$i]}" -name '*-data.log' -exec cat {} + 2> /dev/null | grep -c '^[0-9]' || true)
    per_host+="${HOST_IDS[$i]} ${n:-0}, "
  done
  info "  requests per host: ${per_host%, }"
  info "  folder: $RUN_DIR (manifest.json, grinder.properties, console/, injectors/<host>/, hbase/)"
}

main() {
  parse_args "$@"
  require_setup
  RUN_STARTED=$SECONDS
  GIT_REV=$(git -C "$SUITE_ROOT" rev-parse HEAD 2> /dev/null || echo unknown)
  GIT_DIRTY=false
  [[ -n $(git -C "$SUITE_ROOT" status --porcelain 2> /dev/null | head -1) ]] && GIT_DIRTY=true
  # Before a run folder exists, the console port must be free (another run at this offset?).
  if port_listening "$PORT_CONSOLE"; then
    die "console port $PORT_CONSOLE on 127.0.0.1 is already taken${PORT_CONSOLE:+ by $(port_owner "$PORT_CONSOLE")}; another run at this offset? (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"
  fi
  # A hosts file is read before a run folder exists: a bad one is an argument error.
  [[ -z $HOSTS_FILE ]] || hosts_from_file "$HOSTS_FILE"
  RUN_DIR=$(allocate_run_dir)
  RUN_ID=${RUN_DIR##*/}
  START_TIME=$(iso_now)
  trap cleanup EXIT
  trap 'RUN_FAILURE="interrupted"; exit 130' INT TERM
  VERSIONS_JSON='{}'
  write_manifest incomplete running
  info "$RUN_ID: $RUN_DIR"

  choose_hosts
  prepare_properties
  VERSIONS_JSON=$(versions_json)
  write_manifest incomplete running
  local threads_text
  threads_text=$(IFS=,; echo "${HOST_THREADS[*]}")
  info "$RUN_ID: ${#HOST_IDS[@]} injector(s) ($INJECTOR_MODE: ${HOST_IDS[*]}), $THREADS_TOTAL threads ($threads_text per host x $PROCESSES process(es)), ${DURATION_S}s, target $TARGET"
  [[ $INJECTOR_MODE == loopback ]] && info "  note: $INJECTOR_NOTE"

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
  start_table_info
  wrap_up
  write_manifest "$FINAL_STATUS" "$FINAL_REASON" "$(iso_now)"
  MANIFEST_FINAL=1
  print_summary
  if [[ $FINAL_STATUS != complete ]]; then
    RUN_FAILURE=$FINAL_REASON
    printf '%s: %s incomplete: %s\n' "$SUITE_ME" "$RUN_ID" "$FINAL_REASON" >&2
    exit 1
  fi
  [[ -z $SLO ]] || judge_gates
}

# The report with the gates: its verdict and gate lines, and exit 99 when a gate fails (k6's way).
judge_gates() {
  local rc=0
  info "report and gates ($SLO):"
  Rscript "$SUITE_ROOT/r-analysis/report.R" --quiet --slo "$SLO" "$RUN_DIR" | sed 's/^report.R: /  /' || rc=$?
  case $rc in
    0) ;;
    99) RUN_FAILURE="an SLO gate failed ($SLO)"; printf '%s: %s: an SLO gate failed (%s)\n' "$SUITE_ME" "$RUN_ID" "$SLO" >&2; exit 99 ;;
    *) RUN_FAILURE="the report failed"; die "the report of $RUN_ID failed (exit $rc); the run itself is complete: $RUN_DIR" ;;
  esac
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
