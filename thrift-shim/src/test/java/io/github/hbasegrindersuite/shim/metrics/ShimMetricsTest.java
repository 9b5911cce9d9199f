package io.github.hbasegrindersuite.shim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.Op;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimMetricsTest {

  private static final Pattern SAMPLE = Pattern.compile(
      "^[a-zA-Z_:][a-zA-Z0-9_:]*(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"]*\"(,[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"]*\")*\\})? -?[0-9.eE+-]+$");

  @Test
  void prometheusTextIsWellFormedAndCumulative() {
    ShimMetrics m = new ShimMetrics();
    for (int i = 1; i <= 1000; i++) {
      m.recordCall(Op.GET, i * 1000L);
      m.recordHBase(Op.GET, i * 800L);
    }
    m.recordCall(Op.PUT, 5_000_000L);
    m.error(Op.GET, ErrorKind.TABLE_NOT_FOUND);
    m.unknownMethods.increment();
    String text = m.prometheus();
    long last = -1;
    for (String line : text.split("\n")) {
      if (line.startsWith("#")) {
        assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE "), line);
        continue;
      }
      assertTrue(SAMPLE.matcher(line).matches(), "not a sample line: " + line);
      if (line.startsWith("hbasegrinder_shim_call_seconds_bucket{operation=\"get\"")) {
        long v = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
        assertTrue(v >= last, "buckets must be cumulative: " + line);
        last = v;
      }
    }
    assertEquals(1000, last, "+Inf bucket holds every get");
    assertTrue(text.contains("hbasegrinder_shim_call_seconds_count{operation=\"get\"} 1000\n"));
    assertTrue(text.contains("hbasegrinder_shim_hbase_seconds_count{operation=\"get\"} 1000\n"));
    assertTrue(text.contains("hbasegrinder_shim_call_seconds_count{operation=\"put\"} 1\n"));
    // the Prometheus client sorts labels by name and writes counters as doubles
    assertTrue(text.contains("hbasegrinder_shim_errors_total{cause=\"table_not_found\",operation=\"get\"} 1.0\n"), text);
    assertTrue(text.contains("hbasegrinder_shim_unknown_method_total 1.0\n"));
    assertFalse(text.contains("operation=\"scan\""), "ops without traffic are left out");
    // sum in seconds: sum of 1..1000 us = 0.5005 s
    Matcher sum = Pattern.compile("hbasegrinder_shim_call_seconds_sum\\{operation=\"get\"\\} ([0-9.]+)").matcher(text);
    assertTrue(sum.find());
    assertEquals(0.5005, Double.parseDouble(sum.group(1)), 1e-9);
    assertTrue(text.contains("le=\"8.192E-6\""), "bucket bounds in seconds: " + text);
    // the buckets count exactly: of 1..1000 us, 98 lie below the bound 98.304 us, 524 below 524.288 us
    assertEquals(98, bucket(text, "get", "9.8304E-5"));
    assertEquals(524, bucket(text, "get", "5.24288E-4"));
    // quantiles from the HdrHistogram: nearest rank within 1% (hand-computed: 500, 900, 990, 999 us)
    assertWithinOnePercent(500e-6, quantile(text, "0.5"));
    assertWithinOnePercent(900e-6, quantile(text, "0.9"));
    assertWithinOnePercent(990e-6, quantile(text, "0.99"));
    assertWithinOnePercent(999e-6, quantile(text, "0.999"));
    for (String line : text.split("\n")) {
      if (!line.startsWith("#")) {
        assertTrue(line.startsWith(ShimMetrics.PREFIX), "one naming scheme: " + line);
      }
    }
  }

  private static long bucket(String text, String op, String le) {
    Matcher m = Pattern.compile(Pattern.quote("hbasegrinder_shim_call_seconds_bucket{operation=\"" + op + "\",le=\"" + le
        + "\"} ") + "([0-9]+)").matcher(text);
    assertTrue(m.find(), "no bucket le=" + le + " in " + text);
    return Long.parseLong(m.group(1));
  }

  private static double quantile(String text, String q) {
    Matcher m = Pattern.compile(Pattern.quote("hbasegrinder_shim_call_quantile_seconds{operation=\"get\",quantile=\"" + q
        + "\"} ") + "([0-9.eE+-]+)").matcher(text);
    assertTrue(m.find(), "no quantile " + q + " in " + text);
    return Double.parseDouble(m.group(1));
  }

  private static void assertWithinOnePercent(double expected, double got) {
    assertTrue(Math.abs(got - expected) <= expected * 0.01, got + " vs " + expected);
  }

  @Test
  void filesHoldTheTextAndASummary(@TempDir Path dir) throws Exception {
    ShimMetrics m = new ShimMetrics();
    m.recordCall(Op.GET, 300_000);
    m.recordHBase(Op.GET, 200_000);
    m.error(Op.PUT, ErrorKind.OVERLOADED);
    Path file = dir.resolve("sub/shim-metrics.prom");
    m.writeFiles(file);
    assertEquals(m.prometheus(), Files.readString(file));
    List<String> csv = Files.readAllLines(dir.resolve("sub/shim-metrics.csv"), StandardCharsets.UTF_8);
    assertEquals("op,stage,count,errors,mean_us,p50_us,p90_us,p95_us,p99_us,p999_us,max_us", csv.get(0));
    assertTrue(csv.get(1).startsWith("get,call,1,0,300.0,"), csv.get(1));
    assertTrue(csv.get(2).startsWith("get,hbase,1,0,200.0,"), csv.get(2));
    assertTrue(csv.get(3).startsWith("put,call,0,1,"), csv.get(3));
  }
}
