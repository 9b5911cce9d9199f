package io.github.hbasegrindersuite.worker.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.thrift2.generated.TDurability;
import org.junit.jupiter.api.Test;

/** hbaseload.durability's values are HBase's own names, in both clients. */
class WriteDurabilityTest {

  @Test
  void everyValueMapsToTheSameNameInBothClients() {
    assertEquals(Durability.USE_DEFAULT, DirectTarget.durability(WriteDurability.DEFAULT));
    assertEquals(TDurability.USE_DEFAULT, ThriftTarget.durability(WriteDurability.DEFAULT));
    for (WriteDurability d : WriteDurability.values()) {
      if (d != WriteDurability.DEFAULT) {
        assertEquals(d.name(), DirectTarget.durability(d).name());
        assertEquals(d.name(), ThriftTarget.durability(d).name());
      }
    }
  }
}
