package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/** The cluster size a run is filed under: a fault run's is the one it started with, not what its kill left. */
class TableFactsTest {
  @Test
  void aFaultRunIsFiledUnderTheClusterItStartedWith() {
    assertEquals(3, TableFacts.sizeAtStart(JsonParser.parseString(
        "{\"faults\": {\"schedule\": \"at=10s kill regionserver=2\", \"regionservers\": 3, \"regionservers_down\": []}}").getAsJsonObject()));
    assertEquals(2, TableFacts.sizeAtStart(JsonParser.parseString(
        "{\"faults\": {\"schedule\": \"at=1s start regionserver=2\", \"regionservers\": 3, \"regionservers_down\": [2]}}").getAsJsonObject()));
    assertNull(TableFacts.sizeAtStart(JsonParser.parseString("{\"faults\": null}").getAsJsonObject()), "no schedule: as HBase counts at the end");
    assertNull(TableFacts.sizeAtStart(JsonParser.parseString("{}").getAsJsonObject()));
  }
}
