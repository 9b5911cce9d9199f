package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.grinder.common.processidentity.ProcessReport;
import net.grinder.communication.Message;
import net.grinder.communication.MessageDispatchRegistry;
import net.grinder.messages.console.WorkerProcessReportMessage;
import org.junit.jupiter.api.Test;

class FinishedMarkTest {

  /** A registry of one handler per message class, as Grinder's console keeps them. */
  static final class Registry implements MessageDispatchRegistry {
    Handler<WorkerProcessReportMessage> workerReports;

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Message, S extends T> Handler<T> set(Class<S> type, Handler<T> handler) {
      final Handler<T> previous = (Handler<T>) workerReports;
      workerReports = (Handler<WorkerProcessReportMessage>) handler;
      return previous;
    }

    @Override
    public <T extends Message, S extends T> BlockingHandler<T> set(Class<S> type, BlockingHandler<T> handler) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void addFallback(Handler<Message> handler) {
      throw new UnsupportedOperationException();
    }
  }

  private static WorkerProcessReportMessage report(ProcessReport.State state) {
    return new WorkerProcessReportMessage(state, (short) 8, (short) 8);
  }

  @Test
  void theMarkIsTheSampleCountWhenTheLastFinishedReportWasHandledAfterTheConsoles() throws Exception {
    final Registry registry = new Registry();
    final List<ProcessReport.State> console = new ArrayList<>();
    registry.set(WorkerProcessReportMessage.class, new MessageDispatchRegistry.AbstractHandler<WorkerProcessReportMessage>() {
      @Override
      public void handle(WorkerProcessReportMessage message) {
        console.add(message.getState());
      }
    });
    final AtomicLong samples = new AtomicLong(3);
    final FinishedMark mark = new FinishedMark(samples::get);
    assertTrue(mark.follow(registry));
    assertEquals(-1, mark.mark());

    registry.workerReports.handle(report(ProcessReport.State.RUNNING));
    assertEquals(-1, mark.mark(), "a running worker sets no mark");
    registry.workerReports.handle(report(ProcessReport.State.FINISHED));
    assertEquals(3, mark.mark());
    samples.set(5);
    registry.workerReports.handle(report(ProcessReport.State.FINISHED));   // a second worker, later
    assertEquals(5, mark.mark());
    assertEquals(List.of(ProcessReport.State.RUNNING, ProcessReport.State.FINISHED, ProcessReport.State.FINISHED), console,
        "the console's own handler still gets every report, in order");

    mark.reset();
    assertEquals(-1, mark.mark(), "a new run starts without a mark");
  }

  @Test
  void withoutAConsoleHandlerToFollowTheMarkIsNotTrusted() throws Exception {
    final Registry registry = new Registry();
    final FinishedMark mark = new FinishedMark(() -> 7);
    assertFalse(mark.follow(registry));
    registry.workerReports.handle(report(ProcessReport.State.FINISHED));   // no exception without one
    assertEquals(7, mark.mark());
  }
}
