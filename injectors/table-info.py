"""The load table as HBase sees it, for a run's manifest: its regions and store size.

    java -cp <grinder + worker classpath> org.python.util.jython injectors/table-info.py PROPERTIES

Reads hbaseload.table and the connection keys (hbaseload.hbase.site, else
hbaseload.zookeeper.quorum and .port, and hbaseload.timeout.ms) from PROPERTIES through the
worker jar's Settings, connects as the direct target does, prints key=value lines (name,
regions, servers, store_mb, memstore_mb) and exits 0; exits 3 when the table does not exist,
1 when HBase cannot be reached in time."""

import sys

from java.io import FileInputStream
from java.util import Properties
from org.apache.hadoop.hbase import Size, TableName
from org.apache.hadoop.hbase.client import ConnectionFactory
from io.github.hbasegrindersuite.worker import Settings
from io.github.hbasegrindersuite.worker.targets import DirectTarget


def configuration(properties):
    settings = Settings.load(properties)
    conf = DirectTarget.configuration(settings)
    # A manifest detail: give up sooner than the load's client would.
    conf.setInt("hbase.client.retries.number", 3)
    return conf, settings.text("table")


def main(path):
    properties = Properties()
    stream = FileInputStream(path)
    try:
        properties.load(stream)
    finally:
        stream.close()
    conf, table = configuration(properties)
    connection = ConnectionFactory.createConnection(conf)
    try:
        admin = connection.getAdmin()
        name = TableName.valueOf(table)
        print "name=%s" % table
        if not admin.tableExists(name):
            print "exists=false"
            return 3
        locations = connection.getRegionLocator(name).getAllRegionLocations()
        servers = set(location.getServerName() for location in locations)
        store = memstore = 0.0
        for server in servers:
            for metrics in admin.getRegionMetrics(server, name):
                store += metrics.getStoreFileSize().get(Size.Unit.MEGABYTE)
                memstore += metrics.getMemStoreSize().get(Size.Unit.MEGABYTE)
        print "regions=%d" % locations.size()
        print "servers=%d" % len(servers)
        print "store_mb=%.1f" % store
        print "memstore_mb=%.1f" % memstore
        return 0
    finally:
        connection.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: jython injectors/table-info.py PROPERTIES\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
