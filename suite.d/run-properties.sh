# shellcheck shell=bash
# Write a run's exact grinder.properties: the chosen properties file, what this machine fills
# in (script, worker classpath, log folder), the caller's overrides, and last the embedded
# stack's ports when SUITE_PORT_OFFSET moved them. Later keys win in java.util.Properties, so
# appended lines override earlier ones. Sourced after common.sh.

# The last value given to KEY in FILE (empty when absent).
property_value() {
  sed -nE "s/^[[:space:]]*${1//./\\.}[[:space:]]*[=:][[:space:]]*(.*[^[:space:]])?[[:space:]]*$/\\1/p" "$2" | tail -1
}

# Port lines for the embedded stack, from the effective values in FILE: the default ports
# (ZooKeeper 2181, HBase's thrift2 gateway 9091, the thrift-shim 9092) follow
# SUITE_PORT_OFFSET; other ports and a real cluster's hbase-site.xml are left alone.
embedded_port_lines() {
  local file=$1
  if [[ -z $(property_value hbaseload.hbase.site "$file") && $(property_value hbaseload.zookeeper.port "$file") =~ ^(2181)?$ ]]; then
    printf 'hbaseload.zookeeper.port = %s\n' "$PORT_ZK"
  fi
  case $(property_value hbaseload.thrift.port "$file") in
    '' | 9091) printf 'hbaseload.thrift.port = %s\n' "$PORT_THRIFT2" ;;
    9092) printf 'hbaseload.thrift.port = %s\n' "$PORT_SHIM" ;;
  esac
}

write_run_properties() {
  local source=$1 target=$2 log_dir=$3; shift 3
  {
    cat "$source"
    printf '\n# ---- filled in by ./suite for this run\n'
    printf 'grinder.script = %s\n' "$SUITE_ROOT/grinder-scripts/hbase_load.py"
    printf 'grinder.logDirectory = %s\n' "$log_dir"
    printf 'grinder.jvm.classpath = %s\n' "$(worker_classpath)"
    local override
    for override in "$@"; do printf '%s\n' "$override"; done
  } > "$target"
  embedded_port_lines "$target" > "$target.ports"
  cat "$target.ports" >> "$target"
  rm -f "$target.ports"
}
