import io.github.hbasegrindersuite.worker.audit.AuditLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Table;

/**
 * The audit's e2e test (tests/e2e/runs.sh, t_run_audit): deletes acknowledged writes behind the
 * suite's back, as a lost write would look. Reads a worker's audit log with the worker's own
 * reader, deletes every STRIDE-th acknowledged key up to COUNT keys from TABLE with a plain HBase
 * client, and prints each deleted key on a line of its own. Run as a single source file on the
 * worker's classpath:
 *
 * <pre>java -cp CP AuditDelete.java ZK_PORT TABLE AUDIT_LOG COUNT STRIDE</pre>
 *
 * Exit 0 when COUNT keys were deleted, 1 when the log holds fewer acknowledged keys.
 */
public final class AuditDelete {
  public static void main(String[] args) throws Exception {
    final int zkPort = Integer.parseInt(args[0]);
    final TableName name = TableName.valueOf(args[1]);
    final Path log = Path.of(args[2]);
    final int count = Integer.parseInt(args[3]);
    final int stride = Integer.parseInt(args[4]);
    final List<byte[]> keys = new ArrayList<>();
    try (AuditLog.Reader reader = AuditLog.Reader.open(log)) {
      int acknowledged = 0;
      while (keys.size() < count && reader.next()) {
        if (reader.acknowledged && acknowledged++ % stride == 0) {
          keys.add(reader.key());
        }
      }
    }
    if (keys.size() < count) {
      System.err.println("AuditDelete: " + log + " holds " + keys.size() + " acknowledged keys at stride " + stride + ", not " + count);
      System.exit(1);
    }
    final Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.client.operation.timeout", 30000);
    try (Connection connection = ConnectionFactory.createConnection(conf); Table table = connection.getTable(name)) {
      for (byte[] key : keys) {
        table.delete(new Delete(key));
        System.out.println(new String(key, StandardCharsets.US_ASCII));
      }
    }
  }
}
