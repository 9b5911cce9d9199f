package io.github.hbasegrindersuite.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A hosts file: one injector host per line, {@code DESTINATION JAVA WORK_DIR [HOST_ID]}, '#'
 * comments. DESTINATION is an ssh destination (user@host) or {@code local}; JAVA that host's java
 * ({@code -}: java on its PATH, or this machine's JDK for {@code local}); WORK_DIR where the agent
 * keeps the suite's jars and the runs' logs; HOST_ID defaults to the destination's host name.
 * Every field ends up in an ssh command line or a file name, so each is held to a safe alphabet.
 */
final class HostsFile {
  private static final Pattern SAFE_PATH = Pattern.compile("/[A-Za-z0-9/._+-]*");
  private static final Pattern SAFE_DESTINATION = Pattern.compile("[A-Za-z0-9._@:+-]+");
  private static final Pattern HOST_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private HostsFile() {
  }

  /** @param localJava this machine's JDK, for "local" lines whose JAVA is '-' */
  static List<Host> read(Path file, String localJava) throws LifecycleException {
    final List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new LifecycleException("hosts file " + file + " not found");
    } catch (IOException e) {
      throw new LifecycleException("hosts file " + file + " cannot be read: " + e.getMessage());
    }
    final List<Host> hosts = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    for (int n = 1; n <= lines.size(); n++) {
      final String line = lines.get(n - 1).replaceFirst("#.*", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      final String where = file + " line " + n + ": ";
      final String[] f = line.split("\\s+");
      if (f.length > 4) {
        throw new LifecycleException(where + "too many fields (expected: DESTINATION JAVA WORK_DIR [HOST_ID])");
      }
      if (f.length < 3) {
        throw new LifecycleException(where + "expected DESTINATION JAVA WORK_DIR [HOST_ID], got '" + line + "'");
      }
      final String destination = f[0];
      if (destination.startsWith("-") || !SAFE_DESTINATION.matcher(destination).matches()) {
        throw new LifecycleException(where + "destination '" + destination
            + "' is not an ssh destination (user@host; no leading '-', which ssh would take for an option)");
      }
      final boolean local = destination.equals("local");
      String java = f[1];
      if (java.equals("-")) {
        java = local ? localJava : "java";
      } else if (!SAFE_PATH.matcher(java).matches()) {
        throw new LifecycleException(where + "JAVA '" + java + "' must be '-' or an absolute path of letters, digits and / . _ + -");
      }
      final String workDir = f[2];
      if (!workDir.startsWith("/")) {
        throw new LifecycleException(where + "WORK_DIR '" + workDir + "' must be an absolute path");
      }
      if (!SAFE_PATH.matcher(workDir).matches() || workDir.contains("/../") || workDir.endsWith("/..")) {
        throw new LifecycleException(where + "WORK_DIR '" + workDir + "' may hold only letters, digits and / . _ + - (no '..')");
      }
      String id = f.length == 4 ? f[3] : local ? "local" + (hosts.size() + 1) : destination.replaceFirst("^.*@", "").replaceFirst(":.*$", "");
      id = id.replaceAll("[^A-Za-z0-9._-]", "-");
      if (!HOST_ID.matcher(id).matches()) {
        throw new LifecycleException(where + "host id '" + id + "' must start with a letter or digit (it names the host's log folder)");
      }
      if (!seen.add(id)) {
        throw new LifecycleException(where + "host id '" + id + "' is used twice; give one as the 4th field");
      }
      hosts.add(new Host(id, local ? Host.Kind.LOCAL : Host.Kind.SSH, hosts.size() + 1, destination, java, workDir));
    }
    if (hosts.isEmpty()) {
      throw new LifecycleException("hosts file " + file + " lists no host");
    }
    return hosts;
  }
}
