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

# --help prints and does nothing else: no file written anywhere in the checkout or the runs folder
# (./suite setup --help once ran apt and Maven).
u_help_has_no_side_effects() {
  local file marker=$TEST_LOGS/help.marker runs=$TEST_LOGS/help-runs changed
  mkdir -p "$runs"
  touch "$marker"; sleep 1
  for file in "$SUITE_ROOT"/libexec/suite-*; do
    SUITE_RUNS_DIR=$runs timeout 30 "$SUITE_ROOT/suite" "${file##*/suite-}" --help > /dev/null 2>&1 < /dev/null
  done
  # (a running embedded HBase or run writes below hbase-local/data and runs/ by itself, the unit
  # lane's Maven, running beside this test, below each module's target/, and the first JVM of a
  # lifecycle command in the e2e lanes beside it its class-data archive into lib/cds, suite.d/cds.sh)
  changed=$(find "$SUITE_ROOT" "$runs" \( -path "$SUITE_ROOT/.git" -o -path "$SUITE_ROOT/hbase-local/data" -o -path "$SUITE_ROOT/runs" \
    -o -path "$SUITE_ROOT/*/target" -o -path "$SUITE_LIB/cds" \) -prune \
    -o -newer "$marker" -type f -print 2> /dev/null | head -5)
  if [[ -z $changed ]]; then
    pass "commands: --help on all $(find "$SUITE_ROOT/libexec" -name 'suite-*' | wc -l) wrote no file"
  else
    fail "commands: --help wrote: $(tr '\n' ' ' <<< "$changed")"
  fi
}

# An option no command knows: one line on stderr naming it, exit 2, nothing started, no run folder.
u_unknown_options_are_usage_errors() {
  local file cmd out rc bad="" runs=$TEST_LOGS/frob-runs
  mkdir -p "$runs"
  for file in "$SUITE_ROOT"/libexec/suite-*; do
    cmd=${file##*/suite-}
    local -a args=(--frobnicate)
    case $cmd in
      hbase | shim) args=(status --frobnicate) ;;
      bench) args=(peers --frobnicate) ;;
      report | collect) args=(run-1 --frobnicate) ;;
    esac
    rc=0
    out=$(DISPLAY=${DISPLAY:-:99} SUITE_RUNS_DIR=$runs timeout 60 "$SUITE_ROOT/suite" "$cmd" "${args[@]}" 2>&1 < /dev/null) || rc=$?
    if ((rc != 2)) || [[ $(wc -l <<< "$out") != 1 || $out != *frobnicate* ]]; then
      bad+="$cmd(rc $rc: $(head -2 <<< "$out" | tr '\n' ' ' | cut -c1-100)) "
    fi
  done
  if [[ -z $bad && -z $(find "$runs" -mindepth 1 -maxdepth 1) ]]; then
    pass "commands: an unknown option is one line naming it and exit 2 for all $(find "$SUITE_ROOT/libexec" -name 'suite-*' | wc -l)"
  else
    fail "commands: unknown options: $bad; runs folder: $(find "$runs" -mindepth 1 -maxdepth 1 | tr '\n' ' ')"
  fi
}

# The sweep.* keys have one list (lifecycle's SweepKey), which --help prints: every key the planner
# reads is in it, and every key in it is documented in scenarios/README.md.
u_sweep_help_lists_every_sweep_key() {
  local help read documented missing="" undocumented="" key
  help=$("$SUITE_ROOT/suite" sweep --help)
  read=$(grep -oh '"sweep\.[a-z][a-z.]*[a-z]"' "$SUITE_ROOT"/lifecycle/src/main/java/io/github/hbasegrindersuite/lifecycle/{SweepPlanner,ServerVariants}.java \
    | tr -d '"' | grep -v '^sweep\.vary$' | sort -u)
  # a key wider than the help's column stands on a line of its own
  for key in $read; do grep -qE "^  ${key//./\\.}( |$)" <<< "$help" || missing+="$key "; done
  documented=$(grep -oE '^\| .sweep\.[a-zA-Z.]+' "$SUITE_ROOT/scenarios/README.md" | cut -c4-)
  while read -r key; do
    grep -qx "$key" <<< "$documented" || undocumented+="$key "
  done < <(grep -o '^  sweep\.[a-zA-Z.]*' <<< "$help" | sed 's/^  //')
  if [[ -z $missing && -z $undocumented ]] && (($(wc -w <<< "$read") >= 15)); then
    pass "./suite sweep --help lists the $(grep -c '^  sweep\.' <<< "$help") sweep.* keys (all $(wc -w <<< "$read") the planner reads), each documented in scenarios/README.md"
  else
    fail "./suite sweep --help: keys the planner reads but --help lacks: ${missing:-none}; keys scenarios/README.md lacks: ${undocumented:-none}"
  fi
}

