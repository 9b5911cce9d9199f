"""The hbaseload package: what hbase_load.py (the Grinder TestRunner) and prepare_table.py
are built from. Pure-Python modules (config, keys, mix) import no Java so that they can be
unit-tested on plain Jython; targets/ and witness hold the Java calls."""
