package io.github.hbasegrindersuite.lifecycle.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Action;
import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule.Fault;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

  @Test
  void theIssuesExampleParsesInTimeOrder() throws Exception {
    final FaultSchedule s = FaultSchedule.parse("at=50s start regionserver=2;at=20s kill regionserver=2; at=70s  pause regionserver=1 for=5s;");
    assertEquals(3, s.faults.size());
    final Fault kill = s.faults.get(0);
    assertEquals(20, kill.atSeconds);
    assertEquals(Action.KILL, kill.action);
    assertEquals(2, kill.regionServer);
    assertEquals(2, kill.index, "the index is the place as written, for messages");
    assertEquals(Action.START, s.faults.get(1).action);
    assertEquals(Action.PAUSE, s.faults.get(2).action);
    assertEquals(5, s.faults.get(2).forSeconds);
    assertEquals("at=20s kill regionserver=2; at=50s start regionserver=2; at=70s pause regionserver=1 for=5s", s.text);
    s.check(2, 80);
  }

  @Test
  void timesInSecondsOrMinutesAndParametersInAnyOrder() throws Exception {
    final FaultSchedule s = FaultSchedule.parse("regionserver=3 stop at=1m; pause for=2 at=90 regionserver=1");
    assertEquals(60, s.faults.get(0).atSeconds);
    assertEquals(Action.STOP, s.faults.get(0).action);
    assertEquals(90, s.faults.get(1).atSeconds);
    assertEquals(2, s.faults.get(1).forSeconds);
  }

  @Test
  void noneIsNoSchedule() throws Exception {
    assertTrue(FaultSchedule.isNone(null));
    assertTrue(FaultSchedule.isNone("  "));
    assertTrue(FaultSchedule.isNone("none"));
    assertFalse(FaultSchedule.isNone("at=1s kill regionserver=1"));
    assertTrue(FaultSchedule.parse("none").faults.isEmpty());
  }

  /** The refusal's message, which must be one line naming the action and the culprit. */
  private static String refusal(String schedule, int regionServers, int duration) {
    final FaultSchedule.Refused e = assertThrows(FaultSchedule.Refused.class, () -> FaultSchedule.parse(schedule).check(regionServers, duration));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().startsWith("faults: "), e.getMessage());
    return e.getMessage();
  }

  @Test
  void malformedSchedulesAreRefusedInOneLineNamingTheCulprit() {
    assertEquals("faults: action 2 'at=5s kil regionserver=2': unknown action 'kil' (accepted: kill, stop, start, pause, move)",
        refusal("at=1s kill regionserver=1; at=5s kil regionserver=2", 2, 60));
    assertTrue(refusal("kill regionserver=2", 2, 60).contains("no at=TIME"));
    assertTrue(refusal("at=5s kill", 2, 60).contains("no regionserver=I"));
    assertTrue(refusal("at=5s regionserver=2", 2, 60).contains("no action"));
    assertTrue(refusal("at=5s pause regionserver=1", 2, 60).contains("a pause needs for=TIME"));
    assertTrue(refusal("at=5s pause regionserver=1 for=0s", 2, 60).contains("for=0s must be more than 0 s"));
    assertTrue(refusal("at=5s kill regionserver=1 for=3s", 2, 60).contains("for= is only for pause"));
    assertTrue(refusal("at=5x kill regionserver=1", 2, 60).contains("at=5x is not a time"));
    assertTrue(refusal("at=-5s kill regionserver=1", 2, 60).contains("at=-5s is not a time"));
    assertTrue(refusal("at=5s kill regionserver=two", 2, 60).contains("regionserver=two is not a region server's number"));
    assertTrue(refusal("at=5s kill regionserver=0", 2, 60).contains("regionserver=0 is not"));
    assertTrue(refusal("at=5s kill stop regionserver=1", 2, 60).contains("'stop' after the action kill"));
    assertTrue(refusal("at=5s at=6s kill regionserver=1", 2, 60).contains("at= given twice"));
    assertTrue(refusal("at=5s kill rs=1", 2, 60).contains("unknown parameter 'rs='"));
    assertTrue(refusal(" ; ; ", 2, 60).contains("holds no action"));
    assertTrue(refusal("at=5s kill regionserver=1\nat=6s start regionserver=1", 2, 60).contains("one line"));
  }

  @Test
  void aScheduleMustFitTheClusterAndTheRun() {
    assertEquals("faults: action 1 'at=5s kill regionserver=3': regionserver=3 is not one of the local cluster's 1..2",
        refusal("at=5s kill regionserver=3", 2, 60));
    assertEquals("faults: action 1 'at=60s kill regionserver=1': at=60s is past the run's 60 s of load",
        refusal("at=60s kill regionserver=1", 2, 60));
    assertTrue(refusal("at=50s pause regionserver=1 for=20s", 2, 60).contains("the pause ends at 70 s, past the run's 60 s"));
    assertTrue(refusal("at=5s kill regionserver=1", 2, 0).contains("needs a run of fixed length"));
  }

  @Test
  void eachServersActionsMustBePossibleInTheirOrder() throws Exception {
    assertTrue(refusal("at=5s kill regionserver=1; at=9s kill regionserver=1", 2, 60).contains("regionserver=1 is down then"));
    assertTrue(refusal("at=5s stop regionserver=1; at=9s pause regionserver=1 for=2s", 2, 60).contains("is down then"));
    assertTrue(refusal("at=5s start regionserver=1", 2, 60).contains("regionserver=1 is running then"));
    assertTrue(refusal("at=5s pause regionserver=1 for=10s; at=9s kill regionserver=1", 2, 60).contains("paused until 15 s"));
    // once resumed, or started again, it can be hit again; another server is independent
    FaultSchedule.parse("at=5s pause regionserver=1 for=4s; at=9s kill regionserver=1; at=9s kill regionserver=2;"
        + " at=20s start regionserver=1; at=30s stop regionserver=1").check(2, 60);
  }

  /** A kill of an earlier run is not undone: the schedule starts from the servers that run (a run killed the last one). */
  @Test
  void aServerDownWhenTheRunStartsMustBeStartedFirst() throws Exception {
    final FaultSchedule kill1 = FaultSchedule.parse("at=10s kill regionserver=1");
    assertEquals("faults: regionserver=2 is not running when the run starts (a kill of an earlier run is not undone):"
        + " ./suite hbase stop and start, or start it first in the schedule",
        assertThrows(FaultSchedule.Refused.class, () -> kill1.check(2, java.util.Set.of(2), 60)).getMessage());
    assertTrue(assertThrows(FaultSchedule.Refused.class, () -> FaultSchedule.parse("at=5s kill regionserver=2; at=10s start regionserver=2")
        .check(2, java.util.Set.of(2), 60)).getMessage().contains("regionserver=2 is not running when the run starts"));
    FaultSchedule.parse("at=2s start regionserver=2; at=30s kill regionserver=1").check(2, java.util.Set.of(2), 60);
    kill1.check(2, java.util.Set.of(), 60);
  }

  @Test
  void aMoveNeedsItsServerUpAndAnotherToMoveTo() throws Exception {
    FaultSchedule.parse("at=5s move regionserver=1").check(2, 60);
    assertTrue(refusal("at=5s kill regionserver=2; at=9s move regionserver=1", 2, 60).contains("no other region server is up then"));
    assertTrue(refusal("at=5s kill regionserver=1; at=9s move regionserver=1", 2, 60).contains("regionserver=1 is down then"));
    // a paused server still counts as up elsewhere: the region may move to it (and hang there, as in HBase)
    FaultSchedule.parse("at=5s pause regionserver=2 for=3s; at=6s move regionserver=1").check(2, 60);
    assertTrue(refusal("at=5s move regionserver=1 for=2s", 2, 60).contains("for= is only for pause"));
  }

  @Test
  void tooManyActionsAreRefused() {
    final StringBuilder many = new StringBuilder();
    for (int i = 0; i <= FaultSchedule.MAX_ACTIONS; i++) {
      many.append("at=").append(i).append("s pause regionserver=1 for=1s;");
    }
    assertTrue(refusal(many.toString(), 2, 1000).contains("more than " + FaultSchedule.MAX_ACTIONS + " actions"));
  }
}
