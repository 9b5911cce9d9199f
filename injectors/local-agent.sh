#!/usr/bin/env bash
# Run one Grinder 3.11 agent on this host, standalone (no console), with a run's properties,
# and wait for it with progress. The agent exits 0 even when its workers fail, so success is
# decided from the logs: a data log per worker, and no worker error in the worker logs.
#   injectors/local-agent.sh PROPERTIES LOG_DIR TIMEOUT_SECONDS
set -euo pipefail
SUITE_ME="suite agent"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

[[ $# -eq 3 ]] || { echo "usage: injectors/local-agent.sh PROPERTIES LOG_DIR TIMEOUT_SECONDS" >&2; exit 2; }
properties=$1 log_dir=$2 timeout=$3
[[ -f $properties ]] || die "properties file $properties not found"
mkdir -p "$log_dir"

started=$SECONDS
"$JAVA" -Xmx256m -cp "$(grinder_classpath)" -Dgrinder.useConsole=false \
  net.grinder.Grinder "$properties" > "$log_dir/agent.out" 2>&1 < /dev/null &
agent_pid=$!
trap 'stop_pid "$agent_pid" 10 "Grinder agent"' EXIT

next=5
while pid_alive "$agent_pid"; do
  if ((SECONDS - started >= timeout)); then
    die "Grinder agent still running after ${timeout}s: stopped it (logs: $log_dir)"
  fi
  if ((SECONDS - started >= next)); then
    # find, not a glob: before the worker's first request there is no data log yet, and a
    # failing cat under pipefail would end this script (and, by the trap, the agent).
    lines=$(find "$log_dir" -name '*-data.log' -exec cat {} + | wc -l)
    progress "$started" "grinder agent running: $lines requests logged"
    next=$((next + 5))
  fi
  sleep 1
done
wait "$agent_pid" || true
trap - EXIT

# Workers write <host>-<n>.log; their errors (a bad hbaseload key, a script that did not
# load) name the cause there.
# Only the message is kept: "2026-... ERROR host-0 : hbaseload: unknown key ..." -> "hbaseload: ...".
worker_error=$(grep -h -E 'ERROR|Aborting|aborted' "$log_dir"/*-[0-9]*.log 2>/dev/null \
  | sed -E 's/^[0-9-]+ [0-9:,]+ ERROR [^:]*: //' | head -1 | cut -c1-600 || true)
shopt -s nullglob
data_logs=("$log_dir"/*-data.log)
if ((${#data_logs[@]} == 0)); then
  die "no data log written${worker_error:+: $worker_error} (logs: $log_dir)"
fi
if [[ -n $worker_error ]]; then
  die "worker error: $worker_error (logs: $log_dir)"
fi
info "grinder agent finished in $((SECONDS - started))s: ${#data_logs[@]} data log(s) in $log_dir"
