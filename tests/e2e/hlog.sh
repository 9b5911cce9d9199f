# shellcheck shell=bash
# End-to-end test of the workers' HdrHistogram interval logs, sourced by libexec/suite-test after
# tests/e2e/runs.sh (its rt_* helpers, the prepared table e2erun and RT_PROPS). One short run:
# every worker writes <host>-<n>.hlog beside <host>-<n>-data.log, HdrHistogram's own
# HistogramLogProcessor reads it, and its count equals the data log's (counted by awk, not by the
# finaliser that is under test). Entry point: run_hlog_tests.

# Requests in one interval log as HdrHistogram's HistogramLogProcessor counts them: the
# TotalCount of the last line of each tag's percentile distribution (-csv), summed over the tags.
hl_hlog_count() {
  local file=$1 tag total=0 n cp
  cp=$(cat "$SUITE_LIB/lifecycle.classpath")
  while IFS= read -r tag; do
    n=$(java -cp "$cp" org.HdrHistogram.HistogramLogProcessor -i "$file" -tag "$tag" -csv 2> /dev/null \
      | awk -F, '$1 ~ /^[0-9.]+$/ && NF >= 3 { n = $3 } END { print n + 0 }')
    total=$((total + n))
  done < <(grep -o '^Tag=[a-z-]*' "$file" | sort -u | cut -d= -f2)
  echo "$total"
}

# Request lines in one data log (header and partial lines excluded).
hl_datalog_count() {
  awk -F', *' 'NR > 1 && $1 ~ /^[0-9]+$/ && NF >= 6 { n++ } END { print n + 0 }' "$1"
}

t_run_interval_logs() {
  rt_logged run-hlog 300 "$RT_SUITE" run --properties "$RT_PROPS" --injectors 2 --threads 4 --duration 6
  local dir
  dir=$(rt_run_dir)
  if ((RT_RC != 0)) || [[ ! -f $dir/manifest.json ]]; then
    fail "interval logs: the run failed, rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  local data worker hlog h d workers=0 bad=""
  while IFS= read -r data; do
    worker=${data%-data.log}
    hlog=$worker.hlog
    workers=$((workers + 1))
    if [[ ! -s $hlog ]]; then
      bad+="${worker##*/}: no .hlog; "
      continue
    fi
    h=$(hl_hlog_count "$hlog")
    d=$(hl_datalog_count "$data")
    ((h == d && d > 0)) || bad+="${worker##*/}: hlog $h, data log $d; "
  done < <(find "$dir/injectors" -name '*-data.log' | sort)
  if ((workers == 2)) && [[ -z $bad ]] && (($(find "$dir/injectors" -name '*.hlog' | wc -l) == workers)); then
    pass "interval logs: one .hlog per worker ($workers), each counting exactly its data log's requests (HdrHistogram's HistogramLogProcessor against awk)"
  else
    fail "interval logs: $workers data logs; $bad$(find "$dir/injectors" -name '*.hlog' | tr '\n' ' ')"
  fi
  if grep -q '"status":"complete"' "$dir/manifest.json" && grep -q '"hlog":{"files":2,"requests":[1-9][0-9]*,"datalog":"on","check":"equal"}' "$dir/manifest.json" \
     && [[ $(head -1 "$dir/report-input/hlog-summary.csv" 2> /dev/null) == test,name,count,errors,mean_us,* ]] \
     && grep -q '^total,total,[0-9]*,[0-9]*,.*,true$' "$dir/report-input/hlog-summary.csv" \
     && grep -q 'interval logs: 2 file(s), [0-9]* requests; equal' <<< "$RT_OUT"; then
    pass "interval logs: the finaliser merged them into report-input/hlog-summary.csv, counts equal to the data logs, said so"
  else
    fail "interval logs: manifest or summary: $(grep -o '"hlog":{[^}]*}' "$dir/manifest.json") $(tail -1 "$dir/report-input/hlog-summary.csv" 2>&1)"
  fi
}

# hbaseload.datalog=off: the data logs stay empty, the interval logs count the run, the report
# is made from them alone.
t_run_datalog_off() {
  rt_logged run-hlog-off 300 "$RT_SUITE" run --properties "$RT_PROPS" --injectors 1 --threads 2 --duration 5 --set hbaseload.datalog=off
  local dir lines
  dir=$(rt_run_dir)
  lines=$(find "$dir/injectors" -name '*-data.log' -exec cat {} + 2> /dev/null | wc -l)
  if ((RT_RC == 0)) && ((lines == 0)) && grep -q '"status":"complete"' "$dir/manifest.json" \
     && grep -q '"hlog":{"files":1,"requests":[1-9][0-9]*,"datalog":"off","check":"no data logs to compare with"}' "$dir/manifest.json" \
     && (cd "$dir" && Rscript "$SUITE_ROOT/r-analysis/report.R" "$dir" --quiet > "$TEST_LOGS/run-hlog-off-report.log" 2>&1) \
     && grep -q ',interval logs$' "$dir/report/summary.csv"; then
    pass "datalog off: no data-log lines, the run complete on its interval logs, summary.csv from them alone"
  else
    fail "datalog off: rc $RT_RC, $lines data-log lines: $(grep -o '"status":"[a-z]*","reason":"[^"]*"' "$dir/manifest.json" 2>&1 | head -c 300) $(tail -2 "$TEST_LOGS/run-hlog-off-report.log" 2>&1)"
  fi
}

run_hlog_tests() {
  t_run_interval_logs
  t_run_datalog_off
}
