package io.github.hbasegrindersuite.lifecycle;

import java.util.List;

/**
 * Bash variable assignments that a script sources whole, every value single-quoted: what
 * lifecycle hands to bash in one piece instead of one jq call per field.
 */
public final class ShellAssignments {

  private final StringBuilder text = new StringBuilder();

  /** NAME='value' (a null value is empty). */
  public ShellAssignments scalar(String name, Object value) {
    text.append(name).append('=').append(quote(value == null ? "" : String.valueOf(value))).append('\n');
    return this;
  }

  /** NAME=('a' 'b'): an indexed array. */
  public ShellAssignments array(String name, List<?> values) {
    text.append(name).append("=(");
    for (int i = 0; i < values.size(); i++) {
      text.append(i == 0 ? "" : " ").append(quote(values.get(i) == null ? "" : String.valueOf(values.get(i))));
    }
    text.append(")\n");
    return this;
  }

  public static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
