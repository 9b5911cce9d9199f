# shellcheck shell=bash
# Run folders: runs/run-N, numbered upwards, never reused. Sourced after common.sh.

# Print the path of a new, empty runs/PREFIX-N (run-N, sweep-N), numbered past the highest.
# mkdir without -p fails when the folder exists, so an id is never overwritten even if two
# runs start at once.
allocate_numbered_dir() {
  local prefix=$1 last n attempt
  mkdir -p "$SUITE_RUNS_DIR"
  for attempt in 1 2 3 4 5; do
    last=$(find "$SUITE_RUNS_DIR" -maxdepth 1 -type d -name "$prefix-*" -printf '%f\n' \
           | sed -n "s/^$prefix-\([0-9][0-9]*\)$/\1/p" | sort -n | tail -1)
    n=$(( ${last:-0} + 1 ))
    if mkdir "$SUITE_RUNS_DIR/$prefix-$n" 2>/dev/null; then
      printf '%s\n' "$SUITE_RUNS_DIR/$prefix-$n"
      return 0
    fi
  done
  die "could not allocate a new $prefix folder in $SUITE_RUNS_DIR after $attempt attempts"
}

allocate_run_dir() {
  allocate_numbered_dir run
}

