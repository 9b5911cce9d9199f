"""The direct target: the HBase Java client. One Connection per worker process (it is
thread-safe and expensive: about 0.7 s to connect and locate regions), one Table per thread."""

import random

from jarray import zeros
from org.apache.hadoop.fs import Path
from org.apache.hadoop.hbase import HBaseConfiguration, TableName
from org.apache.hadoop.hbase.client import ConnectionFactory, Get, Put
from org.apache.hadoop.hbase.util import Bytes

QUALIFIER = Bytes.toBytes("v")


def client_configuration(config):
    conf = HBaseConfiguration.create()
    if config.hbase_site:
        conf.addResource(Path(config.hbase_site))
    else:
        conf.set("hbase.zookeeper.quorum", config.zookeeper_quorum)
        conf.setInt("hbase.zookeeper.property.clientPort", config.zookeeper_port)
    # Bound every call: an unreachable HBase gives counted errors, not blocked threads.
    timeout = config.timeout_ms
    conf.setInt("hbase.rpc.timeout", timeout)
    conf.setInt("hbase.client.operation.timeout", timeout)
    conf.setInt("hbase.client.meta.operation.timeout", timeout)
    conf.setInt("zookeeper.recovery.retry", 1)
    return conf


def random_value(size, seed):
    generator = random.Random(seed)
    value = zeros(size, "b")
    for i in range(size):
        value[i] = generator.randrange(-128, 128)
    return value


class DirectTarget(object):

    def __init__(self, config):
        self.config = config
        self.connection = ConnectionFactory.createConnection(client_configuration(config))
        self.table_name = TableName.valueOf(config.table)

    def client(self, seed):
        return DirectClient(self.connection.getTable(self.table_name), self.config, seed)

    def close(self):
        self.connection.close()


class DirectClient(object):

    def __init__(self, table, config, seed):
        self.table = table
        self.family = Bytes.toBytes(config.family)
        self.value = random_value(config.value_size, seed)

    def get(self, key):
        return self.table.get(Get(key))

    def put(self, key):
        put = Put(key)
        put.addColumn(self.family, QUALIFIER, self.value)
        self.table.put(put)

    def close(self):
        self.table.close()
