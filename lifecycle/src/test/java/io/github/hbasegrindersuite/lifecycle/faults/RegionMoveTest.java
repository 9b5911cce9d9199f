package io.github.hbasegrindersuite.lifecycle.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class RegionMoveTest {
  private static ServerName rs(int port) {
    return ServerName.valueOf("127.0.0.1", port, 1L);
  }

  @Test
  void aRegionGoesToTheNextLiveServerByPortWrappingToTheLowest() {
    // in the Admin's own order, not by port
    final List<ServerName> live = List.of(rs(16022), rs(16020), rs(16021));
    assertEquals(16021, RegionMove.destination(live, 16020).get().getPort(), "region server 1 -> 2");
    assertEquals(16022, RegionMove.destination(live, 16021).get().getPort(), "2 -> 3");
    assertEquals(16020, RegionMove.destination(live, 16022).get().getPort(), "3 -> 1: the highest wraps");
    // region server 2 dead: 1 -> 3
    assertEquals(16022, RegionMove.destination(List.of(rs(16022), rs(16020)), 16020).get().getPort());
    assertTrue(RegionMove.destination(List.of(rs(16020)), 16020).isEmpty(), "alone: nowhere to go");
  }
}
