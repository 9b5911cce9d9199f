package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.SettingChoices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.thrift2.generated.TDurability;
import org.junit.jupiter.api.Test;

/** hbaseload.durability's values are HBase's own names, in both clients. */
class WriteDurabilityTest {

  @Test
  void everyValueMapsToTheSameNameInBothClients() {
    assertEquals(Durability.USE_DEFAULT, DirectTarget.durability(SettingChoices.WriteDurability.DEFAULT));
    assertEquals(TDurability.USE_DEFAULT, ThriftTarget.durability(SettingChoices.WriteDurability.DEFAULT));
    for (SettingChoices.WriteDurability d : SettingChoices.WriteDurability.values()) {
      if (d != SettingChoices.WriteDurability.DEFAULT) {
        assertEquals(d.name(), DirectTarget.durability(d).name());
        assertEquals(d.name(), ThriftTarget.durability(d).name());
      }
    }
  }
}
