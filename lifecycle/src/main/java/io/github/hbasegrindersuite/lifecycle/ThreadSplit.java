package io.github.hbasegrindersuite.lifecycle;

import java.util.List;

/**
 * Total threads over injector hosts: an equal share each, a remainder one thread each to the
 * first hosts (301 over 4: 76, 75, 75, 75), so the total is exact. Threads are per worker
 * process, so with several processes per host the total must divide evenly.
 */
final class ThreadSplit {

  private ThreadSplit() {
  }

  static void split(int total, int processes, List<Host> hosts) throws LifecycleException {
    final int n = hosts.size();
    if (total < n * processes) {
      throw new LifecycleException("--threads " + total + " is fewer than " + n + " injector(s) x " + processes + " process(es)");
    }
    if (processes > 1 && total % (n * processes) != 0) {
      throw new LifecycleException("--threads " + total + " does not divide over " + n + " injector(s) x " + processes
          + " processes; use a multiple of " + n * processes);
    }
    final int share = total / n;
    final int rest = total % n;
    for (int i = 0; i < n; i++) {
      hosts.get(i).threads = (share + (i < rest ? 1 : 0)) / processes;
    }
  }
}
