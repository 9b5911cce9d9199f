"""The worker's Grinder side: settings, the recorded tests and the TestRunner (hbase_load.py
imports it).

Grinder's shape: module level runs once per worker process (settings, the HBase connection,
the recorded tests); TestRunner.__init__ once per thread; __call__ once per run.
Settings: the hbaseload.* keys in grinder.properties (declared with their defaults in
io.github.hbasegrindersuite.worker.Settings). Tests: one per operation, numbered and named by
io.github.hbasegrindersuite.worker.Operation (stable; reports rely on them).

A module, not the script itself: Grinder compiles its script anew in every worker (execfile,
Jython's parser each time), while this module is compiled once, into runner$py.class beside it,
and later workers of a session load that."""

from java.io import File
from java.util.concurrent.atomic import AtomicInteger
from net.grinder.script import Test
from net.grinder.script.Grinder import grinder

from hbaseload import worker_class
from hbaseload.recording import record_operations

GrinderDataLog, GrinderReport, SettingsException, WorkerProcess = [
    worker_class(name) for name in ("GrinderDataLog", "GrinderReport", "SettingsException", "WorkerProcess")]

log = grinder.logger.info

# The agent numbers its workers over its whole life: in a console session that starts workers more
# than once (a warm sweep), the second start's first worker is not process 0. Grinder's zero-based
# index of this worker within its start is processNumber - firstProcessNumber (equal to
# processNumber when the agent starts once), so seeds and key slices do not depend on the start.
PROCESS_INDEX = grinder.processNumber - grinder.firstProcessNumber

try:
    WORKER = WorkerProcess.start(grinder.properties, grinder.agentNumber, PROCESS_INDEX)
except SettingsException, problem:
    # Logged as an error, then raised: the worker stops and the run fails with this message.
    grinder.logger.error(u"hbaseload: %s" % problem.getMessage())
    raise

PACED = WORKER.paced()
SCANS = WORKER.scans()
GrinderReport.registerColumns(grinder.statistics, PACED, SCANS)
# <host>-<n>.hlog beside Grinder's <host>-<n>-data.log; hbaseload.datalog=off leaves the hlog alone.
# The folder as Grinder itself takes it for its logs: the key as written, relative to the working directory.
LOG_DIRECTORY = File(grinder.properties.getProperty("grinder.logDirectory", ".")).toPath()
WORKER.recordIntervals(LOG_DIRECTORY, grinder.processName)
# hbaseload.audit=true: <host>-<n>.audit beside them, every put's outcome (nothing when off).
WORKER.auditPuts(LOG_DIRECTORY, grinder.processName)
GrinderDataLog.apply(WORKER.settings())
RECORDED = record_operations(Test)
LIVE_THREADS = AtomicInteger()
# unicode formats: the Java strings are unicode, and a str format would decode itself through
# Python's codecs, importing them from the library
log(u"hbaseload: %s" % u", ".join(u"%s=%s" % (k, v) for k, v in WORKER.settings().asProperties().items()))


class TestRunner:

    def __init__(self):
        self.driver = WORKER.driver(grinder.threadNumber, GrinderReport(grinder.statistics, PACED, SCANS))
        LIVE_THREADS.incrementAndGet()

    def __call__(self):
        driver = self.driver
        RECORDED[driver.next()](driver)

    def __del__(self):
        # Grinder calls __del__ as each thread ends; the last one reports and disconnects.
        self.driver.close()
        if LIVE_THREADS.decrementAndGet() == 0:
            log(u"hbaseload: errors by class: %s" % WORKER.errorSummary())
            WORKER.close()
