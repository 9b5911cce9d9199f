package io.github.hbasegrindersuite.shim.it;

import static io.github.hbasegrindersuite.shim.ThriftClients.buf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.shim.ErrorKind;
import io.github.hbasegrindersuite.shim.ShimInstance;
import io.github.hbasegrindersuite.shim.ThriftClients;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.thrift2.generated.TColumnFamilyDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TNamespaceDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TTableDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Admin API calls: refused by default, served when shim.admin.enabled=true. */
class ShimAdminIT {

  private static Connection direct;
  private static final String SUFFIX = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
  private static final TableName VICTIM = TableName.valueOf("shim_it_admin_" + SUFFIX);

  @BeforeAll
  static void connect() throws Exception {
    direct = HBaseSupport.directConnection();
  }

  @AfterAll
  static void cleanUp() throws Exception {
    HBaseSupport.dropTable(direct, VICTIM);
    try (Admin admin = direct.getAdmin()) {
      for (String ns : admin.listNamespaces()) {
        if (ns.equals("shim_it_ns_" + SUFFIX)) {
          admin.deleteNamespace(ns);
        }
      }
    }
    direct.close();
  }

  private static TTableName tn(TableName name) {
    return new TTableName(buf(name.getQualifierAsString())).setNs(name.getNamespace());
  }

  @Test
  void refusedByDefault() throws Exception {
    TableName existing = HBaseSupport.createTable(direct, "admin_keep");
    try (ShimInstance shim = HBaseSupport.startShim(); ThriftClients.Client c = ThriftClients.connect(shim.port())) {
      TTableDescriptor desc = new TTableDescriptor(tn(VICTIM)).setColumns(
          Collections.singletonList(new TColumnFamilyDescriptor(buf("f"))));
      List<Executable> calls = Arrays.asList(
          () -> c.api.createTable(desc, null),
          () -> c.api.deleteTable(tn(existing)),
          () -> c.api.disableTable(tn(existing)),
          () -> c.api.enableTable(tn(existing)),
          () -> c.api.truncateTable(tn(existing), true),
          () -> c.api.modifyTable(desc),
          () -> c.api.addColumnFamily(tn(existing), new TColumnFamilyDescriptor(buf("h"))),
          () -> c.api.deleteColumnFamily(tn(existing), buf("g")),
          () -> c.api.createNamespace(new TNamespaceDescriptor("shim_it_ns_" + SUFFIX)),
          () -> c.api.deleteNamespace("default"),
          () -> c.api.listNamespaces(),
          () -> c.api.getNamespaceDescriptor("default"),
          () -> c.api.tableExists(tn(existing)),
          () -> c.api.getTableDescriptor(tn(existing)),
          () -> c.api.getTableNamesByPattern(".*", true),
          () -> c.api.isTableEnabled(tn(existing)));
      for (Executable call : calls) {
        TIOError e = assertThrows(TIOError.class, call);
        assertTrue(e.getMessage().startsWith("thrift-shim does not allow "), e.getMessage());
        assertTrue(e.getMessage().contains("administrative calls are disabled"), e.getMessage());
        assertFalse(e.isCanRetry());
      }
      assertEquals(calls.size(), shim.metrics().errors(ErrorKind.ADMIN_REFUSED));
      // nothing happened: the table is still there and enabled, the victim was not created
      try (Admin admin = direct.getAdmin()) {
        assertTrue(admin.isTableEnabled(existing));
        assertEquals(2, admin.getDescriptor(existing).getColumnFamilyCount());
        assertFalse(admin.tableExists(VICTIM));
      }
      // and data calls still work on the same connection
      ThriftClients.Client same = c;
      same.api.put(buf(existing.getNameAsString()), new TPut(buf("r"),
          Collections.singletonList(new TColumnValue(buf("f"), buf("q"), buf("v")))));
    } finally {
      HBaseSupport.dropTable(direct, existing);
    }
  }

  @Test
  void servedWhenEnabled() throws Exception {
    try (ShimInstance shim = HBaseSupport.startShim("shim.admin.enabled", "true");
        ThriftClients.Client c = ThriftClients.connect(shim.port())) {
      String ns = "shim_it_ns_" + SUFFIX;
      c.api.createNamespace(new TNamespaceDescriptor(ns));
      assertTrue(c.api.listNamespaces().contains(ns));
      c.api.deleteNamespace(ns);
      assertFalse(c.api.listNamespaces().contains(ns));

      TTableDescriptor desc = new TTableDescriptor(tn(VICTIM)).setColumns(
          Collections.singletonList(new TColumnFamilyDescriptor(buf("f"))));
      c.api.createTable(desc, Arrays.asList(buf("k"), buf("t")));
      assertTrue(c.api.tableExists(tn(VICTIM)));
      assertTrue(c.api.isTableEnabled(tn(VICTIM)));
      assertEquals(3, c.api.getAllRegionLocations(buf(VICTIM.getNameAsString())).size());
      c.api.put(buf(VICTIM.getNameAsString()), new TPut(buf("r"),
          Collections.singletonList(new TColumnValue(buf("f"), buf("q"), buf("v")))));
      assertEquals(1, c.api.get(buf(VICTIM.getNameAsString()), new TGet(buf("r"))).getColumnValuesSize());
      c.api.disableTable(tn(VICTIM));
      assertTrue(c.api.isTableDisabled(tn(VICTIM)));
      c.api.deleteTable(tn(VICTIM));
      assertFalse(c.api.tableExists(tn(VICTIM)));
      assertEquals(0, shim.metrics().errors(ErrorKind.ADMIN_REFUSED));
    }
  }
}
