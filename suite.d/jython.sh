# shellcheck shell=bash
# Run a Jython 2.7 command-line tool from grinder-scripts/ with the same Java a Grinder worker
# has (Grinder's jars, Jython, the HBase client subset). Sourced after common.sh.

run_jython() {
  local script=$1; shift
  "$JAVA" -Xmx1g --add-opens=java.base/java.nio=ALL-UNNAMED \
    "-Dlogback.configurationFile=$SUITE_ROOT/grinder-scripts/logback-cli.xml" \
    "-Dpython.cachedir=$SUITE_LIB/jython-cache" -Dpython.console.encoding=UTF-8 \
    -cp "$(grinder_classpath):$(worker_classpath)" \
    org.python.util.jython "$SUITE_ROOT/grinder-scripts/$script" "$@"
}
