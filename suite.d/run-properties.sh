# shellcheck shell=bash
# Write a run's exact grinder.properties: the chosen properties file plus what this machine
# fills in (script, worker classpath, log folder, and the embedded stack's ports when
# SUITE_PORT_OFFSET moved them). Later keys win in java.util.Properties, so appended lines
# override the copied ones. Sourced after common.sh.

# The last value given to KEY in FILE (empty when absent).
property_value() {
  sed -nE "s/^[[:space:]]*${1//./\\.}[[:space:]]*[=:][[:space:]]*(.*[^[:space:]])?[[:space:]]*$/\\1/p" "$2" | tail -1
}

write_run_properties() {
  local source=$1 target=$2 log_dir=$3; shift 3
  {
    cat "$source"
    printf '\n# ---- filled in by ./suite for this run\n'
    printf 'grinder.script = %s\n' "$SUITE_ROOT/grinder-scripts/hbase_load.py"
    printf 'grinder.logDirectory = %s\n' "$log_dir"
    printf 'grinder.jvm.classpath = %s\n' "$(worker_classpath)"
    # The embedded stack's default ports follow SUITE_PORT_OFFSET; explicit ones are kept.
    if [[ -z $(property_value hbaseload.hbase.site "$source") && $(property_value hbaseload.zookeeper.port "$source") =~ ^(2181)?$ ]]; then
      printf 'hbaseload.zookeeper.port = %s\n' "$PORT_ZK"
    fi
    if [[ $(property_value hbaseload.thrift.port "$source") =~ ^(9091)?$ ]]; then
      printf 'hbaseload.thrift.port = %s\n' "$PORT_THRIFT2"
    fi
    local override
    for override in "$@"; do printf '%s\n' "$override"; done
  } > "$target"
}
