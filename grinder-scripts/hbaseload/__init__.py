"""Jython glue between Grinder and the worker's Java side (lib/hbase-grinder-worker.jar).

The per-request work lives in Java (io.github.hbasegrindersuite.worker): measured here, the
same loop written in Jython cost about a third more injector CPU per request than a plain
Java client and lost 20-27% of its throughput on a machine shared with HBase. What stays in
Jython is what Grinder wants from a script: the tests, recorded once per process, and the
TestRunner."""

import sys


def _library_in_its_folder():
    """True when Jython's library is unpacked beside its jar (lib/jars/Lib: ./suite setup does it)."""
    for entry in sys.path:
        if entry.endswith("Lib") and ".jar" not in entry:
            try:
                open(entry + "/codecs.py").close()
                return True
            except IOError:
                pass
    return False


# Before any import of a Java class: each one walks sys.path to its end before Jython looks for
# the Java package, and the entry inside the jython jar made every worker read that jar's zip
# directory (25,000 entries), 30-40% of a warm worker's CPU before its first request
# (bench/results/2026-11-29-jython-start.md). The library stays on the path from its folder.
if _library_in_its_folder():
    sys.path[:] = [entry for entry in sys.path if not (entry.endswith("Lib") and ".jar" in entry)]

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
