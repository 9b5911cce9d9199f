# shellcheck shell=bash
# shellcheck disable=SC2034  # HOST_* arrays and NS_REFUSAL are read by the scripts that source this file
# Injector hosts for ./suite run: the processes on each one (its Grinder agent, its host-metrics
# sampler), the local lab of network namespaces, and how their files come back. Which hosts a run
# has, their threads and their properties are decided by lifecycle/ (RunPlanner, plan.json);
# libexec/suite-run fills the HOST_* arrays from the plan. Sourced after suite.d/common.sh.
#
# Kinds of host (plan.json "kind"):
#   loopback  an agent on this machine at 127.0.0.1 (no isolation; said in the manifest)
#   netns     an agent in network namespace number INDEX of the lab (see lab_up)
#   local     a hosts-file line "local": this machine, the agent in its own work dir
#   ssh       a real host from a hosts file, reached by ssh
# Every ssh call puts "--" before the destination (the planner refuses destinations that start
# with '-' too) and every PID read from a remote host is checked to be a number before use.

# The hosts of this run, index 0..n-1, as plan.json lists them (set whole by lifecycle's PlanShell;
# HOST_NS by plan_hosts_ns).
HOST_IDS=()
HOST_KIND=()
HOST_INDEX=()
HOST_THREADS=()
HOST_DEST=()
HOST_JAVA=()
HOST_WORK=()
HOST_RUN_DIR=()
HOST_NS=()
HOST_AGENT_PID=()
HOST_SAMPLER_PID=()

# ServerAlive*: a host that stops answering ends the ssh call within 15 s instead of never.
INJECTOR_SSH_CMD=${INJECTOR_SSH:-ssh -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3}
# Every remote command is bounded too (a remote step that hangs with the link alive):
# HOST_SH_TIMEOUT seconds (default 120; copying the jars to a new host may take longer: 900).
HOST_SH_TIMEOUT=${HOST_SH_TIMEOUT:-120}

# ---------------------------------------------------------------- the namespace lab

# Names and addresses of the lab at this port offset: bridge hgsbr<offset>, namespaces
# hgs<offset>-inj<k>, root-side veths hgs<offset>i<k>, subnet 10.231.<x>.0/24 with
# x = offset/100 mod 256 (LAB_SUBNET_OCTET overrides).
lab_octet() { echo "${LAB_SUBNET_OCTET:-$(((SUITE_PORT_OFFSET / 100) % 256))}"; }
lab_bridge() { echo "hgsbr$SUITE_PORT_OFFSET"; }
lab_ns() { echo "hgs$SUITE_PORT_OFFSET-inj$1"; }
lab_veth() { echo "hgs${SUITE_PORT_OFFSET}i$1"; }
lab_gateway() { echo "10.231.$(lab_octet).1"; }
lab_addr() { echo "10.231.$(lab_octet).$((10 + $1))"; }

# Can this process create network namespaces? Sets NS_REFUSAL to the reason when not.
namespaces_permitted() {
  NS_REFUSAL=""
  if ! command -v ip > /dev/null; then NS_REFUSAL="the ip command (iproute2) is missing"; return 1; fi
  if [[ $(id -u) -ne 0 ]]; then NS_REFUSAL="not root (network namespaces need CAP_SYS_ADMIN)"; return 1; fi
  # one probe name per process: two runs planned at once at one offset (a study's run beside the
  # unit lane's bad-argument runs) met each other's probe ("File exists") and one fell back to loopback
  local probe="hgs$SUITE_PORT_OFFSET-probe-$$" out
  if ! out=$(ip netns add "$probe" 2>&1); then NS_REFUSAL="ip netns add failed: $out"; return 1; fi
  ip netns del "$probe" 2>/dev/null || true
  return 0
}

