#!/usr/bin/env bash
# Host metrics for the length of a run: once a second, CPU user/sys/iowait/idle/steal, each core's
# busy share, load and run queue, memory, disk reads/writes, network bytes in/out, TCP
# retransmits and connection-tracking fill, read
# from /proc into a timestamped CSV (columns: see host-metrics.awk). Runs on every injector host
# and on the HBase host; bounded by MAX_SECONDS, stopped earlier by SIGTERM to its PID.
#   injectors/host-metrics.sh OUT_CSV MAX_SECONDS
# Environment: METRICS_NET_EXCLUDE  interfaces left out of net_rx/net_tx (regex, default ^lo$;
#              the loopback lab counts lo, since all its traffic is there)
#              METRICS_INTERVAL     seconds between rows (default 1)
# Needs only bash, awk, date and /proc, so it runs unchanged on a remote injector host.
set -euo pipefail

usage() { echo "usage: injectors/host-metrics.sh OUT_CSV MAX_SECONDS" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
out=$1 max_seconds=$2
[[ $max_seconds =~ ^[0-9]+$ && $max_seconds -gt 0 ]] || { echo "host-metrics: MAX_SECONDS '$max_seconds' is not a whole number > 0" >&2; exit 2; }
interval=${METRICS_INTERVAL:-1}
[[ $interval =~ ^[0-9]+$ && $interval -gt 0 ]] || { echo "host-metrics: METRICS_INTERVAL '$interval' is not a whole number > 0" >&2; exit 2; }
net_exclude=${METRICS_NET_EXCLUDE:-^lo\$}
[[ -r /proc/stat ]] || { echo "host-metrics: /proc/stat is not readable (Linux with /proc needed)" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Whole disks only (partitions and device-mapper volumes would count the same bytes twice).
disks=$(find /sys/block -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null \
  | grep -vE '^(loop|ram|zram|dm-|md|sr|fd|nbd)' | paste -sd'|' || true)
disks="^(${disks:-none})\$"

state=$(mktemp "${TMPDIR:-/tmp}/host-metrics.XXXXXX")
# One fork a second (awk) and no more: a sampler runs on every host and takes its CPU from what it
# measures (date, mv and sleep forked three more processes a second: about 20 ms of CPU). The wait
# is a read with a timeout on a FIFO nobody writes; the time is bash's EPOCHREALTIME where there
# is one (bash 5), else date's.
tick=$(mktemp -u "${TMPDIR:-/tmp}/host-metrics-tick.XXXXXX")
mkfifo "$tick"
exec {tick_fd}<> "$tick"
cleanup() { rm -f "$state" "$tick"; }
trap cleanup EXIT
trap 'exit 0' TERM INT
now_ms() {
  if [[ -n ${EPOCHREALTIME:-} ]]; then
    local t=${EPOCHREALTIME/[.,]/}
    echo "${t:0:${#t}-3}"
  else
    date +%s%3N
  fi
}

conntrack=()
for f in /proc/sys/net/netfilter/nf_conntrack_count /proc/sys/net/netfilter/nf_conntrack_max; do
  [[ -r $f ]] && conntrack+=("$f")
done

# One busy column per core present at the start (a core taken offline later reads NA).
cores=$(grep -c '^cpu[0-9]' /proc/stat)
core_columns=$(for ((c = 0; c < cores; c++)); do printf ',cpu%d_busy_pct' "$c"; done)
echo "time_ms,cpu_user_pct,cpu_sys_pct,cpu_iowait_pct,cpu_idle_pct,load1,mem_used_mb,mem_free_mb,disk_read_kbs,disk_write_kbs,net_rx_kbs,net_tx_kbs,tcp_retrans_s,conntrack_pct,cpu_steal_pct,procs_running,procs_blocked,cpu_busiest_core_pct$core_columns" > "$out"
started=$SECONDS
while ((SECONDS - started <= max_seconds)); do
  # awk has read the old state (its first file) before its END writes the new one in its place
  awk -v now_ms="$(now_ms)" -v state_in="$state" -v state_out="$state" -v cores="$cores" \
      -v disks="$disks" -v net_exclude="$net_exclude" -f "$here/host-metrics.awk" \
      "$state" /proc/stat /proc/loadavg /proc/meminfo /proc/diskstats /proc/net/dev /proc/net/snmp \
      "${conntrack[@]}" >> "$out"
  read -r -t "$interval" -u "$tick_fd" _ || true
done
