package io.github.hbasegrindersuite.worker.targets;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * hbaseload.target = both: the process's threads take the direct and the thrift target in turn
 * (the first thread direct, the second thrift, ...). A sweep warms with it when it runs the same
 * workload both ways, so that HBase, the thrift server and the two client paths compile in one
 * warm-up rather than in one per target.
 */
final class BothTargets implements Target {

  private final Target direct;
  private final Target thrift;
  private final AtomicInteger handedOut = new AtomicInteger();

  BothTargets(Target direct, Target thrift) {
    this.direct = direct;
    this.thrift = thrift;
  }

  @Override
  public Client client(SplittableRandom random) throws Exception {
    return (handedOut.getAndIncrement() % 2 == 0 ? direct : thrift).client(random);
  }

  @Override
  public void close() throws Exception {
    try {
      direct.close();
    } finally {
      thrift.close();
    }
  }
}
