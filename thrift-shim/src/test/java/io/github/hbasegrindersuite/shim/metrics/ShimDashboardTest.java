package io.github.hbasegrindersuite.shim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.Op;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every shim metric the Grafana dashboard (console/grafana) queries is served on /metrics, scraped
 * over HTTP from a shim endpoint that has seen traffic; the console's names are checked in
 * console's DashboardTest.
 */
class ShimDashboardTest {

  private static final Path DASHBOARD = Path.of("..", "console", "grafana", "hbase-grinder-suite.json");
  private static final Pattern METRIC = Pattern.compile("hbasegrinder_shim_[a-z0-9_]+");
  private static final Pattern SAMPLE_NAME = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");

  private static void collect(JsonElement e, Set<String> names) {
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> field : e.getAsJsonObject().entrySet()) {
        collect(field.getValue(), names);
      }
    } else if (e.isJsonArray()) {
      e.getAsJsonArray().forEach(x -> collect(x, names));
    } else if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()) {
      Matcher m = METRIC.matcher(e.getAsString());
      while (m.find()) {
        names.add(m.group());
      }
    }
  }

  @Test
  void everyShimMetricTheDashboardQueriesIsServed() throws Exception {
    Set<String> queried = new TreeSet<>();
    collect(JsonParser.parseString(Files.readString(DASHBOARD, StandardCharsets.UTF_8)), queried);
    assertFalse(queried.isEmpty(), "the dashboard shows the shim");

    ShimMetrics metrics = new ShimMetrics();
    metrics.recordCall(Op.GET, 300_000);
    metrics.recordHBase(Op.GET, 200_000);
    metrics.error(Op.PUT, ErrorKind.OVERLOADED);
    Set<String> served = new TreeSet<>();
    try (MetricsHttpServer http = new MetricsHttpServer("127.0.0.1", 0, metrics, () -> true)) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      for (String line : r.body().split("\n")) {
        Matcher m = SAMPLE_NAME.matcher(line);
        if (!line.startsWith("#") && m.find()) {
          served.add(m.group(1));
        }
      }
    }
    Set<String> missing = new TreeSet<>(queried);
    missing.removeAll(served);
    assertEquals(Set.of(), missing, "queried by the dashboard but not served by the shim (served: " + served + ")");
  }
}
