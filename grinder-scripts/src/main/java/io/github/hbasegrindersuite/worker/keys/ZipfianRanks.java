package io.github.hbasegrindersuite.worker.keys;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Zipfian ranks 0..n-1 (rank 0 most popular), by Gray et al.'s "Quickly generating
 * billion-record synthetic databases" method, as YCSB's ZipfianGenerator does. zeta(n, theta)
 * costs O(n), so it is computed once per process for each (n, theta) and shared by threads.
 */
final class ZipfianRanks {
  private static final ConcurrentHashMap<String, Double> ZETA = new ConcurrentHashMap<>();

  private final long items;
  private final double theta;
  private final double alpha;
  private final double zetaN;
  private final double eta;
  private final SplittableRandom random;

  ZipfianRanks(long items, double theta, SplittableRandom random) {
    this.items = items;
    this.theta = theta;
    this.random = random;
    this.zetaN = ZETA.computeIfAbsent(items + "/" + theta, k -> zeta(items, theta));
    double zeta2 = zeta(2, theta);
    this.alpha = 1.0 / (1.0 - theta);
    this.eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetaN);
  }

  static double zeta(long n, double theta) {
    double sum = 0;
    for (long i = 1; i <= n; i++) {
      sum += 1 / Math.pow(i, theta);
    }
    return sum;
  }

  long next() {
    double u = random.nextDouble();
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < 1.0 + Math.pow(0.5, theta)) {
      return Math.min(1, items - 1);
    }
    long rank = (long) (items * Math.pow(eta * u - eta + 1, alpha));
    return Math.min(rank, items - 1);
  }
}
