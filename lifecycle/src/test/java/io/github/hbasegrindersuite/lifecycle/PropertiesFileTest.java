package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesFileTest {
  @TempDir
  Path dir;

  @Test
  void whatIsWrittenIsReadBackExactlyByJavaProperties() throws Exception {
    final Map<String, String> entries = new LinkedHashMap<>();
    entries.put("plain", "get:70,put:30");
    entries.put("leading", "  two spaces first");
    entries.put("backslash", "C:\\dir\\file");
    entries.put("newline", "one\ntwo");
    entries.put("unicode", "caf\u00e9 \u2603");
    entries.put("key with = and :", "=:#! inside");
    entries.put("empty", "");
    final Path file = dir.resolve("x.properties");
    PropertiesFile.write(file, List.of("a comment\nthat stays one line"), entries);
    final Properties back = PropertiesFile.read(file);
    assertEquals(entries.size(), back.size());
    entries.forEach((k, v) -> assertEquals(v, back.getProperty(k), k));
  }

  @Test
  void continuationsAndColonsMeanWhatJavaSays() throws Exception {
    final Path file = java.nio.file.Files.write(dir.resolve("y.properties"),
        List.of("a : 1", "b=two \\", "   lines", "c\\u0041 = \\u0042"));
    final Properties p = PropertiesFile.read(file);
    assertEquals("1", p.getProperty("a"));
    assertEquals("two lines", p.getProperty("b"));
    assertEquals("B", p.getProperty("cA"));
  }
}
