package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import javax.swing.SwingUtilities;
import net.grinder.console.common.ConsoleException;
import org.junit.jupiter.api.Test;

class EventThreadConsoleUITest {

  @Test
  void theWindowIsBuiltOnTheSwingEventThread() throws Exception {
    assertTrue(EventThreadConsoleUI.onEventThread(SwingUtilities::isEventDispatchThread));
  }

  @Test
  void aRefusalOrACrashWhileBuildingReachesTheConsole() {
    final ConsoleException refusal = new ConsoleException("no display");
    assertSame(refusal, assertThrows(ConsoleException.class, () -> EventThreadConsoleUI.onEventThread(() -> {
      throw refusal;
    })));
    assertEquals("Index 3 out of bounds", assertThrows(IndexOutOfBoundsException.class,
        () -> EventThreadConsoleUI.onEventThread(() -> {
          throw new IndexOutOfBoundsException("Index 3 out of bounds");
        })).getMessage());
  }

  @Test
  void itIsTheFirstUiTheConsoleFinds() throws Exception {
    // ConsoleFoundation takes the first UI class listed in META-INF/net.grinder.console over the classpath.
    final String first = new BufferedReader(new InputStreamReader(getClass().getClassLoader()
        .getResources("META-INF/net.grinder.console").nextElement().openStream(), StandardCharsets.UTF_8))
        .lines().filter(l -> !l.startsWith("#") && !l.isBlank()).collect(Collectors.toList()).get(0);
    assertEquals(EventThreadConsoleUI.class.getName(), first);
  }
}
