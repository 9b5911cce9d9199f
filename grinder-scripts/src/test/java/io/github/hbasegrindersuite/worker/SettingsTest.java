package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SettingsTest {

  private static Settings load(String... pairs) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      given.put("hbaseload." + pairs[i], pairs[i + 1]);
    }
    return Settings.load(given);
  }

  private static String refused(String... pairs) {
    return assertThrows(SettingsException.class, () -> load(pairs)).getMessage();
  }

  @Test
  void emptyPropertiesGiveEveryDefault() {
    Settings s = load();
    assertEquals("direct", s.text("target"));
    assertEquals(Map.of(Operation.GET, 70, Operation.PUT, 30), s.mix());
    assertEquals(100000, s.integer("rows"));
    assertEquals(0.99, s.decimal("zipfian.constant"), 1e-12);
    assertFalse(s.flag("client.buffering"));
    assertEquals(List.of("f"), s.familyNames());
  }

  @Test
  void givenValuesOverrideAndAreTrimmed() {
    Settings s = load("rows", " 500 ", "operations", "scan:20, batch-put:80", "families", "3", "verify", "TRUE");
    assertEquals(500, s.integer("rows"));
    assertEquals(Map.of(Operation.SCAN, 20, Operation.BATCH_PUT, 80), s.mix());
    assertEquals(List.of("f0", "f1", "f2"), s.familyNames());
    assertTrue(s.flag("verify"));
    assertEquals("scan:20,batch-put:80", s.asProperties().get("hbaseload.operations"));
  }

  @Test
  void grinderPropertiesListsEveryKeyAtItsDefault() throws Exception {
    Path file = Path.of(System.getProperty("user.dir")).resolve("../grinder.properties").normalize();
    Pattern line = Pattern.compile("^(hbaseload\\.[\\w.]+)\\s*=\\s*(.*?)\\s*$");
    Map<String, String> documented = new TreeMap<>();
    for (String text : Files.readAllLines(file)) {
      Matcher m = line.matcher(text);
      if (m.matches()) {
        documented.put(m.group(1), m.group(2));
      }
    }
    Map<String, String> declared = new TreeMap<>();
    for (Settings.Key key : Settings.keys()) {
      declared.put(key.fullName(), key.defaultValue);
    }
    assertEquals(declared, documented);
    Properties properties = new Properties();
    try (InputStream in = new FileInputStream(file.toFile())) {
      properties.load(in);
    }
    assertEquals(load().asProperties(), Settings.load(properties).asProperties());
  }

  @Test
  void unknownKeyIsNamedWithTheAcceptedKeys() {
    String message = refused("rowz", "5");
    assertTrue(message.startsWith("unknown key hbaseload.rowz (accepted: hbaseload.target,"), message);
    assertTrue(message.contains("hbaseload.rows"), message);
  }

  @Test
  void mixMustSumTo100AndNameKnownOperations() {
    assertTrue(refused("operations", "get:70,put:20").contains("percentages sum to 90, not 100"));
    String unknown = refused("operations", "get:50,frob:50");
    assertTrue(unknown.contains("unknown operation 'frob' (accepted: get, put, scan, batch-get, batch-put, delete, increment)"),
        unknown);
    assertTrue(refused("operations", "get:50,get:50").contains("get is given twice"));
    assertTrue(refused("operations", "get:-10,put:110").contains("weight of get is negative"));
    assertTrue(refused("operations", "get").contains("is not operation:percent"));
    assertTrue(refused("operations", "").contains("is empty"));
  }

  @Test
  void illTypedAndImpossibleValuesAreRefusedWithTheirRange() {
    assertEquals("hbaseload.rows=-5 is out of range (accepted: 1..2147483647)", refused("rows", "-5"));
    assertEquals("hbaseload.rows=many is not a whole number", refused("rows", "many"));
    assertTrue(refused("key.distribution", "gaussian").contains("(accepted: uniform, zipfian, hotspot, sequential, latest)"));
    assertTrue(refused("target", "carrier-pigeon").contains("(accepted: direct, thrift)"));
    assertTrue(refused("zipfian.constant", "1.0").contains("out of range"));
    assertTrue(refused("zookeeper.port", "70000").contains("1..65535"));
    assertTrue(refused("verify", "yes").contains("(accepted: true, false)"));
    assertTrue(refused("table", " ").contains("is empty"));
  }
}
