package io.github.hbasegrindersuite.lifecycle.servermetrics;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * One server's numeric JMX attributes at one instant, read from the answers of HBase's JMXJsonServlet
 * ({@code {"beans":[{"name":"Hadoop:service=HBase,...","attr":1,...}]}}). Only numbers are kept;
 * tags (strings) and nested values are skipped.
 */
final class JmxSnapshot {
  final long timeMs;
  private final Map<Bean, Map<String, Double>> values = new EnumMap<>(Bean.class);
  /** When each bean was read: a bean taken from another server's snapshot keeps that one's time. */
  private final Map<Bean, Long> readAt = new EnumMap<>(Bean.class);

  JmxSnapshot(long timeMs) {
    this.timeMs = timeMs;
  }

  /**
   * Adds the numeric attributes of the bean named {@code objectName} from one /jmx answer.
   *
   * @throws IllegalArgumentException with a one-line reason when the text is not such an answer or
   *     lacks the bean (a server still starting answers {@code {"beans":[]}})
   */
  JmxSnapshot add(Bean bean, String objectName, String json) {
    final JsonElement root;
    try {
      root = JsonParser.parseString(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the /jmx answer for " + objectName + " is not JSON: " + oneLine(e.getMessage()));
    }
    final JsonElement beans = root.isJsonObject() ? root.getAsJsonObject().get("beans") : null;
    if (beans == null || !beans.isJsonArray()) {
      throw new IllegalArgumentException("the /jmx answer for " + objectName + " has no \"beans\" array");
    }
    for (JsonElement element : (JsonArray) beans) {
      if (!element.isJsonObject()) {
        continue;
      }
      final JsonObject o = element.getAsJsonObject();
      final JsonElement name = o.get("name");
      if (name != null && name.isJsonPrimitive() && objectName.equals(name.getAsString())) {
        final Map<String, Double> numbers = new HashMap<>();
        for (Map.Entry<String, JsonElement> e : o.entrySet()) {
          final JsonElement v = e.getValue();
          if (v.isJsonPrimitive() && ((JsonPrimitive) v).isNumber()) {
            numbers.put(e.getKey(), v.getAsDouble());
          }
        }
        values.put(bean, numbers);
        readAt.put(bean, timeMs);
        return this;
      }
    }
    throw new IllegalArgumentException("no bean " + objectName + " in the /jmx answer");
  }

  /** {@code bean}'s values read some other way than from a /jmx answer (LocalJvms), now. */
  JmxSnapshot put(Bean bean, Map<String, Double> numbers) {
    values.put(bean, numbers);
    readAt.put(bean, System.currentTimeMillis());
    return this;
  }

  /** Takes {@code bean}'s values from another server's snapshot of the same JVM, read in the same sample. */
  JmxSnapshot copy(Bean bean, JmxSnapshot from) {
    final Map<String, Double> numbers = from.values.get(bean);
    if (numbers == null) {
      throw new IllegalArgumentException("no " + bean + " bean in the snapshot to copy from");
    }
    values.put(bean, numbers);
    readAt.put(bean, from.readAt(bean));
    return this;
  }

  /** When {@code bean}'s values were read (this snapshot's time when it was not). */
  long readAt(Bean bean) {
    return readAt.getOrDefault(bean, timeMs);
  }

  /** The attribute's value, or null when the bean or the attribute was not read. */
  Double get(Bean bean, String attribute) {
    final Map<String, Double> numbers = values.get(bean);
    return numbers == null ? null : numbers.get(attribute);
  }

  boolean has(Bean bean) {
    return values.containsKey(bean);
  }

  static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("\\s+", " ").trim();
  }
}