# Create the bridge and N namespaces. Each namespace reaches the console's 127.0.0.1 through its
# veth link: its own loopback stays down, 127.0.0.1 is routed to the bridge, and route_localnet
# on both ends lets loopback addresses cross the link. So HBase and the console keep listening on
# 127.0.0.1 only, yet every injector talks to them over a real link from its own address.
lab_up() {
  local n=$1 bridge gw k ns veth addr
  bridge=$(lab_bridge); gw=$(lab_gateway)
  if ip link show "$bridge" > /dev/null 2>&1; then
    die "network lab $bridge already exists (another run at offset $SUITE_PORT_OFFSET, or a crashed one: injectors/netns-lab.sh down)"
  fi
  if ip -4 addr show | grep -q "inet 10\.231\.$(lab_octet)\."; then
    die "subnet 10.231.$(lab_octet).0/24 is already used on this machine; set LAB_SUBNET_OCTET"
  fi
  ip link add "$bridge" type bridge || die "cannot create bridge $bridge"
  ip addr add "$gw/24" dev "$bridge"
  ip link set "$bridge" up
  sysctl -qw "net.ipv4.conf.$bridge.route_localnet=1" > /dev/null
  for ((k = 1; k <= n; k++)); do
    ns=$(lab_ns "$k"); veth=$(lab_veth "$k"); addr=$(lab_addr "$k")
    ip netns add "$ns" || die "cannot create network namespace $ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns" || die "cannot create veth $veth"
    ip link set "$veth" master "$bridge" up
    ip netns exec "$ns" ip addr add "$addr/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.route_localnet=1 net.ipv4.conf.eth0.route_localnet=1 > /dev/null
    ip netns exec "$ns" ip route add 127.0.0.1/32 via "$gw" dev eth0 src "$addr"
  done
}

# Remove the namespaces and the bridge (their veths go with them). Harmless when absent.
lab_down() {
  local ns bridge veth
  bridge=$(lab_bridge)
  # Deleting the root-side end of a veth removes both ends at once; a namespace the kernel is
  # slow to free (lingering sockets) would otherwise keep its veth, and its name, for minutes.
  while read -r veth; do
    ip link del "$veth" 2> /dev/null || true
  done < <(ip -o link show 2> /dev/null | sed -n "s/^[0-9]*: \(hgs${SUITE_PORT_OFFSET}i[0-9]*\)@.*/\1/p")
  while read -r ns _; do
    [[ $ns == "hgs$SUITE_PORT_OFFSET-inj"* ]] && ip netns del "$ns" 2> /dev/null
  done < <(ip netns list 2> /dev/null)
  ip link del "$bridge" 2> /dev/null || true
}

netns_lab_status() {
  local bridge ns
  bridge=$(lab_bridge)
  if ! ip link show "$bridge" > /dev/null 2>&1; then
    echo "network lab (offset $SUITE_PORT_OFFSET): down"
    return 3
  fi
  echo "network lab (offset $SUITE_PORT_OFFSET): bridge $bridge $(lab_gateway)/24"
  while read -r ns _; do
    [[ $ns == "hgs$SUITE_PORT_OFFSET-inj"* ]] || continue
    printf '  %s %s, %s process(es)\n' "$ns" \
      "$(ip netns exec "$ns" ip -4 -o addr show dev eth0 2> /dev/null | awk '{print $4}')" \
      "$(ip netns pids "$ns" 2> /dev/null | wc -l)"
  done < <(ip netns list 2> /dev/null)
}

# ---------------------------------------------------------------- the hosts

# Run a command on host I: locally (in its namespace for netns) or through ssh.
host_sh() {
  local i=$1; shift
  case ${HOST_KIND[$i]} in
    ssh)
      local -a ssh_cmd
      read -r -a ssh_cmd <<< "$INJECTOR_SSH_CMD"
      timeout "$HOST_SH_TIMEOUT" "${ssh_cmd[@]}" -- "${HOST_DEST[$i]}" "$*" ;;
    netns) ip netns exec "${HOST_NS[$i]}" bash -c "$*" ;;
    *) bash -c "$*" ;;
  esac
}

