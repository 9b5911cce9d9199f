package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.PropertiesFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Java properties files, read and written the way Grinder and the workers read them
 * (java.util.Properties, ISO-8859-1 with \\uXXXX escapes): read by the worker's
 * {@link PropertiesFiles}, the suite's one parser, so continuation lines, escapes and ':'
 * separators mean the same everywhere; written here.
 */
final class PropertiesFile {

  private PropertiesFile() {
  }

  static Properties read(Path file) throws LifecycleException {
    try {
      return PropertiesFiles.read(file);
    } catch (NoSuchFileException e) {
      throw new LifecycleException("properties file " + file + " not found");
    } catch (IOException e) {
      throw new LifecycleException("properties file " + file + " cannot be read: " + e.getMessage());
    }
  }

  /** Every key and value, sorted by key (the manifest's "properties"). */
  static TreeMap<String, String> sorted(Properties properties) {
    final TreeMap<String, String> map = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      map.put(key, properties.getProperty(key));
    }
    return map;
  }

  /** Comment lines, then one escaped {@code key = value} line per entry, sorted. */
  static void write(Path file, List<String> comments, Map<String, String> entries) throws LifecycleException {
    final List<String> lines = new ArrayList<>();
    for (String comment : comments) {
      lines.add("# " + Text.oneLine(comment));
    }
    for (Map.Entry<String, String> e : new TreeMap<>(entries).entrySet()) {
      lines.add(escape(e.getKey(), true) + " = " + escape(e.getValue(), false));
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.write(file, lines, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new LifecycleException("cannot write " + file + ": " + e.getMessage());
    }
  }

  /** java.util.Properties' escapes: what load() reads back as exactly the same string. */
  static String escape(String text, boolean key) {
    final StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      switch (c) {
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\f': out.append("\\f"); break;
        case ' ':
          out.append(key || i == 0 ? "\\ " : " ");
          break;
        case '=': case ':': case '#': case '!':
          out.append(key || i == 0 ? "\\" + c : String.valueOf(c));
          break;
        default:
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    return out.toString();
  }
}
