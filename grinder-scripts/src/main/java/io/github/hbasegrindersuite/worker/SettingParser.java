package io.github.hbasegrindersuite.worker;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How one key's text becomes its value, for {@link Settings.Key}: each parser takes the full key
 * name and the trimmed text and returns the value, or throws a {@link SettingsException} naming
 * the key and what it accepts (end-to-end tests grep these messages: keep their wording).
 */
@FunctionalInterface
interface SettingParser {

  Object parse(String key, String text);

  /** A whole number in min..max, as an Integer. */
  static SettingParser integer(int min, int max) {
    return (key, text) -> {
      long value;
      try {
        value = Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new SettingsException(key + "=" + text + " is not a whole number");
      }
      if (value < min || value > max) {
        throw new SettingsException(key + "=" + text + " is out of range (accepted: " + min + ".." + max + ")");
      }
      return (int) value;
    };
  }

  /** A number in min..max, as a Double. */
  static SettingParser decimal(double min, double max) {
    return (key, text) -> {
      double value;
      try {
        value = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        throw new SettingsException(key + "=" + text + " is not a number");
      }
      if (!(value >= min && value <= max)) {
        throw new SettingsException(key + "=" + text + " is out of range (accepted: " + min + ".." + max + ")");
      }
      return value;
    };
  }

  /** One label of the enum (any case), as its constant. */
  static <E extends Enum<E> & Choice> SettingParser choice(Class<E> type) {
    return (key, text) -> {
      E value = Choice.byLabel(type, text);
      if (value == null) {
        throw new SettingsException(key + "=" + text + " is not accepted (accepted: " + Choice.labels(type) + ")");
      }
      return value;
    };
  }

  /** true or false (any case), as a Boolean. */
  static SettingParser bool() {
    return (key, text) -> {
      if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
        return Boolean.valueOf(text);
      }
      throw new SettingsException(key + "=" + text + " is not accepted (accepted: true, false)");
    };
  }

  /** MIN-MAX (or one number) with lower <= MIN <= MAX <= upper, as an IntRange; empty text is IntRange.NONE. */
  static SettingParser range(int lower, int upper) {
    return (key, text) -> {
      if (text.isEmpty()) {
        return IntRange.NONE;
      }
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})(?:\\s*-\\s*([0-9]{1,9}))?").matcher(text);
      if (!m.matches()) {
        throw new SettingsException(key + "=" + text + " is not a range (accepted: MIN-MAX or one number, e.g. 1-5; empty: not used)");
      }
      int min = Integer.parseInt(m.group(1));
      int max = m.group(2) == null ? min : Integer.parseInt(m.group(2));
      if (min < lower || max > upper || min > max) {
        throw new SettingsException(key + "=" + text + " is out of range (accepted: MIN-MAX with " + lower + " <= MIN <= MAX <= " + upper + ")");
      }
      return IntRange.of(min, max);
    };
  }

  /** Any text, empty included. */
  static SettingParser text() {
    return (key, text) -> text;
  }

  /** Non-empty text. */
  static SettingParser name() {
    return (key, text) -> {
      if (text.isEmpty()) {
        throw new SettingsException(key + " is empty (accepted: a non-empty name)");
      }
      return text;
    };
  }

  /** operation:percent pairs summing to 100, as an unmodifiable Map in the given order. */
  static SettingParser mix() {
    return (key, text) -> {
      Map<Operation, Integer> mix = new LinkedHashMap<>();
      int total = 0;
      for (String part : text.split(",")) {
        if (part.isBlank()) {
          continue;
        }
        String[] pair = part.split(":", 2);
        if (pair.length != 2) {
          throw new SettingsException(key + "=" + text + ": '" + part.trim() + "' is not operation:percent (e.g. get:70,put:30)");
        }
        Operation operation = Operation.byLabel(pair[0]);
        if (operation == null) {
          throw new SettingsException(key + "=" + text + ": unknown operation '" + pair[0].trim()
              + "' (accepted: " + Operation.labels() + ")");
        }
        int weight;
        try {
          weight = Integer.parseInt(pair[1].trim());
        } catch (NumberFormatException e) {
          throw new SettingsException(key + "=" + text + ": weight of " + operation.label() + " is not a whole number");
        }
        if (weight < 0) {
          throw new SettingsException(key + "=" + text + ": weight of " + operation.label() + " is negative");
        }
        if (mix.containsKey(operation)) {
          throw new SettingsException(key + "=" + text + ": " + operation.label() + " is given twice");
        }
        mix.put(operation, weight);
        total += weight;
      }
      if (mix.isEmpty()) {
        throw new SettingsException(key + " is empty (accepted: operation:percent pairs, e.g. get:70,put:30)");
      }
      if (total != 100) {
        throw new SettingsException(key + "=" + text + ": percentages sum to " + total + ", not 100");
      }
      return Collections.unmodifiableMap(mix);
    };
  }
}
