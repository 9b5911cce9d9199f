#!/usr/bin/env bash
# Run a command and count the CPU of EVERY process it starts, however they are started: a fresh
# cgroup holds the command, so children that detach (setsid, double fork, `ip netns exec`) and
# are never reaped by their parent are counted too (`times` would miss them). Benchmarks use it
# to charge a tool with all of its processes: console, agents, workers, samplers, helpers.
#   bench/cpu-meter.sh OUT_CSV COMMAND [ARGS...]
# OUT_CSV: scope,label,pid,cpu_s with one `total` row (method in its label: cgroup-v1,
# cgroup-v2, or children when no cgroup can be made: then detached processes are NOT counted),
# one `process` row per process seen (sampled once a second from /proc: a breakdown, short by
# at most a second of each process's last CPU), and a `leftover` row per process still in the
# cgroup after the command ended (they are then stopped by PID). Exit status: the command's.
# Environment: CPU_METER_INTERVAL seconds between samples (default 1).
# The meter is lifecycle's cpu/CpuMeter (a JVM outside the cgroup: not charged to the command).
set -euo pipefail
SUITE_ME="cpu-meter"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

[[ ${1:-} == -h || ${1:-} == --help ]] && { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0; }
[[ $# -ge 2 ]] || { echo "usage: bench/cpu-meter.sh OUT_CSV COMMAND [ARGS...]" >&2; exit 2; }
# In the background, so that a SIGTERM or SIGINT here reaches the meter, which passes SIGTERM on
# to the command and still writes OUT_CSV.
lifecycle cpu-meter --clock-ticks "$(getconf CLK_TCK)" "$@" &
meter=$!
trap 'pkill -TERM -P "$meter" 2> /dev/null || true' INT TERM
rc=0
wait "$meter" || rc=$?
while pid_alive "$meter"; do rc=0; wait "$meter" || rc=$?; done   # a signal ends the first wait early
exit "$rc"
