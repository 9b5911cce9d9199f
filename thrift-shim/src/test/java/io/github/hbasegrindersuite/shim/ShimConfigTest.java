package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimConfigTest {

  @Test
  void defaults() {
    ShimConfig c = ShimConfig.defaults();
    assertEquals("127.0.0.1", c.get(ShimConfig.Key.BIND_ADDRESS));
    assertEquals(9092, c.intValue(ShimConfig.Key.PORT));
    assertEquals(9097, c.intValue(ShimConfig.Key.METRICS_PORT));
    assertEquals(ShimConfig.Server.EVENTLOOP, c.server());
    assertEquals(ShimConfig.Transport.BUFFERED, c.transport());
    assertEquals(ShimConfig.Protocol.BINARY, c.protocol());
    assertFalse(c.bool(ShimConfig.Key.ADMIN_ENABLED));
  }

  @Test
  void laterSourcesWin(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("shim.properties");
    Files.writeString(file, "shim.port = 1000\nshim.protocol = compact\nshim.max.inflight = 5\n");
    Properties sys = new Properties();
    sys.setProperty("shim.port", "2000");
    sys.setProperty("unrelated.key", "x");
    ShimConfig c = ShimConfig.load(file, sys, Map.of("shim.max.inflight", "7"));
    assertEquals(2000, c.intValue(ShimConfig.Key.PORT));
    assertEquals(ShimConfig.Protocol.COMPACT, c.protocol());
    assertEquals(7, c.intValue(ShimConfig.Key.MAX_INFLIGHT));
  }

  @Test
  void badSettingsNameTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShimConfig.of(Map.of("shim.prot", "1")));
    assertTrue(e.getMessage().startsWith("unknown setting 'shim.prot'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.port", "http")));
    assertEquals("shim.port = 'http': not an integer", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.port", "70000")));
    assertTrue(e.getMessage().startsWith("shim.port = '70000': must be a port number"));
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.server", "async")));
    assertEquals("shim.server = 'async': must be threadpool | nonblocking | eventloop", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.server", "nonblocking")));
    assertEquals("shim.transport = 'buffered': the nonblocking server needs shim.transport=framed", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ShimConfig.of(Map.of("shim.server", "eventloop", "shim.hbase.rpc.client", "blocking")));
    assertEquals("shim.hbase.rpc.client = 'blocking': the eventloop server shares the netty RPC client's event loops:"
        + " use netty or epoll", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.eventloop.threads", "-1")));
    assertEquals("shim.eventloop.threads = '-1': must be 0 or more", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.max.inflight", "0")));
    assertEquals("shim.max.inflight = '0': must be positive", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.admin.enabled", "yes")));
    assertEquals("shim.admin.enabled = 'yes': must be true or false", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.max.frame.bytes", "10")));
    assertTrue(e.getMessage().contains("between 1024"));
    assertEquals(ShimConfig.Server.NONBLOCKING,
        ShimConfig.of(Map.of("shim.server", "NonBlocking", "shim.transport", "framed")).server());
  }

  @Test
  void limitsOnHostileInputHaveDefaultsAndNameTheirKeys() {
    ShimConfig c = ShimConfig.defaults();
    assertEquals(30_000, c.intValue(ShimConfig.Key.REQUEST_READ_TIMEOUT_MS));
    assertEquals(256L << 20, c.longValue(ShimConfig.Key.MAX_REQUEST_MEMORY_BYTES));
    assertEquals(10_000, c.intValue(ShimConfig.Key.MAX_SCAN_ROWS));
    assertEquals(10_000, c.intValue(ShimConfig.Key.MAX_TABLE_NAMES));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShimConfig.of(Map.of("shim.request.read.timeout.ms", "0")));
    assertEquals("shim.request.read.timeout.ms = '0': must be between 1 and 2147483647", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.max.scan.rows", "-5")));
    assertEquals("shim.max.scan.rows = '-5': must be between 1 and 2147483647", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.of(Map.of("shim.max.table.names", "many")));
    assertEquals("shim.max.table.names = 'many': not an integer", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ShimConfig.of(Map.of("shim.max.request.memory.bytes", "16777216")));
    assertEquals("shim.max.request.memory.bytes = '16777216': must be at least twice shim.max.frame.bytes (33554432)",
        e.getMessage());
    ShimConfig.of(Map.of("shim.max.request.memory.bytes", "2048", "shim.max.frame.bytes", "1024"));
  }

  /** conf/thrift-shim.properties documents every key at its default, and nothing else. */
  @Test
  void documentedPropertiesMatchTheDeclaredDefaults() throws Exception {
    Path doc = Paths.get("conf/thrift-shim.properties");
    assertTrue(Files.exists(doc), "run from the module folder: " + doc.toAbsolutePath());
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(doc)) {
      p.load(r);
    }
    for (ShimConfig.Key k : ShimConfig.Key.values()) {
      assertTrue(p.containsKey(k.key), "conf/thrift-shim.properties lacks " + k.key);
      assertEquals(k.defaultValue, p.getProperty(k.key), k.key);
    }
    assertEquals(ShimConfig.Key.values().length, p.size(), "keys that ShimConfig does not know");
    // and it loads
    ShimConfig.load(doc, new Properties(), Map.of());
  }
}
