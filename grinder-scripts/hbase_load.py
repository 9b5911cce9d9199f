"""The Grinder TestRunner that drives HBase: get, put or a mix, through one of the targets,
with the nanoTime witness around every HBase call.

Grinder's shape: module level runs once per worker process (configuration, the HBase
connection, the recorded tests); TestRunner.__init__ once per thread; __call__ once per run.
Settings: the hbaseload.* keys in grinder.properties (declared in hbaseload/config.py).
Test numbers: 1 get, 2 put (stable; the reports rely on them)."""

from java.util.concurrent.atomic import AtomicInteger
from net.grinder.script import Test
from net.grinder.script.Grinder import grinder
from org.apache.hadoop.hbase.util import Bytes

from hbaseload import config as settings
from hbaseload import keys, targets, witness
from hbaseload.mix import OperationMix

log = grinder.logger.info

try:
    CONFIG = settings.load(grinder.properties)
except settings.ConfigError, problem:
    grinder.logger.error("hbaseload: %s" % problem)
    # Raising at module level stops the worker: the run fails with this message.
    raise

witness.register_column(grinder)
TARGET = targets.open_target(CONFIG)
log("hbaseload: target %s, table %s, mix %s, %d rows of %d bytes"
    % (CONFIG.target, CONFIG.table, CONFIG.operations, CONFIG.rows, CONFIG.value_size))


def _operation(name):
    """client.get(key), client.put(key), ...: the HBase call the witness times."""
    def call(client, key):
        return getattr(client, name)(key)
    return call


# One recorded, witnessed function per operation, recorded once per process.
RECORDED = {}
for _number, _name in settings.OPERATIONS:
    RECORDED[_name] = witness.timed(_operation(_name))
    Test(_number, _name).record(RECORDED[_name])

# Errors by exception class, per worker: logged once at the end, not a trace per request.
ERRORS = {}
LIVE_THREADS = AtomicInteger()


def _process_end():
    if ERRORS:
        log("hbaseload: errors by class: %s" % ", ".join("%s=%d" % kv for kv in sorted(ERRORS.items())))
    else:
        log("hbaseload: no errors")
    TARGET.close()


class TestRunner:

    def __init__(self):
        # Reports wait until __call__ has written the witness and the outcome.
        grinder.statistics.delayReports = 1
        seed = keys.thread_seed(CONFIG.seed, grinder.processNumber, grinder.threadNumber)
        self.client = TARGET.client(seed)
        self.keys = keys.UniformKeys(CONFIG.rows, seed)
        self.mix = OperationMix(CONFIG.operations, seed + 1)
        self.width = CONFIG.key_width
        LIVE_THREADS.incrementAndGet()

    def __call__(self):
        name = self.mix.next_name()
        key = Bytes.toBytes(keys.row_key(self.keys.next_index(), self.width))
        witness_us, error = RECORDED[name](self.client, key)
        witness.report(grinder.statistics, witness_us, error)
        if error is not None:
            error_class = error.__class__.__name__
            ERRORS[error_class] = ERRORS.get(error_class, 0) + 1

    def __del__(self):
        # Grinder calls __del__ as each thread ends; the last one closes the process's target.
        self.client.close()
        if LIVE_THREADS.decrementAndGet() == 0:
            _process_end()
