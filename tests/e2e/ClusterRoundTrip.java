import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The e2e test's client of a local cluster (tests/e2e/cluster.sh): found through ZooKeeper only, as
 * the suite's workers find it. Makes TABLE with REGIONS regions, writes ROWS rows, reads each back
 * with a get and all of them with a scan, and counts the region servers holding the table's
 * regions. Run as a single source file on the worker's classpath:
 *
 * <pre>java -cp CP ClusterRoundTrip.java ZK_PORT TABLE ROWS REGIONS</pre>
 *
 * Prints one line: {@code rows=R intact=I scanned=S regions=G servers=V} (intact: gets that returned
 * the value written). Exit 0 when every row came back intact, 1 otherwise.
 */
public final class ClusterRoundTrip {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  public static void main(String[] args) throws Exception {
    final int zkPort = Integer.parseInt(args[0]);
    final TableName name = TableName.valueOf(args[1]);
    final int rows = Integer.parseInt(args[2]);
    final int regions = Integer.parseInt(args[3]);
    final Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    // bounded: a cluster that does not answer fails the test within a minute, not after HBase's retries
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.client.operation.timeout", 30000);
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      final byte[][] splits = new byte[regions - 1][];
      for (int i = 1; i < regions; i++) {
        splits[i - 1] = key(i * rows / regions);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splits);
      int intact = 0;
      int scanned = 0;
      try (Table table = connection.getTable(name)) {
        for (int i = 0; i < rows; i++) {
          table.put(new Put(key(i)).addColumn(FAMILY, QUALIFIER, value(i)));
        }
        for (int i = 0; i < rows; i++) {
          final Result r = table.get(new Get(key(i)));
          if (Bytes.equals(value(i), r.getValue(FAMILY, QUALIFIER))) {
            intact++;
          }
        }
        try (ResultScanner scanner = table.getScanner(new Scan())) {
          for (Result ignored : scanner) {
            scanned++;
          }
        }
      }
      final Set<String> servers = new HashSet<>();
      final List<HRegionLocation> locations;
      try (RegionLocator locator = connection.getRegionLocator(name)) {
        locations = locator.getAllRegionLocations();
      }
      locations.forEach(l -> servers.add(l.getServerName().getAddress().toString()));
      System.out.printf("rows=%d intact=%d scanned=%d regions=%d servers=%d%n", rows, intact, scanned, locations.size(), servers.size());
      System.exit(intact == rows && scanned == rows ? 0 : 1);
    }
  }

  private static byte[] key(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  private static byte[] value(int i) {
    return Bytes.toBytes("value-" + i);
  }
}
