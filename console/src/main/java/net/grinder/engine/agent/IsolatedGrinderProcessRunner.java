package net.grinder.engine.agent;

import io.github.hbasegrindersuite.console.warm.JythonClosers;
import io.github.hbasegrindersuite.console.warm.WorkerInstrumentation;
import java.io.InputStream;
import net.grinder.engine.agent.DebugThreadWorker.IsolateGrinderProcessRunner;
import net.grinder.engine.process.WorkerProcessEntryPoint;
import net.grinder.util.weave.agent.ExposeInstrumentation;

/**
 * Replaces Grinder 3.11's own runner of a worker in single-process mode (same public surface):
 * it is loaded in each worker's own class loader and runs the worker as Grinder's does, but gives
 * the worker an Instrumentation of its own (see {@link WorkerInstrumentation}) and takes back the
 * class transformers the worker added when it ends. Grinder's leaves each worker's transformer
 * on the JVM: it keeps the ended worker's class loader alive and rewrites the next worker's
 * classes with the ended worker's point cuts. It also closes the worker's Jython interpreters
 * ({@link JythonClosers}), whose shutdown hooks would keep the worker's classes as long as the JVM.
 *
 * <p>This worker's {@link ExposeInstrumentation} is its own copy (the suite's shared set excludes
 * it, {@code !net.grinder.util.weave.agent.ExposeInstrumentation}); the agent's copy holds the
 * JVM's Instrumentation from {@code -javaagent}.
 */
public class IsolatedGrinderProcessRunner implements IsolateGrinderProcessRunner {

  @Override
  public int run(InputStream agentInputStream) {
    final WorkerInstrumentation instrumentation = WorkerInstrumentation.forWorkerOf(getClass());
    if (instrumentation == null) {
      // not a worker of the suite's single-process mode (or no -javaagent): as Grinder's own
      return new WorkerProcessEntryPoint().run(agentInputStream);
    }
    ExposeInstrumentation.premain(null, instrumentation);
    final ClassLoader worker = getClass().getClassLoader();
    final Thread self = Thread.currentThread();
    final ClassLoader context = self.getContextClassLoader();
    // Threads inherit their context class loader from the thread that makes them: the worker's
    // threads (and the agent-wide ones the HBase client makes on its first use) would each hold
    // this worker's class loader for their whole life.
    self.setContextClassLoader(ClassLoader.getSystemClassLoader());
    try {
      return new WorkerProcessEntryPoint().run(agentInputStream);
    } finally {
      self.setContextClassLoader(context);
      instrumentation.removeTransformers();
      JythonClosers.closeAll(worker);
      WorkerInstrumentation.releaseThreads(worker);
    }
  }
}
