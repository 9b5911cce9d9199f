# shellcheck shell=bash
# End-to-end test of a run's live Prometheus endpoint (console/.../live/LiveExport), sourced by
# tests/e2e/runs.sh: a short real run is scraped twice a second on its default port while it
# runs; the last scrape's counters must equal the console's statistics.csv (or be within one
# sample interval of it), and the port must be closed once the run is over.

# "test count errors" per test from a scrape: the request and error counters of the console.
lm_counts() {
  awk '/^hbasegrinder_console_(requests|errors)_total\{/ {
         match($0, /test="[0-9]+"/); t = substr($0, RSTART + 6, RLENGTH - 7)
         if ($0 ~ /^hbasegrinder_console_requests_total/) c[t] = $NF + 0; else e[t] = $NF + 0 }
       END { for (t in c) print t, c[t], e[t] + 0 }' "$1" | sort -n
}

# "test count errors" per test from the console's statistics.csv.
lm_console_counts() {
  awk -F, 'NR > 1 { print $1, $3, $4 }' "$1" | sort -n
}

t_run_live_metrics() {
  local port=$PORT_CONSOLE_METRICS scrapes=$TEST_LOGS/live-scrapes last="" busy="" i=0 run_pid
  mkdir -p "$scrapes"
  "$RT_SUITE" run --properties "$RT_PROPS" --injectors 1 --threads 4 --duration 6 \
    > "$TEST_LOGS/run-live.log" 2>&1 < /dev/null &
  run_pid=$!
  while kill -0 "$run_pid" 2> /dev/null && ((i < 360)); do   # at most 180 s
    if curl -fsS --max-time 2 "http://127.0.0.1:$port/metrics" > "$scrapes/$i.prom" 2> /dev/null; then
      last=$scrapes/$i.prom
      grep -qE '^hbasegrinder_console_workers\{state="running"\} [1-9]' "$last" \
        && grep -qE '^hbasegrinder_console_throughput_requests_per_second\{.*\} [1-9]' "$last" && busy=$last
    else
      rm -f "$scrapes/$i.prom"
    fi
    i=$((i + 1))
    sleep 0.5
  done
  local rc=0
  wait "$run_pid" || rc=$?
  RT_OUT=$(cat "$TEST_LOGS/run-live.log")
  local dir
  dir=$(rt_run_dir)
  if ((rc != 0)) || [[ ! -s $dir/console/statistics.csv ]]; then
    fail "live metrics: the run failed, rc $rc: $(tail -2 <<< "$RT_OUT")"
    return
  fi
  if [[ -n $busy ]] && grep -qxF "hbasegrinder_console_run{run=\"${dir##*/}\"} 1.0" "$busy" \
     && grep -qx 'hbasegrinder_console_workers_expected 1.0' "$busy"; then
    pass "live metrics: http://127.0.0.1:$port/metrics answered during the load (run ${dir##*/}, a worker running, throughput > 0; $(find "$scrapes" -name "*.prom" | wc -l) scrapes)"
  else
    fail "live metrics: no scrape showed the run under load (last: $(head -c 300 "${last:-/dev/null}"))"
  fi
  local live console
  live=$(lm_counts "${last:-/dev/null}")
  console=$(lm_console_counts "$dir/console/statistics.csv")
  if [[ -n $console && $live == "$console" ]]; then
    pass "live metrics: the last scrape's request and error counters equal the console's statistics.csv ($(tr '\n' ' ' <<< "$console"))"
  elif [[ -n $live ]] && awk -v tps="$(awk '/^hbasegrinder_console_throughput_requests_per_second\{/ { s += $NF } END { print s + 0 }' "$last")" \
         'NR == FNR { c[$1] = $2; next } { d = $2 - c[$1]; if (d < 0 || d > tps + 1) bad = 1 } END { exit bad }' \
         <(echo "$live") <(echo "$console"); then
    pass "live metrics: the last scrape is within one sample of statistics.csv (live [$(tr '\n' ' ' <<< "$live")], console [$(tr '\n' ' ' <<< "$console")])"
  else
    fail "live metrics: last scrape [$(tr '\n' ' ' <<< "$live")] vs statistics.csv [$(tr '\n' ' ' <<< "$console")]"
  fi
  if ! port_listening "$port"; then
    pass "live metrics: port $port closed once the run is over"
  else
    fail "live metrics: port $port still listening after the run: $(port_owner "$port")"
  fi
}
