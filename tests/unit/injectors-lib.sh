# shellcheck shell=bash
# injectors/lib.sh, the injector hosts' helpers: names of the namespace lab, classpaths and jars
# for ssh hosts, how a command reaches a host. Sourced by libexec/suite-test (unit stage); each
# u_* runs in a subshell with pass/fail and TEST_LOGS defined, suite.d/common.sh sourced.
# shellcheck source=injectors/lib.sh
source "$SUITE_ROOT/injectors/lib.sh"

u_lab_names_and_addresses_follow_the_port_offset() {
  local got
  unset LAB_SUBNET_OCTET
  got=$(SUITE_PORT_OFFSET=700; echo "$(lab_bridge) $(lab_ns 3) $(lab_veth 3) $(lab_gateway) $(lab_addr 2)")
  local octet
  octet=$(SUITE_PORT_OFFSET=25700; lab_octet)
  if [[ $got == "hgsbr700 hgs700-inj3 hgs700i3 10.231.7.1 10.231.7.12" ]] && [[ $octet == 1 ]] \
      && [[ $(LAB_SUBNET_OCTET=42; lab_addr 1) == 10.231.42.11 ]]; then
    pass "injectors/lib.sh: lab names and addresses from the port offset (offset 700: hgsbr700, 10.231.7.x; 25700 wraps to .1; LAB_SUBNET_OCTET wins)"
  else
    fail "injectors/lib.sh: lab names: '$got', octet of 25700 '$octet'"
  fi
}

u_only_namespace_hosts_get_a_namespace() {
  SUITE_PORT_OFFSET=700
  HOST_IDS=(inj1 inj2 inj3) HOST_KIND=(netns loopback netns) HOST_INDEX=(1 0 2)
  plan_hosts_ns
  if [[ ${#HOST_NS[@]} == 3 && ${HOST_NS[0]} == hgs700-inj1 && -z ${HOST_NS[1]} && ${HOST_NS[2]} == hgs700-inj2 ]]; then
    pass "injectors/lib.sh: plan_hosts_ns names the netns hosts' namespaces by index, none for the loopback host"
  else
    fail "injectors/lib.sh: plan_hosts_ns gave (${HOST_NS[*]})"
  fi
}

u_an_ssh_host_sees_the_jars_in_its_work_dir_and_a_size_change_recopies() {
  local dir=$TEST_LOGS/jars
  mkdir -p "$dir"
  printf 'a' > "$dir/a.jar"; printf 'bb' > "$dir/b.jar"; printf 'c' > "$dir/c.jar"
  grinder_classpath() { printf '%s' "$dir/a.jar:$dir/b.jar"; }
  worker_classpath() { printf '%s' "$dir/c.jar:$dir/a.jar"; }
  HOST_KIND=(ssh local) HOST_WORK=(/remote/work /local/work)
  local ssh_cp local_cp list before after
  ssh_cp=$(host_classpath 0 grinder)
  local_cp=$(host_classpath 1 worker)
  list=$(jar_list | tr '\n' ' ')
  before=$(jars_digest)
  printf 'bbb' > "$dir/b.jar"
  after=$(jars_digest)
  if [[ $ssh_cp == "/remote/work/lib/jars/a.jar:/remote/work/lib/jars/b.jar" && $local_cp == "$dir/c.jar:$dir/a.jar" \
      && $list == "$dir/a.jar $dir/b.jar $dir/c.jar " && $before != "$after" && ${#before} == 40 ]]; then
    pass "injectors/lib.sh: an ssh host's classpath points into WORK_DIR/lib/jars, each jar listed once, a size change changes the digest"
  else
    fail "injectors/lib.sh: ssh cp '$ssh_cp', local cp '$local_cp', list '$list', digest $before -> $after"
  fi
}

u_host_sh_runs_locally_and_bounds_ssh_with_the_destination_after_dashes() {
  local fake=$TEST_LOGS/fake-ssh started out rc=0
  printf '#!/usr/bin/env bash\nprintf "%%s|" "$@" > %q\nsleep 5\n' "$TEST_LOGS/fake-ssh.args" > "$fake"
  chmod +x "$fake"
  HOST_KIND=(local ssh) HOST_DEST=("" "user@inj")
  # shellcheck disable=SC2016  # expanded by the host's shell, not here
  out=$(host_sh 0 'echo $((40 + 2))')
  started=$SECONDS
  INJECTOR_SSH_CMD="$fake -o BatchMode=yes" HOST_SH_TIMEOUT=1 host_sh 1 'echo hi' || rc=$?
  if [[ $out == 42 && $rc == 124 ]] && ((SECONDS - started <= 3)) \
      && [[ $(cat "$TEST_LOGS/fake-ssh.args") == "-o|BatchMode=yes|--|user@inj|echo hi|" ]]; then
    pass "injectors/lib.sh: host_sh runs a local host's command, and an ssh one bounded (exit 124 after 1 s) with '--' before the destination"
  else
    fail "injectors/lib.sh: host_sh local '$out', ssh rc $rc in $((SECONDS - started))s, args $(cat "$TEST_LOGS/fake-ssh.args" 2> /dev/null)"
  fi
}
