# shellcheck shell=bash
# The CPU lab of this machine: which CPUs the server side (the embedded HBase, its thrift2 gateway,
# the shim) and the client side (console, agents, workers, samplers, ./suite itself) run on
# (lab.cpus, split by lifecycle's LabCpus), and one accounting cgroup per role, so that every CPU
# second of a run is charged to whoever spent it (the roles: lifecycle/.../cpu/Role.java; the
# sampler: CpuSampler). Bash places processes; Java decides the split and does the counting.
# Sourced after suite.d/common.sh.
#
# How (LAB_CGROUPS, found once; SUITE_LAB_CGROUPS=v1|v2|none forces it):
#   v1    cgroup v1: a cpuacct cgroup per role counts, a cpuset cgroup per role places
#   v2    cgroup v2: a cgroup per role counts (cpu.stat) and places when the cpuset controller is there
#   none  no cgroup can be made (not root, no cgroup file system): taskset places, and the sampler
#         tells roles by command line (processes that live less than a second go uncounted)
# Under bench/cpu-meter.sh (SUITE_LAB_METER set) processes stay in the meter's accounting cgroup:
# the lab only places them (v1 cpuset, else taskset) and the sampler counts by command line.
# Cgroups are named hgs<SUITE_PORT_OFFSET>/<role>: labs of two offsets do not share counters.

LAB_NAME=hgs$SUITE_PORT_OFFSET
LAB_SERVER_ROLES="hbase gateway shim"
LAB_CLIENT_ROLES="console agent worker peer sampler lifecycle"
# shellcheck disable=SC2034  # read by hbase-local/hbase-ctl.sh and thrift-shim/shim-ctl.sh
LAB_START_JVM_OPTS=()   # lab_start_wide

# The mount point of the cgroup v1 hierarchy holding CONTROLLER, or nothing.
lab_v1_mount() {
  awk -v c="$1" '$3 == "cgroup" { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $2; exit } }' /proc/mounts 2> /dev/null
}

# Find how this machine can keep a lab (sets LAB_CGROUPS, LAB_ACCT_ROOT, LAB_CPUSET_ROOT); once.
lab_method() {
  [[ -z ${LAB_CGROUPS:-} ]] || return 0
  local forced=${SUITE_LAB_CGROUPS:-} acct cpuset v2
  LAB_ACCT_ROOT="" LAB_CPUSET_ROOT=""
  if [[ $(id -u) -eq 0 && $forced != none ]]; then
    acct=$(lab_v1_mount cpuacct); cpuset=$(lab_v1_mount cpuset)
    v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts 2> /dev/null)
    if [[ $forced != v2 && -n $acct && -w $acct ]]; then
      LAB_CGROUPS=v1 LAB_ACCT_ROOT=$acct
      [[ -n $cpuset && -w $cpuset ]] && LAB_CPUSET_ROOT=$cpuset
    elif [[ $forced != v1 && -n $v2 && -w $v2 ]]; then
      LAB_CGROUPS=v2 LAB_ACCT_ROOT=$v2
      grep -qw cpuset "$v2/cgroup.controllers" 2> /dev/null && LAB_CPUSET_ROOT=$v2
    fi
  fi
  LAB_CGROUPS=${LAB_CGROUPS:-none}
  if [[ -n $forced && $forced != "$LAB_CGROUPS" ]]; then
    die "SUITE_LAB_CGROUPS=$forced cannot be had here (this machine gives: $LAB_CGROUPS)"
  fi
}

# The lab's split for SPEC (empty: SUITE_LAB_CPUS, else lab.cpus of PROPERTIES, else auto), from
# lifecycle's LabCpus: sets LAB_SPEC LAB_SERVER_CPUS LAB_CLIENT_CPUS LAB_ISOLATED LAB_NOTE.
lab_resolve() {
  local spec=${1:-${SUITE_LAB_CPUS:-}} properties=${2:-$SUITE_ROOT/grinder.properties} out
  out=$(lifecycle lab --cpus "$spec" --properties "$properties" --online "$(lab_online_cpus)" 2>&1) \
    || die "$(grep -v '^\s*at ' <<< "$out" | head -1)"
  eval "$out"
}

