package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.targets.Target;

/**
 * One path to HBase under test, opened once for the whole benchmark: the worker's Target (the
 * direct client's one Connection, or a thrift2 server's address) and the settings its clients
 * are made from.
 */
record BenchPath(String name, Settings settings, Target target) implements AutoCloseable {

  @Override
  public void close() throws Exception {
    target.close();
  }
}
