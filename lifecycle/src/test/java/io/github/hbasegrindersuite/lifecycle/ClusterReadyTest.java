package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerMetricsBuilder;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

/** A region server the master registered but has no report from yet is not ready for regions. */
class ClusterReadyTest {
  private static void server(Map<ServerName, ServerMetrics> live, int port, long lastReport) {
    final ServerName name = ServerName.valueOf("127.0.0.1", port, 1795767868787L);
    live.put(name, ServerMetricsBuilder.newBuilder(name).setLastReportTimestamp(lastReport).build());
  }

  @Test
  void aRegisteredServerWithoutAReportIsNotReady() {
    final Map<ServerName, ServerMetrics> live = new LinkedHashMap<>();
    server(live, 17422, 1795767870000L);
    server(live, 17421, 0);           // registered a second ago, started again by the sweep
    server(live, 17420, 1795767869000L);
    final ClusterReady.View view = ClusterReady.view(live);
    assertFalse(view.ready(3));
    assertTrue(view.ready(2), "two have reported");
    assertEquals("3 live, 2 reported (not yet: 127.0.0.1:17421)", view.text());
    server(live, 17421, 1795767871000L);
    assertTrue(ClusterReady.view(live).ready(3));
    assertEquals("3 live, 3 reported", ClusterReady.view(live).text());
  }
}
