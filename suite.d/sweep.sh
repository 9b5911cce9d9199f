#!/usr/bin/env bash
# ./suite sweep SCENARIO: a series of ./suite run runs under one sweep id, so a report can draw
# scaling curves. The scenario is a properties file (format: scenarios/README.md): sweep.* keys
# say what varies (threads, operations, targets, any property, whole client variants) and how
# the runs are made (injectors, duration); every other line is an ordinary grinder./hbaseload.
# property applied to all runs on top of grinder.properties. The runs are the product of the
# lists, threads outermost. Writes runs/sweep-N/sweep.json (updated after every run); each run's
# manifest carries the sweep id. Stops at the first failed run unless --keep-going.
set -euo pipefail
SUITE_ME="suite sweep"
# run.sh's functions (properties_table, json_str, ...) without running it.
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
SUITE_ME="suite sweep"

SWEEP_USAGE="usage: ./suite sweep SCENARIO [--duration D] [--injectors N] [--repeat N] [--slo GATES] [--keep-going] [--dry-run]
  --repeat N    run every point N times in alternating order (A B C C B A ...; or sweep.repeat = N)
  --slo GATES   gates for the sweep's report, e.g. 'p99_ms<50,error_rate<0.001' (or sweep.slo): the
                capacity is the highest throughput among the runs meeting them; exit 99 when none does"

die() {
  printf '%s: %s\n' "$SUITE_ME" "$*" >&2
  exit 1
}

# "a | b|c" or "a,b" -> one value per line, trimmed, empty ones dropped.
split_list() {
  local separator=$1 text=$2
  awk -v s="$separator" -v t="$text" 'BEGIN { n = split(t, parts, s)
    for (i = 1; i <= n; i++) { v = parts[i]; gsub(/^[ \t]+|[ \t]+$/, "", v); if (v != "") print v } }'
}

