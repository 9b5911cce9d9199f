"""Jython glue between Grinder and the worker's Java side (lib/hbase-grinder-worker.jar).

The per-request work lives in Java (io.github.hbasegrindersuite.worker): measured here, the
same loop written in Jython cost about a third more injector CPU per request than a plain
Java client and lost 20-27% of its throughput on a machine shared with HBase. What stays in
Jython is what Grinder wants from a script: the tests, recorded once per process, and the
TestRunner."""
