package io.github.hbasegrindersuite.console.warm;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.JarFile;

/**
 * The JVM's Instrumentation as one worker of Grinder's single-process mode sees it: the
 * transformers the worker adds see only the classes of the worker's own class loader, and all of
 * them are removed when the worker ends ({@link #removeTransformers}). Everything else is the
 * JVM's.
 */
public final class WorkerInstrumentation implements Instrumentation {

  /** The agent JVM's copy of Grinder's holder of the -javaagent Instrumentation. */
  static final String EXPOSE = "net.grinder.util.weave.agent.ExposeInstrumentation";

  private final Instrumentation jvm;
  private final ClassLoader worker;
  private final List<ClassFileTransformer> added = new CopyOnWriteArrayList<>();

  WorkerInstrumentation(Instrumentation jvm, ClassLoader worker) {
    this.jvm = jvm;
    this.worker = worker;
  }

  /**
   * For the worker whose class loader defined {@code runner}: null when that is the agent's own
   * loader (not a single-process worker) or the agent JVM has no Instrumentation (no -javaagent).
   */
  public static WorkerInstrumentation forWorkerOf(Class<?> runner) {
    final ClassLoader worker = runner.getClassLoader();
    final ClassLoader agent = ClassLoader.getSystemClassLoader();
    if (worker == agent) {
      return null;
    }
    try {
      final Method get = Class.forName(EXPOSE, true, agent).getMethod("getInstrumentation");
      final Instrumentation jvm = (Instrumentation) get.invoke(null);
      return jvm == null ? null : new WorkerInstrumentation(jvm, worker);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /** Takes every transformer this worker added off the JVM; returns how many. */
  public int removeTransformers() {
    int removed = 0;
    for (ClassFileTransformer t : added) {
      if (jvm.removeTransformer(t)) {
        removed++;
      }
    }
    added.clear();
    return removed;
  }

  /**
   * Live threads whose context class loader is the ended worker's get the agent's instead (their
   * makers may outlive the worker: a pool's thread, a client's event loop). Returns how many.
   */
  public static int releaseThreads(ClassLoader worker) {
    int released = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getContextClassLoader() == worker) {
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        released++;
      }
    }
    return released;
  }

  private ClassFileTransformer ownClassesOnly(ClassFileTransformer transformer) {
    return new ClassFileTransformer() {
      @Override
      public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
          byte[] bytes) throws IllegalClassFormatException {
        return loader == worker ? transformer.transform(loader, className, redefined, domain, bytes) : null;
      }

      @Override
      public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
          ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
        return loader == worker ? transformer.transform(module, loader, className, redefined, domain, bytes) : null;
      }
    };
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
    final ClassFileTransformer own = ownClassesOnly(transformer);
    added.add(own);
    jvm.addTransformer(own, canRetransform);
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer) {
    addTransformer(transformer, false);
  }

  @Override
  public boolean removeTransformer(ClassFileTransformer transformer) {
    // the worker holds its own transformer, not the wrapper: not expected; remove none of the JVM's
    return false;
  }

  @Override
  public boolean isRetransformClassesSupported() {
    return jvm.isRetransformClassesSupported();
  }

  @Override
  public void retransformClasses(Class<?>... classes) throws UnmodifiableClassException {
    jvm.retransformClasses(classes);
  }

  @Override
  public boolean isRedefineClassesSupported() {
    return jvm.isRedefineClassesSupported();
  }

  @Override
  public void redefineClasses(ClassDefinition... definitions) throws ClassNotFoundException, UnmodifiableClassException {
    jvm.redefineClasses(definitions);
  }

  @Override
  public boolean isModifiableClass(Class<?> theClass) {
    return jvm.isModifiableClass(theClass);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getAllLoadedClasses() {
    return jvm.getAllLoadedClasses();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getInitiatedClasses(ClassLoader loader) {
    return jvm.getInitiatedClasses(loader);
  }

  @Override
  public long getObjectSize(Object objectToSize) {
    return jvm.getObjectSize(objectToSize);
  }

  @Override
  public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {
    jvm.appendToBootstrapClassLoaderSearch(jarfile);
  }

  @Override
  public void appendToSystemClassLoaderSearch(JarFile jarfile) {
    jvm.appendToSystemClassLoaderSearch(jarfile);
  }

  @Override
  public boolean isNativeMethodPrefixSupported() {
    return jvm.isNativeMethodPrefixSupported();
  }

  @Override
  public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
    jvm.setNativeMethodPrefix(transformer, prefix);
  }

  @Override
  public void redefineModule(Module module, Set<Module> extraReads, Map<String, Set<Module>> extraExports,
      Map<String, Set<Module>> extraOpens, Set<Class<?>> extraProvides, Map<Class<?>, List<Class<?>>> extraProvides2) {
    jvm.redefineModule(module, extraReads, extraExports, extraOpens, extraProvides, extraProvides2);
  }

  @Override
  public boolean isModifiableModule(Module module) {
    return jvm.isModifiableModule(module);
  }
}
