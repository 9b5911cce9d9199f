package io.github.hbasegrindersuite.lifecycle;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * {@value #KEY} = fresh | warm: where a run's workers run.
 *
 * <ul>
 * <li>fresh (the default): Grinder's normal mode, a new worker JVM for every run: each run
 * compiles its code again (its JIT and its ramp are the run's).</li>
 * <li>warm: Grinder's single-process mode ({@code grinder.debug.singleprocess}): the workers are
 * threads of the agent's own JVM, which lives for the injector session (a sweep, the demo,
 * {@code ./suite run --warmup}); the agent starts with the workers' JVM arguments, classpath and
 * Grinder's instrumentation agent. Each worker has a class loader of its own for Grinder, Jython and
 * logging, which hold a worker's state (statistics, interpreter, log files); every other class
 * (the HBase client, netty, protobuf, the suite's worker code) is the agent's, loaded and compiled
 * once for the whole session. The patched Grinder classes this needs on Java 17 are in the console
 * jar (net.grinder.util.BlockingClassLoader, net.grinder.engine.agent.IsolatedGrinderProcessRunner).</li>
 * </ul>
 */
final class WarmWorkers {

  static final String KEY = "session.workers";

  /**
   * Shared with every worker: all but Grinder's, Jython's and logging's classes, the suite's two
   * classes that reach into a worker's Grinder (its statistics, its data logger), and Grinder's
   * holder of the Instrumentation, of which each worker gets its own (IsolatedGrinderProcessRunner).
   */
  static final String SHARED_CLASSES = String.join(",", "*", "!net.grinder.*", "!org.python.*", "!org.slf4j.*",
      "!ch.qos.logback.*", "!io.github.hbasegrindersuite.worker.GrinderReport*",
      "!io.github.hbasegrindersuite.worker.GrinderDataLog*", "!net.grinder.util.weave.agent.ExposeInstrumentation");

  enum Mode {
    FRESH, WARM;

    String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private WarmWorkers() {
  }

  static Mode mode(Properties properties) throws LifecycleException {
    final String value = properties.getProperty(KEY, "fresh").trim();
    switch (value) {
      case "":
      case "fresh":
        return Mode.FRESH;
      case "warm":
        return Mode.WARM;
      default:
        throw new LifecycleException(KEY + " = " + value + ": expected fresh or warm");
    }
  }

  /**
   * {@value #RUNS_KEY}: how many runs a warm agent serves before the session starts its agents
   * afresh. Each ended worker leaves part of its classes behind in the agent (about 3,000 classes
   * and 17 MB of metaspace a run here: static caches of the libraries it shares with the agent keep
   * references to it), so a warm agent is not kept for ever.
   */
  static final String RUNS_KEY = "session.workers.runs";
  static final int DEFAULT_RUNS = 10;

  static int runsPerAgent(Properties properties) throws LifecycleException {
    final String value = properties.getProperty(RUNS_KEY, String.valueOf(DEFAULT_RUNS)).trim();
    try {
      final int runs = Integer.parseInt(value);
      if (runs >= 1 && runs <= 1000) {
        return runs;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new LifecycleException(RUNS_KEY + " = " + value + ": expected a whole number of runs from 1 to 1000");
  }

  /** What an agent's own properties gain for warm workers (nothing for fresh ones). */
  static Map<String, String> agentKeys(Mode mode) {
    final Map<String, String> keys = new LinkedHashMap<>();
    if (mode == Mode.WARM) {
      keys.put("grinder.debug.singleprocess", "true");
      keys.put("grinder.debug.singleprocess.sharedclasses", SHARED_CLASSES);
    }
    return keys;
  }
}
