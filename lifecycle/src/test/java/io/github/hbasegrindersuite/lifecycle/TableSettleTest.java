package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.client.CompactionState;
import org.junit.jupiter.api.Test;

/** Tables count as settled only after several quiet looks in a row: a flush asks for its compactions late. */
class TableSettleTest {
  private static Map<String, CompactionState> states(CompactionState peers, CompactionState pe) {
    final Map<String, CompactionState> m = new LinkedHashMap<>();
    m.put("peers", peers);
    m.put("peers_pe", pe);
    return m;
  }

  @Test
  void settledAfterThreeQuietLooksInARow() {
    final TableSettle.Settling s = new TableSettle.Settling();
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertTrue(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertEquals("", s.lastBusy());
  }

  @Test
  void aCompactionSeenStartsTheCountAgainAndIsNamed() {
    final TableSettle.Settling s = new TableSettle.Settling();
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    // the flush's compaction request arrives on the third look
    assertFalse(s.observe(states(CompactionState.MINOR, CompactionState.MAJOR_AND_MINOR)));
    assertEquals("peers minor, peers_pe major and minor", s.lastBusy());
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertFalse(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertTrue(s.observe(states(CompactionState.NONE, CompactionState.NONE)));
    assertEquals("peers minor, peers_pe major and minor", s.lastBusy(), "the last busy look is kept for the closing line");
  }

  @Test
  void noTablesAreSettledAtOnceAfterTheQuietLooks() {
    final TableSettle.Settling s = new TableSettle.Settling();
    assertFalse(s.observe(Map.of()));
    assertFalse(s.observe(Map.of()));
    assertTrue(s.observe(Map.of()));
  }
}
