# shellcheck shell=bash
# Write a run's exact grinder.properties: the chosen properties file plus what this machine
# fills in (script, classpath, log folder, the embedded HBase's port). Later keys win in
# java.util.Properties, so appended lines override the copied ones. Sourced after common.sh.

write_run_properties() {
  local source=$1 target=$2 log_dir=$3; shift 3
  {
    cat "$source"
    printf '\n# ---- filled in by ./suite for this run\n'
    printf 'grinder.script = %s\n' "$SUITE_ROOT/grinder-scripts/hbase_load.py"
    printf 'grinder.logDirectory = %s\n' "$log_dir"
    printf 'grinder.jvm.classpath = %s\n' "$(classpath_of worker)"
    if ! grep -qE '^\s*hbaseload\.hbase\.site\s*[=:]\s*\S' "$source"; then
      printf 'hbaseload.zookeeper.port = %s\n' "$PORT_ZK"
    fi
    local override
    for override in "$@"; do printf '%s\n' "$override"; done
  } > "$target"
}
