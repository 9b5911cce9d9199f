package io.github.hbasegrindersuite.shim.it;

import io.github.hbasegrindersuite.shim.HostileInputProcessTestBase;
import io.github.hbasegrindersuite.shim.ShimConfig;
import io.github.hbasegrindersuite.shim.ThriftClients;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The hostile clients of {@link HostileInputProcessTestBase} against ShimMain itself, a process
 * with a 128 MiB heap in front of the real HBase (default transport): it stays up, never runs
 * out of memory, and answers a well-behaved client's gets and scans correctly during and after
 * every attack.
 */
class ShimHostileInputIT extends HostileInputProcessTestBase {

  private static final int ROWS = 3;

  private Connection direct;
  private TableName table;

  @BeforeAll
  void createTable() throws Exception {
    direct = HBaseSupport.directConnection();
    table = HBaseSupport.createTable(direct, "hostile");
    try (Table t = direct.getTable(table)) {
      for (int i = 0; i < ROWS; i++) {
        t.put(new Put(Bytes.toBytes("row" + i)).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), Bytes.toBytes("v" + i)));
      }
    }
  }

  @AfterAll
  void dropTable() throws Exception {
    HBaseSupport.dropTable(direct, table);
    if (direct != null) {
      direct.close();
    }
  }

  @Override
  protected ShimConfig.Transport transport() {
    return ShimConfig.Transport.BUFFERED;
  }

  @Override
  protected String heap() {
    return "128m";
  }

  @Override
  protected List<String> mainAndArguments() {
    return List.of("io.github.hbasegrindersuite.shim.ShimMain", "shim.hbase.zookeeper.quorum=127.0.0.1",
        "shim.hbase.zookeeper.port=" + HBaseSupport.zkPort());
  }

  @Override
  protected ByteBuffer table() {
    return ThriftClients.buf(table.getNameAsString());
  }

  @Override
  protected int rowsInTable() {
    return ROWS;
  }

  @Override
  protected int columnsOfRow0() {
    return 1;
  }
}
