package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsFileTest {
  @TempDir
  Path dir;

  private Path file(String... lines) throws Exception {
    return Files.write(dir.resolve("lab.hosts"), List.of(lines));
  }

  private String refusal(String... lines) throws Exception {
    final Path f = file(lines);
    return assertThrows(LifecycleException.class, () -> HostsFile.read(f, "/jdk/bin/java")).getMessage()
        .replace(f.toString(), "F");
  }

  @Test
  void readsHostsWithDefaultsForIdAndJava() throws Exception {
    final List<Host> hosts = HostsFile.read(file("# two hosts", "alice@inj1.lab - /srv/grinder", "",
        "local - /tmp/work  here  # a comment", "bob@10.0.0.7:22 /opt/jdk/bin/java /srv/g"), "/jdk/bin/java");
    assertEquals(3, hosts.size());
    assertEquals("inj1.lab", hosts.get(0).id);
    assertEquals(Host.Kind.SSH, hosts.get(0).kind);
    assertEquals("java", hosts.get(0).java);          // '-': the remote host's PATH
    assertEquals("here", hosts.get(1).id);
    assertEquals(Host.Kind.LOCAL, hosts.get(1).kind);
    assertEquals("/jdk/bin/java", hosts.get(1).java); // '-' on 'local': this machine's JDK
    assertEquals("10.0.0.7", hosts.get(2).id);
    assertEquals("/srv/g/runs/run-3-17", hosts.get(2).runDirOnHost("run-3-17"));
  }

  @Test
  void badLinesAreNamedByLine() throws Exception {
    assertEquals("F line 1: too many fields (expected: DESTINATION JAVA WORK_DIR [HOST_ID])", refusal("a - /w id extra"));
    assertEquals("F line 2: expected DESTINATION JAVA WORK_DIR [HOST_ID], got 'a -'", refusal("# x", "a -"));
    assertEquals("F line 1: WORK_DIR 'w' must be an absolute path", refusal("a - w"));
    assertEquals("F line 2: host id 'a' is used twice; give one as the 4th field", refusal("x@a - /w", "y@a - /v"));
    assertEquals("hosts file F lists no host", refusal("# nothing"));
  }

  @Test
  void nothingReachesSshOrTheShellAsAnOptionOrMetacharacter() throws Exception {
    assertEquals("F line 1: destination '-oProxyCommand=touch' is not an ssh destination (user@host; no leading '-', which ssh would take for an option)",
        refusal("-oProxyCommand=touch - /w"));
    assertEquals("F line 1: WORK_DIR '/w|x&y' may hold only letters, digits and / . _ + - (no '..')", refusal("a - /w|x&y"));
    assertEquals("F line 1: WORK_DIR '/w/../etc' may hold only letters, digits and / . _ + - (no '..')", refusal("a - /w/../etc"));
    assertEquals("F line 1: host id '..' must start with a letter or digit (it names the host's log folder)", refusal("a - /w .."));
    assertEquals("F line 1: JAVA '$(id)' must be '-' or an absolute path of letters, digits and / . _ + -", refusal("a $(id) /w"));
  }

  @Test
  void aMissingFileIsNamed() {
    final Path missing = dir.resolve("none.hosts");
    assertEquals("hosts file " + missing + " not found",
        assertThrows(LifecycleException.class, () -> HostsFile.read(missing, "j")).getMessage());
  }
}
