# shellcheck shell=bash
# injectors/host-metrics.awk on two hand-made snapshots of /proc one second apart: every column
# against values worked out by hand. Sourced by libexec/suite-test (unit stage).

# Write a fake /proc snapshot into DIR: cpu counters (aggregate, cpu0, cpu1), run queue, disk
# sectors, network bytes, TCP retransmits.
hm_snapshot() {
  local dir=$1 cpu=$2 cpu0=$3 cpu1=$4 running=$5 blocked=$6 sectors_r=$7 sectors_w=$8 rx=$9 tx=${10} retrans=${11}
  mkdir -p "$dir/net"
  printf 'cpu  %s\ncpu0 %s\ncpu1 %s\nintr 1 2 3\nprocs_running %s\nprocs_blocked %s\n' "$cpu" "$cpu0" "$cpu1" "$running" "$blocked" > "$dir/stat"
  echo "1.50 1.00 0.50 7/300 1234" > "$dir/loadavg"
  printf 'MemTotal:        8388608 kB\nMemFree:         1000000 kB\nMemAvailable:    4194304 kB\n' > "$dir/meminfo"
  printf '   8       0 sda 10 0 %s 0 10 0 %s 0 0 0 0\n   8       1 sda1 10 0 999999 0 10 0 999999 0 0 0 0\n' "$sectors_r" "$sectors_w" > "$dir/diskstats"
  printf 'Inter-|   Receive\n face |bytes packets\n    lo: 999999 1 0 0 0 0 0 0 999999 1 0 0 0 0 0 0\n  eth0: %s 10 0 0 0 0 0 0 %s 20 0 0 0 0 0 0\n' "$rx" "$tx" > "$dir/net/dev"
  printf 'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\nTcp: 1 200 120000 -1 5 5 0 0 2 1000 1000 %s 0 0 0\n' "$retrans" > "$dir/net/snmp"
}

hm_row() {
  local dir=$1 now=$2 state=$3
  awk -v now_ms="$now" -v state_in="$state" -v state_out="$state.new" -v disks='^(sda)$' -v net_exclude='^lo$' -v cores=2 \
    -f "$SUITE_ROOT/injectors/host-metrics.awk" "$state" "$dir/stat" "$dir/loadavg" "$dir/meminfo" "$dir/diskstats" \
    "$dir/net/dev" "$dir/net/snmp"
  mv -f "$state.new" "$state"
}

u_host_metrics_row_from_two_snapshots() {
  local t0=$TEST_LOGS/hm0 t1=$TEST_LOGS/hm1 state=$TEST_LOGS/hm.state first second
  # user nice system idle iowait irq softirq steal: cpu0 +100 +0 +30 +300 +20 +0 +10 +40 (busy 140 of 500),
  # cpu1 +20 +30 +10 +400 +30 +0 +0 +10 (busy 60 of 500); together 1000 jiffies.
  hm_snapshot "$t0" "1000 0 500 8000 100 0 0 0 0 0" "500 0 250 4000 50 0 0 0 0 0" "500 0 250 4000 50 0 0 0 0 0" 3 1 2048 4096 1000 2000 100
  hm_snapshot "$t1" "1120 30 540 8700 150 0 10 50 0 0" "600 0 280 4300 70 0 10 40 0 0" "520 30 260 4400 80 0 0 10 0 0" 7 2 4096 8192 103400 53200 105
  : > "$state"
  first=$(hm_row "$t0" 1795000000000 "$state")
  second=$(hm_row "$t1" 1795000001000 "$state")
  # user (user+nice) 15%, sys (system+irq+softirq) 5%, iowait 5%, idle 70%, load 1.50, 4096 MB used and
  # available, 1 MiB read and 2 MiB written (KB/s), 100 KB/s in, 50 KB/s out (lo left out), 5
  # retransmits/s, no conntrack, steal 5%, run queue 7, blocked 2, busiest core 28%, cores 28% and 12%.
  local expected="1795000001000,15.0,5.0,5.0,70.0,1.50,4096,4096,1024.0,2048.0,100.0,50.0,5.0,NA,5.0,7,2,28.0,28.0,12.0"
  if [[ -z $first && $second == "$expected" ]]; then
    pass "host metrics: one row from two /proc snapshots, every column as worked out by hand (steal, run queue, per core)"
  else
    fail "host metrics: first call printed '$first'; row '$second', expected '$expected'"
  fi
}
