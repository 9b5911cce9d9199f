package io.github.hbasegrindersuite.console.warm;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Map;

/**
 * Closes every Jython interpreter state of a worker's class loader, as Jython itself does at JVM
 * exit: each {@code org.python.core.PySystemState} registers a JVM shutdown hook (its closer) that
 * holds it, and through it the class loader of the worker that made it, for as long as the JVM
 * runs. A worker process never noticed; a worker that is a thread of a long-lived agent would
 * leave its 3,000 classes (about 17 MB of metaspace) behind at every run. Jython keeps the closers
 * in a private static map and cleans them up privately: reached by reflection, within the worker's
 * own copy of Jython. Called once the worker has ended.
 */
public final class JythonClosers {

  private JythonClosers() {
  }

  /**
   * The worker's own copy of Jython, looked up in its loader (this class is the agent's, shared by
   * every worker). Returns how many were closed; -1 when this Jython keeps them elsewhere (then none is).
   */
  public static int closeAll(ClassLoader worker) {
    try {
      final Class<?> systemState = Class.forName("org.python.core.PySystemState", false, worker);
      final Field closersField = systemState.getDeclaredField("sysClosers");
      closersField.setAccessible(true);
      final Map<?, ?> closers = (Map<?, ?>) closersField.get(null);
      int closed = 0;
      for (Object closer : new ArrayList<>(closers.values())) {
        final Method cleanup = closer.getClass().getDeclaredMethod("cleanup");
        cleanup.setAccessible(true);
        cleanup.invoke(closer);
        closed++;
      }
      closers.clear();
      return closed;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }
}
