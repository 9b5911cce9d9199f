package io.github.hbasegrindersuite.console;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Works around a hard-coded trap of Grinder 3.11's console: it closes any connection that has
 * sent nothing for 30 seconds (ConsoleCommunicationImplementation passes 30000 ms to its
 * ServerReceiver; IdleAwareSocketWrapper closes the socket). A worker opens its connection when
 * its JVM starts but sends its first report only once its script is loaded; when that takes
 * longer than 30 s (a loaded machine, a slow HBase connection) the console drops the worker,
 * never hears of it again, and the run is lost although the worker goes on and logs its data.
 *
 * <p>{@link #refresh(Object)} resets the console's idle clock of every open connection. The run
 * controller calls it every few seconds while it waits for the workers' first reports, and
 * stops once every worker has reported, so zombie connections are still cleaned up later.
 * It reaches into Grinder's private fields (Grinder 3.11 is the last release, so they do not
 * move); if they cannot be found it fails with an exception, and the controller goes on
 * without it.
 */
final class IdleConnectionGrace {

  private IdleConnectionGrace() {
  }

  /** Resets the idle clock of every connection of the console; returns how many. */
  static int refresh(Object consoleCommunication) throws ReflectiveOperationException {
    final Object acceptor = field(consoleCommunication, "m_acceptor");
    if (acceptor == null) {
      return 0;
    }
    final Map<?, ?> socketSets = (Map<?, ?>) field(acceptor, "m_socketSets");
    final List<Object> pools;
    synchronized (socketSets) {
      pools = new ArrayList<>(socketSets.values());
    }
    int refreshed = 0;
    for (Object pool : pools) {
      final Object mutex = field(pool, "m_reservablesMutex");
      final List<Object> reservables;
      synchronized (mutex) {
        reservables = new ArrayList<>((List<?>) field(pool, "m_reservables"));
      }
      for (Object reservable : reservables) {
        if (!hasField(reservable.getClass(), "m_resource")) {
          continue; // the pool's sentinel
        }
        final Object socket = field(reservable, "m_resource");
        if (socket != null && hasField(socket.getClass(), "m_idleStart")) {
          final Method getInputStream = method(socket.getClass(), "getInputStream");
          final InputStream lock = (InputStream) getInputStream.invoke(socket);
          final Field idleStart = find(socket.getClass(), "m_idleStart");
          synchronized (lock) { // what IdleAwareSocketWrapper.hasData holds
            idleStart.setLong(socket, -1);
          }
          refreshed++;
        }
      }
    }
    return refreshed;
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    return find(target.getClass(), name).get(target);
  }

  private static boolean hasField(Class<?> type, String name) {
    try {
      find(type, name);
      return true;
    } catch (NoSuchFieldException e) {
      return false;
    }
  }

  private static Field find(Class<?> type, String name) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        final Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(type.getName() + "." + name);
  }

  private static Method method(Class<?> type, String name) throws NoSuchMethodException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        final Method m = c.getDeclaredMethod(name);
        m.setAccessible(true);
        return m;
      } catch (NoSuchMethodException e) {
        // look in the superclass
      }
    }
    throw new NoSuchMethodException(type.getName() + "." + name + "()");
  }
}
