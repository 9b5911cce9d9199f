package net.grinder.util;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Replaces Grinder 3.11's own {@code net.grinder.util.BlockingClassLoader} (same public
 * constructors), the class loader of a worker in Grinder's single-process mode
 * ({@code grinder.debug.singleprocess}), where workers run as threads of the agent's JVM. This
 * jar comes first on the agent's classpath, so this class wins. Two changes:
 *
 * <ul>
 * <li>Java 9+: without a parent given, the original casts the application class loader to
 * {@code URLClassLoader} (it is not one since Java 9) and fails; this one reads the class path
 * from {@code java.class.path}.</li>
 * <li>Exclusions: a name in a set that starts with {@code !} takes the names it matches out of
 * that set. A {@code !prefix*} exclusion leaves the set's exact names alone; an exact
 * {@code !name} removes that name whatever else matches it. The suite shares every class with
 * the agent but Grinder's, Jython's and their logging ({@code *,!net.grinder.*,...}), so that
 * the HBase client's code, compiled once, stays compiled for every worker of the session.</li>
 * </ul>
 *
 * <p>Otherwise as Grinder's: shared names are loaded by the parent, overriding blocked and
 * isolated; blocked names are not found; isolated ones are defined here, from the same class path.
 * With {@code respectGrandparents}, whatever the parent's parent (the platform loader) has comes
 * from there first.
 */
public class BlockingClassLoader extends URLClassLoader {

  static {
    registerAsParallelCapable();
  }

  private final boolean respectGrandparents;
  private final Names blocked;
  private final Names isolated;
  private final Names shared;
  /** The protection domain of each jar or folder of the class path (see {@link #findClass}). */
  private final Map<String, ProtectionDomain> domains = new ConcurrentHashMap<>();

  public BlockingClassLoader(URLClassLoader parent, List<URL> additionalClassPath, Set<String> blocked,
      Set<String> isolated, Set<String> shared, boolean respectGrandparents) {
    this((ClassLoader) parent, join(additionalClassPath, parent.getURLs()), blocked, isolated, shared,
        respectGrandparents);
  }

  public BlockingClassLoader(List<URL> additionalClassPath, Set<String> blocked, Set<String> isolated,
      Set<String> shared, boolean respectGrandparents) {
    this(BlockingClassLoader.class.getClassLoader(), join(additionalClassPath, classPathOf(BlockingClassLoader.class.getClassLoader())),
        blocked, isolated, shared, respectGrandparents);
  }

  public BlockingClassLoader(Set<String> blocked, Set<String> isolated, Set<String> shared,
      boolean respectGrandparents) {
    this(Collections.<URL>emptyList(), blocked, isolated, shared, respectGrandparents);
  }

  private BlockingClassLoader(ClassLoader parent, URL[] urls, Set<String> blocked, Set<String> isolated,
      Set<String> shared, boolean respectGrandparents) {
    super(urls, parent);
    this.blocked = new Names(blocked);
    this.isolated = new Names(isolated);
    this.shared = new Names(shared);
    this.respectGrandparents = respectGrandparents;
  }

  /** The URLs a class loader reads: its own when it is a URLClassLoader, else java.class.path's. */
  static URL[] classPathOf(ClassLoader loader) {
    if (loader instanceof URLClassLoader) {
      return ((URLClassLoader) loader).getURLs();
    }
    final List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      try {
        urls.add(new File(entry).toURI().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("class path entry " + entry + ": " + e.getMessage(), e);
      }
    }
    return urls.toArray(new URL[0]);
  }

  private static URL[] join(List<URL> first, URL[] then) {
    final List<URL> all = new ArrayList<>(first);
    Collections.addAll(all, then);
    return all.toArray(new URL[0]);
  }

