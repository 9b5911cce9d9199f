package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LabCpusTest {

  private static String split(LabCpus lab) {
    return LabCpus.format(lab.server) + ":" + LabCpus.format(lab.client);
  }

  @Test
  void autoSplitsHalfAndHalfWithTheOddCpuOnTheServerSide() {
    assertEquals("0:1", split(LabCpus.resolve("auto", "0-1", true, true)));
    assertEquals("0-1:2", split(LabCpus.resolve("auto", "0-2", true, true)));
    assertEquals("0-3:4-7", split(LabCpus.resolve("auto", "0-7", true, true)));
    assertEquals("2,4:6-7", split(LabCpus.resolve("auto", "2,4,6-7", true, true)));
    assertTrue(LabCpus.resolve("auto", "0-1", true, true).isolated);
    assertTrue(LabCpus.resolve("", "0-1", true, true).isolated, "an empty setting is auto");
  }

  @Test
  void autoSharesWhenThereIsNothingToSplit() {
    final LabCpus one = LabCpus.resolve("auto", "0", true, true);
    assertFalse(one.isolated);
    assertEquals("0:0", split(one));
    assertTrue(one.note.contains("one CPU"), one.note);
    final LabCpus cluster = LabCpus.resolve("auto", "0-3", false, true);
    assertFalse(cluster.isolated);
    assertTrue(cluster.note.contains("real cluster"), cluster.note);
    assertFalse(LabCpus.resolve("auto", "0-3", true, false).isolated);
  }

  @Test
  void offSharesEveryCpu() {
    final LabCpus off = LabCpus.resolve("off", "0-1", true, true);
    assertFalse(off.isolated);
    assertEquals("0-1:0-1", split(off));
  }

  @Test
  void namedSplitsAreTakenAsWritten() {
    assertEquals("0-5:6-7", split(LabCpus.resolve("0-5:6-7", "0-7", true, true)));
    assertEquals("1:0", split(LabCpus.resolve(" 1:0 ", "0-1", true, true)));
    assertEquals("0,2:1,3", split(LabCpus.resolve("0,2:1,3", "0-3", true, true)));
  }

  @Test
  void badSplitsNameTheirCulprit() {
    assertEquals("lab.cpus '0' is not auto, off or SERVER_CPUS:CLIENT_CPUS (e.g. 0:1 or 0-5:6-7)",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("0", "0-1", true, true)).getMessage());
    assertEquals("lab.cpus '0-1:1' gives CPUs 1 to both sides: an isolated lab keeps them apart (lab.cpus = off shares all)",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("0-1:1", "0-1", true, true)).getMessage());
    assertEquals("lab.cpus '0:2' names CPUs this machine does not have online: [2] (online: 0-1)",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("0:2", "0-1", true, true)).getMessage());
    assertEquals("lab.cpus '0:' leaves a side without CPUs",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("0:", "0-1", true, true)).getMessage());
    assertEquals("lab.cpus 'a:b' server CPUs: 'a' is not a CPU number or range (e.g. 0-3,6)",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("a:b", "0-1", true, true)).getMessage());
    assertEquals("lab.cpus '3-1:0' server CPUs: range '3-1' runs backwards",
        assertThrows(IllegalArgumentException.class, () -> LabCpus.resolve("3-1:0", "0-3", true, true)).getMessage());
  }

  @Test
  void shellAssignmentsQuoteTheNote() {
    final String shell = LabCpus.resolve("auto", "0-1", true, true).shell();
    assertTrue(shell.contains("LAB_SERVER_CPUS='0'\n"), shell);
    assertTrue(shell.contains("LAB_SERVER_CPU_COUNT='1'\n"), shell);
    assertTrue(LabCpus.resolve("0-2,5:3-4", "0-5", true, true).shell().contains("LAB_SERVER_CPU_COUNT='4'\n"));
    assertTrue(shell.contains("LAB_CLIENT_CPUS='1'\n"), shell);
    assertTrue(shell.contains("LAB_ISOLATED='true'\n"), shell);
  }
}
