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

# One properties reader (#23): java.util.Properties objects are made for parsing in one module's
# main code only (the worker's PropertiesFiles, which lifecycle and the shim use). Grinder's own
# GrinderProperties and subclasses named otherwise do not match `new Properties()`.
u_properties_are_parsed_in_one_module() {
  local modules
  modules=$(grep -rlE 'new (java\.util\.)?Properties\(' --include='*.java' "$SUITE_ROOT"/*/src/main 2> /dev/null \
    | sed "s|^$SUITE_ROOT/||; s|/src/main/.*||" | sort -u)
  if (($(wc -l <<< "$modules") == 1)) && [[ $modules == grinder-scripts ]]; then
    pass "properties: parsed in one module's main code (grinder-scripts: worker PropertiesFiles)"
  else
    fail "properties: new Properties() in the main code of: $(tr '\n' ' ' <<< "$modules")"
  fi
}
