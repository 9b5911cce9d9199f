package io.github.hbasegrindersuite.console.warm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerInstrumentationTest {

  /** A JVM Instrumentation that records what is added and removed (a fake: the JVM's cannot be made here). */
  private static Instrumentation recording(List<ClassFileTransformer> live) {
    return (Instrumentation) Proxy.newProxyInstance(WorkerInstrumentationTest.class.getClassLoader(),
        new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "addTransformer":
              live.add((ClassFileTransformer) args[0]);
              return null;
            case "removeTransformer":
              return live.remove(args[0]);
            default:
              return null;
          }
        });
  }

  @Test
  void aWorkersTransformersSeeOnlyItsClassesAndLeaveWithIt() throws Exception {
    final List<ClassFileTransformer> live = new ArrayList<>();
    final byte[] rewritten = {1, 2, 3};
    final ClassFileTransformer weaver = new ClassFileTransformer() {
      @Override
      public byte[] transform(ClassLoader loader, String name, Class<?> c, java.security.ProtectionDomain d, byte[] b) {
        return rewritten;
      }
    };
    try (URLClassLoader worker = new URLClassLoader(new URL[0]); URLClassLoader other = new URLClassLoader(new URL[0])) {
      final WorkerInstrumentation instrumentation = new WorkerInstrumentation(recording(live), worker);
      instrumentation.addTransformer(weaver, true);
      assertEquals(1, live.size());
      final ClassFileTransformer onTheJvm = live.get(0);
      assertArrayEquals(rewritten, onTheJvm.transform(worker, "org/python/core/PyFunction", null, null, new byte[0]));
      assertNull(onTheJvm.transform(other, "org/python/core/PyFunction", null, null, new byte[0]),
          "another worker's class of the same name is left alone");
      assertEquals(1, instrumentation.removeTransformers());
      assertEquals(0, live.size());
    }
  }

  @Test
  void threadsLeftWithAnEndedWorkersLoaderGetTheAgentsInstead() throws Exception {
    try (URLClassLoader worker = new URLClassLoader(new URL[0])) {
      final java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
      final Thread pool = new Thread(() -> {
        try {
          end.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "left-by-a-worker");
      pool.setContextClassLoader(worker);
      pool.setDaemon(true);
      pool.start();
      try {
        assertEquals(1, WorkerInstrumentation.releaseThreads(worker));
        assertSame(ClassLoader.getSystemClassLoader(), pool.getContextClassLoader());
      } finally {
        end.countDown();
        pool.join(5000);
      }
    }
  }

  @Test
  void noInstrumentationOutsideASingleProcessWorker() {
    // this test's class is the application loader's: not a worker's
    assertNull(WorkerInstrumentation.forWorkerOf(WorkerInstrumentationTest.class));
  }
}
