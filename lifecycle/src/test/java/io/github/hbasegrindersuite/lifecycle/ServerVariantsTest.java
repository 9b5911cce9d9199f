package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class ServerVariantsTest {
  @TempDir
  Path dir;

  private static final String HANDLERS = "hbase.regionserver.handler.count";
  private static final String SMALL = "hbase.regionserver.thread.compaction.small";
  private static final String FLUSH = "hbase.hregion.memstore.flush.size";

  private Path conf() throws Exception {
    final Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("hbase-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>\n"
        + "  <property><name>hbase.rootdir</name><value>file://${hbase.local.dir}/hbase</value></property>\n"
        + "  <property><name>hbase.regionserver.port</name><value>${hbase.local.port.regionserver}</value></property>\n</configuration>\n");
    Files.writeString(conf.resolve("log4j.properties"), "log4j.rootLogger=INFO, F\n");
    return conf;
  }

  @Test
  void variantsAreDefaultOrKeyValuePairs() throws Exception {
    final List<ServerVariants.Variant> v = ServerVariants.parse("default | " + HANDLERS + "=100 | " + SMALL + " = 2 ; "
        + "hbase.regionserver.thread.compaction.large=2");
    assertEquals(3, v.size());
    assertTrue(v.get(0).normal());
    assertEquals(Map.of(HANDLERS, "100"), v.get(1).site);
    assertEquals(List.of(SMALL, "hbase.regionserver.thread.compaction.large"), List.copyOf(v.get(2).site.keySet()));
    assertEquals("2", v.get(2).site.get(SMALL));
    assertEquals(SMALL + "=2;hbase.regionserver.thread.compaction.large=2", v.get(2).label);
    assertEquals(List.of(HANDLERS, SMALL, "hbase.regionserver.thread.compaction.large"), ServerVariants.keys(v));
    // an unknown key is accepted: HBase has thousands
    assertEquals("x", ServerVariants.parse("hbase.some.future.key=x").get(0).site.get("hbase.some.future.key"));
  }

  @Test
  void badPairsAndEmptyValuesAreOneLineErrorsNamingThem() {
    assertEquals("sweep.server.variants: " + HANDLERS + " has an empty value",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse(HANDLERS + "=")).getMessage());
    assertEquals("sweep.server.variants: " + FLUSH + " has an empty value",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse("default | " + FLUSH + "=  ;a=1")).getMessage());
    assertEquals("sweep.server.variants: 'handlers' is not KEY=VALUE (an hbase-site.xml property and its value)",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse("a=1;handlers")).getMessage());
    assertEquals("sweep.server.variants: '=5' is not KEY=VALUE (an hbase-site.xml property and its value)",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse("=5")).getMessage());
    assertEquals("sweep.server.variants: a is set twice in 'a=1;a=2'",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse("a=1;a=2")).getMessage());
    assertEquals("sweep.server.variants: 'a=1' is listed twice",
        assertThrows(LifecycleException.class, () -> ServerVariants.parse("a=1 | a=1")).getMessage());
  }

  @Test
  void aClusterTheSuiteDoesNotManageIsRefusedNamingTheKeys() throws Exception {
    final List<ServerVariants.Variant> v = ServerVariants.parse("default | " + HANDLERS + "=100 | " + FLUSH + "=67108864");
    assertEquals("sweep.server.variants: hbaseload.hbase.site is set (/etc/hbase/conf/hbase-site.xml): the suite does not manage"
        + " that cluster: set " + HANDLERS + ", " + FLUSH + " on it and run the client variants only",
        assertThrows(LifecycleException.class, () -> ServerVariants.refuseUnmanaged(v, " /etc/hbase/conf/hbase-site.xml")).getMessage());
    ServerVariants.refuseUnmanaged(v, "");                                     // the embedded HBase: fine
    ServerVariants.refuseUnmanaged(ServerVariants.parse("default"), "/etc/x"); // nothing to restart: fine
  }

  @Test
  void theSuitesOwnSettingsAreNotVariants() throws Exception {
    final Path conf = conf();
    final String message = assertThrows(LifecycleException.class,
        () -> ServerVariants.refuseOwnKeys(ServerVariants.parse("hbase.regionserver.port=1234"), conf)).getMessage();
    assertTrue(message.startsWith("sweep.server.variants: hbase.regionserver.port is the suite's own setting in "), message);
    ServerVariants.refuseOwnKeys(ServerVariants.parse(HANDLERS + "=100"), conf);
  }

  @Test
  void tinyKeepsTheNormalConfigurationAndMergesTheRest() throws Exception {
    final List<ServerVariants.Variant> tiny = ServerVariants.tiny(ServerVariants.parse(
        "default | " + HANDLERS + "=10 | " + HANDLERS + "=500 | " + SMALL + "=2 | " + FLUSH + "=67108864"));
    assertEquals(2, tiny.size());
    assertTrue(tiny.get(0).normal());
    assertEquals(Map.of(HANDLERS, "500", SMALL, "2", FLUSH, "67108864"), tiny.get(1).site);
  }

  @Test
  void theVariantsConfIsACopyWithTheOverridesAndTheProjectsConfIsUntouched() throws Exception {
    final Path conf = conf();
    final String before = Files.readString(conf.resolve("hbase-site.xml"));
    final ServerVariants.Variant v = ServerVariants.parse(HANDLERS + "=100;hbase.x=a<b&c").get(0);
    final Path out = ServerVariants.writeConf(conf, v, dir.resolve("sweep/server-2-conf"));
    assertEquals(before, Files.readString(conf.resolve("hbase-site.xml")));
    assertEquals("log4j.rootLogger=INFO, F\n", Files.readString(out.resolve("log4j.properties")));
    final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve("hbase-site.xml").toFile());
    final NodeList names = doc.getElementsByTagName("name");
    final NodeList values = doc.getElementsByTagName("value");
    assertEquals(4, names.getLength());
    assertEquals("hbase.rootdir", names.item(0).getTextContent());
    assertEquals(HANDLERS, names.item(2).getTextContent());
    assertEquals("100", values.item(2).getTextContent());
    assertEquals("a<b&c", values.item(3).getTextContent());
  }

  private SweepPlanner planner(SweepPlanner.Overrides o, String... lines) throws Exception {
    final Path defaults = Files.write(dir.resolve("grinder.properties"), List.of("grinder.threads = 8", "hbaseload.rows = 100"));
    return new SweepPlanner(Files.write(dir.resolve("s.properties"), List.of(lines)), defaults, o);
  }

  private static final String[] HOSEI_LIKE = {"sweep.threads = 8", "sweep.operations = put:100", "sweep.prepare = each",
      "sweep.variants = hbaseload.client.buffering=false | hbaseload.client.buffering=true | hbaseload.regions=30;hbaseload.table=t_split",
      "sweep.server.variants = default | " + HANDLERS + "=100 | " + SMALL + "=2", "hbaseload.table = t", "hbaseload.rows = 20000"};

  @Test
  void serverVariantsAreOutermostAndWithBaselineTheOthersRunTheFirstPointOnly() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.hbaseConf = conf();
    final String[] lines = java.util.Arrays.copyOf(HOSEI_LIKE, HOSEI_LIKE.length + 1);
    lines[HOSEI_LIKE.length] = "sweep.server.cross = baseline";
    final SweepPlanner p = planner(o, lines);
    assertEquals(List.of("server default, 8 threads, put:100, client.buffering=false",
        "server default, 8 threads, put:100, client.buffering=true",
        "server default, 8 threads, put:100, regions=30;table=t_split",
        "server " + HANDLERS + "=100, 8 threads, put:100, client.buffering=false",
        "server " + SMALL + "=2, 8 threads, put:100, client.buffering=false"),
        p.points.stream().map(x -> x.label).collect(Collectors.toList()));
    // all: the plain product, still server outermost
    final SweepPlanner all = planner(o, HOSEI_LIKE);
    assertEquals(9, all.points.size());
    assertEquals(HANDLERS + "=100", all.points.get(3).server.label);
    assertEquals(HANDLERS + "=100", all.points.get(5).server.label);

    final Path sweep = p.write(dir.resolve("runs"));
    final JsonObject plan = Json.read(sweep.resolve("sweep-plan.json"));
    assertEquals(List.of(HANDLERS, SMALL), Json.GSON.fromJson(plan.get("server_keys"), List.class));
    final JsonArray points = plan.getAsJsonArray("points");
    assertTrue(points.get(0).getAsJsonObject().getAsJsonObject("server_variant").get("conf_dir").isJsonNull());
    final JsonObject handlers = points.get(3).getAsJsonObject().getAsJsonObject("server_variant");
    final Path confDir = Path.of(handlers.get("conf_dir").getAsString());
    assertTrue(confDir.startsWith(sweep), confDir.toString());
    assertTrue(Files.readString(confDir.resolve("hbase-site.xml")).contains("<name>" + HANDLERS + "</name><value>100</value>"));
    assertEquals("100", handlers.getAsJsonObject("site").get(HANDLERS).getAsString());
    assertFalse(Files.readString(o.hbaseConf.resolve("hbase-site.xml")).contains(HANDLERS));
  }

  @Test
  void tinyScaleRestartsOnceAndRenamesAVariantsOwnTable() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    o.scale = "tiny";
    final String[] lines = java.util.Arrays.copyOf(HOSEI_LIKE, HOSEI_LIKE.length + 2);
    lines[HOSEI_LIKE.length] = "sweep.server.cross = baseline";
    lines[HOSEI_LIKE.length + 1] = "sweep.tiny.variants = 1,3";
    final SweepPlanner p = planner(o, lines);
    assertEquals(List.of("server default, 4 threads, put:100, client.buffering=false",
        "server default, 4 threads, put:100, regions=30;table=t_split",
        "server " + HANDLERS + "=100;" + SMALL + "=2, 4 threads, put:100, client.buffering=false"),
        p.points.stream().map(x -> x.label).collect(Collectors.toList()));
    assertEquals("t_split_tiny", p.points.get(1).sets.get("hbaseload.table"));
    assertTrue(p.points.get(1).args.contains("hbaseload.table=t_split_tiny"), p.points.get(1).args.toString());
    assertEquals("t_tiny", p.base.get("hbaseload.table"));
    assertEquals("sweep.tiny.variants: 4 is more than the 3 sweep.variants", assertThrows(LifecycleException.class,
        () -> planner(o, "sweep.variants = a=1 | a=2 | a=3", "sweep.tiny.variants = 4")).getMessage().replaceFirst("^.*?: ", ""));
  }

  @Test
  void theSweepRefusesServerVariantsOnACluster() throws Exception {
    final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
    final String message = assertThrows(LifecycleException.class, () -> planner(o, "sweep.server.variants = " + HANDLERS + "=100",
        "hbaseload.hbase.site = /etc/hbase/conf/hbase-site.xml")).getMessage();
    assertTrue(message.contains("the suite does not manage that cluster: set " + HANDLERS + " on it"), message);
    assertTrue(assertThrows(LifecycleException.class, () -> planner(o, "sweep.server.cross = some")).getMessage()
        .endsWith("sweep.server.cross=some is not accepted (accepted: all, baseline)"));
    final SweepPlanner none = planner(o, "sweep.threads = 2");
    assertTrue(none.serverVariants.isEmpty());
    assertNull(none.points.get(0).server);
  }
}
