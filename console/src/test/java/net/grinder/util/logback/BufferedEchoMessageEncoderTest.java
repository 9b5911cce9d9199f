package net.grinder.util.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The data log reaches the file at least once a second, not only every 64 KiB. */
class BufferedEchoMessageEncoderTest {

  private static LoggingEvent line(String message) {
    final LoggerContext context = new LoggerContext();
    return new LoggingEvent("test", context.getLogger("data"), Level.INFO, message, null, null);
  }

  @Test
  void linesReachTheFileOnceASecondHasPassed() throws Exception {
    final AtomicLong now = new AtomicLong(0);
    final BufferedEchoMessageEncoder encoder = new BufferedEchoMessageEncoder(now::get);
    final ByteArrayOutputStream file = new ByteArrayOutputStream();
    encoder.init(file);
    encoder.doEncode(line("0, 0, 1, 1795000000000, 1, 0, 500"));
    now.set(999_999_999L);
    encoder.doEncode(line("0, 1, 1, 1795000000001, 1, 0, 600"));
    assertEquals(0, file.size(), "under a second: still buffered (64 KiB buffer)");
    now.set(1_000_000_000L);
    encoder.doEncode(line("0, 2, 1, 1795000000002, 1, 0, 700"));
    final String sep = System.lineSeparator();
    assertEquals("0, 0, 1, 1795000000000, 1, 0, 500" + sep + "0, 1, 1, 1795000000001, 1, 0, 600" + sep
        + "0, 2, 1, 1795000000002, 1, 0, 700" + sep, file.toString(StandardCharsets.UTF_8));
    now.set(1_500_000_000L);
    encoder.doEncode(line("0, 3, 1, 1795000000003, 1, 0, 800"));
    assertEquals(3, file.toString(StandardCharsets.UTF_8).split(sep).length, "the next flush waits another second");
  }

  @Test
  void theProjectsEncoderComesBeforeGrinders() throws Exception {
    final URL first = getClass().getClassLoader().getResource("net/grinder/util/logback/BufferedEchoMessageEncoder.class");
    assertFalse(first.toString().contains("grinder-core"), "Grinder's own encoder is first: " + first);
  }
}
