# shellcheck shell=bash
# End-to-end tests of the thrift-shim under clients that send nothing (issue 25), against the real
# shim process (./suite shim start) in front of the private HBase, with lowered limits so they run
# in seconds: 20 connections, a 2 s request deadline, 5 s of idle time between requests. The
# clients are tests/e2e/ShimHostileClient.java (a stock thrift2 client, and raw sockets that send
# one byte of a request), run as a single source file. Sourced by libexec/suite-test once its
# private HBase is up. Entry point: run_shim_hostile_tests.

SH_LIMITS=(shim.max.connections=20 shim.request.read.timeout.ms=2000 shim.idle.timeout.ms=5000
  shim.evict.after.ms=500 shim.accept.wait.ms=2000)

# Run ShimHostileClient MODE ARGS... (bounded); its key=value line in SH_OUT, status in RC.
sh_client() {
  local name=$1; shift
  run_logged "shim-hostile-$name" 120 "$JAVA" -cp "$SUITE_LIB/thrift-shim.jar:$(classpath_of thrift-shim)" \
    "$SUITE_ROOT/tests/e2e/ShimHostileClient.java" "$@"
  SH_OUT=$(grep -E '^[a-z_]+=' <<< "$OUT" | tail -1)
}

# Value of KEY in SH_OUT (key=value pairs), or empty.
sh_value() {
  sed -nE "s/^(.* )?$1=([^ ]*).*$/\\2/p" <<< "$SH_OUT"
}

# hbasegrinder_shim_connections_closed_total{reason="REASON"} (or another series named in full), by
# stack.sh's shim_metric.
sh_metric() {
  local series=$1
  [[ $series == *'{'* || $series == hbasegrinder_* ]] \
    || series="hbasegrinder_shim_connections_closed_total{reason=\"$series\"}"
  shim_metric "$series"
}

# Held half-sent requests below the limit are closed at the request deadline (2 s after the
# connection opened, however long the client waits), and counted as request timeouts.
t_shim_half_requests_closed_at_deadline() {
  local before after closed first last
  before=$(sh_metric request_timeout)
  sh_client deadline deadline "$PORT_SHIM" 10 10000
  closed=$(sh_value closed) first=$(sh_value first_ms) last=$(sh_value last_ms)
  after=$(sh_metric request_timeout)
  if ((RC == 0)) && [[ $closed == 10 ]] && ((first >= 1800 && last < 4000 && after - before == 10)); then
    pass "shim, half-sent requests: 10 of 10 closed ${first}-${last} ms after they opened (deadline 2000 ms), counted as request_timeout"
  else
    fail "shim, half-sent requests: rc $RC, [$SH_OUT], request_timeout $before -> $after (want 10 closed within 1800-4000 ms, +10)"
  fi
}

# 30 half-sent requests held open for 10 s (more than the 20 slots; each one closed is opened
# again) while a stock client calls every 0.25 s on a new connection: every call is served
# within 3 s, the held ones make room, and the shim says so in its log (at most every 10 s).
t_shim_legit_client_served_while_held() {
  local before after refused_before refused_after probes failed slowest lines
  before=$(sh_metric evicted_stalled)
  refused_before=$(sh_metric hbasegrinder_shim_connections_rejected_total)
  sh_client attack attack "$PORT_SHIM" 30 10 250
  probes=$(sh_value probes) failed=$(sh_value failed) slowest=$(sh_value slowest_ms)
  after=$(sh_metric evicted_stalled)
  refused_after=$(sh_metric hbasegrinder_shim_connections_rejected_total)
  lines=$(grep -c 'at the connection limit shim.max.connections=20' "$HBASE_LOCAL_DIR/logs/thrift-shim.log" || true)
  if ((RC == 0)) && [[ -n $probes ]] && ((probes >= 20 && failed == 0 && slowest < 3000 && after > before \
        && lines >= 1 && lines <= 3)); then
    pass "shim, legitimate client at the limit: $probes calls served while 30 half-sent requests were held on 20 slots (slowest ${slowest} ms), $((after - before)) of them closed to make room, $((refused_after - refused_before)) refused, $lines log lines"
  else
    fail "shim, legitimate client at the limit: rc $RC, [$SH_OUT], evicted_stalled $before -> $after, $lines log lines (want every call within 3000 ms, evictions counted, 1-3 log lines)"
  fi
}

# A client idle between complete requests longer than the request deadline (3 s > 2 s) is not
# taken for a stalled one: its next call is served on the same connection, and the connection is
# closed only at the idle timeout (5 s after its last answer), counted as idle_timeout.
t_shim_idle_between_requests_kept() {
  local idle_before idle_after timeouts_before timeouts_after closed
  idle_before=$(sh_metric idle_timeout)
  timeouts_before=$(($(sh_metric request_timeout) + $(sh_metric no_request)))
  sh_client idle idle "$PORT_SHIM" 3000 9000
  closed=$(sh_value closed_after_ms)
  idle_after=$(sh_metric idle_timeout)
  timeouts_after=$(($(sh_metric request_timeout) + $(sh_metric no_request)))
  if ((RC == 0)) && [[ $(sh_value second_call) == ok ]] && ((closed >= 4800 && closed < 7000 \
        && idle_after - idle_before == 1 && timeouts_after == timeouts_before)); then
    pass "shim, idle between requests: served again after 3 s idle (request deadline 2 s), closed ${closed} ms after its last answer (idle timeout 5000 ms), counted as idle_timeout"
  else
    fail "shim, idle between requests: rc $RC, [$SH_OUT], idle_timeout $idle_before -> $idle_after, request timeouts $timeouts_before -> $timeouts_after (want ok, closed within 4800-7000 ms, +1 idle, +0 timeouts)"
  fi
}

run_shim_hostile_tests() {
  local config=$TEST_LOGS/shim-hostile.properties
  printf '%s\n' "${SH_LIMITS[@]}" > "$config"
  SHIM_CONFIG=$config run_logged shim-hostile-start 120 "$SUITE_ROOT/suite" shim start
  if ((RC != 0)); then
    fail "shim, hostile clients: the shim did not start: $(tail -1 "$TEST_LOGS/shim-hostile-start.log")"
    return
  fi
  t_shim_half_requests_closed_at_deadline
  t_shim_legit_client_served_while_held
  t_shim_idle_between_requests_kept
  "$SUITE_ROOT/suite" shim stop > "$TEST_LOGS/shim-hostile-stop.log" 2>&1
}
