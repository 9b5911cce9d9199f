package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The load table as HBase sees it, for a run's manifest: its regions and store size.
 *
 * <pre>TableInfo PROPERTIES</pre>
 *
 * Connects as the direct target does (the properties' hbaseload.* keys through {@link Settings}),
 * prints key=value lines (name, regions, servers, store_mb, memstore_mb) and exits 0; exits 3
 * when the table does not exist, 1 when HBase cannot be reached or a key is bad. Plain Java
 * (it was a Jython script): ./suite run starts it for every run, and a Jython JVM cost 4-6 CPU
 * seconds there, counted against the injector (README, injector cost).
 */
public final class TableInfo {

  private TableInfo() {
  }

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: TableInfo PROPERTIES");
      System.exit(2);
    }
    int status;
    try {
      Settings settings = Settings.load(TablePreparer.read(args[0]));
      Configuration conf = DirectTarget.configuration(settings);
      // A manifest detail: give up sooner than the load's client would.
      conf.setInt("hbase.client.retries.number", 3);
      status = print(conf, TableName.valueOf(settings.text("table")));
    } catch (Exception e) {
      System.err.println("table info: " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n", 2)[0]);
      status = 1;
    }
    System.exit(status);
  }

  private static int print(Configuration conf, TableName name) throws Exception {
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      System.out.println("name=" + name.getNameAsString());
      if (!admin.tableExists(name)) {
        System.out.println("exists=false");
        return 3;
      }
      List<HRegionLocation> locations = connection.getRegionLocator(name).getAllRegionLocations();
      Set<ServerName> servers = new HashSet<>();
      for (HRegionLocation location : locations) {
        servers.add(location.getServerName());
      }
      double store = 0;
      double memstore = 0;
      for (ServerName server : servers) {
        for (RegionMetrics metrics : admin.getRegionMetrics(server, name)) {
          store += metrics.getStoreFileSize().get(Size.Unit.MEGABYTE);
          memstore += metrics.getMemStoreSize().get(Size.Unit.MEGABYTE);
        }
      }
      System.out.println("regions=" + locations.size());
      System.out.println("servers=" + servers.size());
      System.out.println(String.format(Locale.ROOT, "store_mb=%.1f", store));
      System.out.println(String.format(Locale.ROOT, "memstore_mb=%.1f", memstore));
      return 0;
    }
  }
}
