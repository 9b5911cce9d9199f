package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadSplitTest {

  private static List<Host> hosts(int n) {
    final List<Host> hosts = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      hosts.add(new Host("inj" + i, Host.Kind.LOOPBACK, i, "local", "java", null));
    }
    return hosts;
  }

  private static List<Integer> threads(List<Host> hosts) {
    return hosts.stream().map(h -> h.threads).collect(java.util.stream.Collectors.toList());
  }

  @Test
  void aRemainderGoesOneEachToTheFirstHosts() throws Exception {
    final List<Host> hosts = hosts(4);
    ThreadSplit.split(301, 1, hosts);
    assertEquals(List.of(76, 75, 75, 75), threads(hosts));
    final List<Host> two = hosts(2);
    ThreadSplit.split(5, 1, two);
    assertEquals(List.of(3, 2), threads(two));
  }

  @Test
  void threadsArePerProcess() throws Exception {
    final List<Host> hosts = hosts(2);
    ThreadSplit.split(16, 2, hosts);
    assertEquals(List.of(4, 4), threads(hosts));   // 8 per host over 2 processes
  }

  @Test
  void impossibleSplitsAreRefused() {
    assertEquals("--threads 3 is fewer than 4 injector(s) x 1 process(es)",
        assertThrows(LifecycleException.class, () -> ThreadSplit.split(3, 1, hosts(4))).getMessage());
    assertEquals("--threads 10 does not divide over 2 injector(s) x 2 processes; use a multiple of 4",
        assertThrows(LifecycleException.class, () -> ThreadSplit.split(10, 2, hosts(2))).getMessage());
  }
}