# The network namespace of each host of the plan (HOST_KIND, HOST_INDEX: lifecycle's PlanShell)
# into HOST_NS, empty for hosts that are not namespaces.
plan_hosts_ns() {
  local i
  HOST_NS=()
  for i in "${!HOST_IDS[@]}"; do
    if [[ ${HOST_KIND[$i]} == netns ]]; then HOST_NS+=("$(lab_ns "${HOST_INDEX[$i]}")"); else HOST_NS+=(""); fi
  done
}

# Where host I keeps this run's files (plan.json "run_dir_on_host").
host_run_dir() {
  echo "${HOST_RUN_DIR[$1]}"
}

# The workers' classpath on this machine (the worker jar first, where the checkout has one).
local_worker_classpath() {
  if declare -F worker_classpath > /dev/null; then worker_classpath; else classpath_of worker; fi
}

# The jars an ssh host needs: the Grinder classpath (console jar first) and the workers' one.
# They are copied once into WORK_DIR/lib/jars; a digest of names and sizes says when to recopy.
jar_list() {
  { grinder_classpath; echo; local_worker_classpath; echo; } | tr ':' '\n' | awk 'NF && !seen[$0]++'
}

jars_digest() {
  jar_list | while read -r jar; do printf '%s %s\n' "${jar##*/}" "$(stat -c %s "$jar")"; done | sha1sum | cut -d' ' -f1
}

# Classpath as seen on host I.
host_classpath() {
  local i=$1 which=$2
  local cp
  if [[ $which == grinder ]]; then cp=$(grinder_classpath); else cp=$(local_worker_classpath); fi
  if [[ ${HOST_KIND[$i]} == ssh ]]; then
    tr ':' '\n' <<< "$cp" | sed "s|.*/|${HOST_WORK[$i]}/lib/jars/|" | paste -sd:
  else
    printf '%s\n' "$cp"
  fi
}

# Copy the metrics sampler to a hosts-file host, and to an ssh host the jars unless it has them.
provision_host() {
  local i=$1 work=${HOST_WORK[$1]} digest remote started=$SECONDS
  [[ ${HOST_KIND[$i]} == ssh || ${HOST_KIND[$i]} == local ]] || return 0
  digest=$(jars_digest)
  remote=$(host_sh "$i" "cat $(printf %q "$work/lib/.digest") 2>/dev/null" < /dev/null || true)
  if [[ ${HOST_KIND[$i]} == ssh && $remote != "$digest" ]]; then
    info "  ${HOST_IDS[$i]}: copying $(jar_list | wc -l) jars to ${HOST_DEST[$i]}:$work/lib/jars"
    jar_list | tar -cf - -T - --transform='s|.*/|jars/|' 2> /dev/null \
      | HOST_SH_TIMEOUT=900 host_sh "$i" "mkdir -p $(printf %q "$work/lib") && tar -C $(printf %q "$work/lib") -xf - && echo $digest > $(printf %q "$work/lib/.digest")" \
      || die "copying jars to ${HOST_IDS[$i]} (${HOST_DEST[$i]}) failed"
    progress "$started" "${HOST_IDS[$i]}: jars in place"
  fi
  tar -C "$SUITE_ROOT/injectors" -cf - host-metrics.sh host-metrics.awk \
    | host_sh "$i" "mkdir -p $(printf %q "$work/injectors") && tar -C $(printf %q "$work/injectors") -xf -" \
    || die "copying the metrics sampler to ${HOST_IDS[$i]} (${HOST_DEST[$i]}) failed"
}

# The JVM arguments of an agent whose workers are its threads (session.workers = warm), into the
# caller's jvm array: the workers' own (Grinder splits grinder.jvm.arguments on blanks, so do we),
# its GC log in its folder DIR, and Grinder's instrumentation agent, which a worker JVM gets from its
# agent and a worker thread must find in the JVM it runs in.
warm_agent_jvm() {
  local i=$1 dir=$2 dcr
  dcr=$(tr ':' '\n' <<< "$(grinder_classpath)" | grep -m1 '/grinder-dcr-agent-[^/]*\.jar$') \
    || die "grinder-dcr-agent jar not on the Grinder classpath: ./suite setup"
  # shellcheck disable=SC2206  # Grinder's own splitting
  jvm=($WORKER_JVM_ARGUMENTS)
  [[ $WORKER_JVM_ARGUMENTS == *-Xlog:gc* || $WORKER_JVM_ARGUMENTS == *-verbose:gc* ]] \
    || jvm+=("-Xlog:gc:file=$dir/${HOST_IDS[$i]}-gc.%p.log:utctime")
  jvm+=("-javaagent:$dcr")
}