lab_online_cpus() {
  cat /sys/devices/system/cpu/online 2> /dev/null || echo "0-$(($(nproc --all) - 1))"
}

lab_side_cpus() {
  case " $LAB_SERVER_ROLES " in *" $1 "*) echo "$LAB_SERVER_CPUS" ;; *) echo "$LAB_CLIENT_CPUS" ;; esac
}

# Make (or re-point) every role's cgroups for the resolved split. Harmless to call again: a running
# process in a role follows its cgroup's new CPUs at once.
lab_prepare() {
  lab_method
  [[ $LAB_CGROUPS != none ]] || return 0
  local role dir online
  online=$(lab_online_cpus)
  if [[ -n $LAB_CPUSET_ROOT ]]; then
    if [[ $LAB_CGROUPS == v2 ]]; then
      grep -qw cpuset "$LAB_CPUSET_ROOT/cgroup.subtree_control" 2> /dev/null \
        || echo +cpuset > "$LAB_CPUSET_ROOT/cgroup.subtree_control" 2> /dev/null || LAB_CPUSET_ROOT=""
    fi
  fi
  mkdir -p "$LAB_ACCT_ROOT/$LAB_NAME" || die "cannot make the lab's cgroup $LAB_ACCT_ROOT/$LAB_NAME"
  if [[ $LAB_CGROUPS == v1 && -n $LAB_CPUSET_ROOT ]]; then
    mkdir -p "$LAB_CPUSET_ROOT/$LAB_NAME"
    lab_cpuset_write "$LAB_CPUSET_ROOT/$LAB_NAME" "$online"
  elif [[ $LAB_CGROUPS == v2 && -n $LAB_CPUSET_ROOT ]]; then
    echo +cpuset > "$LAB_ACCT_ROOT/$LAB_NAME/cgroup.subtree_control" 2> /dev/null || LAB_CPUSET_ROOT=""
  fi
  for role in $LAB_SERVER_ROLES $LAB_CLIENT_ROLES; do
    mkdir -p "$LAB_ACCT_ROOT/$LAB_NAME/$role"
    [[ -n $LAB_CPUSET_ROOT ]] || continue
    dir=$LAB_CPUSET_ROOT/$LAB_NAME/$role
    mkdir -p "$dir"
    lab_cpuset_write "$dir" "$(lab_side_cpus "$role")"
  done
}

# A cpuset cgroup's CPUs (v1 wants its memory nodes first: those of its parent).
lab_cpuset_write() {
  local dir=$1 cpus=$2
  # cgroup files say size 0 whatever they hold: read them
  if [[ -f $dir/cpuset.mems && -z $(tr -d '[:space:]' < "$dir/cpuset.mems") ]]; then
    cat "$(dirname "$dir")/cpuset.mems" > "$dir/cpuset.mems"
  fi
  echo "$cpus" > "$dir/cpuset.cpus" || die "cannot give CPUs $cpus to the lab's cgroup $dir"
}

# Put PID (and every thread of it; its children to come follow) into ROLE: counted there, and run
# on its side's CPUs. A PID that is already gone is no error.
lab_join() {
  local role=$1 pid=$2
  lab_method
  pid_alive "$pid" || return 0
  if [[ $LAB_CGROUPS != none && -z ${SUITE_LAB_METER:-} ]]; then
    echo "$pid" > "$LAB_ACCT_ROOT/$LAB_NAME/$role/cgroup.procs" 2> /dev/null || { pid_alive "$pid" && die "cannot put pid $pid into the lab's $role cgroup"; }
  fi
  if [[ $LAB_CGROUPS == v1 && -n $LAB_CPUSET_ROOT ]]; then
    echo "$pid" > "$LAB_CPUSET_ROOT/$LAB_NAME/$role/cgroup.procs" 2> /dev/null || { pid_alive "$pid" && die "cannot put pid $pid on the lab's $role CPUs"; }
  elif [[ -z $LAB_CPUSET_ROOT || -n ${SUITE_LAB_METER:-} ]] && [[ -n ${LAB_SERVER_CPUS:-} ]]; then
    taskset -a -p -c "$(lab_side_cpus "$role")" "$pid" > /dev/null 2>&1 || { pid_alive "$pid" && die "taskset could not put pid $pid on CPUs $(lab_side_cpus "$role")"; }
  fi
}

