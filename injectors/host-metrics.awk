# One row of host metrics from two snapshots of /proc: the previous counters (the state file,
# "key value" lines written by the previous call) and the files read now. Called once a second
# by injectors/host-metrics.sh:
#   awk -v now_ms=MS -v state_in=STATE -v state_out=NEW_STATE -v disks=REGEX -v net_exclude=REGEX \
#       -f host-metrics.awk STATE /proc/stat /proc/loadavg /proc/meminfo /proc/diskstats \
#       /proc/net/dev /proc/net/snmp [conntrack count] [conntrack max]
# (Files are recognised by name, so a test can pass a folder of fixtures for /proc.)
# Prints nothing on the first call (no previous counters), else one CSV line:
#   time_ms,cpu_user_pct,cpu_sys_pct,cpu_iowait_pct,cpu_idle_pct,load1,mem_used_mb,mem_free_mb,
#   disk_read_kbs,disk_write_kbs,net_rx_kbs,net_tx_kbs,tcp_retrans_s,conntrack_pct,cpu_steal_pct,
#   procs_running,procs_blocked,cpu_busiest_core_pct,cpu0_busy_pct..cpu<cores-1>_busy_pct
# cpu_steal_pct is the time a hypervisor gave this VM's CPUs to others; procs_running the run queue
# (runnable tasks, this sampler included), procs_blocked those waiting on I/O; per-core busy is
# user + system, for `cores` cores (-v cores=N; a core offline is NA).
# mem_used_mb is MemTotal - MemAvailable, mem_free_mb is MemAvailable (what can still be had
# without swapping). Disks: whole devices matching `disks`; network: every interface not
# matching `net_exclude`. NA where a counter is absent.
function rate(key, per,    d) {
  if (!(key in prev) || !(key in cur) || dt <= 0) return "NA"
  d = cur[key] - prev[key]
  if (d < 0) return "NA"          # counter reset
  return sprintf("%.1f", d / per / dt)
}
function pct(part, total) {
  return total > 0 ? sprintf("%.1f", 100 * part / total) : "NA"
}
FILENAME == state_in { prev[$1] = $2; next }
FILENAME ~ /(^|\/)stat$/ && $1 == "cpu" {
  cur["cpu_user"] = $2 + $3; cur["cpu_sys"] = $4 + $7 + $8; cur["cpu_idle"] = $5
  cur["cpu_iowait"] = $6; cur["cpu_steal"] = $9 + 0; cur["cpu_total"] = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9
  next
}
FILENAME ~ /(^|\/)stat$/ && $1 ~ /^cpu[0-9]+$/ {
  cur[$1 "_busy"] = $2 + $3 + $4 + $7 + $8; cur[$1 "_total"] = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9
  next
}
FILENAME ~ /(^|\/)stat$/ && $1 == "procs_running" { procs_running = $2; next }
FILENAME ~ /(^|\/)stat$/ && $1 == "procs_blocked" { procs_blocked = $2; next }
FILENAME ~ /(^|\/)loadavg$/ { load1 = $1; next }
FILENAME ~ /(^|\/)meminfo$/ {
  if ($1 == "MemTotal:") mem_total = $2
  if ($1 == "MemAvailable:") mem_avail = $2
  next
}
FILENAME ~ /(^|\/)diskstats$/ && $3 ~ disks {
  cur["disk_read"] += $6 * 512; cur["disk_write"] += $10 * 512
  next
}
FILENAME ~ /(^|\/)net\/dev$/ && index($0, ":") {
  line = $0; sub(/^ +/, "", line)
  iface = substr(line, 1, index(line, ":") - 1)
  rest = substr(line, index(line, ":") + 1)
  if (iface ~ net_exclude) next
  split(rest, f, " ")
  cur["net_rx"] += f[1]; cur["net_tx"] += f[9]
  next
}
FILENAME ~ /(^|\/)net\/snmp$/ && $1 == "Tcp:" {
  if ($2 !~ /^[0-9-]+$/) { for (i = 2; i <= NF; i++) tcpcol[$i] = i; next }
  if ("RetransSegs" in tcpcol) cur["tcp_retrans"] = $tcpcol["RetransSegs"]
  next
}
FILENAME ~ /nf_conntrack_count$/ { ct_count = $1; next }
FILENAME ~ /nf_conntrack_max$/ { ct_max = $1; next }
END {
  cur["time_ms"] = now_ms
  if (!("disk_read" in cur)) { cur["disk_read"] = 0; cur["disk_write"] = 0 }
  if (!("net_rx" in cur)) { cur["net_rx"] = 0; cur["net_tx"] = 0 }
  for (k in cur) print k, cur[k] > state_out
  close(state_out)
  if (!("time_ms" in prev)) exit 0
  dt = (now_ms - prev["time_ms"]) / 1000
  total = cur["cpu_total"] - prev["cpu_total"]
  used = (mem_total != "" && mem_avail != "") ? sprintf("%.0f", (mem_total - mem_avail) / 1024) : "NA"
  free = (mem_avail != "") ? sprintf("%.0f", mem_avail / 1024) : "NA"
  conntrack = (ct_count != "" && ct_max > 0) ? sprintf("%.2f", 100 * ct_count / ct_max) : "NA"
  cores_out = ""; busiest = "NA"
  for (c = 0; c < cores + 0; c++) {
    k = "cpu" c
    v = ((k "_total") in prev && (k "_total") in cur) ? pct(cur[k "_busy"] - prev[k "_busy"], cur[k "_total"] - prev[k "_total"]) : "NA"
    cores_out = cores_out "," v
    if (v != "NA" && (busiest == "NA" || v + 0 > busiest + 0)) busiest = v
  }
  printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s%s\n", now_ms,
    pct(cur["cpu_user"] - prev["cpu_user"], total), pct(cur["cpu_sys"] - prev["cpu_sys"], total),
    pct(cur["cpu_iowait"] - prev["cpu_iowait"], total), pct(cur["cpu_idle"] - prev["cpu_idle"], total),
    (load1 != "" ? load1 : "NA"), used, free,
    rate("disk_read", 1024), rate("disk_write", 1024), rate("net_rx", 1024), rate("net_tx", 1024),
    rate("tcp_retrans", 1), conntrack,
    ("cpu_steal" in prev ? pct(cur["cpu_steal"] - prev["cpu_steal"], total) : "NA"),
    (procs_running != "" ? procs_running : "NA"), (procs_blocked != "" ? procs_blocked : "NA"), busiest, cores_out
}
