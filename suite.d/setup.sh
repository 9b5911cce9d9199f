#!/usr/bin/env bash
# ./suite setup: install what is missing, idempotently. Debian packages for R (CRAN is not
# reachable; R packages come as r-cran-*), then every Java module built by Maven into lib/.
# A second run checks stamps and finishes in seconds.
set -euo pipefail
SUITE_ME="suite setup"
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# chromium: ./suite test opens a report in it headless (no console error, every image decodes).
# jq: bash reads the lifecycle's JSON (plan.json, sweep-plan.json) with it, never with sed.
DEBIAN_PACKAGES=(r-base-core r-cran-data.table r-cran-ggplot2 r-cran-testthat r-cran-jsonlite
                 r-cran-base64enc iproute2 procps time shellcheck chromium jq)

missing_debian_packages() {
  local pkg
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || printf '%s\n' "$pkg"
  done
}

install_debian_packages() {
  local -a missing
  mapfile -t missing < <(missing_debian_packages)
  if ((${#missing[@]} == 0)); then
    info "debian packages: all present"
    return 0
  fi
  command -v apt-get >/dev/null || die "apt-get not found; install by hand: ${missing[*]}"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo -n"
  local started=$SECONDS log=$SUITE_LIB/apt.log
  mkdir -p "$SUITE_LIB"
  info "debian packages: installing ${missing[*]}"
  $sudo apt-get update -q > "$log" 2>&1 || die "apt-get update failed: $(tail -1 "$log") (log: $log)"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >> "$log" 2>&1 \
    || die "apt-get install failed: $(grep -E '^E:' "$log" | tail -1) (log: $log)"
  info "debian packages: installed in $((SECONDS - started))s"
}

check_java() {
  [[ -x $(command -v "$JAVA") ]] || die "java not found: install OpenJDK 17 or set JAVA_HOME"
  local version
  version=$("$JAVA" -version 2>&1 | head -1)
  [[ $version == *'"17.'* ]] || die "JDK 17 required (HBase 2.6.1's Hadoop jars fail on newer JDKs); found: $version. Set JAVA_HOME to a JDK 17"
  command -v mvn >/dev/null || die "mvn not found: install Maven"
}

# Everything Maven builds depends on the poms and the Java sources; rebuild when any changed.
java_inputs_digest() {
  (cd "$SUITE_ROOT" && find . -path ./lib -prune -o -path ./runs -prune -o -path '*/target' -prune -o \
      \( -name pom.xml -o -path '*/src/*' \) -type f -print | LC_ALL=C sort | xargs sha1sum; echo "$SUITE_LIB") \
    | sha1sum | cut -d' ' -f1
}

build_java() {
  local stamp=$SUITE_LIB/.java-build.stamp digest
  digest=$(java_inputs_digest)
  if [[ -s $stamp && $(cat "$stamp") == "$digest" && -s $SUITE_LIB/hbase-grinder-console.jar && -s $SUITE_LIB/hbase-grinder-worker.jar \
        && -s $SUITE_LIB/hbase-grinder-lifecycle.jar ]]; then
    info "java: lib/ is up to date ($(find "$SUITE_LIB/jars" -name '*.jar' | wc -l) jars)"
    return 0
  fi
  local started=$SECONDS log=$SUITE_LIB/maven.log
  mkdir -p "$SUITE_LIB"
  info "java: resolving Grinder 3.11, Jython 2.7.4, HBase 2.6.1 and building the modules with Maven (first time: about a minute)"
  (cd "$SUITE_ROOT" && mvn -B -q -DskipTests "-Dsuite.lib=$SUITE_LIB" package > "$log" 2>&1) &
  local mvn_pid=$!
  while pid_alive "$mvn_pid"; do
    sleep 5
    pid_alive "$mvn_pid" && progress "$started" "maven: $(find "$HOME/.m2/repository" -name '*.jar' 2>/dev/null | wc -l) jars in the local repository"
  done
  wait "$mvn_pid" || die "maven build failed: $(grep -E '^\[ERROR\]' "$log" | head -1 | cut -c1-300) (log: $log)"
  cp "$SUITE_ROOT/console/target/hbase-grinder-console.jar" "$SUITE_ROOT/grinder-scripts/target/hbase-grinder-worker.jar" \
    "$SUITE_ROOT/lifecycle/target/hbase-grinder-lifecycle.jar" "$SUITE_LIB/"
  echo "$digest" > "$stamp"
  info "java: built in $((SECONDS - started))s: $(find "$SUITE_LIB/jars" -name '*.jar' | wc -l) jars in lib/jars"
}

started=$SECONDS
check_java
install_debian_packages
build_java
info "setup done in $((SECONDS - started))s"