# The embedded stack's running servers (HBase, its gateway, the shim: by their PID files) into their
# roles: a run whose lab differs from the one they started in moves them (their thread pools stay
# sized for the CPUs they saw at start).
lab_join_servers() {
  local pid
  pid=$(pid_of_ours "$HBASE_LOCAL_DIR/pids/master.pid" org.apache.hadoop.hbase.master.HMaster)
  [[ -z $pid ]] || lab_join hbase "$pid"
  # a local cluster's ZooKeeper and region servers (./suite hbase start --regionservers N)
  local file
  for file in "$HBASE_LOCAL_DIR"/pids/zookeeper.pid "$HBASE_LOCAL_DIR"/pids/regionserver-*.pid; do
    [[ -e $file ]] || continue
    pid=$(pid_of_ours "$file" org.apache.hadoop.hbase.)
    [[ -z $pid ]] || lab_join hbase "$pid"
  done
  pid=$(pid_of_ours "$HBASE_LOCAL_DIR/pids/thrift2.pid" org.apache.hadoop.hbase.thrift2.ThriftServer)
  [[ -z $pid ]] || lab_join gateway "$pid"
  pid=$(pid_of_ours "$HBASE_LOCAL_DIR/pids/thrift-shim.pid" io.github.hbasegrindersuite.shim.ShimMain)
  [[ -z $pid ]] || lab_join shim "$pid"
}

# The embedded stack's servers on CPUS for a while (a warm-up's servers on every CPU): their roles'
# cgroups get CPUS, or taskset moves them where there are none; with the lab's own server CPUs, back.
lab_servers_on() {
  local LAB_SERVER_CPUS=$1   # dynamic scope: lab_side_cpus reads it for the server roles
  lab_prepare
  lab_join_servers
}

# lab_start_wide ROLE...: servers about to start in an isolated lab that is idle (no process in a
# client role: no run to disturb) start on every CPU, each ROLE whose cgroup holds no process yet;
# their JVMs get LAB_START_JVM_OPTS (-XX:ActiveProcessorCount, the server side's count), so they
# size GC, JIT and thread pools as on the server CPUs alone. Start-up is no measurement, and on one
# server CPU it is HBase's slowest step: a fresh standalone and its gateway were ready in 13.5-14.6 s
# there, 8.5-10.7 s on both CPUs of this machine. lab_start_done puts them on the server CPUs.
# Only where a cpuset places them (taskset placements stay as they are); SUITE_LAB_WIDE_START=off keeps
# every start on the server CPUs.
lab_start_wide() {
  # shellcheck disable=SC2034  # read by hbase-local/hbase-ctl.sh and thrift-shim/shim-ctl.sh
  LAB_START_JVM_OPTS=() LAB_WIDE_ROLES=""
  lab_method
  [[ ${LAB_ISOLATED:-false} == true && -n ${LAB_SERVER_CPU_COUNT:-} && -n $LAB_CPUSET_ROOT && -z ${SUITE_LAB_METER:-} \
     && ${SUITE_LAB_WIDE_START:-on} != off ]] || return 0
  local role
  for role in $LAB_CLIENT_ROLES; do
    [[ -z $(cat "$LAB_CPUSET_ROOT/$LAB_NAME/$role/cgroup.procs" 2> /dev/null) ]] || return 0
  done
  for role in "$@"; do
    [[ -z $(cat "$LAB_CPUSET_ROOT/$LAB_NAME/$role/cgroup.procs" 2> /dev/null) ]] || continue
    lab_cpuset_write "$LAB_CPUSET_ROOT/$LAB_NAME/$role" "$(lab_online_cpus)"
    LAB_WIDE_ROLES+="$role "
  done
  [[ -n $LAB_WIDE_ROLES ]] || return 0
  # shellcheck disable=SC2034  # read by hbase-local/hbase-ctl.sh and thrift-shim/shim-ctl.sh
  LAB_START_JVM_OPTS=("-XX:ActiveProcessorCount=$LAB_SERVER_CPU_COUNT")
  info "  starting on CPUs $(lab_online_cpus), sized for the server side's $LAB_SERVER_CPU_COUNT CPU(s); on CPUs $LAB_SERVER_CPUS once ready"
}

