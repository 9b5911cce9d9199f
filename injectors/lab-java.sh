#!/usr/bin/env bash
# grinder.jvm of the workers on this machine (RunPlanner writes it into agent.properties): the
# worker joins the lab's worker role before it becomes a JVM, so its CPU is the worker's from its
# first instruction (not its agent's), then execs the host's java with Grinder's arguments.
# SUITE_LAB_JOIN: the cgroup.procs files to join (suite.d/lab.sh, lab_join_files); SUITE_LAB_JAVA:
# the java to run. Both come from the agent's environment (injectors/lib.sh, start_agent).
for file in ${SUITE_LAB_JOIN:-}; do
  echo $$ 2> /dev/null > "$file" || echo "lab-java: could not join $file: this worker's CPU is counted with its agent's" >&2
done
exec "${SUITE_LAB_JAVA:-java}" "$@"
