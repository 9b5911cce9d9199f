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
      if (line.startsWith("thrift_shim_call_seconds_bucket{op=\"get\"")) {
        long v = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
        assertTrue(v >= last, "buckets must be cumulative: " + line);
        last = v;
      }
    }
    assertEquals(1000, last, "+Inf bucket holds every get");
    assertTrue(text.contains("thrift_shim_call_seconds_count{op=\"get\"} 1000\n"));
    assertTrue(text.contains("thrift_shim_hbase_seconds_count{op=\"get\"} 1000\n"));
    assertTrue(text.contains("thrift_shim_call_seconds_count{op=\"put\"} 1\n"));
    assertTrue(text.contains("thrift_shim_errors_total{op=\"get\",cause=\"table_not_found\"} 1\n"));
    assertTrue(text.contains("thrift_shim_unknown_method_total 1\n"));
    assertFalse(text.contains("op=\"scan\""), "ops without traffic are left out");
    // sum in seconds: sum of 1..1000 us = 0.5005 s
    Matcher sum = Pattern.compile("thrift_shim_call_seconds_sum\\{op=\"get\"\\} ([0-9.]+)").matcher(text);
    assertTrue(sum.find());
    assertEquals(0.5005, Double.parseDouble(sum.group(1)), 1e-9);
    assertTrue(text.contains("le=\"0.000008192\""), "bucket bounds in plain seconds");
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
