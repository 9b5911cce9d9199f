package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.util.SplittableRandom;

/**
 * How a worker process reaches HBase: built once per process, hands each thread its Client.
 * A new target is one new class here and its name in Settings' hbaseload.target.
 */
public interface Target extends AutoCloseable {

  Client client(SplittableRandom random) throws Exception;

  @Override
  void close() throws Exception;

  /** The configured target for this process. */
  static Target open(Settings settings, ValuePool values) throws Exception {
    switch (settings.text("target")) {
      case "direct":
        return new DirectTarget(settings, values);
      case "thrift":
        return new ThriftTarget(settings, values);
      default:
        throw new IllegalArgumentException("unknown target " + settings.text("target"));
    }
  }
}
