"""Jython glue between Grinder and the worker's Java side (lib/hbase-grinder-worker.jar).

The per-request work lives in Java (io.github.hbasegrindersuite.worker): measured here, the
same loop written in Jython cost about a third more injector CPU per request than a plain
Java client and lost 20-27% of its throughput on a machine shared with HBase. What stays in
Jython is what Grinder wants from a script: the tests, recorded once per process, and the
TestRunner."""

from java.lang import Class
from net.grinder.script import Test


def worker_class(name):
    """The worker jar's class io.github.hbasegrindersuite.worker.NAME.

    Not `from io.github.hbasegrindersuite.worker import NAME`: "io" is also a module of Python's
    library, which Jython finds first on sys.path and imports, with about 40 more (codecs, abc,
    os, encodings, ...), before it falls back to the Java package, in every worker
    (bench/results/2026-11-29-jython-start.md). Loaded by the class loader of Grinder's script
    API, so that its classes link against this worker's Grinder: a warm worker's own loader (the
    thread's context loader is the agent's there, and its GrinderReport would not take this
    worker's Statistics), a fresh worker's application loader."""
    return Class.forName("io.github.hbasegrindersuite.worker." + name, True, Class.getClassLoader(Test))