# Start host I's agent; its properties are AGENT_PROPERTIES (a local file, copied for ssh).
start_agent() {
  local i=$1 props=$2 dir cp java
  dir=$(host_run_dir "$i"); java=${HOST_JAVA[$i]}
  cp=$(host_classpath "$i" grinder)
  case ${HOST_KIND[$i]} in
    loopback | netns)
      mkdir -p "$dir"
      [[ $props -ef $dir/agent.properties ]] || cp "$props" "$dir/agent.properties"
      local -a prefix=()
      # its network namespace only: `ip netns exec` would also mount a /sys of its own, without the
      # cgroup file system its workers join the lab's worker role through (injectors/lab-java.sh)
      [[ ${HOST_KIND[$i]} == netns ]] && prefix=(nsenter "--net=/run/netns/${HOST_NS[$i]}")
      # The agent in the lab's agent role; its workers join the worker role through grinder.jvm
      # (injectors/lab-java.sh) with these two variables (suite.d/lab.sh). Warm workers
      # (session.workers = warm) are threads of the agent: then the agent is the worker JVM.
      local role=agent
      local -a jvm
      # shellcheck disable=SC2206  # BRIEF_JVM_OPTS is a list of words
      jvm=($SERVICE_HEAP_START -Xmx256m $BRIEF_JVM_OPTS)
      if [[ ${WORKERS:-fresh} == warm ]]; then
        role=worker
        warm_agent_jvm "$i" "$dir"
        cp="$cp:$(host_classpath "$i" worker)"
      fi
      (cd "$dir" && SUITE_LAB_JOIN=$(lab_join_files worker) SUITE_LAB_JAVA=$java \
        lab_exec "$role" "${prefix[@]}" "$java" "${jvm[@]}" -cp "$cp" net.grinder.Grinder agent.properties \
        > "$dir/agent.out" 2>&1 < /dev/null) &
      HOST_AGENT_PID[i]=$!
      echo "${HOST_AGENT_PID[$i]}" > "$dir/agent.pid" ;;
    local | ssh)
      local q
      q=$(printf %q "$dir")
      host_sh "$i" "mkdir -p $q" < /dev/null || die "cannot create $dir on ${HOST_IDS[$i]} (${HOST_DEST[$i]})"
      host_sh "$i" "cat > $q/agent.properties" < "$props" || die "cannot copy agent.properties to ${HOST_IDS[$i]}"
      HOST_AGENT_PID[i]=$(host_sh "$i" "cd $q && { nohup setsid $(printf %q "$java") $SERVICE_HEAP_START -Xmx256m $BRIEF_JVM_OPTS -cp $(printf %q "$cp") net.grinder.Grinder agent.properties > agent.out 2>&1 < /dev/null & echo \$! > agent.pid; cat agent.pid; }" < /dev/null) \
        || die "cannot start the agent on ${HOST_IDS[$i]} (${HOST_DEST[$i]})"
      [[ ${HOST_AGENT_PID[$i]} =~ ^[0-9]+$ ]] || die "the agent on ${HOST_IDS[$i]} gave no PID ('${HOST_AGENT_PID[$i]}')" ;;
  esac
}

agent_alive() {
  local i=$1 pid=${HOST_AGENT_PID[$1]:-}
  [[ -n $pid ]] || return 1
  case ${HOST_KIND[$i]} in
    loopback | netns) pid_alive "$pid" ;;
    *) host_sh "$i" "kill -0 $pid 2>/dev/null" < /dev/null ;;
  esac
}

