#!/usr/bin/env bash
# Does the run's live Prometheus endpoint slow the run? The same short run, alternated in one
# invocation (so drift on a shared machine cancels out) in three modes: the endpoint scraped once
# a second (curl, as Prometheus would), on but never scraped (./suite run's default), and off
# (--metrics-port off). Each run is counted by bench/cpu-meter.sh; what is compared is the
# console JVM's CPU seconds (its process row, sampled every 0.2 s), with the requests the run made.
# Needs the embedded HBase up and the table of the properties prepared (./suite hbase start;
# ./suite prepare --properties F). Prints a CSV row per run and the median per mode.
#   LIVE_ROUNDS (3) LIVE_SECONDS (30) LIVE_THREADS (4) LIVE_PROPERTIES (grinder.properties)
set -euo pipefail
SUITE_ME="bench live-metrics"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

ROUNDS=${LIVE_ROUNDS:-3}
SECONDS_RUN=${LIVE_SECONDS:-30}
THREADS=${LIVE_THREADS:-4}
PROPERTIES=${LIVE_PROPERTIES:-$SUITE_ROOT/grinder.properties}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "LIVE_ROUNDS '$ROUNDS' is not a whole number > 0"
[[ $SECONDS_RUN =~ ^[1-9][0-9]*$ ]] || die "LIVE_SECONDS '$SECONDS_RUN' is not a whole number > 0"
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "LIVE_THREADS '$THREADS' is not a whole number > 0"
[[ -f $PROPERTIES ]] || die "LIVE_PROPERTIES: $PROPERTIES is not a file"
port_listening "$PORT_ZK" || die "no HBase on 127.0.0.1:$PORT_ZK: ./suite hbase start (SUITE_PORT_OFFSET=$SUITE_PORT_OFFSET)"

work=$(mktemp -d "${TMPDIR:-/tmp}/hgs-live-metrics.XXXXXX")
echo "round,mode,console_cpu_s,requests,scrapes,outcome" > "$work/results.csv"

# One run in MODE (scraped | unscraped | off): appends its row to results.csv.
one_run() {
  local round=$1 mode=$2 port_args=() scrapes=0 pid rc=0 dir cpu requests
  [[ $mode == off ]] && port_args=(--metrics-port off)
  CPU_METER_INTERVAL=0.2 "$SUITE_ROOT/bench/cpu-meter.sh" "$work/$round-$mode.cpu.csv" \
    "$SUITE_ROOT/suite" run --properties "$PROPERTIES" --injectors 1 --threads "$THREADS" --duration "$SECONDS_RUN" \
    "${port_args[@]}" > "$work/$round-$mode.log" 2>&1 < /dev/null &
  pid=$!
  local limit=$((SECONDS_RUN + 300)) started=$SECONDS
  while kill -0 "$pid" 2> /dev/null && ((SECONDS - started < limit)); do
    if [[ $mode == scraped ]] && curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:$PORT_CONSOLE_METRICS/metrics" 2> /dev/null; then
      scrapes=$((scrapes + 1))
    fi
    sleep 1
  done
  kill -0 "$pid" 2> /dev/null && { kill "$pid"; die "round $round $mode: the run took more than ${limit}s (log: $work/$round-$mode.log)"; }
  wait "$pid" || rc=$?
  dir=$(sed -n 's/^run-[0-9]*: \(\/.*\)$/\1/p' "$work/$round-$mode.log" | head -1)
  # A degraded run (a few requests failed on a loaded machine, exit 1) still measures the console.
  if ((rc > 1)) || [[ -z $dir || ! -s $dir/console/statistics.csv ]]; then
    die "round $round $mode: the run failed, rc $rc: $(tail -1 "$work/$round-$mode.log") (log: $work/$round-$mode.log)"
  fi
  cpu=$(awk -F, '$1 == "process" && $2 ~ /net\.grinder\.Console/ { s += $4 } END { printf "%.2f", s }' "$work/$round-$mode.cpu.csv")
  requests=$(awk -F, 'NR > 1 { s += $3 + $4 } END { print s + 0 }' "$dir/console/statistics.csv")
  echo "$round,$mode,$cpu,$requests,$scrapes,$( ((rc == 0)) && echo complete || echo not-complete)" | tee -a "$work/results.csv"
}

info "live-metrics: $ROUNDS rounds x 3 modes, ${SECONDS_RUN}s runs at $THREADS threads ($PROPERTIES); files in $work"
for ((round = 1; round <= ROUNDS; round++)); do
  # rotate the order each round: no mode always runs first after a pause
  case $((round % 3)) in
    1) modes=(scraped unscraped off) ;;
    2) modes=(unscraped off scraped) ;;
    0) modes=(off scraped unscraped) ;;
  esac
  for mode in "${modes[@]}"; do
    one_run "$round" "$mode"
  done
done
echo "mode,median_console_cpu_s,median_requests"
for mode in scraped unscraped off; do
  awk -F, -v m="$mode" '$2 == m { c[++n] = $3; r[n] = $4 }
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { printf "%s,%.2f,%d\n", m, median(c, n), median(r, n) }' "$work/results.csv"
done
