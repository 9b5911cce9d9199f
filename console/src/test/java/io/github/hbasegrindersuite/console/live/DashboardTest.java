package io.github.hbasegrindersuite.console.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in console/grafana is valid JSON, and every console metric it queries is
 * one the live endpoint serves (scraped over HTTP, not a list kept by hand). Its shim metrics are
 * checked the same way in thrift-shim's ShimDashboardTest.
 */
class DashboardTest {

  static final Path DASHBOARD = Path.of("grafana", "hbase-grinder-suite.json");
  private static final Pattern METRIC = Pattern.compile("hbasegrinder_[a-z0-9_]+");

  /** Every PromQL text in the dashboard: panel targets and template variable queries. */
  static List<String> queries(JsonElement e) {
    final List<String> out = new ArrayList<>();
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> field : e.getAsJsonObject().entrySet()) {
        final JsonElement v = field.getValue();
        if ((field.getKey().equals("expr") || field.getKey().equals("definition") || field.getKey().equals("query"))
            && v.isJsonPrimitive()) {
          out.add(v.getAsString());
        } else {
          out.addAll(queries(v));
        }
      }
    } else if (e.isJsonArray()) {
      e.getAsJsonArray().forEach(x -> out.addAll(queries(x)));
    }
    return out;
  }

  static Set<String> metricNames(List<String> queries) {
    final Set<String> names = new TreeSet<>();
    for (String q : queries) {
      final Matcher m = METRIC.matcher(q);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }

  @Test
  void everyConsoleMetricTheDashboardQueriesIsServed() throws Exception {
    final JsonObject dashboard = JsonParser.parseString(Files.readString(DASHBOARD, StandardCharsets.UTF_8)).getAsJsonObject();
    final Set<String> queried = metricNames(queries(dashboard));
    final Set<String> served;
    try (LiveExport export = LiveExport.start(LiveExportTest.fixture(), 0)) {
      served = Scrape.get(export.port()).names;
    }
    final Set<String> console = new TreeSet<>();
    for (String name : queried) {
      assertTrue(name.startsWith(LiveExport.PREFIX) || name.startsWith("hbasegrinder_shim_"),
          "one naming scheme: " + name);
      if (name.startsWith(LiveExport.PREFIX)) {
        console.add(name);
      }
    }
    final Set<String> missing = new TreeSet<>(console);
    missing.removeAll(served);
    assertEquals(Set.of(), missing, "queried by the dashboard but not served by the console");
    // what a run needs on screen: throughput, errors, workers, latency
    for (String needed : List.of(LiveExport.THROUGHPUT, LiveExport.REQUESTS, LiveExport.ERRORS, LiveExport.WORKERS,
        LiveExport.WITNESS, LiveExport.TEST_TIME)) {
      assertTrue(console.contains(needed), "the dashboard shows " + needed);
    }
    assertTrue(queried.stream().anyMatch(n -> n.startsWith("hbasegrinder_shim_call_")), "and the shim's latency");
  }

  @Test
  void theMetricNamesAreFoundInQueries() {
    assertEquals(Set.of("hbasegrinder_console_requests_total", "hbasegrinder_shim_call_seconds_bucket"),
        metricNames(List.of("rate(hbasegrinder_console_requests_total{instance=~\"$console\"}[1m])",
            "histogram_quantile(0.99, sum by (le) (rate(hbasegrinder_shim_call_seconds_bucket[1m])))")));
  }
}
