"""The load table as HBase sees it, for a run's manifest: its regions and store size.

    java -cp <grinder + worker classpath> org.python.util.jython injectors/table-info.py PROPERTIES

Reads hbaseload.table and the connection keys (hbaseload.hbase.site, else
hbaseload.zookeeper.quorum and .port) from PROPERTIES, prints key=value lines (name, regions,
servers, store_mb, memstore_mb) and exits 0; exits 3 when the table does not exist, 1 when
HBase cannot be reached in time. Standalone on purpose: it needs only the HBase client."""

import sys

from java.io import FileInputStream
from java.util import Properties
from org.apache.hadoop.fs import Path
from org.apache.hadoop.hbase import HBaseConfiguration, Size, TableName
from org.apache.hadoop.hbase.client import ConnectionFactory


def configuration(properties):
    def key(name, default):
        value = properties.getProperty("hbaseload." + name)
        return value.strip() if value is not None and value.strip() else default
    conf = HBaseConfiguration.create()
    site = key("hbase.site", "")
    if site:
        conf.addResource(Path(site))
    else:
        conf.set("hbase.zookeeper.quorum", key("zookeeper.quorum", "127.0.0.1"))
        conf.setInt("hbase.zookeeper.property.clientPort", int(key("zookeeper.port", "2181")))
    for name in ("hbase.rpc.timeout", "hbase.client.operation.timeout", "hbase.client.meta.operation.timeout"):
        conf.setInt(name, 10000)
    conf.setInt("zookeeper.recovery.retry", 1)
    conf.setInt("hbase.client.retries.number", 3)
    return conf, key("table", "hbaseload")


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
