package io.github.hbasegrindersuite.shim;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the shim: {@code ShimMain [--config FILE] [shim.key=value ...]}. Prints one line when it
 * serves ("thrift-shim ready: ..."), runs until SIGTERM or SIGINT, then finishes the calls in
 * progress, writes its metrics file and exits 0. A bad setting exits 2, a start-up failure
 * (HBase unreachable, port taken) exits 1, each with a one-line reason on stderr.
 */
public final class ShimMain {

  private ShimMain() {
  }

  public static void main(String[] args) {
    // before the first logger: the shim's own log4j configuration unless one was given
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "thrift-shim-log4j.properties");
    }
    Path configFile = null;
    Map<String, String> overrides = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--config") && i + 1 < args.length) {
        configFile = Paths.get(args[++i]);
      } else if (a.equals("-h") || a.equals("--help")) {
        System.out.println("usage: ShimMain [--config FILE] [shim.key=value ...]\nsettings (default):");
        for (ShimConfig.Key k : ShimConfig.Key.values()) {
          System.out.println("  " + k.key + " = " + k.defaultValue);
        }
        return;
      } else if (a.contains("=")) {
        overrides.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
      } else {
        exit(2, "unknown argument '" + a + "' (usage: ShimMain [--config FILE] [shim.key=value ...])");
      }
    }
    ShimConfig config;
    try {
      config = ShimConfig.load(configFile, System.getProperties(), overrides);
    } catch (IllegalArgumentException e) {
      exit(2, e.getMessage());
      return;
    } catch (java.io.IOException e) {
      exit(2, "cannot read " + configFile + ": " + e.getMessage());
      return;
    }
    Logger log = LoggerFactory.getLogger(ShimMain.class);
    log.info("starting: {}", config.describe());
    ShimInstance shim;
    try {
      shim = ShimInstance.start(config);
    } catch (java.io.IOException | RuntimeException e) {
      log.error("start-up failed: {}", e.getMessage());
      exit(1, e.getMessage());
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      long started = System.nanoTime();
      log.info("stopping: finishing calls in progress (up to {} ms)", config.get(ShimConfig.Key.SHUTDOWN_GRACE_MS));
      int left = shim.shutdown();
      log.info("stopped in {} ms{}{}", (System.nanoTime() - started) / 1_000_000,
          left > 0 ? "; calls cut off at the end of the grace period: " + left : "",
          config.get(ShimConfig.Key.METRICS_FILE).isEmpty() ? "" : "; metrics in " + config.get(ShimConfig.Key.METRICS_FILE));
      stopped.countDown();
    }, "shim-shutdown"));
    String ready = String.format("thrift-shim ready: thrift %s:%d (%s server, %s transport, %s protocol), "
            + "metrics %s, HBase at %s", config.get(ShimConfig.Key.BIND_ADDRESS), shim.port(),
        config.get(ShimConfig.Key.SERVER), config.get(ShimConfig.Key.TRANSPORT), config.get(ShimConfig.Key.PROTOCOL),
        shim.metricsPort() < 0 ? "off" : "http://" + config.get(ShimConfig.Key.BIND_ADDRESS) + ":" + shim.metricsPort() + "/metrics",
        ShimInstance.describeHBase(config));
    log.info(ready);
    System.out.println(ready);
    System.out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void exit(int code, String message) {
    System.err.println("thrift-shim: " + message);
    System.exit(code);
  }
}
