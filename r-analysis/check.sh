#!/usr/bin/env bash
# check.sh - R CMD check --no-manual of the package hbasegrinder (this folder), built into a
# temporary folder; prints the check's summary and exits 1 on an ERROR or a WARNING (NOTEs pass).
# About 25 s. The tests are not part of it (R CMD check runs tests/*.R, and there is none): they
# reach outside the package (scenarios/, lifecycle/) and run in the R lane, tests/run-tests.R.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d /tmp/hbasegrinder-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
R CMD build --no-build-vignettes --no-manual "$here" > build.log 2>&1 || { cat build.log; exit 1; }
# CRAN is not reachable here: no look-up of the dependencies' versions there.
status=0
_R_CHECK_FORCE_SUGGESTS_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false \
  R CMD check --no-manual hbasegrinder_*.tar.gz > check.log 2>&1 || status=$?
sed -n '/^\* checking/{/\.\.\. OK$/d;p}; /^Status:/p' check.log
grep -A30 -E '\.\.\. (WARNING|ERROR|NOTE)$' check.log | grep -vE '^\* checking .*\.\.\. OK$' || true
if ((status != 0)) || grep -qE '^Status: .*(ERROR|WARNING)' check.log; then
  echo "check.sh: R CMD check found an ERROR or a WARNING (above)" >&2
  exit 1
fi
echo "check.sh: R CMD check --no-manual: $(grep '^Status:' check.log)"