# Bad gates, from --slo or from the scenario's sweep.slo, are one line naming where they came from,
# exit 1, and nothing is written (the planner resolves the gates before it allocates a sweep folder).
u_sweep_refuses_bad_gates_before_writing() {
  local dir=$TEST_LOGS/sweep-gates out1 out2 rc1=0 rc2=0
  mkdir -p "$dir/runs"
  printf 'sweep.threads = 2\nsweep.slo = p99<5\n' > "$dir/gates.properties"
  out1=$(SUITE_RUNS_DIR=$dir/runs "$SUITE_ROOT/suite" sweep "$dir/gates.properties" 2>&1) || rc1=$?
  out2=$(SUITE_RUNS_DIR=$dir/runs "$SUITE_ROOT/suite" sweep "$dir/gates.properties" --slo 'p99_ms<5,bogus<1' 2>&1) || rc2=$?
  if ((rc1 == 1 && rc2 == 1)) && [[ $(wc -l <<< "$out1") == 1 && $(wc -l <<< "$out2") == 1 && -z $(find "$dir/runs" -mindepth 1) ]] \
     && [[ $out1 == "suite sweep: sweep.slo: bad --slo term 'p99<5': unknown metric 'p99'"* ]] \
     && [[ $out2 == "suite sweep: --slo: bad --slo term 'bogus<1': unknown metric 'bogus'"* ]]; then
    pass "sweep: bad gates from sweep.slo or --slo (which wins) are one line naming their source, exit 1, nothing created"
  else
    fail "sweep gates refused: rc $rc1/$rc2: $out1 | $out2 | runs: $(find "$dir/runs" -mindepth 1 -printf "%f ")"
  fi
}

# A server variant the suite cannot apply is one line naming the key, before any sweep folder exists:
# a cluster it does not manage (hbaseload.hbase.site set), an empty value.
u_sweep_refuses_server_variants_it_cannot_apply() {
  local dir=$TEST_LOGS/server-variants out1 out2 rc1=0 rc2=0
  mkdir -p "$dir/runs"
  printf 'sweep.threads = 2\nsweep.server.variants = default | hbase.regionserver.handler.count=100\nhbaseload.hbase.site = /etc/hbase/conf/hbase-site.xml\n' > "$dir/cluster.properties"
  printf 'sweep.threads = 2\nsweep.server.variants = hbase.hregion.memstore.flush.size=\n' > "$dir/empty.properties"
  out1=$(SUITE_RUNS_DIR=$dir/runs "$SUITE_ROOT/suite" sweep "$dir/cluster.properties" 2>&1) || rc1=$?
  out2=$(SUITE_RUNS_DIR=$dir/runs "$SUITE_ROOT/suite" sweep "$dir/empty.properties" 2>&1) || rc2=$?
  if ((rc1 == 1 && rc2 == 1)) && [[ $(wc -l <<< "$out1") == 1 && $(wc -l <<< "$out2") == 1 && -z $(find "$dir/runs" -mindepth 1) ]] \
     && [[ $out1 == *"the suite does not manage that cluster: set hbase.regionserver.handler.count on it and run the client variants only" ]] \
     && [[ $out2 == "suite sweep: sweep.server.variants: hbase.hregion.memstore.flush.size has an empty value" ]]; then
    pass "sweep: a server variant on an unmanaged cluster or with an empty value is one line, exit 1, nothing created"
  else
    fail "sweep server variants refused: rc $rc1/$rc2: $out1 | $out2 | runs: $(find "$dir/runs" -mindepth 1 -printf "%f ")"
  fi
}

# ./suite hbase start --regionservers N: a bad N is one line naming it and exit 2, before any JVM of
# HBase starts (lifecycle's LocalCluster checks it) and before a PID file or log exists.
u_hbase_regionservers_refused_before_anything_starts() {
  local dir=$TEST_LOGS/regionservers-hbase n out rc bad=""
  for n in 0 two 9 -1 2.5 ""; do
    rc=0
    out=$(HBASE_LOCAL_DIR=$dir timeout 60 "$SUITE_ROOT/suite" hbase start --regionservers "$n" 2>&1 < /dev/null) || rc=$?
    if ((rc != 2)) || [[ $(wc -l <<< "$out") != 1 || $out != "suite hbase: --regionservers '$n'"* ]]; then
      bad+="'$n'(rc $rc: $(head -2 <<< "$out" | tr '\n' ' ' | cut -c1-120)) "
    fi
  done
  rc=0
  out=$(HBASE_LOCAL_DIR=$dir timeout 60 "$SUITE_ROOT/suite" hbase start --regionservers 2>&1 < /dev/null) || rc=$?
  ((rc == 2)) && [[ $out == "suite hbase: --regionservers needs a value (1 to 8)" ]] || bad+="missing value(rc $rc: $out) "
  if [[ -z $bad && ! -e $dir ]]; then
    pass "hbase start --regionservers: 0, two, 9, -1, 2.5, empty and a missing value are one line naming it, exit 2, nothing started"
  else
    fail "hbase start --regionservers: ${bad:-ok} $([[ -e $dir ]] && echo "(and $dir was made)")"
  fi
}

# A second full ./suite test at an offset another one holds is refused at once, in one line naming
# the offset, before any setup (the lock is held here by flock, at an offset no test uses).
u_a_second_full_test_at_one_offset_is_refused() {
  local lock=/tmp/hbase-grinder-suite-test-9700.lock out rc=0 started=$SECONDS
  exec {held}> "$lock"
  flock -n "$held"
  out=$(SUITE_TEST_PORT_OFFSET=9700 timeout 30 "$SUITE_ROOT/suite" test 2>&1) || rc=$?
  exec {held}>&-
  if ((rc == 1)) && [[ $(wc -l <<< "$out") == 1 && $out == *"another ./suite test runs at port offset 9700"* ]] && ((SECONDS - started < 10)); then
    pass "suite test: a second full run at offset 9700 refused in one line, exit 1, in $((SECONDS - started)) s"
  else
    fail "suite test with offset 9700 held: rc $rc after $((SECONDS - started)) s: $out"
  fi
}
