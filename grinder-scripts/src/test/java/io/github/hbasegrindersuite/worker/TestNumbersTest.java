package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Test numbers and names are declared once, by {@link Operation}; every copy elsewhere in the
 * project must agree with it: the README's table, r-analysis's fallback names for logs without
 * a manifest, and any prose enumeration ("1 get, 2 put, 3 scan, ...") in the docs, the R code,
 * grinder.properties or hbase_load.py.
 */
class TestNumbersTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
  /** Three or more "N name" pairs separated by commas. */
  private static final Pattern ENUMERATION = Pattern.compile("(?:\\b\\d+ [a-z][a-z-]*, ){2,}\\d+ [a-z][a-z-]*");
  private static final Pattern R_PAIR = Pattern.compile("\"(\\d+)\"\\s*=\\s*\"([^\"]+)\"");

  /** "1 get", "2 put", ...: what every copy must say. */
  private static List<String> declared() {
    List<String> pairs = new ArrayList<>();
    for (Operation operation : Operation.values()) {
      pairs.add(operation.testNumber() + " " + operation.label());
    }
    return pairs;
  }

  private static String read(String path) throws IOException {
    Path file = ROOT.resolve(path);
    assertTrue(Files.exists(file), "run from grinder-scripts/: " + file);
    return Files.readString(file);
  }

  @Test
  void theReadmeTableListsEveryOperationAtItsNumber() throws Exception {
    List<String> lines = read("README.md").lines().toList();
    int at = 0;
    while (at < lines.size() && !lines.get(at).contains("Test numbers are stable")) {
      at++;
    }
    assertTrue(at < lines.size(), "README.md: no 'Test numbers are stable' paragraph");
    while (!lines.get(at).startsWith("|")) {
      at++;
    }
    List<String> rows = new ArrayList<>();
    for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) { // after header and |---|
      String[] cells = lines.get(at).split("\\|");
      rows.add(cells[1].trim() + " " + cells[2].trim());
    }
    assertEquals(declared(), rows, "README.md's test table");
  }

  @Test
  void theReportsFallbackNamesAreOperations() throws Exception {
    String load = read("r-analysis/R/load.R");
    Matcher vector = Pattern.compile("DEFAULT_TEST_NAMES <- c\\(([^)]*)\\)").matcher(load);
    assertTrue(vector.find(), "r-analysis/R/load.R: no DEFAULT_TEST_NAMES <- c(...)");
    List<String> pairs = new ArrayList<>();
    Matcher pair = R_PAIR.matcher(vector.group(1));
    while (pair.find()) {
      pairs.add(pair.group(1) + " " + pair.group(2));
    }
    assertEquals(declared(), pairs, "r-analysis/R/load.R DEFAULT_TEST_NAMES");
  }

  @Test
  void everyProseListOfTestNumbersIsComplete() throws Exception {
    List<String> files = new ArrayList<>(List.of("README.md", "r-analysis/README.md", "grinder.properties",
        "grinder-scripts/hbase_load.py", "thrift-shim/README.md"));
    try (Stream<Path> r = Files.list(ROOT.resolve("r-analysis/R"))) {
      r.filter(p -> p.toString().endsWith(".R")).sorted().forEach(p -> files.add(ROOT.relativize(p).toString()));
    }
    String expected = String.join(", ", declared());
    for (String file : files) {
      Matcher m = ENUMERATION.matcher(read(file).replaceAll("\\s+", " "));
      while (m.find()) {
        assertEquals(expected, m.group(), file + " lists test numbers that are not Operation.java's");
      }
    }
  }

  /** The pattern finds the lists there are today (r-analysis's README and the glossary, render-glossary.R) and a wrong one. */
  @Test
  void theEnumerationPatternFindsTheListsAndARenaming() throws Exception {
    assertTrue(ENUMERATION.matcher(read("r-analysis/R/render-glossary.R")).find(), "render-glossary.R's list");
    Matcher m = ENUMERATION.matcher("Test numbers: 1 get, 2 put, 3 scans, 4 batch-get; then 300 threads, 600 threads");
    assertTrue(m.find());
    assertEquals("1 get, 2 put, 3 scans, 4 batch-get", m.group());
    assertFalse(m.find());
  }
}
