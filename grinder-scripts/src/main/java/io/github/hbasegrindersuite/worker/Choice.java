package io.github.hbasegrindersuite.worker;

import java.util.Locale;

/**
 * A value of a choice key (hbaseload.target, key.distribution, durability, ...): an enum whose
 * constants are the accepted values, so each list is declared once, by the enum its consumer
 * switches over. The label is how grinder.properties writes the value: the constant's name in
 * lower case, unless the enum says otherwise ({@link Operation}).
 */
public interface Choice {

  /** Implemented by every enum. */
  String name();

  default String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The constant labelled {@code label} (any case, surrounding blanks ignored), or null. */
  static <E extends Enum<E> & Choice> E byLabel(Class<E> type, String label) {
    String wanted = label.trim().toLowerCase(Locale.ROOT);
    for (E candidate : type.getEnumConstants()) {
      if (candidate.label().equals(wanted)) {
        return candidate;
      }
    }
    return null;
  }

  /** Every label in declaration order, as error messages list them: "direct, thrift". */
  static <E extends Enum<E> & Choice> String labels(Class<E> type) {
    StringBuilder all = new StringBuilder();
    for (E candidate : type.getEnumConstants()) {
      all.append(all.length() == 0 ? "" : ", ").append(candidate.label());
    }
    return all.toString();
  }
}
