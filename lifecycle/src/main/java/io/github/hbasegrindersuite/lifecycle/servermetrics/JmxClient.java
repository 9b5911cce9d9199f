package io.github.hbasegrindersuite.lifecycle.servermetrics;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Plain HTTP GETs to an info server, bounded in time. HttpURLConnection rather than
 * java.net.http.HttpClient: no selector thread, keep-alive reuse, and nothing to start, which is
 * what a sampler sharing two cores with HBase wants.
 */
public final class JmxClient {
  private final int connectTimeoutMs;
  private final int readTimeoutMs;

  public JmxClient(int connectTimeoutMs, int readTimeoutMs) {
    this.connectTimeoutMs = connectTimeoutMs;
    this.readTimeoutMs = readTimeoutMs;
  }

  /** The body of a 200 answer; an IOException with a one-line reason otherwise. */
  public String get(URI uri) throws IOException {
    final HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
    c.setConnectTimeout(connectTimeoutMs);
    c.setReadTimeout(readTimeoutMs);
    c.setUseCaches(false);
    try {
      final int code = c.getResponseCode();
      if (code != 200) {
        drain(c.getErrorStream());
        throw new IOException("HTTP " + code + " from " + uri.getPath());
      }
      try (InputStream in = c.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      final String what = e.getClass().getSimpleName();
      throw new IOException(e.getMessage() == null ? what : what + ": " + e.getMessage(), e);
    }
  }

  /**
   * A server's configuration values from its /conf servlet ({@code {"properties":[{"key":..,"value":..}]}}),
   * null when absent. Read once per server: the servlet sends the whole configuration (about 160 kB).
   */
  static String confValue(String json, String key) {
    final JsonElement root = JsonParser.parseString(json);
    if (!root.isJsonObject() || !root.getAsJsonObject().has("properties")) {
      return null;
    }
    for (JsonElement p : root.getAsJsonObject().getAsJsonArray("properties")) {
      if (p.isJsonObject() && p.getAsJsonObject().has("key") && key.equals(p.getAsJsonObject().get("key").getAsString())) {
        final JsonElement v = p.getAsJsonObject().get("value");
        return v == null || v.isJsonNull() ? null : v.getAsString();
      }
    }
    return null;
  }

  /**
   * A string attribute of the first bean of a /jmx answer (e.g. the Runtime bean's
   * {@code "Name":"4242@host"}), null when absent or not a string.
   */
  static String stringAttribute(String json, String attribute) {
    final JsonPrimitive v = attribute(json, attribute);
    return v != null && v.isString() ? v.getAsString() : null;
  }

  /** A numeric attribute of the first bean of a /jmx answer (e.g. the Runtime bean's StartTime), null when absent. */
  static Long longAttribute(String json, String attribute) {
    final JsonPrimitive v = attribute(json, attribute);
    return v != null && v.isNumber() ? v.getAsLong() : null;
  }

  private static JsonPrimitive attribute(String json, String attribute) {
    final JsonElement root = JsonParser.parseString(json);
    if (!root.isJsonObject() || !root.getAsJsonObject().has("beans")) {
      return null;
    }
    for (JsonElement b : root.getAsJsonObject().getAsJsonArray("beans")) {
      final JsonElement v = b.isJsonObject() ? b.getAsJsonObject().get(attribute) : null;
      if (v != null && v.isJsonPrimitive()) {
        return v.getAsJsonPrimitive();
      }
    }
    return null;
  }

  private static void drain(InputStream in) throws IOException {
    if (in != null) {
      try (in) {
        in.readAllBytes();
      }
    }
  }
}
