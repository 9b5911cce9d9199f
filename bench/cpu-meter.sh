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
set -euo pipefail
SUITE_ME="cpu-meter"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"

[[ ${1:-} == -h || ${1:-} == --help ]] && { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0; }
[[ $# -ge 2 ]] || { echo "usage: bench/cpu-meter.sh OUT_CSV COMMAND [ARGS...]" >&2; exit 2; }
out=$1; shift
interval=${CPU_METER_INTERVAL:-1}
[[ $interval =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "CPU_METER_INTERVAL '$interval' is not a number of seconds"
TICKS=$(getconf CLK_TCK)

# A new cgroup under the first hierarchy that lets us make one: v1 cpuacct, else v2.
make_cgroup() {
  local name=hgs-meter-$$-$RANDOM base
  for base in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpu,cpuacct; do
    if [[ -f $base/cpuacct.usage ]] && mkdir "$base/$name" 2> /dev/null; then
      CGROUP=$base/$name METHOD=cgroup-v1; return 0
    fi
  done
  for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [[ -f $base/cgroup.procs && ! -f $base/cpuacct.usage ]] && [[ $(stat -f -c %T "$base") == cgroup2fs ]] \
       && mkdir "$base/$name" 2> /dev/null; then
      CGROUP=$base/$name METHOD=cgroup-v2; return 0
    fi
  done
  CGROUP="" METHOD=children
}

# CPU seconds the cgroup has used.
cgroup_cpu_s() {
  if [[ $METHOD == cgroup-v1 ]]; then
    awk '{ printf "%.3f", $1 / 1e9 }' "$CGROUP/cpuacct.usage"
  else
    awk '$1 == "usage_usec" { printf "%.3f", $2 / 1e6 }' "$CGROUP/cpu.stat"
  fi
}

# "pid ticks label" for every process in the cgroup (label: comm, or a JVM's main class).
sample_processes() {
  local pid stat ticks label
  while read -r pid; do
    stat=$(cat "/proc/$pid/stat" 2> /dev/null) || continue
    # Fields after the ")" that closes comm: utime and stime are the 12th and 13th.
    read -r -a rest <<< "${stat##*) }"
    ticks=$((rest[11] + rest[12]))
    label=${stat#*(}; label=${label%%)*}
    if [[ $label == java ]]; then
      label=$(tr '\0' '\n' < "/proc/$pid/cmdline" 2> /dev/null \
        | awk 'skip { skip = 0; next } /^(-cp|-classpath|--class-path|-jar)$/ { skip = 1; next }
               !/^-/ && NR > 1 { print; exit }') || true
      label=java:${label:-?}
    fi
    printf '%s %s %s\n' "$pid" "$ticks" "${label//[, ]/_}"
  done < "$CGROUP/cgroup.procs"
}

make_cgroup
declare -A SEEN_TICKS=() SEEN_LABEL=()
record() {
  local pid ticks label
  while read -r pid ticks label; do
    SEEN_TICKS[$pid]=$ticks
    # A JVM that is exiting shows an empty command line: keep the name it had.
    [[ $label == 'java:?' && -n ${SEEN_LABEL[$pid]:-} ]] || SEEN_LABEL[$pid]=$label
  done < <(sample_processes)
}

rc=0
if [[ -n $CGROUP ]]; then
  # The command joins the cgroup before it execs, so everything it starts is born inside.
  # SUITE_LAB_METER: the lab (suite.d/lab.sh) then leaves its processes in this cgroup, places
  # them without moving their accounting, and its own sampler counts roles by command line.
  SUITE_LAB_METER=$CGROUP bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' cpu-meter "$CGROUP" "$@" &
  child=$!
  trap 'kill -TERM "$child" 2> /dev/null || true' INT TERM
  while pid_alive "$child"; do
    record
    sleep "$interval" & wait $! || true
  done
  wait "$child" || rc=$?
  total=$(cgroup_cpu_s)
  leftovers=$(cat "$CGROUP/cgroup.procs")
else
  "$@" || rc=$?
  # `times` in this shell (a pipe would run it in a subshell without children): line 2 is the
  # CPU of every child this shell reaped, and of the children those reaped in turn.
  times > "$out.times"
  total=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$out.times")
  rm -f "$out.times"
  leftovers=""
fi

{
  echo "scope,label,pid,cpu_s"
  echo "total,$METHOD,,$total"
  for pid in "${!SEEN_TICKS[@]}"; do
    printf 'process,%s,%s,%s\n' "${SEEN_LABEL[$pid]}" "$pid" "$(awk -v t="${SEEN_TICKS[$pid]}" -v hz="$TICKS" 'BEGIN { printf "%.3f", t / hz }')"
  done
  for pid in $leftovers; do
    printf 'leftover,%s,%s,\n' "${SEEN_LABEL[$pid]:-?}" "$pid"
  done
} > "$out"

# What the command left behind is stopped by PID, then the cgroup (now empty) goes.
for pid in $leftovers; do stop_pid "$pid" 5 "leftover process"; done
if [[ -n $CGROUP ]]; then rmdir "$CGROUP" 2> /dev/null || true; fi
exit "$rc"
