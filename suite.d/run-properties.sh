# shellcheck shell=bash
# A standalone run's exact grinder.properties (an agent without the console, ./suite prepare,
# the injector benchmark, tests): the chosen file, what this machine fills in (script, worker
# classpath, log folder), the caller's overrides ("key = value" lines, later ones win), and the
# embedded stack's ports when SUITE_PORT_OFFSET moved them. The file is read and written by
# lifecycle/ (java.util.Properties), the suite's one properties parser. Sourced after common.sh.
#   write_run_properties SOURCE TARGET LOG_DIR [OVERRIDE_LINE...]
write_run_properties() {
  local source=$1 target=$2 log_dir=$3; shift 3
  lifecycle resolve-properties --out "$target" --embedded-ports "$EMBEDDED_PORTS" \
    --script "$SUITE_ROOT/grinder-scripts/hbase_load.py" --log-dir "$log_dir" --worker-classpath "$(worker_classpath)" \
    "$source" -- "$@" || die "cannot resolve the properties of $source"
}
