package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfTest {
  @TempDir
  Path dir;

  // The shape of Hadoop's ConfServlet ?format=json, as the embedded HBase 2.6.1 answered it.
  private static final String CONF = "{\"properties\":[{\"key\":\"hbase.regionserver.handler.count\",\"value\":\"100\",\"isFinal\":false,"
      + "\"resource\":\"hbase-site.xml\"},{\"key\":\"hbase.hregion.memstore.flush.size\",\"value\":\"134217728\",\"isFinal\":false,"
      + "\"resource\":\"hbase-default.xml\"},{\"key\":\"yarn.admin.acl\",\"value\":\"*\",\"isFinal\":false,\"resource\":\"yarn-default.xml\"}]}";

  @Test
  void theKeysAskedAreReadBackWithTheirSourceAndAbsentOnesAreNull() throws Exception {
    final Map<String, Map<String, String>> got = ServerConf.pick(CONF, List.of("hbase.regionserver.handler.count",
        "hbase.hregion.memstore.flush.size", "hbase.regionserver.thread.compaction.small"));
    assertEquals(Map.of("value", "100", "resource", "hbase-site.xml"), got.get("hbase.regionserver.handler.count"));
    assertEquals("hbase-default.xml", got.get("hbase.hregion.memstore.flush.size").get("resource"));
    assertTrue(got.containsKey("hbase.regionserver.thread.compaction.small"));
    assertNull(got.get("hbase.regionserver.thread.compaction.small"));
    assertEquals(3, got.size());
  }

  @Test
  void anOverrideTheServerDidNotTakeIsNamed() throws Exception {
    final Map<String, Map<String, String>> got = ServerConf.pick(CONF, List.of("hbase.regionserver.handler.count",
        "hbase.regionserver.thread.compaction.small"));
    assertNull(ServerConf.mismatch(got, Map.of("hbase.regionserver.handler.count", "100")));
    assertEquals("the region server runs with hbase.regionserver.handler.count=100, the server variant asked 500",
        ServerConf.mismatch(got, Map.of("hbase.regionserver.handler.count", "500")));
    assertEquals("the region server runs with hbase.regionserver.thread.compaction.small=(not set), the server variant asked 2",
        ServerConf.mismatch(got, Map.of("hbase.regionserver.thread.compaction.small", "2")));
    assertEquals("the region server's /conf has no 'properties' list",
        assertThrows(LifecycleException.class, () -> ServerConf.pick("{\"x\":1}", List.of("a"))).getMessage());
  }

  @Test
  void readsTheServletOverHttpAndWritesServerConfJson() throws Exception {
    final HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/conf", x -> {
      final byte[] body = CONF.getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders("format=json".equals(x.getRequestURI().getQuery()) ? 200 : 400, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
    try {
      final String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/conf?format=json";
      final Path out = dir.resolve("server-conf.json");
      assertEquals(0, ServerConf.main(Map.of("--url", url, "--keys", "hbase.regionserver.handler.count,hbase.hregion.memstore.flush.size",
          "--variant", "hbase.regionserver.handler.count=100", "--expect", "{\"hbase.regionserver.handler.count\":\"100\"}", "--out", out.toString())));
      final JsonObject doc = Json.read(out);
      assertEquals("hbase.regionserver.handler.count=100", doc.get("server_variant").getAsString());
      assertEquals("100", doc.getAsJsonObject("read_back").getAsJsonObject("hbase.regionserver.handler.count").get("value").getAsString());
      assertEquals("134217728", doc.getAsJsonObject("read_back").getAsJsonObject("hbase.hregion.memstore.flush.size").get("value").getAsString());
      final String wrong = assertThrows(LifecycleException.class, () -> ServerConf.main(Map.of("--url", url,
          "--keys", "hbase.regionserver.handler.count", "--expect", "{\"hbase.regionserver.handler.count\":\"10\"}",
          "--out", dir.resolve("b.json").toString()))).getMessage();
      assertTrue(wrong.startsWith("the region server runs with hbase.regionserver.handler.count=100, the server variant asked 10"), wrong);
    } finally {
      server.stop(0);
    }
    final String down = assertThrows(LifecycleException.class, () -> ServerConf.main(Map.of("--url", "http://127.0.0.1:1/conf?format=json",
        "--keys", "a", "--timeout", "1", "--out", dir.resolve("c.json").toString()))).getMessage();
    assertTrue(down.startsWith("cannot read the region server's configuration from http://127.0.0.1:1/conf?format=json in 1 s"), down);
  }
}
