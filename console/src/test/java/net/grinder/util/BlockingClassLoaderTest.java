package net.grinder.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockingClassLoaderTest {

  /** The suite's shared set, as lifecycle's WarmWorkers hands it to Grinder, plus Grinder's own two exact names. */
  private static final Set<String> SHARED = Set.of("*", "!net.grinder.*", "!org.python.*", "!org.slf4j.*",
      "!ch.qos.logback.*", "!io.github.hbasegrindersuite.worker.GrinderReport*",
      "!net.grinder.util.weave.agent.ExposeInstrumentation",
      "net.grinder.engine.agent.DebugThreadWorker$IsolateGrinderProcessRunner",
      "net.grinder.util.weave.agent.ExposeInstrumentation");

  @Test
  void exclusionsTakeNamesOutOfTheWildcardButNotExactNames() {
    final BlockingClassLoader.Names shared = new BlockingClassLoader.Names(SHARED);
    assertTrue(shared.matches("org.apache.hadoop.hbase.client.Table", false));
    assertTrue(shared.matches("io.github.hbasegrindersuite.worker.Driver", false));
    assertFalse(shared.matches("net.grinder.engine.process.WorkerProcessEntryPoint", false));
    assertFalse(shared.matches("org.python.core.PySystemState", false));
    assertFalse(shared.matches("io.github.hbasegrindersuite.worker.GrinderReport", false));
    assertFalse(shared.matches("io.github.hbasegrindersuite.worker.GrinderReport$1", false));
    // an exact name survives a prefix exclusion: the runner's interface must be the agent's
    assertTrue(shared.matches("net.grinder.engine.agent.DebugThreadWorker$IsolateGrinderProcessRunner", false));
    // an exact exclusion beats an exact name: each worker its own holder of the Instrumentation
    assertFalse(shared.matches("net.grinder.util.weave.agent.ExposeInstrumentation", false));
    // resources are matched with '/' read as '.'
    assertFalse(shared.matches("net/grinder/util/weave/agent/ExposeInstrumentation.class", true));
    assertFalse(shared.matches("org/python/core/PySystemState.class", true));
    assertTrue(shared.matches("org/apache/hadoop/hbase/client/Table.class", true));
  }

  @Test
  void anEmptySetMatchesNothing() {
    final BlockingClassLoader.Names none = new BlockingClassLoader.Names(Collections.emptySet());
    assertFalse(none.matches("java.lang.String", false));
    assertFalse(new BlockingClassLoader.Names(Set.of("!a.*")).matches("a.B", false));
  }

  @Test
  void onJava17TheClassPathComesFromJavaClassPath() {
    // the application loader is no URLClassLoader since Java 9: Grinder's own class cast it and failed
    final URL[] urls = BlockingClassLoader.classPathOf(ClassLoader.getSystemClassLoader());
    assertTrue(urls.length > 0);
    final String classPath = System.getProperty("java.class.path");
    assertTrue(classPath.contains(new java.io.File(urls[0].getPath()).getName()), urls[0] + " not in " + classPath);
  }

  @Test
  void isolatedClassesAreDefinedAgainAndSharedOnesAreTheParents() throws Exception {
    // Grinder's single-process worker loader: everything isolated but the shared set
    final String isolated = BlockingClassLoaderTest.class.getName() + "$Probe";
    // the test classes' folder as the parent's class path (surefire's java.class.path is its booter jar)
    try (java.net.URLClassLoader parent = new java.net.URLClassLoader(
            new URL[] {Probe.class.getProtectionDomain().getCodeSource().getLocation()}, ClassLoader.getSystemClassLoader());
         BlockingClassLoader loader = new BlockingClassLoader(parent, List.of(), Collections.emptySet(), Set.of("*"),
            Set.of("*", "!" + isolated), false)) {
      final Class<?> own = loader.loadClass(isolated);
      assertNotSame(Probe.class, own, "an isolated class is this loader's own copy");
      assertSame(loader, own.getClassLoader());
      // its protection domain names no loader: a thread started under it must not keep the loader
      assertNull(own.getProtectionDomain().getClassLoader());
      assertEquals(Probe.class.getProtectionDomain().getCodeSource().getLocation(),
          own.getProtectionDomain().getCodeSource().getLocation());
      assertSame(List.class, loader.loadClass("java.util.List"), "the platform's classes stay the platform's");
      assertSame(BlockingClassLoaderTest.class, loader.loadClass(BlockingClassLoaderTest.class.getName()), "shared");
      assertSame(own, loader.loadClass(isolated), "defined once");
    }
  }

  @Test
  void blockedClassesAreNotFound() throws Exception {
    try (BlockingClassLoader loader = new BlockingClassLoader(Set.of(Probe.class.getName()), Set.of(), Set.of(), false)) {
      assertThrows(ClassNotFoundException.class, () -> loader.loadClass(Probe.class.getName()));
    }
  }

  @Test
  void sharedResourcesComeOnceFromTheParent() throws Exception {
    final String resource = BlockingClassLoaderTest.class.getName().replace('.', '/') + ".class";
    try (BlockingClassLoader loader = new BlockingClassLoader(Set.of(), Set.of(), Set.of("*"), true)) {
      assertEquals(1, Collections.list(loader.getResources(resource)).size());
    }
  }

  public static final class Probe {
  }
}
