#!/usr/bin/env bash
# The local injector lab by hand: N network namespaces joined by veth links to a bridge in this
# (the console's) namespace, each an injector host with its own address. ./suite run
# --injectors N builds and removes one by itself; this is for looking at it, and for cleaning
# up after a run that was killed. Names follow SUITE_PORT_OFFSET (bridge hgsbr<offset>).
#   injectors/netns-lab.sh up N | down | status
set -euo pipefail
SUITE_ME="netns-lab"
source "$(dirname "${BASH_SOURCE[0]}")/../suite.d/common.sh"
source "$SUITE_ROOT/injectors/lib.sh"

usage() { echo "usage: injectors/netns-lab.sh up N | down | status" >&2; exit 2; }

case ${1:-} in
  up)
    [[ $# -eq 2 && $2 =~ ^[0-9]+$ && $2 -ge 1 && $2 -le 64 ]] || usage
    namespaces_permitted || die "network namespaces are not permitted here: $NS_REFUSAL"
    lab_up "$2"
    netns_lab_status ;;
  down)
    [[ $# -eq 1 ]] || usage
    lab_down
    info "network lab (offset $SUITE_PORT_OFFSET): removed" ;;
  status)
    [[ $# -eq 1 ]] || usage
    netns_lab_status ;;
  *) usage ;;
esac
