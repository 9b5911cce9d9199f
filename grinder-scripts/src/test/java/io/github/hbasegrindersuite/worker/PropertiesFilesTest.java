package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesFilesTest {

  @TempDir
  Path dir;

  @Test
  void readsAsGrinderDoesContinuationsEscapesColonsAndLatin1() throws Exception {
    final Path file = dir.resolve("a.properties");
    Files.write(file, ("# comment\nb.key = one \\\n    two\na.key: x\\u00e9y\nc.key=caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1));
    final Properties p = PropertiesFiles.read(file);
    assertEquals("one two", p.getProperty("b.key"));
    assertEquals("x\u00e9y", p.getProperty("a.key"));
    assertEquals("caf\u00e9", p.getProperty("c.key"), "bytes are ISO-8859-1, as Grinder reads grinder.properties");
    assertEquals(3, p.size());
  }

  @Test
  void keepsTheKeysInFileOrder() throws Exception {
    final Path file = dir.resolve("s.properties");
    Files.writeString(file, "sweep.vary.z = 1\nsweep.vary.a = 2\nsweep.vary.z = 3\nsweep.vary.m = 4\n");
    final PropertiesFiles.InFileOrder p = PropertiesFiles.readInOrder(file);
    assertEquals(List.of("sweep.vary.z", "sweep.vary.a", "sweep.vary.m"), p.order());
    assertEquals("3", p.getProperty("sweep.vary.z"), "the last value wins, at the first key's place");
  }

  @Test
  void aMalformedEscapeNamesTheFileAndAMissingOneIsNoSuchFile() throws Exception {
    final Path file = dir.resolve("bad.properties");
    Files.writeString(file, "k = \\u00zz\n");
    final String message = assertThrows(IOException.class, () -> PropertiesFiles.read(file)).getMessage();
    assertTrue(message.startsWith(file + ": "), message);
    assertThrows(java.nio.file.NoSuchFileException.class, () -> PropertiesFiles.read(dir.resolve("absent.properties")));
  }

  @Test
  void parsesOneOverrideLine() throws Exception {
    assertEquals("a=b", PropertiesFiles.parse("hbaseload.x = a=b").getProperty("hbaseload.x"));
    assertThrows(IOException.class, () -> PropertiesFiles.parse("k=\\uZZZZ"));
  }
}
