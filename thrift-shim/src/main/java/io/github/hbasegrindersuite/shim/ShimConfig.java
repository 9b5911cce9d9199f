package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.worker.PropertiesFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Every setting of the shim, its name and default declared in one place ({@link Key}).
 * Later sources win: defaults, then a properties file ({@code --config FILE}), then
 * {@code -Dshim.*} system properties, then {@code shim.key=value} arguments. An unknown
 * {@code shim.*} key or an impossible value is an error naming the key.
 */
public final class ShimConfig {

  /** The settings; conf/thrift-shim.properties lists them all at these defaults. */
  public enum Key {
    BIND_ADDRESS("shim.bind.address", "127.0.0.1"),
    PORT("shim.port", "9092"),
    SERVER("shim.server", "eventloop"),
    TRANSPORT("shim.transport", "buffered"),
    PROTOCOL("shim.protocol", "binary"),
    MAX_CONNECTIONS("shim.max.connections", "512"),
    IDLE_TIMEOUT_MS("shim.idle.timeout.ms", "600000"),
    REQUEST_READ_TIMEOUT_MS("shim.request.read.timeout.ms", "30000"),
    EVICT_AFTER_MS("shim.evict.after.ms", "1000"),
    ACCEPT_WAIT_MS("shim.accept.wait.ms", "2000"),
    SELECTOR_THREADS("shim.nonblocking.selector.threads", "2"),
    WORKER_THREADS("shim.nonblocking.worker.threads", "16"),
    EVENTLOOP_THREADS("shim.eventloop.threads", "0"),
    MAX_INFLIGHT("shim.max.inflight", "64"),
    MAX_FRAME_BYTES("shim.max.frame.bytes", "16777216"),
    MAX_REQUEST_MEMORY_BYTES("shim.max.request.memory.bytes", "268435456"),
    MAX_SCAN_ROWS("shim.max.scan.rows", "10000"),
    MAX_TABLE_NAMES("shim.max.table.names", "10000"),
    SCANNER_MAX("shim.scanner.max", "1000"),
    SCANNER_TIMEOUT_MS("shim.scanner.timeout.ms", "60000"),
    ADMIN_ENABLED("shim.admin.enabled", "false"),
    METRICS_PORT("shim.metrics.port", "9097"),
    METRICS_FILE("shim.metrics.file", ""),
    READY_FILE("shim.ready.file", ""),
    HBASE_SITE("shim.hbase.site", ""),
    ZK_QUORUM("shim.hbase.zookeeper.quorum", "127.0.0.1"),
    ZK_PORT("shim.hbase.zookeeper.port", "2181"),
    HBASE_OPERATION_TIMEOUT_MS("shim.hbase.operation.timeout.ms", "10000"),
    HBASE_RPC_CLIENT("shim.hbase.rpc.client", "netty"),
    HBASE_STARTUP_TIMEOUT_MS("shim.hbase.startup.timeout.ms", "30000"),
    SHUTDOWN_GRACE_MS("shim.shutdown.grace.ms", "10000");

    public final String key;
    public final String defaultValue;

    Key(String key, String defaultValue) {
      this.key = key;
      this.defaultValue = defaultValue;
    }

    static Key byName(String name) {
      for (Key k : values()) {
        if (k.key.equals(name)) {
          return k;
        }
      }
      return null;
    }
  }

  /**
   * Server kinds: a thread per connection; selector threads plus a worker pool; or the HBase
   * client's own netty event loops serving the connections too (get and put without a hand-off).
   */
  public enum Server { THREADPOOL, NONBLOCKING, EVENTLOOP }

  /** Unframed stream (HBase's gateway default) or 4-byte length-prefixed frames. */
  public enum Transport { BUFFERED, FRAMED }

  public enum Protocol { BINARY, COMPACT }

  /**
   * The HBase client's RPC implementation: HBase's default (NettyRpcClient on Java NIO), the same
   * on netty's native epoll transport, or BlockingRpcClient.
   */
  public enum RpcClient { NETTY, EPOLL, BLOCKING }

  private final Map<Key, String> values;

  private ShimConfig(Map<Key, String> values) {
    this.values = values;
    validate();
  }

  public static ShimConfig defaults() {
    return of(Collections.emptyMap());
  }

