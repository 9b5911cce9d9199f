#!/usr/bin/env bash
# Usage: ./suite sweep SCENARIO [--duration D] [--injectors N] [--repeat N] [--slo GATES] [--keep-going] [--dry-run]
# Summary: a series of runs under one sweep id, so a report can draw scaling curves
# Help:
#   SCENARIO      a properties file, or a name in scenarios/ (format: scenarios/README.md)
#   --duration D  the length of each run (over the scenario's sweep.duration)
#   --injectors N injector hosts on this machine (over sweep.injectors)
#   --repeat N    run every point N times in alternating order (A B C C B A ...; or sweep.repeat)
#   --slo GATES   gates for the sweep's report, e.g. 'p99_ms<50,error_rate<0.001' (or sweep.slo): the
#                 capacity is the highest throughput among the runs meeting them; exit 99 when none does
#   --keep-going  go on after a failed run (default: stop at the first)
#   --dry-run     print the plan, run nothing
#
# lifecycle/ (SweepPlanner) expands the scenario into its runs and writes runs/sweep-N/sweep-plan.json;
# this script prepares the table and starts one ./suite run per point (a process of its own), and
# after each asks lifecycle/ to rewrite sweep.json from the runs' own records.
set -euo pipefail
SUITE_ME="suite sweep"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '/^# Usage:/,/^#$/p' "${BASH_SOURCE[0]}" | sed '$d; /^# Summary:/d; /^# Help:/d; s/^# \{0,1\}//'; }

main() {
  local -a plan_args=()
  local scenario="" keep_going=0 dry_run=0 slo="" slo_error
  while (($#)); do
    case $1 in
      -h | --help) usage; exit 0 ;;
      --keep-going) keep_going=1; shift ;;
      --dry-run) dry_run=1; plan_args+=(--dry-run); shift ;;
      --duration | --injectors | --repeat | --slo)
        [[ $# -ge 2 ]] || die "$1 needs a value (./suite sweep --help)"
        [[ $1 == --slo ]] && slo=$2
        plan_args+=("$1" "$2"); shift 2 ;;
      -*) die "unknown argument '$1' (./suite sweep --help)" ;;
      *) [[ -z $scenario ]] || die "one scenario only (./suite sweep --help)"; scenario=$1; shift ;;
    esac
  done
  [[ -n $scenario ]] || die "no scenario given (./suite sweep --help)"
  if [[ ! -f $scenario && -f $SUITE_ROOT/scenarios/$scenario.properties ]]; then scenario=$SUITE_ROOT/scenarios/$scenario.properties; fi
  if [[ ! -f $scenario && -f $SUITE_ROOT/scenarios/$scenario ]]; then scenario=$SUITE_ROOT/scenarios/$scenario; fi
  require_setup

  if [[ -n $slo ]] && ! slo_error=$(Rscript "$SUITE_ROOT/r-analysis/report.R" --check --slo "$slo" 2>&1); then
    die "--slo: ${slo_error#report.R: }"
  fi
  local out err
  out=$(mktemp) err=$(mktemp)
  if ! lifecycle sweep-plan --runs-dir "$SUITE_RUNS_DIR" --default-properties "$SUITE_ROOT/grinder.properties" \
      --plan-out "$out" "${plan_args[@]}" "$scenario" 2> "$err"; then
    local reason
    reason=$(grep -v '^\s*at \|^SLF4J' "$err" | head -1)
    rm -f "$out" "$err"
    die "${reason:-the plan of the sweep failed}"
  fi
  ((dry_run)) && { rm -f "$out" "$err"; return 0; }
  SWEEP_DIR=$(jq -r .sweep_dir "$out")
  SWEEP_ID=$(jq -r .sweep_id "$out")
  rm -f "$out" "$err"
  local plan=$SWEEP_DIR/sweep-plan.json
  # A scenario's own sweep.slo is known once planned: checked before any run, its empty folder removed.
  slo=$(jq -r '.slo // empty' "$plan")
  if [[ -n $slo ]] && ! slo_error=$(Rscript "$SUITE_ROOT/r-analysis/report.R" --check --slo "$slo" 2>&1); then
    rm -rf "$SWEEP_DIR"
    die "sweep.slo: ${slo_error#report.R: }"
  fi
  trap 'lifecycle sweep-record "$SWEEP_DIR" interrupted > /dev/null 2>&1; exit 130' INT TERM
  info "$SWEEP_ID: $SWEEP_DIR"

  local -a common args
  mapfile -t common < <(jq -r '.common_args[]' "$plan")
  local points point label prepare rc started=$SECONDS failed=()
  points=$(jq '.points | length' "$plan")
  for ((point = 1; point <= points; point++)); do
    label=$(jq -r ".points[$((point - 1))].label" "$plan")
    mapfile -t args < <(jq -r ".points[$((point - 1))].args[]" "$plan")
    prepare=$(jq -r ".points[$((point - 1))].prepare_properties // empty" "$plan")
    if [[ -n $prepare ]]; then
      info "$SWEEP_ID: preparing the table for run $point of $points (skipped when it already matches)"
      "$SUITE_ROOT/suite" prepare --properties "$prepare" || { lifecycle sweep-record "$SWEEP_DIR" incomplete; die "preparing the table failed (properties: $prepare)"; }
    fi
    info "$SWEEP_ID: run $point of $points: $label ($((SECONDS - started))s into the sweep)"
    rc=0
    "$SUITE_ROOT/suite.d/run.sh" --properties "$(jq -r .base_properties "$plan")" "${common[@]}" "${args[@]}" \
      --sweep-id "$SWEEP_ID" --sweep-point "$point" 2>&1 | sed 's/^/    /' || rc=$?
    ((rc == 0)) || failed+=("run $point ($label)")
    lifecycle sweep-record "$SWEEP_DIR" running
    if ((rc != 0 && !keep_going)); then
      lifecycle sweep-record "$SWEEP_DIR" incomplete
      die "$SWEEP_ID stopped: run $point ($label) failed (--keep-going runs the rest; sweep.json names the run)"
    fi
  done
  trap - INT TERM
  if ((${#failed[@]})); then
    lifecycle sweep-record "$SWEEP_DIR" incomplete
    die "$SWEEP_ID: ${#failed[@]} of $points runs failed: ${failed[*]}"
  fi
  lifecycle sweep-record "$SWEEP_DIR" complete
  info "$SWEEP_ID complete in $((SECONDS - started))s: $(jq -r '.runs | join(" ")' "$SWEEP_DIR/sweep.json") ($SWEEP_DIR/sweep.json)"
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

main "$@"
