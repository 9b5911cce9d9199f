#!/usr/bin/env bash
# thrift-shim/bench.sh: get and put throughput and latency through (a) the direct HBase client,
# (b) HBase's own thrift2 gateway, (c) a thrift-shim this script starts on a free loopback port,
# all against one running embedded HBase, interleaved (ShimBenchmark, which runs the worker's own
# load engine: lib/hbase-grinder-worker.jar on its classpath). Exits 1 when
# the shim misses its targets (throughput >= gateway, median <= direct + 200 us), 2 on a usage or
# setup error.
set -euo pipefail
SUITE_ME="thrift-shim bench"
# shellcheck source=../suite.d/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
# shellcheck source=../suite.d/lab.sh
source "$SUITE_ROOT/suite.d/lab.sh"

SHIM_DIR=$SUITE_ROOT/thrift-shim
MAIN_SHIM=io.github.hbasegrindersuite.shim.ShimMain
MAIN_BENCH=io.github.hbasegrindersuite.shim.bench.ShimBenchmark

usage() {
  cat >&2 <<'USAGE'
usage: thrift-shim/bench.sh [--zk-port N] [--gateway-port N] [--shim key=value ...] [--shim-warmup S] [--variants]
                            [--baseline-jar JAR]
                            [ShimBenchmark options: --threads 8 --seconds 3 --rounds 6 --warmup-seconds 15
                             --rows 20000 --value-size 1000 --regions 8 --table shim_bench
                             --recreate-table false --min-ratio 1.0 --max-added-median-us 200
                             --paced-fraction 0.5 | --paced-rate N, --uncorrected false]
  --zk-port       ZooKeeper of the running HBase (default 2181 + SUITE_PORT_OFFSET)
  --gateway-port  HBase's thrift2 gateway (default 9091 + SUITE_PORT_OFFSET)
  --shim k=v      a setting for the benchmarked shim (repeatable), e.g. --shim shim.protocol=compact
  --shim-warmup S seconds of unmeasured get, then put, through the fresh shims first (default 30;
                  the gateway is warm already), 0 = none
  --variants      also start one shim per server choice (and per HBase RPC client) and measure them
                  all in the same run; BENCH_VARIANTS="rpc-blocking nb-framed-bin ..." picks some
  --baseline-jar  also start a shim built from another thrift-shim.jar (e.g. main's, copied before a
                  change), with the same settings and the rest of lib/, as path "baseline": before
                  and after measured in the same rounds
The CPU lab is the suite's (lab.cpus of grinder.properties, or SUITE_LAB_CPUS=off|auto|S:C): HBase,
its gateway and every shim on the server CPUs, the benchmark client on the client CPUs.
USAGE
  exit 2
}

