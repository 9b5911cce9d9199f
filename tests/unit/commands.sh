# shellcheck shell=bash
# The command line: every command answers --help from its own "# Usage:" header, ./suite help
# lists them all, and a wrong command is one line and exit 2. Sourced by libexec/suite-test
# (unit stage); each u_* runs in a subshell with pass/fail and TEST_LOGS defined.

u_every_command_has_a_usage_header_and_answers_help() {
  local file cmd out rc bad=""
  for file in "$SUITE_ROOT"/libexec/suite-*; do
    cmd=${file##*/suite-}
    rc=0
    out=$("$SUITE_ROOT/suite" "$cmd" --help 2>&1) || rc=$?
    if ((rc != 0)) || [[ $(head -1 <<< "$out") != "Usage: ./suite $cmd"* ]] || [[ -z $(summary_of "$file") ]]; then
      bad+="$cmd(rc $rc: $(head -1 <<< "$out" | cut -c1-60)) "
    fi
  done
  if [[ -z $bad ]]; then
    pass "commands: all $(find "$SUITE_ROOT/libexec" -name 'suite-*' | wc -l) answer --help with their Usage header and have a Summary"
  else
    fail "commands without a usable header or --help: $bad"
  fi
}

u_help_lists_every_command_and_wrong_ones_are_refused() {
  local out rc=0 missing="" file
  out=$("$SUITE_ROOT/suite" help)
  for file in "$SUITE_ROOT"/libexec/suite-*; do
    grep -qxF -- "$(printf '  %-8s %s' "${file##*/suite-}" "$(summary_of "$file")")" <<< "$out" || missing+="${file##*/suite-} "
  done
  out=$("$SUITE_ROOT/suite" frobnicate 2>&1) || rc=$?
  if [[ -z $missing ]] && ((rc == 2)) && [[ $out == "suite: unknown command 'frobnicate' (try ./suite help)" ]] \
     && "$SUITE_ROOT/suite" > /dev/null && ! "$SUITE_ROOT/suite" 'run;id' > /dev/null 2>&1; then
    pass "./suite help lists every command with its summary; an unknown one is one line, exit 2"
  else
    fail "./suite help: missing [$missing], unknown command rc $rc: $out"
  fi
}
