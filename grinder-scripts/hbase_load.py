"""The Grinder TestRunner that drives HBase: get, put, scan, batch get/put, delete, increment
in any mix, directly through the HBase Java client or through a thrift2 server (HBase's own
gateway or the thrift-shim), with the nanoTime witness around every HBase call.

All of it is in hbaseload/runner.py: Grinder parses its script in every worker it starts, and a
script of one import leaves its parser next to nothing, while the module is compiled once per
session (bench/results/2026-11-29-script-one-import.md)."""

from hbaseload.runner import TestRunner