zk_port=$PORT_ZK
gateway_port=$PORT_THRIFT2
shim_warmup=30
variants=false
baseline_jar=""
shim_settings=()
bench_args=()
while (($#)); do
  case $1 in
    --zk-port) [[ $# -ge 2 ]] || usage; zk_port=$2; shift 2 ;;
    --gateway-port) [[ $# -ge 2 ]] || usage; gateway_port=$2; shift 2 ;;
    --shim) [[ $# -ge 2 && $2 == shim.*=* ]] || usage; shim_settings+=("$2"); shift 2 ;;
    --variants) variants=true; shift ;;
    --baseline-jar) [[ $# -ge 2 && -s $2 ]] || usage; baseline_jar=$(realpath "$2"); shift 2 ;;
    --shim-warmup) [[ $# -ge 2 ]] || usage; shim_warmup=$2; shift 2 ;;
    -h | --help) usage ;;
    --*) [[ $# -ge 2 ]] || usage; bench_args+=("$1" "$2"); shift 2 ;;
    *) usage ;;
  esac
done

[[ -s $SUITE_LIB/thrift-shim.jar && -s $SUITE_LIB/thrift-shim.classpath && -s $SUITE_LIB/hbase-grinder-worker.jar ]] \
  || die "lib/thrift-shim.jar, lib/thrift-shim.classpath or lib/hbase-grinder-worker.jar is missing: run ./suite setup first"
port_listening "$zk_port" || die "no HBase at ZooKeeper 127.0.0.1:$zk_port: start it (./suite hbase start) or pass --zk-port"
port_listening "$gateway_port" || die "no thrift2 gateway on 127.0.0.1:$gateway_port: start HBase with ./suite hbase start or pass --gateway-port"

CLASSPATH_SHIM="$SUITE_LIB/thrift-shim.jar:$SUITE_LIB/hbase-grinder-worker.jar:$(classpath_of thrift-shim)"
# The benchmark client: the shim's jars plus the worker's engine (Settings, targets, Driver, Pacer,
# TablePreparer), whose own dependencies (HBase client, thrift2 classes, libthrift) the shim's share.
CLASSPATH_BENCH="$SUITE_LIB/thrift-shim.jar:$SUITE_LIB/hbase-grinder-worker.jar:$(classpath_of thrift-shim)"
mapfile -t JVM_OPTS < <(grep -vE '^\s*(#|$)' "$SHIM_DIR/jvm.options")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/thrift-shim-bench.XXXXXX")
SHIM_PIDS=()
declare -A SHIM_PID_OF=()
CLIENT_PID=""

# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  local pid
  [[ -z $CLIENT_PID ]] || stop_pid "$CLIENT_PID" 10 "benchmark client"
  for pid in "${SHIM_PIDS[@]}"; do
    stop_pid "$pid" 20 "benchmark shim"
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Starts a shim on free ports (it picks them and writes them to its ready file).
# Arguments: shim.key=value settings, jvm:OPTION for an extra JVM option (variants only), or
# jar:PATH for a thrift-shim.jar to run instead of lib/'s (--baseline-jar).
start_shim() {
  local name=$1 arg classpath=$CLASSPATH_SHIM; shift
  local -a extra_jvm=() settings=()
  for arg in "$@"; do
    case $arg in
      jvm:*) extra_jvm+=("${arg#jvm:}") ;;
      jar:*) classpath="${arg#jar:}:${CLASSPATH_SHIM#"$SUITE_LIB/thrift-shim.jar:"}" ;;
      *) settings+=("$arg") ;;
    esac
  done
  # setsid, as shim-ctl.sh and the gateway (hbase-ctl.sh) start theirs: with the kernel's
  # autogroup scheduling each session shares the CPU as one group, and a shim left in this
  # script's session would share its slice with the benchmark client.
  # In the lab's shim role: on the server CPUs, beside HBase and its gateway, as ./suite shim runs.
  (lab_exec shim setsid "$JAVA" -Xms1g -Xmx1g "${JVM_OPTS[@]}" "${extra_jvm[@]}" -cp "$classpath" "$MAIN_SHIM" \
    shim.port=0 shim.metrics.port=0 "shim.ready.file=$WORK/$name.ready" \
    shim.hbase.zookeeper.quorum=127.0.0.1 "shim.hbase.zookeeper.port=$zk_port" "${settings[@]}") \
    > "$WORK/$name.out" 2>&1 < /dev/null &
  SHIM_PIDS+=($!)
  SHIM_PID_OF[$name]=$!
}

wait_shims() {
  local name started=$SECONDS
  for name in "$@"; do
    while [[ ! -s $WORK/$name.ready ]]; do
      if ((SECONDS - started >= 90)); then
        die "shim $name not ready after 90s: $(grep -h '^thrift-shim: ' "$WORK/$name.out" | tail -1)"
      fi
      if ! pid_alive "${SHIM_PID_OF[$name]}"; then
        die "shim $name failed: $(grep -h '^thrift-shim: ' "$WORK/$name.out" | tail -1 || tail -1 "$WORK/$name.out")"
      fi
      sleep 0.2
    done
  done
}

ready_value() {
  sed -n "s/^$2=//p" "$WORK/$1.ready" | head -1
}

# The client side of a shim's settings: transport and protocol, for its thrift target spec.
spec_of() {
  local name=$1 transport=buffered protocol=binary kv; shift
  for kv in "$@"; do
    case $kv in
      shim.transport=*) transport=${kv#*=} ;;
      shim.protocol=*) protocol=${kv#*=} ;;
    esac
  done
  printf 'thrift:%s:%s:%s' "$(ready_value "$name" port)" "$transport" "$protocol"
}

# The suite's CPU lab (suite.d/lab.sh): every server where ./suite hbase start and ./suite shim put
# theirs, the benchmark client on the client side. Until 2026-11-26 the shims and the client were
# left unplaced: with lab.cpus = auto HBase's gateway shared HBase's one CPU while the shim and the
# client ran on both, which made the throughput ratio a comparison of CPU placements.
lab_resolve ""
lab_prepare
lab_join_servers
info "$(lab_describe); shims on CPUs $(lab_side_cpus shim), the benchmark client on CPUs $(lab_side_cpus worker)"
info "starting the shim under test${shim_settings[*]:+ (${shim_settings[*]})}"
start_shim shim "${shim_settings[@]}"
names=(shim)
declare -A variant_settings=(
  [threadpool]="shim.server=threadpool"
  [tp-framed-bin]="shim.server=threadpool shim.transport=framed"
  [tp-buffer-cpt]="shim.server=threadpool shim.protocol=compact"
  [nb-framed-bin]="shim.server=nonblocking shim.transport=framed"
  [nb-framed-cpt]="shim.server=nonblocking shim.transport=framed shim.protocol=compact"
  [eventloop]="shim.server=eventloop"
  [eventloop-1]="shim.server=eventloop shim.eventloop.threads=1"
  [el-framed-bin]="shim.server=eventloop shim.transport=framed"
  [rpc-blocking]="shim.server=threadpool shim.hbase.rpc.client=blocking"
  [rpc-netty]="shim.server=threadpool shim.hbase.rpc.client=netty"
  [rpc-epoll]="shim.server=threadpool shim.hbase.rpc.client=epoll"
  [parallel-gc]="jvm:-XX:-UseG1GC jvm:-XX:+UseParallelGC"
  [twin]=""
)
# --variants: the other server choices beside the shim under test (the default: eventloop, buffered,
# binary); more by name in BENCH_VARIANTS
# (eventloop, eventloop-1 (one event loop thread), tp-buffer-cpt, rpc-blocking, rpc-netty, rpc-epoll, parallel-gc,
# twin = an identical second shim: the noise)
variant_names=(threadpool el-framed-bin tp-framed-bin nb-framed-bin nb-framed-cpt)
if [[ -n ${BENCH_VARIANTS:-} ]]; then
  read -r -a variant_names <<< "$BENCH_VARIANTS"
fi
if $variants; then
  for v in "${variant_names[@]}"; do
    [[ -v variant_settings[$v] ]] || die "unknown variant $v (known: ${!variant_settings[*]})"
    read -r -a kvs <<< "${variant_settings[$v]}"
    start_shim "$v" "${kvs[@]}" shim.metrics.port=-1
    names+=("$v")
  done
fi
if [[ -n $baseline_jar ]]; then
  info "starting the baseline shim from $baseline_jar"
  start_shim baseline "jar:$baseline_jar" "${shim_settings[@]}" shim.metrics.port=-1
  names+=(baseline)
fi
wait_shims "${names[@]}"

targets=(--target direct=direct --target "gateway=thrift:$gateway_port:buffered:binary"
         --target "shim=$(spec_of shim "${shim_settings[@]}")")
if [[ -n $baseline_jar ]]; then
  targets+=(--target "baseline=$(spec_of baseline "${shim_settings[@]}")")
fi
if $variants; then
  for v in "${variant_names[@]}"; do
    read -r -a kvs <<< "${variant_settings[$v]}"
    targets+=(--target "$v=$(spec_of "$v" "${kvs[@]}")")
  done
fi

# CPU per request of each process: the embedded HBase and its gateway when this checkout runs them.
cpu=()
for v in "${names[@]}"; do
  cpu+=(--cpu "$v=${SHIM_PID_OF[$v]}")
done
hbase_pid=$(pid_from_file "$HBASE_LOCAL_DIR/pids/master.pid")
gateway_pid=$(pid_from_file "$HBASE_LOCAL_DIR/pids/thrift2.pid")
if pid_alive "$hbase_pid" && [[ $(port_owner "$zk_port") == *" pid $hbase_pid" ]]; then
  cpu+=(--cpu "hbase=$hbase_pid")
fi
if pid_alive "$gateway_pid" && [[ $(port_owner "$gateway_port") == *" pid $gateway_pid" ]]; then
  cpu+=(--cpu "gateway=$gateway_pid")
fi

# The benchmark client (ShimBenchmark, the worker's engine) in the lab's worker role: the client
# CPUs. In the background and waited for, so that a stop of this script by its PID stops the client
# too (cleanup); run in the foreground it outlived the script and went on loading HBase.
bench_client() {
  (lab_exec worker "$JAVA" -Xms1g -Xmx1g "${JVM_OPTS[@]}" "-Dlog4j.configuration=thrift-shim-log4j.properties" \
    -cp "$CLASSPATH_BENCH" "$MAIN_BENCH" --zk-port "$zk_port" "$@") &
  CLIENT_PID=$!
  local rc=0
  wait "$CLIENT_PID" || rc=$?
  CLIENT_PID=""
  return "$rc"
}

info "HBase at ZooKeeper 127.0.0.1:$zk_port, gateway 127.0.0.1:$gateway_port, shim 127.0.0.1:$(ready_value shim port)"
# The gateway has been running (JIT-compiled, heap sized) since HBase started; the shims are
# fresh JVMs. Warm them first, unmeasured, so that the comparison is between warm servers.
if ((shim_warmup > 0)); then
  warm_targets=()
  for ((i = 1; i < ${#targets[@]}; i += 2)); do
    case ${targets[i]} in
      direct=* | gateway=*) ;;
      *) warm_targets+=(--target "${targets[i]}") ;;
    esac
  done
  info "warming the fresh shim JVMs: ${shim_warmup}s of get, then of put, each (not measured)"
  bench_client "${warm_targets[@]}" "${bench_args[@]}" --rounds 1 --seconds "$shim_warmup" --warmup-seconds 0 \
    --paced-fraction 0 > "$WORK/warm-up.txt" 2>&1 || die "warming the shims failed: $(tail -1 "$WORK/warm-up.txt")"
fi
rc=0
bench_client "${targets[@]}" --shim-metrics-port "$(ready_value shim metrics_port)" "${cpu[@]}" "${bench_args[@]}" || rc=$?
exit "$rc"
