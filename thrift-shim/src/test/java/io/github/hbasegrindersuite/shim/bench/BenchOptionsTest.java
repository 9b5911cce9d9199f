package io.github.hbasegrindersuite.shim.bench;

import io.github.hbasegrindersuite.worker.SettingChoices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.Settings.Key;
import org.junit.jupiter.api.Test;

/** The benchmark's options become the worker's own settings, validated by them. */
class BenchOptionsTest {

  private static String refused(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(args)).getMessage();
  }

  @Test
  void eachPathGetsTheWorkersSettingsForItsTarget() {
    BenchOptions o = BenchOptions.parse(new String[] {"--zk-port", "2681", "--rows", "500", "--table", "t1",
        "--target", "direct=direct", "--target", "shim=thrift:9592:framed:compact", "--target", "gateway=thrift:9591"});
    Settings direct = o.settingsFor("direct");
    assertEquals(SettingChoices.Target.DIRECT, direct.target());
    assertEquals(2681, direct.integer(Key.ZOOKEEPER_PORT));
    assertEquals(500, direct.integer(Key.ROWS));
    assertEquals("t1", direct.text(Key.TABLE));
    assertEquals(30000, direct.integer(Key.TIMEOUT_MS));
    Settings shim = o.settingsFor("shim");
    assertEquals(SettingChoices.Target.THRIFT, shim.target());
    assertEquals(9592, shim.integer(Key.THRIFT_PORT));
    assertEquals(SettingChoices.ThriftTransport.FRAMED, shim.thriftTransport());
    assertEquals(SettingChoices.ThriftProtocol.COMPACT, shim.thriftProtocol());
    Settings gateway = o.settingsFor("gateway");
    assertEquals(SettingChoices.ThriftTransport.BUFFERED, gateway.thriftTransport());
    assertEquals(SettingChoices.ThriftProtocol.BINARY, gateway.thriftProtocol());
    assertEquals(8, o.tableSettings().integer(Key.REGIONS));
    assertTrue(o.equalLoadWanted());
    assertFalse(o.uncorrected);
  }

  @Test
  void badPathsAndValuesAreRefusedBeforeAnythingStarts() {
    assertEquals("no --target given", refused("--threads", "4"));
    assertEquals("target spec 'carrier': NAME=direct|thrift:PORT[:buffered|framed[:binary|compact]]",
        refused("--target", "x=carrier"));
    assertEquals("hbaseload.thrift.transport=fast is not accepted (accepted: buffered, framed)",
        refused("--target", "shim=thrift:9092:fast"));
    assertEquals("hbaseload.thrift.port=http is not a whole number", refused("--target", "shim=thrift:http"));
    assertEquals("hbaseload.rows=0 is out of range (accepted: 1..2147483647)",
        refused("--target", "direct=direct", "--rows", "0"));
    assertEquals("--uncorrected yes: true or false", refused("--target", "direct=direct", "--uncorrected", "yes"));
    assertEquals("unknown option --frobnicate", refused("--frobnicate", "1"));
    assertTrue(refused("--target", "direct=direct", "--threads", "0").startsWith("out of range: threads 1..256"));
  }
}
