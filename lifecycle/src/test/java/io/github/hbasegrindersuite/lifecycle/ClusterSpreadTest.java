package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.hbasegrindersuite.lifecycle.ClusterSpread.Held;
import io.github.hbasegrindersuite.lifecycle.ClusterSpread.Move;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSpreadTest {
  private static final List<String> THREE = List.of("h:16020", "h:16021", "h:16022");

  private static List<Held> on(String... servers) {
    final List<Held> out = new ArrayList<>();
    for (int i = 0; i < servers.length; i++) {
      out.add(new Held("r" + i, servers[i]));
    }
    return out;
  }

  @Test
  void aTableOnOneServerIsSpreadWithTheFewestMoves() {
    // the standalone's table after a restart at 3: all 8 regions back on the old port
    final List<Held> regions = on("h:16020", "h:16020", "h:16020", "h:16020", "h:16020", "h:16020", "h:16020", "h:16020");
    final List<Move> moves = ClusterSpread.plan(regions, THREE);
    // 8 over 3: 3/3/2, the first server keeps its first 3, the other 5 move
    assertEquals(List.of(new Move("r3", "h:16020", "h:16021"), new Move("r4", "h:16020", "h:16021"), new Move("r5", "h:16020", "h:16021"),
        new Move("r6", "h:16020", "h:16022"), new Move("r7", "h:16020", "h:16022")), moves);
    assertEquals("3/3/2", ClusterSpread.counts(regions, moves, THREE));
  }

  @Test
  void anEvenTableMovesNothingAndOnlyTheExcessMovesOtherwise() {
    final List<Held> even = on("h:16022", "h:16020", "h:16021", "h:16020", "h:16021", "h:16022");
    assertEquals(List.of(), ClusterSpread.plan(even, THREE));
    // 4/2/0 with 6 regions: one region of the first server goes to the third, and one of the second
    final List<Held> skewed = on("h:16020", "h:16021", "h:16020", "h:16020", "h:16021", "h:16020");
    final List<Move> moves = ClusterSpread.plan(skewed, THREE);
    assertEquals(List.of(new Move("r3", "h:16020", "h:16022"), new Move("r5", "h:16020", "h:16022")), moves);
    assertEquals("2/2/2", ClusterSpread.counts(skewed, moves, THREE));
  }

  @Test
  void regionsOfAServerGoneOrOfNoneAreGivenToTheServersBelowTheirShare() {
    // a 3-server table after a restart at 2: the third server's regions (and one unassigned) have no home
    final List<String> two = List.of("h:16020", "h:16021");
    final List<Held> regions = on("h:16020", "h:16021", "h:16022", null, "h:16022");
    final List<Move> moves = ClusterSpread.plan(regions, two);
    // shares 3/2 (the first server gets the extra one): the homeless fill the first server, then the second
    assertEquals(List.of(new Move("r2", "h:16022", "h:16020"), new Move("r3", null, "h:16020"), new Move("r4", "h:16022", "h:16021")), moves);
    assertEquals("3/2", ClusterSpread.counts(regions, moves, two));
    assertEquals(List.of(), ClusterSpread.plan(regions, List.of()), "no server: nothing to do");
  }
}
