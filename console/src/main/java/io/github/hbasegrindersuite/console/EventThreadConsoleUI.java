package io.github.hbasegrindersuite.console;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.atomic.AtomicReference;
import javax.swing.SwingUtilities;

import net.grinder.common.GrinderException;
import net.grinder.console.ConsoleFoundation;
import net.grinder.console.common.ConsoleException;
import net.grinder.console.common.ErrorHandler;
import net.grinder.console.common.Resources;
import net.grinder.console.distribution.FileDistribution;
import net.grinder.console.communication.ProcessControl;
import net.grinder.console.model.ConsoleProperties;
import net.grinder.console.model.SampleModel;
import net.grinder.console.model.SampleModelViews;
import net.grinder.console.swingui.ConsoleUI;

import org.slf4j.Logger;

/**
 * Grinder 3.11's Swing console, built on the Swing event thread. ConsoleUI's constructor builds
 * its frame, tables and file tree on whatever thread the console's picocontainer runs, which
 * Swing forbids: on Java 17 about one start in three died in that race
 * (IndexOutOfBoundsException in DefaultRowSorter / FilePane). Listed first in this jar's
 * META-INF/net.grinder.console, which comes first on the console's classpath, so the console
 * takes it as its UI ("the first UI implementation wins"); the headless console is unaffected.
 */
public final class EventThreadConsoleUI implements ConsoleFoundation.UI {

  private final ConsoleUI ui;

  public EventThreadConsoleUI(Resources resources, ConsoleProperties consoleProperties, SampleModel model,
                              SampleModelViews sampleModelViews, ProcessControl processControl,
                              FileDistribution fileDistribution, Logger logger) throws GrinderException {
    ui = onEventThread(() -> new ConsoleUI(resources, consoleProperties, model, sampleModelViews, processControl,
        fileDistribution, logger));
  }

  @Override
  public ErrorHandler getErrorHandler() {
    return ui.getErrorHandler();
  }

  /** Something that builds Swing components and may refuse with a console exception. */
  interface Builder<T> {
    T build() throws ConsoleException;
  }

  /** Runs BUILDER on the Swing event thread and returns what it built, or rethrows its failure. */
  static <T> T onEventThread(Builder<T> builder) throws GrinderException {
    if (SwingUtilities.isEventDispatchThread()) {
      return builder.build();
    }
    final AtomicReference<T> built = new AtomicReference<>();
    final AtomicReference<ConsoleException> refused = new AtomicReference<>();
    try {
      SwingUtilities.invokeAndWait(() -> {
        try {
          built.set(builder.build());
        } catch (ConsoleException e) {
          refused.set(e);
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConsoleException("interrupted while building the console's window");
    } catch (InvocationTargetException e) {
      final Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new ConsoleException("building the console's window failed: " + cause);
    }
    if (refused.get() != null) {
      throw refused.get();
    }
    return built.get();
  }
}