# Stop host I's agent by its PID (it normally exits by itself when the console stops it).
stop_agent() {
  local i=$1 pid=${HOST_AGENT_PID[$1]:-}
  [[ -n $pid ]] || return 0
  case ${HOST_KIND[$i]} in
    loopback | netns) stop_pid "$pid" 10 "agent ${HOST_IDS[$i]}" ;;
    *) host_sh "$i" "kill $pid 2>/dev/null; for n in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2>/dev/null || exit 0; sleep 1; done; kill -9 $pid 2>/dev/null" < /dev/null || true ;;
  esac
  HOST_AGENT_PID[i]=""
}

# Host I's metrics sampler, for at most MAX seconds, into its run dir's metrics.csv.
start_sampler() {
  local i=$1 max=$2 dir
  dir=$(host_run_dir "$i")
  case ${HOST_KIND[$i]} in
    netns)
      mkdir -p "$dir"
      (METRICS_NET_EXCLUDE='^lo$' lab_exec sampler ip netns exec "${HOST_NS[$i]}" \
        "$SUITE_ROOT/injectors/host-metrics.sh" "$dir/metrics.csv" "$max") > "$dir/metrics.out" 2>&1 < /dev/null &
      HOST_SAMPLER_PID[i]=$! ;;
    local | ssh)
      local q
      q=$(printf %q "$dir")
      HOST_SAMPLER_PID[i]=$(host_sh "$i" "mkdir -p $q && cd $q && { nohup setsid bash $(printf %q "${HOST_WORK[$i]}/injectors/host-metrics.sh") metrics.csv $max > metrics.out 2>&1 < /dev/null & echo \$!; }" < /dev/null) || true
      [[ ${HOST_SAMPLER_PID[$i]} =~ ^[0-9]+$ ]] || HOST_SAMPLER_PID[i]="" ;;
    *) return 0 ;; # loopback hosts share this machine's sampler (see run.sh)
  esac
}

# Stop every host's agent and sampler at once (each waits up to 10 s for its agent; one after
# the other, a dead console's N agents took N times that).
stop_all_agents() {
  local i
  local -a waiting=()
  for i in "${!HOST_IDS[@]}"; do
    (stop_agent "$i"; stop_sampler "$i") &
    waiting+=($!)
  done
  ((${#waiting[@]} == 0)) || wait "${waiting[@]}" || true
  for i in "${!HOST_IDS[@]}"; do HOST_AGENT_PID[i]=""; HOST_SAMPLER_PID[i]=""; done
}

stop_sampler() {
  local i=$1 pid=${HOST_SAMPLER_PID[$1]:-}
  [[ -n $pid ]] || return 0
  case ${HOST_KIND[$i]} in
    netns) stop_pid "$pid" 5 "metrics sampler ${HOST_IDS[$i]}" ;;
    *) host_sh "$i" "kill $pid 2>/dev/null" < /dev/null || true ;;
  esac
  HOST_SAMPLER_PID[i]=""
}

# Bring host I's logs and metrics into runs/run-N/injectors/<host>/ (nothing to do when the
# host wrote there directly). Grinder's file store (the distributed scripts) is left behind. A
# hosts-file host's run folder is removed once copied, so hosts do not fill up run after run; one
# that could not be copied stays there, named in the warning.
collect_host() {
  local i=$1 target=$2 dir
  dir=$(host_run_dir "$i")
  mkdir -p "$target"
  case ${HOST_KIND[$i]} in
    loopback | netns) rm -rf "$target/${HOST_IDS[$i]}-file-store" ;;
    *)
      host_sh "$i" "tar -C $(printf %q "$dir") --exclude='*-file-store' -cf - ." < /dev/null | tar -C "$target" -xf - \
        || { info "  warning: collecting from ${HOST_IDS[$i]} (${HOST_DEST[$i]}:$dir) failed: left there"; return 1; }
      host_sh "$i" "rm -rf $(printf %q "$dir")" < /dev/null \
        || info "  warning: could not remove ${HOST_DEST[$i]}:$dir after copying it" ;;
  esac
}
