package net.grinder.engine.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The project's TestData shadows Grinder 3.11's: it must come first on the classpath, and its
 * TestRecorder must not call Thread.yield() before each test (Grinder's does; this test checks
 * both copies, so it also proves the check can see the call).
 */
class TestDataShadowTest {

  private static final String RECORDER = "net/grinder/engine/process/TestData$TestRecorder.class";

  @Test
  void theProjectsTestRecorderComesFirstAndDoesNotYield() throws IOException {
    final List<URL> copies = Collections.list(getClass().getClassLoader().getResources(RECORDER));
    assertTrue(copies.size() >= 2, "expected the project's copy and Grinder's, found " + copies);
    final URL first = copies.get(0);
    assertFalse(first.toString().contains("grinder-core"), "Grinder's own TestData is first: " + first);
    assertFalse(callsYield(first), "the project's TestRecorder still calls Thread.yield()");
  }

  @Test
  void grindersOwnTestRecorderYields() throws IOException {
    final URL grinders = Collections.list(getClass().getClassLoader().getResources(RECORDER)).stream()
        .filter(url -> url.toString().contains("grinder-core-3.11")).findFirst().orElse(null);
    assertNotNull(grinders, "grinder-core-3.11 is not on the test classpath");
    assertTrue(callsYield(grinders), "Grinder 3.11's TestRecorder no longer names Thread.yield: is the shadow still needed?");
  }

  /** A method reference to yield puts the name in the class's constant pool as a UTF-8 entry. */
  private static boolean callsYield(URL classFile) throws IOException {
    try (InputStream in = classFile.openStream()) {
      final String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      return bytes.contains("\u0000\u0005yield");
    }
  }
}
