package io.github.hbasegrindersuite.console;

import java.util.function.LongSupplier;
import net.grinder.common.processidentity.WorkerProcessReport;
import net.grinder.communication.CommunicationException;
import net.grinder.communication.MessageDispatchRegistry;
import net.grinder.messages.console.WorkerProcessReportMessage;

/**
 * The console's sample count when a worker's "finished" report was handled. A worker sends its last
 * statistics and then "finished" over its one connection, handled in that order, and the console
 * adds statistics to its totals as they arrive: so the totals are whole once the last worker's
 * "finished" is handled, and the first sample taken after it holds the run's last interval. The run
 * controller hears of "finished" only from Grinder's process reports, passed on every 500 ms; this
 * mark is taken as the message is handled, so a sample that fell between the two need not be
 * waited for again (a run's end waited about a second for a sample it already had).
 */
final class FinishedMark {
  private final LongSupplier samples;
  private volatile long mark = -1;

  FinishedMark(LongSupplier samples) {
    this.samples = samples;
  }

  /**
   * Puts itself after the console's own handler of worker reports, which still handles every one.
   *
   * @return false when the registry had no handler for them (Grinder's process control registers
   *     one when it is made: not expected); the mark is then not to be trusted
   */
  boolean follow(MessageDispatchRegistry registry) {
    final MessageDispatchRegistry.Handler<WorkerProcessReportMessage>[] console = newHandlerArray();
    console[0] = registry.set(WorkerProcessReportMessage.class, new MessageDispatchRegistry.AbstractHandler<WorkerProcessReportMessage>() {
      @Override
      public void handle(WorkerProcessReportMessage message) throws CommunicationException {
        if (console[0] != null) {
          console[0].handle(message);
        }
        if (message.getState() == WorkerProcessReport.State.FINISHED) {
          finished();
        }
      }
    });
    return console[0] != null;
  }

  @SuppressWarnings("unchecked")
  private static MessageDispatchRegistry.Handler<WorkerProcessReportMessage>[] newHandlerArray() {
    return new MessageDispatchRegistry.Handler[1];
  }

  void finished() {
    mark = samples.getAsLong();
  }

  /** A new run: no worker of it has finished yet. */
  void reset() {
    mark = -1;
  }

  /** The sample count when the last worker finished, or -1 when none has (in this run). */
  long mark() {
    return mark;
  }
}