# Append one dimension to PLAN: every existing row times every value (args joined by \x1f).
PLAN=("")
LABELS=("")
multiply() {
  local -a values=() rows=() labels=()
  local make=$1 label_of=$2; shift 2
  values=("$@")
  ((${#values[@]})) || return 0
  local row i value
  for i in "${!PLAN[@]}"; do
    for value in "${values[@]}"; do
      row=${PLAN[$i]}
      rows+=("$row$("$make" "$value")")
      labels+=("${LABELS[$i]:+${LABELS[$i]}, }$("$label_of" "$value")")
    done
  done
  PLAN=("${rows[@]}")
  LABELS=("${labels[@]}")
}

arg_threads() { printf '\x1f--threads\x1f%s' "$1"; }
label_threads() { printf '%s threads' "$1"; }
arg_target() { printf '\x1f--target\x1f%s' "$1"; }
label_plain() { printf '%s' "$1"; }
arg_operations() { printf '\x1f--set\x1fhbaseload.operations=%s' "$1"; }
VARY_KEY=""
arg_vary() { printf '\x1f--set\x1f%s=%s' "$VARY_KEY" "$1"; }
label_vary() { printf '%s=%s' "${VARY_KEY#hbaseload.}" "$1"; }
# A variant: assignments separated by ';'.
arg_variant() {
  local assignment
  while IFS= read -r assignment; do
    [[ $assignment =~ ^[A-Za-z][A-Za-z0-9._-]*=.*$ ]] || die "sweep.variants: '$assignment' is not KEY=VALUE"
    printf '\x1f--set\x1f%s' "$assignment"
  done < <(split_list ';' "$1")
}
label_variant() { printf '%s' "$1" | sed 's/hbaseload\.//g'; }

# Run every point of the plan N times in alternating order (A B C C B A A B C ...), so that a
# drift of the machine over the sweep falls on every point alike and repeats show the spread.
repeat_plan() {
  local n=$1 r i
  local -a rows=() labels=() order
  for ((r = 0; r < n; r++)); do
    order=("${!PLAN[@]}")
    ((r % 2)) && mapfile -t order < <(printf '%s\n' "${order[@]}" | tac)
    for i in "${order[@]}"; do
      rows+=("${PLAN[$i]}")
      labels+=("${LABELS[$i]:-the scenario as it is}$( ((n > 1)) && printf ' (repeat %d of %d)' $((r + 1)) "$n")")
    done
  done
  PLAN=("${rows[@]}")
  LABELS=("${labels[@]}")
}

write_sweep_json() {
  local status=$1 end=${2:-} runs_json plan_json i first=1
  runs_json=$(json_array "${DONE_RUNS[@]}")
  plan_json="["
  for i in "${!LABELS[@]}"; do
    ((first)) || plan_json+=","
    plan_json+="{\"label\":$(json_str "${LABELS[$i]}"),\"run\":$(if [[ -n ${PLAN_RUN[$i]:-} ]]; then json_str "${PLAN_RUN[$i]}"; else printf null; fi),\"status\":$(json_str "${PLAN_STATUS[$i]:-pending}")}"
    first=0
  done
  plan_json+="]"
  printf '{"sweep_id":%s,"scenario":%s,"scenario_file":%s,"status":%s,"start_time":%s,"end_time":%s,"runs":%s,"plan":%s}\n' \
    "$(json_str "$SWEEP_ID")" "$(json_str "$SCENARIO_NAME")" "$(json_str "$SCENARIO_FILE")" "$(json_str "$status")" \
    "$(json_str "$SWEEP_START")" "$(if [[ -n $end ]]; then json_str "$end"; else printf null; fi)" "$runs_json" "$plan_json" \
    > "$SWEEP_DIR/sweep.json.tmp"
  mv -f "$SWEEP_DIR/sweep.json.tmp" "$SWEEP_DIR/sweep.json"
}

sweep_main() {
  local scenario="" duration_arg="" injectors_arg="" repeat_arg="" slo_arg="" keep_going=0 dry_run=0
  while (($#)); do
    case $1 in
      -h | --help) echo "$SWEEP_USAGE"; exit 0 ;;
      --duration) [[ $# -ge 2 ]] || die "--duration needs a value ($SWEEP_USAGE)"; duration_arg=$(parse_duration "$2"); shift 2 ;;
      --injectors) [[ $# -ge 2 ]] || die "--injectors needs a value ($SWEEP_USAGE)"; positive --injectors "$2"; injectors_arg=$2; shift 2 ;;
      --repeat) [[ $# -ge 2 ]] || die "--repeat needs a value ($SWEEP_USAGE)"; positive --repeat "$2"; repeat_arg=$2; shift 2 ;;
      --slo) [[ $# -ge 2 && -n $2 ]] || die "--slo needs gates, e.g. 'p99_ms<50,error_rate<0.001' ($SWEEP_USAGE)"; slo_arg=$2; shift 2 ;;
      --keep-going) keep_going=1; shift ;;
      --dry-run) dry_run=1; shift ;;
      -*) die "unknown argument '$1' ($SWEEP_USAGE)" ;;
      *) [[ -z $scenario ]] || die "one scenario only ($SWEEP_USAGE)"; scenario=$1; shift ;;
    esac
  done
  [[ -n $scenario ]] || die "$SWEEP_USAGE"
  if [[ ! -f $scenario && -f $SUITE_ROOT/scenarios/$scenario ]]; then scenario=$SUITE_ROOT/scenarios/$scenario; fi
  if [[ ! -f $scenario && -f $SUITE_ROOT/scenarios/$scenario.properties ]]; then scenario=$SUITE_ROOT/scenarios/$scenario.properties; fi
  [[ -f $scenario ]] || die "scenario $scenario not found (see scenarios/)"
  SCENARIO_FILE=$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")
  require_setup

  local table key value
  table=$(mktemp)
  properties_table "$SCENARIO_FILE" > "$table"
  sweep_value() { awk -F'\t' -v k="$1" '$1 == k { v = $2 } END { print v }' "$table"; }
  while IFS=$'\t' read -r key value; do
    case $key in
      sweep.name | sweep.threads | sweep.operations | sweep.targets | sweep.injectors | sweep.hosts | sweep.lab \
        | sweep.duration | sweep.processes | sweep.prepare | sweep.variants | sweep.repeat | sweep.slo | sweep.vary.*) ;;
      sweep.*) die "$SCENARIO_FILE: unknown key $key (accepted: sweep.name, sweep.threads, sweep.operations, sweep.targets, sweep.injectors, sweep.hosts, sweep.lab, sweep.duration, sweep.processes, sweep.prepare, sweep.variants, sweep.repeat, sweep.slo, sweep.vary.KEY)" ;;
    esac
  done < "$table"
  SCENARIO_NAME=$(sweep_value sweep.name)
  [[ -n $SCENARIO_NAME ]] || SCENARIO_NAME=$(basename "$SCENARIO_FILE" .properties)

  # The runs' common arguments.
  local -a common=()
  local injectors hosts lab duration processes prepare
  injectors=${injectors_arg:-$(sweep_value sweep.injectors)}
  hosts=$(sweep_value sweep.hosts)
  lab=$(sweep_value sweep.lab)
  duration=${duration_arg:-$(sweep_value sweep.duration)}
  processes=$(sweep_value sweep.processes)
  prepare=$(sweep_value sweep.prepare); prepare=${prepare:-once}
  [[ $prepare =~ ^(once|each|no)$ ]] || die "$SCENARIO_FILE: sweep.prepare=$prepare is not accepted (accepted: once, each, no)"
  if [[ -n $hosts ]]; then
    [[ $hosts == /* ]] || hosts=$(dirname "$SCENARIO_FILE")/$hosts
    [[ -z $injectors_arg ]] || die "--injectors and the scenario's sweep.hosts exclude each other"
    common+=(--hosts "$hosts")
  else
    common+=(--injectors "${injectors:-1}")
    [[ -n $lab ]] && common+=(--lab "$lab")
  fi
  [[ -n $duration ]] && common+=(--duration "$duration")
  [[ -n $processes ]] && common+=(--processes "$processes")

  # The dimensions, threads outermost.
  local -a values
  mapfile -t values < <(split_list ',' "$(sweep_value sweep.threads)")
  local t
  for t in "${values[@]}"; do positive "sweep.threads" "$t"; done
  multiply arg_threads label_threads "${values[@]}"
  mapfile -t values < <(split_list '[|,]' "$(sweep_value sweep.targets)")
  for t in "${values[@]}"; do [[ $t =~ ^(direct|thrift)$ ]] || die "$SCENARIO_FILE: sweep.targets: '$t' is not accepted (accepted: direct, thrift)"; done
  multiply arg_target label_plain "${values[@]}"
  mapfile -t values < <(split_list '|' "$(sweep_value sweep.operations)")
  multiply arg_operations label_plain "${values[@]}"
  local vary_key
  while IFS= read -r vary_key; do
    VARY_KEY=${vary_key#sweep.vary.}
    mapfile -t values < <(split_list '|' "$(sweep_value "$vary_key")")
    multiply arg_vary label_vary "${values[@]}"
  done < <(awk -F'\t' '$1 ~ /^sweep\.vary\./ { print $1 }' "$table")
  mapfile -t values < <(split_list '|' "$(sweep_value sweep.variants)")
  multiply arg_variant label_variant "${values[@]}"
  local repeat
  repeat=${repeat_arg:-$(sweep_value sweep.repeat)}
  [[ -z $repeat ]] || positive sweep.repeat "$repeat"
  repeat_plan "${repeat:-1}"
  local slo slo_error
  slo=${slo_arg:-$(sweep_value sweep.slo)}
  if [[ -n $slo ]] && ! slo_error=$(Rscript "$SUITE_ROOT/r-analysis/report.R" --check --slo "$slo" 2>&1); then
    die "$(if [[ -n $slo_arg ]]; then echo --slo; else echo sweep.slo; fi): ${slo_error#report.R: }"
  fi

  # The base properties of every run: grinder.properties, then the scenario's ordinary keys.
  local base
  base=$(mktemp)
  { cat "$SUITE_ROOT/grinder.properties"
    printf '\n# ---- scenario %s (%s)\n' "$SCENARIO_NAME" "$SCENARIO_FILE"
    # shellcheck disable=SC2046  # one word per key
    drop_keys "$SCENARIO_FILE" $(awk -F'\t' '$1 ~ /^sweep\./ { print $1 }' "$table"); } > "$base"
  rm -f "$table"

  info "sweep $SCENARIO_NAME: ${#PLAN[@]} run(s), $(if [[ -n $duration ]]; then echo "${duration}s"; else echo "grinder.duration"; fi) each, $(printf '%s ' "${common[@]}")"
  local i
  for i in "${!PLAN[@]}"; do info "  $((i + 1)). ${LABELS[$i]:-the scenario as it is}"; done
  if ((dry_run)); then
    rm -f "$base"
    return 0
  fi

  SWEEP_DIR=$(allocate_numbered_dir sweep)
  SWEEP_ID=${SWEEP_DIR##*/}
  SWEEP_START=$(iso_now)
  mv "$base" "$SWEEP_DIR/base.properties"
  base=$SWEEP_DIR/base.properties
  cp "$SCENARIO_FILE" "$SWEEP_DIR/scenario.properties"
  DONE_RUNS=() PLAN_RUN=() PLAN_STATUS=()
  write_sweep_json running
  info "$SWEEP_ID: $SWEEP_DIR"

  local failed=() run_log run_id rc row started=$SECONDS
  local -a args
  for i in "${!PLAN[@]}"; do
    row=${PLAN[$i]}
    IFS=$'\x1f' read -r -a args <<< "${row#$'\x1f'}"
    [[ -n $row ]] || args=()
    if [[ $prepare == each || ($prepare == once && $i -eq 0) ]]; then
      local prep_props=$SWEEP_DIR/prepare-$((i + 1)).properties
      cp "$base" "$prep_props"
      local j
      for ((j = 0; j < ${#args[@]}; j++)); do
        [[ ${args[$j]} == --set ]] && printf '%s = %s\n' "${args[$((j + 1))]%%=*}" "${args[$((j + 1))]#*=}" >> "$prep_props"
      done
      info "$SWEEP_ID: preparing the table for run $((i + 1)) of ${#PLAN[@]} (skipped when it already matches)"
      "$SUITE_ROOT/suite" prepare --properties "$prep_props" || die "preparing the table failed (properties: $prep_props)"
    fi
    info "$SWEEP_ID: run $((i + 1)) of ${#PLAN[@]}: ${LABELS[$i]} ($((SECONDS - started))s into the sweep)"
    run_log=$SWEEP_DIR/run-$((i + 1)).log
    rc=0  # pipefail: the run's own status
    "$SUITE_ROOT/suite.d/run.sh" --properties "$base" "${common[@]}" "${args[@]}" --sweep-id "$SWEEP_ID" 2>&1 \
      | tee "$run_log" | sed 's/^/    /' || rc=$?
    run_id=$(sed -n 's/^\(run-[0-9]*\): \/.*$/\1/p' "$run_log" | head -1)
    PLAN_RUN[i]=$run_id
    if [[ -n $run_id ]]; then DONE_RUNS+=("$run_id"); fi
    if ((rc == 0)); then PLAN_STATUS[i]=complete; else PLAN_STATUS[i]=incomplete; failed+=("${run_id:-run $((i + 1))}"); fi
    write_sweep_json running
    if ((rc != 0 && !keep_going)); then
      write_sweep_json incomplete "$(iso_now)"
      die "$SWEEP_ID stopped: ${run_id:-run $((i + 1))} (${LABELS[$i]}) failed: $(grep "incomplete:" "$run_log" | tail -1 | sed 's/.*incomplete: //') (--keep-going runs the rest)"
    fi
  done
  if ((${#failed[@]})); then
    write_sweep_json incomplete "$(iso_now)"
    die "$SWEEP_ID: ${#failed[@]} of ${#PLAN[@]} runs failed: ${failed[*]}"
  fi
  write_sweep_json complete "$(iso_now)"
  info "$SWEEP_ID complete in $((SECONDS - started))s: ${DONE_RUNS[*]} ($SWEEP_DIR/sweep.json)"
  [[ -z $slo ]] || judge_sweep_gates "$slo"
}

# The sweep's report with the gates: its verdict and capacity; exit 99 when no run meets them.
judge_sweep_gates() {
  local slo=$1 rc=0
  info "$SWEEP_ID report and gates ($slo):"
  Rscript "$SUITE_ROOT/r-analysis/report.R" --quiet --slo "$slo" "$SWEEP_DIR" | sed 's/^report.R: /  /' || rc=$?
  case $rc in
    0) ;;
    99) printf '%s: %s: no run meets every gate (%s)\n' "$SUITE_ME" "$SWEEP_ID" "$slo" >&2; exit 99 ;;
    *) die "the report of $SWEEP_ID failed (exit $rc); the sweep itself is complete: $SWEEP_DIR" ;;
  esac
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  sweep_main "$@"
fi
