package io.github.hbasegrindersuite.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** At most one line per interval, counting what happened between lines. */
class ConnectionLimitLogTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);

  @Test
  void theFirstEventAtOnceThenOneLinePerInterval() {
    List<String> lines = new ArrayList<>();
    ConnectionLimitLog log = new ConnectionLimitLog(20, 2000, 10_000, lines::add);
    long t0 = 1_000 * S;
    log.evicted(true, t0);
    assertEquals(1, lines.size());
    assertTrue(lines.get(0).startsWith("at the connection limit shim.max.connections=20 (shim.accept.wait.ms=2000):"
        + " 1 stalled and 0 idle connections closed to make room, 0 new connections refused ("), lines.get(0));
    for (int i = 0; i < 500; i++) {
      log.evicted(i % 5 != 0, t0 + S);
      log.refused(t0 + 2 * S);
    }
    assertEquals(1, lines.size(), "a flood writes no line per connection");
    log.refused(t0 + 11 * S);
    assertEquals(2, lines.size());
    assertTrue(lines.get(1).contains(": 400 stalled and 100 idle connections closed to make room,"
        + " 501 new connections refused in the last 11 s"), lines.get(1));
  }
}