  /**
   * Defines an isolated class with a protection domain that does not name this loader: every thread
   * started while a worker's code is on the stack inherits the protection domains of that stack
   * (its inherited access control context), and a thread that outlives the worker (the HBase
   * client's event loop, made on the first worker's first request and kept for the agent's life)
   * would otherwise keep this loader, all its classes and everything their statics hold.
   */
  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    final String path = name.replace('.', '/') + ".class";
    final URL url = findResource(path);
    if (url == null) {
      throw new ClassNotFoundException(name);
    }
    final byte[] bytes;
    try (InputStream in = url.openStream()) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new ClassNotFoundException(name + ": " + e.getMessage(), e);
    }
    final int dot = name.lastIndexOf('.');
    if (dot > 0) {
      final String pkg = name.substring(0, dot);
      if (getDefinedPackage(pkg) == null) {
        try {
          definePackage(pkg, null, null, null, null, null, null, null);
        } catch (IllegalArgumentException e) {
          // defined meanwhile by another thread
        }
      }
    }
    return defineClass(name, bytes, 0, bytes.length, domainOf(url, path));
  }

  /** One domain per jar or folder of the class path, its code source that jar or folder, no loader. */
  private ProtectionDomain domainOf(URL classUrl, String path) {
    final String s = classUrl.toString();
    final int bang = s.indexOf("!/");
    final String location = s.startsWith("jar:") && bang > 0 ? s.substring(4, bang)
        : s.endsWith(path) ? s.substring(0, s.length() - path.length()) : s;
    return domains.computeIfAbsent(location, l -> {
      try {
        return new ProtectionDomain(new CodeSource(new URL(l), (Certificate[]) null), null);
      } catch (MalformedURLException e) {
        return new ProtectionDomain(null, null);
      }
    });
  }

  private ClassLoader grandparent() {
    final ClassLoader parent = getParent();
    return parent == null ? null : parent.getParent();
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!shared.matches(name, false)) {
      if (respectGrandparents) {
        try {
          return Class.forName(name, resolve, grandparent());
        } catch (ClassNotFoundException e) {
          // not the platform's
        }
      }
      if (blocked.matches(name, false)) {
        throw new ClassNotFoundException(name + " is blocked in this worker's class loader");
      }
      if (isolated.matches(name, false)) {
        synchronized (getClassLoadingLock(name)) {
          Class<?> c = findLoadedClass(name);
          if (c == null) {
            c = findClass(name);
          }
          if (resolve) {
            resolveClass(c);
          }
          return c;
        }
      }
    }
    return super.loadClass(name, resolve);
  }

  @Override
  public URL getResource(String name) {
    if (!shared.matches(name, true)) {
      if (respectGrandparents) {
        final ClassLoader grandparent = grandparent();
        final URL url = grandparent == null ? ClassLoader.getSystemResource(name) : grandparent.getResource(name);
        if (url != null) {
          return url;
        }
      }
      if (blocked.matches(name, true)) {
        return null;
      }
      if (isolated.matches(name, true)) {
        return findResource(name);
      }
    }
    return super.getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    if (!shared.matches(name, true)) {
      final List<URL> found = new ArrayList<>();
      if (respectGrandparents && grandparent() != null) {
        found.addAll(Collections.list(grandparent().getResources(name)));
      }
      if (blocked.matches(name, true)) {
        return Collections.enumeration(found);
      }
      if (isolated.matches(name, true)) {
        found.addAll(Collections.list(findResources(name)));
        return Collections.enumeration(found);
      }
    }
    // shared: the parent's alone (this loader reads the same class path: each would come twice)
    return getParent() == null ? super.getResources(name) : getParent().getResources(name);
  }

  /** A set of class names: exact names, "prefix*" and their "!" exclusions. */
  static final class Names {
    private final Set<String> exact = new HashSet<>();
    private final List<String> prefixes = new ArrayList<>();
    private final Set<String> excludedExact = new HashSet<>();
    private final List<String> excludedPrefixes = new ArrayList<>();

    Names(Set<String> names) {
      for (String raw : names) {
        final String name = raw.trim();
        if (name.isEmpty()) {
          continue;
        }
        final boolean exclusion = name.startsWith("!");
        final String body = exclusion ? name.substring(1) : name;
        final int star = body.indexOf('*');
        if (star >= 0) {
          (exclusion ? excludedPrefixes : prefixes).add(body.substring(0, star));
        } else {
          (exclusion ? excludedExact : exact).add(body);
        }
      }
    }

    boolean matches(String name, boolean isResource) {
      // a resource "a/b/C.class" is matched as the class "a.b.C.class": prefixes still apply
      final String dotted = isResource ? name.replace('/', '.') : name;
      if (excludedExact.contains(dotted) || (isResource && excludedExact.contains(stripClass(dotted)))) {
        return false;
      }
      if (exact.contains(dotted) || (isResource && exact.contains(stripClass(dotted)))) {
        return true;
      }
      for (String prefix : excludedPrefixes) {
        if (dotted.startsWith(prefix)) {
          return false;
        }
      }
      for (String prefix : prefixes) {
        if (dotted.startsWith(prefix)) {
          return true;
        }
      }
      return false;
    }

    private static String stripClass(String dotted) {
      return dotted.endsWith(".class") ? dotted.substring(0, dotted.length() - ".class".length()) : dotted;
    }
  }
}