  /** Defaults overridden by the given {@code shim.*} pairs (tests and the benchmark use this). */
  public static ShimConfig of(Map<String, String> overrides) {
    Map<Key, String> v = new EnumMap<>(Key.class);
    for (Key k : Key.values()) {
      v.put(k, k.defaultValue);
    }
    apply(v, overrides, "setting");
    return new ShimConfig(v);
  }

  /** Defaults, then the file (may be null), then shim.* system properties, then the arguments. */
  public static ShimConfig load(Path file, Properties systemProperties, Map<String, String> arguments)
      throws IOException {
    Map<Key, String> v = new EnumMap<>(Key.class);
    for (Key k : Key.values()) {
      v.put(k, k.defaultValue);
    }
    if (file != null) {
      // read as every properties file of the suite is (ISO-8859-1 with \\u escapes, as Grinder reads them)
      apply(v, toMap(PropertiesFiles.read(file)), file.toString());
    }
    Map<String, String> sys = new java.util.HashMap<>();
    for (String name : systemProperties.stringPropertyNames()) {
      if (name.startsWith("shim.")) {
        sys.put(name, systemProperties.getProperty(name));
      }
    }
    apply(v, sys, "system property");
    apply(v, arguments, "argument");
    return new ShimConfig(v);
  }

  private static Map<String, String> toMap(Properties p) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      m.put(name, p.getProperty(name));
    }
    return m;
  }

  private static void apply(Map<Key, String> v, Map<String, String> pairs, String source) {
    for (Map.Entry<String, String> e : pairs.entrySet()) {
      Key k = Key.byName(e.getKey().trim());
      if (k == null) {
        throw new IllegalArgumentException("unknown setting '" + e.getKey() + "' (" + source
            + "); the settings are listed in thrift-shim/conf/thrift-shim.properties and by ShimMain --help");
      }
      v.put(k, e.getValue() == null ? "" : e.getValue().trim());
    }
  }

  private void validate() {
    server();
    transport();
    protocol();
    rpcClient();
    port(Key.PORT, 0);
    port(Key.METRICS_PORT, -1);
    port(Key.ZK_PORT, 1);
    positive(Key.MAX_CONNECTIONS);
    positive(Key.SELECTOR_THREADS);
    positive(Key.WORKER_THREADS);
    positive(Key.MAX_INFLIGHT);
    positive(Key.SCANNER_MAX);
    positive(Key.SCANNER_TIMEOUT_MS);
    positive(Key.HBASE_OPERATION_TIMEOUT_MS);
    positive(Key.HBASE_STARTUP_TIMEOUT_MS);
    positiveInt(Key.REQUEST_READ_TIMEOUT_MS);
    positiveInt(Key.MAX_SCAN_ROWS);
    positiveInt(Key.MAX_TABLE_NAMES);
    nonNegative(Key.IDLE_TIMEOUT_MS);
    nonNegative(Key.EVENTLOOP_THREADS);
    nonNegative(Key.ACCEPT_WAIT_MS);
    if (longValue(Key.EVICT_AFTER_MS) < -1) {
      throw bad(Key.EVICT_AFTER_MS, "must be 0 or more, or -1 (never close a connection to make room)");
    }
    nonNegative(Key.SHUTDOWN_GRACE_MS);
    long frame = longValue(Key.MAX_FRAME_BYTES);
    if (frame < 1024 || frame > Integer.MAX_VALUE) {
      throw bad(Key.MAX_FRAME_BYTES, "must be between 1024 and " + Integer.MAX_VALUE);
    }
    // a request of a few large values holds its frame and a copy of its values while decoded
    if (longValue(Key.MAX_REQUEST_MEMORY_BYTES) < 2 * frame) {
      throw bad(Key.MAX_REQUEST_MEMORY_BYTES, "must be at least twice shim.max.frame.bytes (" + 2 * frame + ")");
    }
    bool(Key.ADMIN_ENABLED);
    if (server() == Server.NONBLOCKING && transport() != Transport.FRAMED) {
      throw bad(Key.TRANSPORT, "the nonblocking server needs shim.transport=framed");
    }
    if (server() == Server.EVENTLOOP && rpcClient() == RpcClient.BLOCKING) {
      throw bad(Key.HBASE_RPC_CLIENT, "the eventloop server shares the netty RPC client's event loops: use netty or epoll");
    }
    if (get(Key.BIND_ADDRESS).isEmpty()) {
      throw bad(Key.BIND_ADDRESS, "must name an address");
    }
    if (get(Key.HBASE_SITE).isEmpty() && get(Key.ZK_QUORUM).isEmpty()) {
      throw bad(Key.ZK_QUORUM, "must name ZooKeeper hosts when shim.hbase.site is empty");
    }
  }

  private IllegalArgumentException bad(Key k, String why) {
    return new IllegalArgumentException(k.key + " = '" + get(k) + "': " + why);
  }

  private <E extends Enum<E>> E choice(Key k, Class<E> type) {
    try {
      return Enum.valueOf(type, get(k).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      StringBuilder allowed = new StringBuilder();
      for (E c : type.getEnumConstants()) {
        allowed.append(allowed.length() == 0 ? "" : " | ").append(c.name().toLowerCase(Locale.ROOT));
      }
      throw bad(k, "must be " + allowed);
    }
  }

  private void port(Key k, int min) {
    long p = longValue(k);
    if (p < min || p > 65535) {
      throw bad(k, "must be a port number" + (min < 0 ? " (-1 = off, 0 = any free port)" : min == 0 ? " (0 = any free port)" : ""));
    }
  }

  private void positive(Key k) {
    if (longValue(k) <= 0) {
      throw bad(k, "must be positive");
    }
  }

  private void positiveInt(Key k) {
    long v = longValue(k);
    if (v <= 0 || v > Integer.MAX_VALUE) {
      throw bad(k, "must be between 1 and " + Integer.MAX_VALUE);
    }
  }

  private void nonNegative(Key k) {
    if (longValue(k) < 0) {
      throw bad(k, "must be 0 or more");
    }
  }

  public String get(Key k) {
    return values.get(k);
  }

  public long longValue(Key k) {
    try {
      return Long.parseLong(get(k));
    } catch (NumberFormatException e) {
      throw bad(k, "not an integer");
    }
  }

  public int intValue(Key k) {
    long v = longValue(k);
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      throw bad(k, "out of range");
    }
    return (int) v;
  }

  public boolean bool(Key k) {
    String s = get(k).toLowerCase(Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return Boolean.parseBoolean(s);
    }
    throw bad(k, "must be true or false");
  }

  public Server server() {
    return choice(Key.SERVER, Server.class);
  }

  public Transport transport() {
    return choice(Key.TRANSPORT, Transport.class);
  }

  public Protocol protocol() {
    return choice(Key.PROTOCOL, Protocol.class);
  }

  public RpcClient rpcClient() {
    return choice(Key.HBASE_RPC_CLIENT, RpcClient.class);
  }

  /** A copy with some settings changed. */
  public ShimConfig with(Map<String, String> overrides) {
    Map<Key, String> v = new EnumMap<>(values);
    apply(v, overrides, "setting");
    return new ShimConfig(v);
  }

  /** One line for the log: the settings that shape the server. */
  public String describe() {
    return String.format("server=%s transport=%s protocol=%s bind=%s port=%s max.inflight=%s "
            + "max.frame.bytes=%s max.request.memory.bytes=%s request.read.timeout.ms=%s max.connections=%s "
            + "evict.after.ms=%s accept.wait.ms=%s admin.enabled=%s "
            + "metrics.port=%s hbase=%s",
        get(Key.SERVER), get(Key.TRANSPORT), get(Key.PROTOCOL), get(Key.BIND_ADDRESS),
        get(Key.PORT), get(Key.MAX_INFLIGHT), get(Key.MAX_FRAME_BYTES), get(Key.MAX_REQUEST_MEMORY_BYTES),
        get(Key.REQUEST_READ_TIMEOUT_MS), get(Key.MAX_CONNECTIONS), get(Key.EVICT_AFTER_MS), get(Key.ACCEPT_WAIT_MS),
        get(Key.ADMIN_ENABLED),
        get(Key.METRICS_PORT), get(Key.HBASE_SITE).isEmpty()
            ? "zookeeper " + get(Key.ZK_QUORUM) + ":" + get(Key.ZK_PORT)
            : "site " + get(Key.HBASE_SITE));
  }
}