# The roles lab_start_wide widened back on the server CPUs, with every process in them.
lab_start_done() {
  local role
  for role in ${LAB_WIDE_ROLES:-}; do
    lab_cpuset_write "$LAB_CPUSET_ROOT/$LAB_NAME/$role" "$LAB_SERVER_CPUS"
  done
  LAB_WIDE_ROLES=""
}

# Run COMMAND in ROLE: the subshell joins first, then execs, so everything it starts is born there.
lab_exec() {
  local role=$1; shift
  lab_join "$role" "$BASHPID"
  exec "$@"
}

# The files a process writes its pid into to join ROLE (for the workers' wrapper, injectors/lab-java.sh).
# Agents in the namespace lab enter only its network namespace (nsenter --net, injectors/lib.sh):
# `ip netns exec` would also give them a /sys of their own, without the cgroup file system.
lab_join_files() {
  local role=$1 files=()
  lab_method
  [[ $LAB_CGROUPS != none && -z ${SUITE_LAB_METER:-} ]] && files+=("$LAB_ACCT_ROOT/$LAB_NAME/$role/cgroup.procs")
  [[ $LAB_CGROUPS == v1 && -n $LAB_CPUSET_ROOT ]] && files+=("$LAB_CPUSET_ROOT/$LAB_NAME/$role/cgroup.procs")
  echo "${files[*]}"
}

# The CpuSampler's arguments for this lab: its cgroups, or nothing (roles by command line).
lab_sampler_args() {
  lab_method
  if [[ $LAB_CGROUPS != none && -z ${SUITE_LAB_METER:-} ]]; then
    printf '%s\n' --cgroups "$LAB_ACCT_ROOT/$LAB_NAME" --cgroup-root "$LAB_ACCT_ROOT"
  fi
}

# One line: where each side runs and how the lab counts.
lab_describe() {
  lab_method
  printf 'lab: %s (%s)\n' "${LAB_NOTE:-not resolved}" "$(lab_how)"
}

# Remove the lab's cgroups that no process uses any more (after ./suite hbase stop); others stay.
lab_teardown() {
  lab_method
  [[ $LAB_CGROUPS != none ]] || return 0
  local root role
  for root in "$LAB_ACCT_ROOT" "$LAB_CPUSET_ROOT"; do
    [[ -n $root && -d $root/$LAB_NAME ]] || continue
    for role in $LAB_SERVER_ROLES $LAB_CLIENT_ROLES; do
      [[ -d $root/$LAB_NAME/$role ]] || continue
      [[ -n $(cat "$root/$LAB_NAME/$role/cgroup.procs" 2> /dev/null) ]] || rmdir "$root/$LAB_NAME/$role" 2> /dev/null || true
    done
    rmdir "$root/$LAB_NAME" 2> /dev/null || true
  done
}

# One line for status commands: where ROLE's process PID may run, and how the lab keeps it.
lab_status() {
  local role=$1 pid=${2:-} allowed=""
  lab_method
  [[ -n $pid ]] && allowed=$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
  [[ -n $allowed ]] || return 0
  info "lab: $role on CPUs $allowed of $(lab_online_cpus) ($(lab_how))"
}

lab_how() {
  case $LAB_CGROUPS in
    none) echo "no cgroups: placed by taskset, counted by command line" ;;
    *) if [[ -n $LAB_CPUSET_ROOT ]]; then echo "cgroup $LAB_CGROUPS $LAB_NAME: counted per role, placed by cpuset"
       else echo "cgroup $LAB_CGROUPS $LAB_NAME: counted per role, placed by taskset"; fi ;;
  esac
}
