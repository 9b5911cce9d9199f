package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.Settings.Key;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

  private static final Path GRINDER_PROPERTIES =
      Path.of(System.getProperty("user.dir")).resolve("../grinder.properties").normalize();

  @Test
  void emptyPropertiesGiveEveryDefault() {
    Settings s = load();
    assertEquals(SettingChoices.Target.DIRECT, s.target());
    assertEquals(Map.of(Operation.GET, 70, Operation.PUT, 30), s.mix());
    assertEquals(100000, s.integer(Key.ROWS));
    assertEquals(0.99, s.decimal(Key.ZIPFIAN_CONSTANT), 1e-12);
    assertFalse(s.flag(Key.CLIENT_BUFFERING));
    assertEquals(SettingChoices.KeyDistribution.UNIFORM, s.keyDistribution());
    assertEquals(SettingChoices.WriteDurability.DEFAULT, s.durability());
    assertEquals(List.of("f"), s.familyNames());
  }

  @Test
  void choiceKeysGiveTheirConstantsAndShortNamesStillRead() {
    Settings s = load("target", "THRIFT", "key.distribution", "zipfian", "durability", " skip_wal ",
        "thrift.transport", "framed", "thrift.protocol", "compact", "value.kind", "compressible",
        "compression", "gz", "bloom", "rowcol", "rows", "7");
    assertEquals(SettingChoices.Target.THRIFT, s.target());
    assertEquals(SettingChoices.KeyDistribution.ZIPFIAN, s.keyDistribution());
    assertEquals(SettingChoices.WriteDurability.SKIP_WAL, s.durability());
    assertEquals(SettingChoices.ThriftTransport.FRAMED, s.thriftTransport());
    assertEquals(SettingChoices.ThriftProtocol.COMPACT, s.thriftProtocol());
    assertEquals(ValuePool.Kind.COMPRESSIBLE, s.valueKind());
    assertEquals(SettingChoices.FamilyCompression.GZ, s.compression());
    assertEquals(SettingChoices.Bloom.ROWCOL, s.bloom());
    // by short name, as callers written before the typed keys read them: a choice reads as its label
    assertEquals("thrift", s.text("target"));
    assertEquals("skip_wal", s.text(Key.DURABILITY));
    assertEquals(7, s.integer("rows"));
    assertEquals(0.99, s.decimal("zipfian.constant"), 1e-12);
    assertFalse(s.flag("verify"));
    assertEquals("thrift", s.asProperties().get("hbaseload.target"));
    assertEquals("no such setting rowz", assertThrows(IllegalArgumentException.class, () -> s.integer("rowz")).getMessage());
    assertEquals("hbaseload.table is read as Integer but holds String",
        assertThrows(IllegalArgumentException.class, () -> s.integer(Key.TABLE)).getMessage());
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
    Path file = GRINDER_PROPERTIES;
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

  /**
   * grinder.properties names every accepted value of a choice key (and every operation) in the
   * comment just above the key's line: the alternatives a reader can pick from are the enum's.
   */
  @Test
  void grinderPropertiesNamesEveryAcceptedChoice() throws Exception {
    Map<String, String> commentAbove = new TreeMap<>();
    List<String> comment = new ArrayList<>();
    Pattern keyLine = Pattern.compile("^(hbaseload\\.[\\w.]+)\\s*=.*");
    for (String text : Files.readAllLines(GRINDER_PROPERTIES)) {
      Matcher m = keyLine.matcher(text);
      if (m.matches()) {
        commentAbove.put(m.group(1), String.join(" ", comment));
        comment.clear();
      } else if (text.startsWith("#")) {
        comment.add(text);
      }
    }
    int checked = 0;
    for (Key key : Key.values()) {
      Object value = key.parser.parse(key.fullName(), key.defaultValue);
      Choice[] accepted = value instanceof Choice ? ((Choice) value).getClass().getEnumConstants()
          : key == Key.OPERATIONS ? Operation.values() : new Choice[0];
      for (Choice choice : accepted) {
        if (!choice.label().equals(key.defaultValue)) {
          String above = commentAbove.getOrDefault(key.fullName(), "");
          assertTrue(Pattern.compile("(?<![\\w-])" + Pattern.quote(choice.label()) + "(?![\\w-])").matcher(above).find(),
              "grinder.properties: the comment above " + key.fullName() + " does not name " + choice.label() + ": " + above);
          checked++;
        }
      }
    }
    assertEquals(28, checked, "alternatives checked (a new choice key or value changes this count)");
  }

  @Test
  void familiesAreCappedAt1000AndOneFamilyPerRowIsAChoice() {
    assertEquals(1000, Settings.load(Map.of("hbaseload.families", "1000")).familyNames().size());
    assertEquals("hbaseload.families=1001 is out of range (accepted: 1..1000)", refused("families", "1001"));
    assertEquals("one", Settings.load(Map.of("hbaseload.families.written", "ONE")).text(Key.FAMILIES_WRITTEN));
    assertTrue(refused("families.written", "some").contains("(accepted: all, one)"));
  }

  @Test
  void aWideRowIsBoundedAndNamesWhatItCannotBeCombinedWith() {
    Settings wide = Settings.load(Map.of("hbaseload.wide.columns", "1000000", "hbaseload.operations", "put:100"));
    assertEquals(1_000_000, wide.integer(Key.WIDE_COLUMNS));
    assertEquals("hbaseload.wide.columns=1000001 is out of range (accepted: 0..1000000)", refused("wide.columns", "1000001"));
    assertEquals("hbaseload.wide.columns=600000 x hbaseload.value.size=2000 is a row of 1200000000 bytes, above the bound of"
            + " 1073741824 (1 GiB)",
        assertThrows(SettingsException.class, () -> Settings.load(Map.of("hbaseload.wide.columns", "600000",
            "hbaseload.value.size", "2000", "hbaseload.operations", "put:100"))).getMessage());
    assertEquals("hbaseload.wide.columns=10 takes gets and puts only, not scan (hbaseload.operations)",
        assertThrows(SettingsException.class, () -> Settings.load(Map.of("hbaseload.wide.columns", "10",
            "hbaseload.operations", "scan:100"))).getMessage());
    assertTrue(assertThrows(SettingsException.class, () -> Settings.load(Map.of("hbaseload.wide.columns", "10",
        "hbaseload.target", "thrift"))).getMessage().startsWith("hbaseload.wide.columns=10 needs hbaseload.target=direct"));
    assertTrue(assertThrows(SettingsException.class, () -> Settings.load(Map.of("hbaseload.wide.columns", "10",
        "hbaseload.families", "2"))).getMessage().startsWith("hbaseload.wide.columns=10 needs hbaseload.families=1"));
    assertEquals("hbaseload.wide.batch=100001 is out of range (accepted: 1..100000)", refused("wide.batch", "100001"));
    assertEquals("hbaseload.prepare.timeout.s=0 is out of range (accepted: 1..86400)", refused("prepare.timeout.s", "0"));
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
    assertTrue(refused("key.distribution", "gaussian").contains("(accepted: uniform, zipfian, hotspot, sequential, latest, reverse)"));
    assertTrue(refused("target", "carrier-pigeon").contains("(accepted: direct, thrift, both)"));
    assertTrue(refused("zipfian.constant", "1.0").contains("out of range"));
    assertTrue(refused("zookeeper.port", "70000").contains("1..65535"));
    assertTrue(refused("verify", "yes").contains("(accepted: true, false)"));
    assertTrue(refused("table", " ").contains("is empty"));
  }

  @Test
  void aVariedRowShapeIsARangeForOneUnverifiedFamilyWithAByteForEveryColumn() {
    Settings s = Settings.load(Map.of("hbaseload.row.columns", "1-5", "hbaseload.row.bytes", "128 - 256"));
    assertEquals(1, s.range(Settings.Key.ROW_COLUMNS).min);
    assertEquals(256, s.range(Settings.Key.ROW_BYTES).max);
    assertEquals("128-256", s.asProperties().get("hbaseload.row.bytes"));
    assertEquals("", Settings.load(Map.of()).asProperties().get("hbaseload.row.columns"));
    assertEquals("hbaseload.row.columns=5-1 is out of range (accepted: MIN-MAX with 1 <= MIN <= MAX <= 10000)",
        org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class,
            () -> Settings.load(Map.of("hbaseload.row.columns", "5-1"))).getMessage());
    assertEquals("hbaseload.row.bytes=lots is not a range (accepted: MIN-MAX or one number, e.g. 1-5; empty: not used)",
        org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class,
            () -> Settings.load(Map.of("hbaseload.row.bytes", "lots"))).getMessage());
    assertEquals("hbaseload.row.bytes=3-8: a row of 5 columns needs at least 5 bytes (one per column)",
        org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class,
            () -> Settings.load(Map.of("hbaseload.row.columns", "1-5", "hbaseload.row.bytes", "3-8"))).getMessage());
    assertEquals("hbaseload.row.columns needs hbaseload.families=1 (a varied row shape is for one family)",
        org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class,
            () -> Settings.load(Map.of("hbaseload.row.columns", "1-5", "hbaseload.families", "2"))).getMessage());
    assertEquals("hbaseload.row.bytes cannot be verified (hbaseload.verify=true checks one fixed value size)",
        org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class,
            () -> Settings.load(Map.of("hbaseload.row.bytes", "128-256", "hbaseload.verify", "true"))).getMessage());
  }

  @Test
  void theAuditIsOffByDefaultAndRefusesWhatItCannotAudit() {
    assertFalse(load().flag(Key.AUDIT));
    assertEquals("", load().text(Key.AUDIT_RUN));
    assertTrue(load("audit", "true", "operations", "put:100").flag(Key.AUDIT));
    assertEquals("hbaseload.audit=true audits puts, and hbaseload.operations=get:100 has none",
        refused("audit", "true", "operations", "get:100"));
    assertTrue(refused("audit", "true", "operations", "put:50,batch-put:50").contains("not batch-put"));
    assertTrue(refused("audit", "true", "client.buffering", "true").contains("needs hbaseload.client.buffering=false"));
    assertTrue(refused("audit", "true", "wide.columns", "10", "operations", "put:100").contains("needs hbaseload.wide.columns=0"));
    assertTrue(refused("audit", "true", "row.columns", "1-5").contains("no row.columns/row.bytes"));
    assertTrue(refused("audit", "yes").startsWith("hbaseload.audit"));
  }
}
