#!/usr/bin/env bash
# ./suite console [RUN OPTIONS]: the same run as ./suite run, in the Grinder Swing console, so a
# person watches the TPS graph and the processes while the suite's run controller drives it:
# it waits for the agents, distributes the scripts and the run's properties, starts the workers;
# pressing "Stop collecting" (or stopping the processes) ends the run early, and the reason says
# so. The run lands in runs/run-N like any other (manifest, statistics, logs, metrics); the
# window stays up --linger seconds (default 30) after the run, then closes.
# Needs a display. On a headless machine, a virtual one:
#   apt-get install xvfb && xvfb-run -a ./suite console --injectors 2 --threads 8 --duration 60
# (The Swing console sometimes dies at start in a Swing race; ./suite run is the unattended way.)
set -euo pipefail
SUITE_ME="suite console"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case ${1:-} in
  -h | --help)
    echo "usage: ./suite console [RUN OPTIONS] (the options of ./suite run but --ui; needs a display)"
    "$SUITE_ROOT/suite.d/run.sh" --help | sed -n '/^  --properties/,$p'
    exit 0 ;;
esac
for arg in "$@"; do
  [[ $arg != --ui ]] || die "./suite console is the Swing console; for the headless one use ./suite run"
done
[[ -n ${DISPLAY:-} ]] || die "no display (DISPLAY is not set); on a headless machine: apt-get install xvfb, then xvfb-run -a ./suite console $*"
exec "$SUITE_ROOT/suite.d/run.sh" --ui swing "$@"
