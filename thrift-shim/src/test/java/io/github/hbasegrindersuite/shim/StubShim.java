package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shim's server over {@link StubHBase} as a process of its own, so a test can give it a
 * small heap and attack it: {@code StubShim shim.key=value ...}. Once serving it writes
 * {@code shim.ready.file} as ShimMain does ({@code port=}, {@code metrics_port=}) and serves
 * until its stdin closes (the test ended, however it ended).
 */
public final class StubShim {

  private StubShim() {
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("shim.port", "0");
    settings.put("shim.metrics.port", "0");
    for (String a : args) {
      settings.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
    }
    ShimConfig config = ShimConfig.of(settings);
    ShimMetrics metrics = new ShimMetrics();
    Gate gate = new Gate(config.intValue(ShimConfig.Key.MAX_INFLIGHT));
    ShimHandler handler = new ShimHandler(new StubHBase().connection(), config, metrics, gate);
    try (ShimServer server = ShimServer.start(config, handler, gate, metrics)) {
      Path ready = Paths.get(config.get(ShimConfig.Key.READY_FILE));
      Path tmp = ready.resolveSibling(ready.getFileName() + ".tmp");
      Files.writeString(tmp, "port=" + server.port() + "\nmetrics_port=" + server.metricsPort() + "\n");
      Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE);
      while (System.in.read() >= 0) {
        // until the test closes our stdin
      }
    }
    System.exit(0);
  }
}
