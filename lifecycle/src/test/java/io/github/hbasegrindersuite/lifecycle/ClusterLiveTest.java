package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterLiveTest {
  /** The shape of HBase 2.6.1's answer to /jmx?qry=Hadoop:service=HBase,name=Master,sub=Server (trimmed). */
  private static final String MASTER = "{\"beans\":[{\"name\":\"Hadoop:service=HBase,name=Master,sub=Server\","
      + "\"tag.liveRegionServers\":\"127.0.0.1,16821,1764200000002;127.0.0.1,16820,1764200000001\","
      + "\"tag.deadRegionServers\":\"\",\"tag.isActiveMaster\":\"true\",\"numRegionServers\":2,"
      + "\"numDeadRegionServers\":0,\"averageLoad\":3.5}]}";

  @Test
  void theMastersCountsAndServersSortedByPort() {
    final ClusterLive.MasterView v = ClusterLive.parseMaster(MASTER);
    assertEquals(2, v.live);
    assertEquals(0, v.dead);
    assertEquals(List.of("127.0.0.1,16820,1764200000001", "127.0.0.1,16821,1764200000002"), v.liveServers);
    assertEquals("", v.reason);
  }

  @Test
  void aMasterStillStartingHasNoCount() {
    final ClusterLive.MasterView v = ClusterLive.parseMaster("{\"beans\":[]}");
    assertEquals(-1, v.live);
    assertFalse(v.reason.isEmpty());
    assertEquals(-1, ClusterLive.parseMaster("{\"beans\":[{\"name\":\"x\"}]}").live);
  }

  @Test
  void aRegionServersRegionCount() {
    assertEquals(5, ClusterLive.parseRegionCount("{\"beans\":[{\"name\":\"" + ClusterLive.REGION_SERVER_BEAN
        + "\",\"regionCount\":5,\"storeCount\":5}]}"));
    assertEquals(-1, ClusterLive.parseRegionCount("{\"beans\":[]}"));
  }

  @Test
  void aMasterThatDoesNotAnswerIsAReasonNotAnError() {
    final ClusterLive.MasterView v = ClusterLive.askMaster(new io.github.hbasegrindersuite.lifecycle.servermetrics.JmxClient(200, 200),
        "http://127.0.0.1:1");
    assertEquals(-1, v.live);
    assertFalse(v.reason.isEmpty());
  }
}
