"""./suite prepare: create the load table pre-split over the key space and load its rows.

    jython prepare_table.py PROPERTIES [--force]

Reads the same hbaseload.* keys as the load script. Skips when the table already holds what
the properties ask for (a marker in the table descriptor, written after a complete load);
--force drops and recreates it. Loads with one BufferedMutator per loader thread over
disjoint key ranges, printing progress; ends with one line: regions, rows, bytes, seconds."""

import sys
import time

from java.io import FileInputStream
from java.lang import Runnable, Thread
from java.util import Properties
from java.util.concurrent.atomic import AtomicLong
from org.apache.hadoop.hbase import TableName
from org.apache.hadoop.hbase.client import (BufferedMutatorParams, ColumnFamilyDescriptorBuilder,
                                            ConnectionFactory, Put, TableDescriptorBuilder)
from org.apache.hadoop.hbase.util import Bytes

from hbaseload import config as settings
from hbaseload import keys
from hbaseload.targets.direct import QUALIFIER, client_configuration, random_value

MARKER = "hbaseload.prepared"
LOADER_THREADS = 4
WRITE_BUFFER_BYTES = 4 * 1024 * 1024


def fail(message):
    sys.stderr.write("suite prepare: %s\n" % message)
    sys.exit(1)


def read_properties(path):
    properties = Properties()
    stream = FileInputStream(path)
    try:
        properties.load(stream)
    finally:
        stream.close()
    return properties


def signature(config):
    return "rows=%d value.size=%d regions=%d family=%s key.width=%d" % (
        config.rows, config.value_size, config.regions, config.family, config.key_width)


def create_table(admin, name, config):
    family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(config.family)).build()
    descriptor = TableDescriptorBuilder.newBuilder(name).setColumnFamily(family).build()
    splits = [Bytes.toBytes(k) for k in keys.split_keys(config.rows, config.regions, config.key_width)]
    if splits:
        admin.createTable(descriptor, splits)
    else:
        admin.createTable(descriptor)


class RangeLoader(Runnable):
    """Loads rows first..last-1 through its own BufferedMutator."""

    def __init__(self, connection, name, config, first, last, loaded):
        self.connection, self.name, self.config = connection, name, config
        self.first, self.last, self.loaded = first, last, loaded
        self.error = None

    def run(self):
        try:
            params = BufferedMutatorParams(self.name).writeBufferSize(WRITE_BUFFER_BYTES)
            mutator = self.connection.getBufferedMutator(params)
            family = Bytes.toBytes(self.config.family)
            value = random_value(self.config.value_size, self.first)
            try:
                for index in xrange(self.first, self.last):
                    put = Put(Bytes.toBytes(keys.row_key(index, self.config.key_width)))
                    put.addColumn(family, QUALIFIER, value)
                    mutator.mutate(put)
                    if index % 1000 == 999:
                        self.loaded.addAndGet(1000)
                mutator.flush()
                self.loaded.addAndGet((self.last - self.first) % 1000)
            finally:
                mutator.close()
        except Exception, error:
            self.error = error


def load_rows(connection, name, config):
    loaded = AtomicLong()
    loaders = []
    for i in range(LOADER_THREADS):
        first = config.rows * i // LOADER_THREADS
        last = config.rows * (i + 1) // LOADER_THREADS
        loader = RangeLoader(connection, name, config, first, last, loaded)
        thread = Thread(loader, "loader-%d" % i)
        thread.start()
        loaders.append((loader, thread))
    started = time.time()
    for loader, thread in loaders:
        while thread.isAlive():
            thread.join(5000)
            if thread.isAlive():
                done = loaded.get()
                print "  ... loaded %d of %d rows (%.0f%%, %.0f rows/s, %ds)" % (
                    done, config.rows, 100.0 * done / config.rows,
                    done / max(time.time() - started, 0.001), time.time() - started)
                sys.stdout.flush()
    errors = [loader.error for loader, _ in loaders if loader.error is not None]
    if errors:
        fail("loading rows failed: %s" % errors[0])


def mark_prepared(admin, name, config):
    descriptor = TableDescriptorBuilder.newBuilder(admin.getDescriptor(name)) \
        .setValue(MARKER, signature(config)).build()
    admin.modifyTable(descriptor)


def main(args):
    if not args or args[0].startswith("-"):
        fail("usage: prepare_table.py PROPERTIES [--force]")
    force = "--force" in args[1:]
    try:
        config = settings.load(read_properties(args[0]))
    except settings.ConfigError, problem:
        fail(str(problem))
    started = time.time()
    connection = ConnectionFactory.createConnection(client_configuration(config))
    try:
        admin = connection.getAdmin()
        name = TableName.valueOf(config.table)
        if admin.tableExists(name):
            marker = admin.getDescriptor(name).getValue(MARKER)
            if marker == signature(config) and not force:
                print "table %s already prepared (%s): nothing to do" % (config.table, marker)
                return
            if not force:
                fail("table %s exists but %s; ./suite prepare --force drops and recreates it"
                     % (config.table, "holds " + marker if marker else "was never completely loaded"))
            print "dropping table %s (--force)" % config.table
            admin.disableTable(name)
            admin.deleteTable(name)
        print "creating table %s: %d regions, family %s" % (config.table, config.regions, config.family)
        create_table(admin, name, config)
        print "loading %d rows of %d bytes with %d threads" % (config.rows, config.value_size, LOADER_THREADS)
        sys.stdout.flush()
        load_rows(connection, name, config)
        admin.flush(name)
        mark_prepared(admin, name, config)
        regions = len(admin.getRegions(name))
        megabytes = config.rows * config.value_size / 1048576.0
        print "prepared table %s: %d regions, %d rows, %.1f MiB of values, %.1f s" % (
            config.table, regions, config.rows, megabytes, time.time() - started)
    finally:
        connection.close()


if __name__ == "__main__":
    main(sys.argv[1:])
