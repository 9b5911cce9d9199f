package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.ValuePool;
import java.util.SplittableRandom;

/**
 * How a worker process reaches HBase: built once per process, hands each thread its Client.
 * A new target is one new class here and one constant in {@link SettingChoices.Target}.
 */
public interface Target extends AutoCloseable {

  /** hbaseload.target's accepted values. */

  Client client(SplittableRandom random) throws Exception;

  @Override
  void close() throws Exception;

  /** The configured target for this process. */
  static Target open(Settings settings, ValuePool values) throws Exception {
    return switch (settings.target()) {
      case DIRECT -> new DirectTarget(settings, values);
      case THRIFT -> new ThriftTarget(settings, values);
      case BOTH -> new BothTargets(new DirectTarget(settings, values), new ThriftTarget(settings, values));
    };
  }
}
