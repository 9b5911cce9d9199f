# shellcheck shell=bash
# bench/soak-verdict.R and ./suite soak's argument checks. Sourced by libexec/suite-test (unit
# stage), which runs each u_* function in a subshell with pass/fail and TEST_LOGS defined.

# A 40 s phase per target. Live heap after a full GC, warm (10 s) and late (36 s):
#   direct worker inj1 40 MB -> 43 MB: +7.5%, under 10%: passes
#   direct console     10 MB -> 13 MB: +30%, but 3 MB, under the 4 MB floor: passes
#   thrift worker inj1 40 MB -> 50 MB: +25%, 10 MB: fails (passes under a 30% limit)
#   thrift agent inj1  measured warm only: fails, not measured
# RSS, sampled every 10 s, warm (10 s) against the peak of the last quarter (30-40 s):
#   direct worker inj1 100 MB -> 108 MB: +8%: passes;  direct console 50 -> 51.8 MB: passes
#   thrift console     50 MB -> 60 MB: +20%, 10 MB: fails (its live heap is flat)
#   direct hbase       200 MB -> 230 MB: +15%, shown, not judged (HBase's caches fill by design)
u_soak_verdict_judges_live_heap_after_warm_up() {
  local dir=$TEST_LOGS/soak-fixture out rc=0
  mkdir -p "$dir"
  {
    echo "phase,elapsed_s,role,pid,rss_kb"
    printf 'direct,%s,worker inj1,11,%s\n' 0 50000 10 102400 20 104000 30 110592 40 108000
    printf 'direct,%s,console,5,%s\n' 0 50000 10 51200 20 52000 30 52500 40 53043
    printf 'direct,%s,hbase,7,%s\n' 0 204800 10 204800 20 215000 30 225000 40 235520
    printf 'thrift,%s,worker inj1,12,%s\n' 0 60000 10 102400 20 102400 30 102400 40 102400
    printf 'thrift,%s,console,14,%s\n' 0 40000 10 51200 20 56000 30 61440 40 60000
  } > "$dir/memory.csv"
  {
    echo "phase,elapsed_s,point,role,pid,live_kb"
    echo "direct,10,warm,worker inj1,11,40960"; echo "direct,36,late,worker inj1,11,44032"
    echo "direct,10,warm,console,5,10240"; echo "direct,36,late,console,5,13312"
    echo "thrift,10,warm,worker inj1,12,40960"; echo "thrift,36,late,worker inj1,12,51200"
    echo "thrift,10,warm,agent inj1,13,20480"
    echo "thrift,10,warm,console,14,10240"; echo "thrift,36,late,console,14,10240"
  } > "$dir/heap.csv"
  printf 'target,run,exit,outcome\ndirect,run-1,0,complete: all 2 workers finished\nthrift,run-2,0,complete: all 2 workers finished\n' > "$dir/runs.csv"
  out=$(Rscript "$SUITE_ROOT/bench/soak-verdict.R" "$dir" 10 2>&1) || rc=$?
  if ((rc == 1)) && grep -q 'soak: FAIL: thrift worker inj1 live heap grew 25.0% (10.0 MB; limit 10% and 4 MB)' <<< "$out" \
     && grep -q 'soak: FAIL: thrift agent inj1 (pid 13): live heap not measured at both points' <<< "$out" \
     && grep -q 'soak: FAIL: thrift console resident memory grew 20.0% (10.0 MB; limit 10% and 4 MB)' <<< "$out" \
     && grep -qE '^direct +worker inj1 +11 +40.0 MB +43.0 MB +\+7\.5% +100.0 -> 108.0 \(\+8\.0%\)' <<< "$out" \
     && grep -qE '^direct +hbase +7 +- MB +- MB +- +200.0 -> 230.0 \(\+15\.0%\)' <<< "$out" \
     && [[ $(grep -c 'soak: FAIL' <<< "$out") == 3 ]]; then
    pass "soak verdict: +25% (10 MB) live heap fails, +7.5% and +30% of 3 MB pass, a JVM measured once fails, a console's RSS +20% (10 MB) fails, HBase's RSS shown not judged"
  else
    fail "soak verdict: rc $rc: $out"
  fi
  grep -v '^thrift,10,warm,agent' "$dir/heap.csv" > "$dir/heap.tmp" && mv "$dir/heap.tmp" "$dir/heap.csv"
  rc=0
  out=$(Rscript "$SUITE_ROOT/bench/soak-verdict.R" "$dir" 30 2>&1) || rc=$?
  if ((rc == 0)) && grep -q '^soak: pass' <<< "$out"; then
    pass "soak verdict: the same figures pass under a 30% limit"
  else
    fail "soak verdict at 30%: rc $rc: $out"
  fi
  printf 'target,run,exit,outcome\ndirect,run-1,1,degraded: 3 of 9000 requests failed\n' > "$dir/runs.csv"
  rc=0
  out=$(Rscript "$SUITE_ROOT/bench/soak-verdict.R" "$dir" 30 2>&1) || rc=$?
  if ((rc == 1)) && grep -q 'soak: FAIL: direct run run-1 did not end complete: degraded: 3 of 9000 requests failed' <<< "$out"; then
    pass "soak verdict: a degraded run fails the soak, named with its reason"
  else
    fail "soak verdict with a degraded run: rc $rc: $out"
  fi
}

u_soak_bad_input() {
  local out rc=0
  out=$("$SUITE_ROOT/suite" soak --minutes 1 2>&1) || rc=$?
  if ((rc != 0)) && [[ $out == "suite soak: --minutes '1' is not a whole number from 2 to 1440" ]]; then
    pass "soak: --minutes 1 is one line naming it, non-zero, before anything starts"
  else
    fail "soak --minutes 1: rc $rc: $out"
  fi
}
