package io.github.hbasegrindersuite.shim;

import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.spi.LoggingEvent;

/**
 * Collects log lines at WARN or above from every logger that reaches the root, so tests can
 * assert that bad input is counted, not logged per request.
 */
public final class WarningCapture extends AppenderSkeleton {
  public final List<String> lines = new ArrayList<>();

  @Override
  protected synchronized void append(LoggingEvent e) {
    if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
      lines.add(e.getLoggerName() + ": " + e.getRenderedMessage());
    }
  }

  @Override
  public void close() {
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
