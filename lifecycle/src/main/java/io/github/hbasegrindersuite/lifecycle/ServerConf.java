package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a region server actually runs with: the given hbase-site keys read back from its /conf
 * servlet (Hadoop's ConfServlet, {@code ?format=json}: {"properties": [{"key", "value",
 * "resource"}...]}), written as server-conf.json, and checked against a server variant's
 * overrides, so that a run never claims a setting the server did not take. A key the server's
 * configuration does not hold is recorded as null: HBase then uses its built-in default.
 */
final class ServerConf {
  private ServerConf() {
  }

  /** key -> {value, resource} for the keys asked, from the servlet's JSON; absent keys map to null. */
  static Map<String, Map<String, String>> pick(String json, List<String> keys) throws LifecycleException {
    final Map<String, Map<String, String>> out = new LinkedHashMap<>();
    keys.forEach(k -> out.put(k, null));
    final JsonElement doc;
    try {
      doc = JsonParser.parseString(json);
    } catch (RuntimeException e) {
      throw new LifecycleException("the region server's /conf is not JSON: " + e.getMessage());
    }
    if (!doc.isJsonObject() || !doc.getAsJsonObject().has("properties") || !doc.getAsJsonObject().get("properties").isJsonArray()) {
      throw new LifecycleException("the region server's /conf has no 'properties' list");
    }
    for (JsonElement e : doc.getAsJsonObject().getAsJsonArray("properties")) {
      final JsonObject p = e.getAsJsonObject();
      final String key = Json.text(p, "key");
      if (out.containsKey(key)) {
        final Map<String, String> found = new LinkedHashMap<>();
        found.put("value", Json.text(p, "value"));
        found.put("resource", Json.text(p, "resource"));
        out.put(key, found);
      }
    }
    return out;
  }

  /** The first override the server does not run with, as one line; null when it took them all. */
  static String mismatch(Map<String, Map<String, String>> readBack, Map<String, String> expected) {
    for (Map.Entry<String, String> e : expected.entrySet()) {
      final Map<String, String> got = readBack.get(e.getKey());
      final String value = got == null ? null : got.get("value");
      if (value == null || !value.trim().equals(e.getValue().trim())) {
        return "the region server runs with " + e.getKey() + "=" + (value == null ? "(not set)" : value) + ", the server variant asked "
            + e.getValue();
      }
    }
    return null;
  }

  static String fetch(String url, int timeoutSeconds) throws LifecycleException {
    final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Instant deadline = Instant.now().plusSeconds(timeoutSeconds);
    String last = "no answer";
    // The info server comes up a moment after the master says it is initialised: retry, bounded.
    while (true) {
      try {
        final HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return r.body();
        }
        last = "HTTP " + r.statusCode();
      } catch (IOException e) {
        last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LifecycleException("interrupted while reading " + url);
      }
      if (Instant.now().isAfter(deadline)) {
        throw new LifecycleException("cannot read the region server's configuration from " + url + " in " + timeoutSeconds + " s: " + last);
      }
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LifecycleException("interrupted while reading " + url);
      }
    }
  }

  /**
   * server-conf --url URL --keys K1,K2 --variant LABEL [--expect JSON_OBJECT] --out FILE [--timeout S]:
   * reads the keys back, writes FILE, exit 1 with one line when an expected override is not in effect.
   */
  static int main(Map<String, String> options) throws LifecycleException {
    final String url = Main.required(options, "--url");
    final List<String> keys = SweepPlanner.split(Main.required(options, "--keys"), ",");
    final Map<String, String> expected = new LinkedHashMap<>();
    if (options.containsKey("--expect")) {
      JsonParser.parseString(options.get("--expect")).getAsJsonObject().entrySet()
          .forEach(e -> expected.put(e.getKey(), e.getValue().getAsString()));
    }
    final Map<String, Map<String, String>> readBack = pick(fetch(url, Integer.parseInt(options.getOrDefault("--timeout", "60"))), keys);
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("schema", 1);
    doc.put("source", url);
    doc.put("read_at", Text.iso(Instant.now()));
    doc.put("server_variant", options.getOrDefault("--variant", ServerVariants.NORMAL));
    doc.put("requested", expected);
    doc.put("read_back", readBack);
    Json.write(Path.of(Main.required(options, "--out")), doc);
    final String wrong = mismatch(readBack, expected);
    if (wrong != null) {
      throw new LifecycleException(wrong + " (read from " + url + ")");
    }
    return 0;
  }
}
