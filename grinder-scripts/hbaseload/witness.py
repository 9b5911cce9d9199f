"""The nanoTime witness: the one place that times the HBase call itself, so every report can
state how much of Grinder's recorded time was the tool's own overhead.

Grinder's Test time is whole milliseconds; the witness adds a microsecond column to every
data-log line through Grinder's own statistics API (userLong0)."""

from java.lang import System

COLUMN = "Witness (us)"
STATISTIC = "userLong0"

_nano_time = System.nanoTime


def register_column(grinder):
    """Module level, once per worker process: adds the column to the data log."""
    grinder.statistics.registerDataLogExpression(COLUMN, STATISTIC)


def timed(call):
    """Wrap call(client, key) into a function that returns (witness_us, error). The wrapper
    is what a Grinder Test records; the exception, if any, is returned, not raised, so the
    runner can mark the request failed and count the error class without a stack trace."""
    def timed_call(client, key):
        start = _nano_time()
        try:
            call(client, key)
        except Exception, error:  # Java exceptions arrive as Python exceptions in Jython
            return (_nano_time() - start) // 1000, error
        return (_nano_time() - start) // 1000, None
    return timed_call


def report(statistics, witness_us, error):
    """After the recorded call (reports delayed): write the witness, mark a failure."""
    for_last = statistics.forLastTest
    for_last.setLong(STATISTIC, witness_us)
    if error is not None:
        for_last.success = 0
