package io.github.hbasegrindersuite.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * The suite's one reader of properties files, as Grinder reads grinder.properties
 * (java.util.Properties from bytes: ISO-8859-1 with \\uXXXX escapes), so that continuation lines,
 * escapes and ':' separators mean the same to the worker, lifecycle and the shim (all three use it;
 * lifecycle's PropertiesFile adds its error type and the writer).
 */
public final class PropertiesFiles {

  private PropertiesFiles() {
  }

  /** The file's keys and values; a malformed \\u escape is an IOException naming the file. */
  public static Properties read(Path file) throws IOException {
    return load(new Properties(), file);
  }

  /** Properties that also keep the order in which their keys first appear in the file (a scenario's points). */
  public static final class InFileOrder extends Properties {
    private static final long serialVersionUID = 1L;
    private final List<String> order = new ArrayList<>();

    @Override
    public synchronized Object put(Object key, Object value) {
      if (!containsKey(key)) {
        order.add((String) key);
      }
      return super.put(key, value);
    }

    public List<String> order() {
      return Collections.unmodifiableList(order);
    }
  }

  /** The file read as {@link #read} reads it, with its keys' order. */
  public static InFileOrder readInOrder(Path file) throws IOException {
    return load(new InFileOrder(), file);
  }

  private static <P extends Properties> P load(P properties, Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
    return properties;
  }

  /** Properties text (e.g. one KEY=VALUE line of an override), read by the same rules. */
  public static Properties parse(String text) throws IOException {
    final Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    return properties;
  }
}
