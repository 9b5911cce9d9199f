#!/usr/bin/env bash
# ./suite prepare [--properties F] [--force]: create and load the load table (see
# io.github.hbasegrindersuite.worker.TablePreparer) against the HBase the properties point at.
set -euo pipefail
SUITE_ME="suite prepare"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run-properties.sh"

properties=$SUITE_ROOT/grinder.properties
force=()
while (($#)); do
  case $1 in
    --properties) [[ $# -ge 2 ]] || die "--properties needs a file"; properties=$2; shift 2 ;;
    --force) force=(--force); shift ;;
    *) die "unknown argument '$1' (usage: ./suite prepare [--properties F] [--force])" ;;
  esac
done
[[ -f $properties ]] || die "properties file $properties not found"
require_setup

resolved=$(mktemp)
trap 'rm -f "$resolved"' EXIT
write_run_properties "$properties" "$resolved" "$SUITE_RUNS_DIR"
run_worker_java TablePreparer "$resolved" "${force[@]}"
