package net.grinder.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JVMTest {

  @Test
  void parsesLegacyAndModernVersionStrings() throws Exception {
    assertArrayEquals(new int[] {8, 0}, JVM.parse("1.8.0_292"));
    assertArrayEquals(new int[] {6, 0}, JVM.parse("1.6.0"));
    assertArrayEquals(new int[] {17, 0}, JVM.parse("17.0.15"));
    assertArrayEquals(new int[] {17, 0}, JVM.parse("17"));
    assertArrayEquals(new int[] {21, 0}, JVM.parse("21-ea"));
    assertArrayEquals(new int[] {25, 0}, JVM.parse("25+36"));
    assertArrayEquals(new int[] {11, 2}, JVM.parse("11.2.1"));
  }

  @Test
  void modernJavaPassesGrindersJava6Requirement() throws Exception {
    // The exact case the original class gets wrong: minor 0 < 6.
    assertTrue(JVM.isAtLeast("17.0.15", 1, 6));
    assertTrue(JVM.isAtLeast("9", 1, 6));
    assertTrue(JVM.isAtLeast("1.6.0_45", 1, 6));
    assertFalse(JVM.isAtLeast("1.5.0", 1, 6));
  }

  @Test
  void modernScaleComparesFeatureThenInterim() throws Exception {
    assertTrue(JVM.isAtLeast("17.0.15", 17, 0));
    assertFalse(JVM.isAtLeast("17.0.15", 17, 1));
    assertTrue(JVM.isAtLeast("21", 17, 3));
    assertFalse(JVM.isAtLeast("11.0.2", 17, 0));
  }

  @Test
  void unreadableVersionIsAVersionException() {
    assertThrows(JVM.VersionException.class, () -> JVM.parse("banana"));
    assertThrows(JVM.VersionException.class, () -> JVM.parse(""));
    assertThrows(JVM.VersionException.class, () -> JVM.parse(null));
    assertThrows(JVM.VersionException.class, () -> JVM.parse("1"));
  }

  @Test
  void thisJvmHasTheRequisites() throws Exception {
    assertTrue(JVM.getInstance().isAtLeastVersion(1, 6));
    assertTrue(JVM.getInstance().haveRequisites(org.slf4j.LoggerFactory.getLogger("test")));
  }
}
