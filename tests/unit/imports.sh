# shellcheck shell=bash
# The Java code's import graph has no circle (a settings class that imports its users' types,
# which import it back, makes neither testable alone). Sourced by libexec/suite-test (unit stage).

u_no_import_circle_between_java_files() {
  local out
  if out=$(python3 "$SUITE_ROOT/tests/unit/tools/import-circles.py" "$SUITE_ROOT" 2>&1); then
    pass "java imports: $(tail -1 <<< "$out")"
  else
    fail "java imports: $(head -3 <<< "$out" | tr '\n' ' ')"
  fi
}

u_an_import_circle_is_found() {
  local dir=$TEST_LOGS/circle out rc=0
  mkdir -p "$dir/m/src/main/java/a" "$dir/m/src/main/java/b"
  printf 'package a;\nimport b.B;\npublic class A {}\n' > "$dir/m/src/main/java/a/A.java"
  printf 'package b;\nimport a.A.Inner;\npublic class B {}\n' > "$dir/m/src/main/java/b/B.java"
  out=$(python3 "$SUITE_ROOT/tests/unit/tools/import-circles.py" "$dir" 2>&1) || rc=$?
  if ((rc == 1)) && grep -q '^circle: a.A, b.B (a.A -> b.B; b.B -> a.A)$' <<< "$out"; then
    pass "java imports: a circle through a nested type's import is found and named (exit 1)"
  else
    fail "java imports: rc $rc, $out"
  fi
}
