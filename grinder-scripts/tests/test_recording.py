"""The Jython glue on Jython 2.7: recorded tests per operation, and a Driver (Java) running
through a Client and a RequestReport implemented in Python, as hbase_load.py uses it."""

import unittest

from java.util import HashMap, SplittableRandom
from io.github.hbasegrindersuite.worker import (Driver, ErrorCounter, OperationMix, Pacer,
                                                RequestReport, Settings, SettingsException, ValuePool)
from io.github.hbasegrindersuite.worker.keys import UniformKeys
from io.github.hbasegrindersuite.worker.targets import Client
from io.github.hbasegrindersuite.worker import Operation
from hbaseload import worker_class
from hbaseload.recording import record_operations


class FakeTest(object):
    made = []

    def __init__(self, number, name):
        self.number, self.name = number, name
        FakeTest.made.append(self)

    def record(self, function):
        self.function = function


class RecordingTest(unittest.TestCase):

    def test_one_recorded_function_per_operation_at_its_test_number(self):
        FakeTest.made = []
        recorded = record_operations(FakeTest)
        self.assertEqual([(1, "get"), (2, "put"), (3, "scan"), (4, "batch-get"), (5, "batch-put"),
                          (6, "delete"), (7, "increment")],
                         [(t.number, t.name) for t in FakeTest.made])
        for test in FakeTest.made:
            self.assertTrue(recorded[test.number] is test.function)
        self.assertEqual(7, len(set(id(f) for f in recorded if f is not None)))
        # names as str (Grinder's and Python's), made without Python's codecs
        self.assertEqual(["get", "put", "scan", "batch_get", "batch_put", "delete", "increment"],
                         [t.function.__name__ for t in FakeTest.made])
        self.assertTrue(all(type(t.function.__name__) is str for t in FakeTest.made))


class WorkerClassTest(unittest.TestCase):

    def test_the_same_class_as_a_java_import_and_a_catchable_exception(self):
        self.assertTrue(worker_class("Operation") is Operation)
        self.assertEqual("get", worker_class("Operation").values()[0].label())
        try:
            worker_class("Settings").load(HashMap({"hbaseload.rowz": "5"}))
        except worker_class("SettingsException"), error:
            self.assertTrue(error.getMessage().startswith("unknown key hbaseload.rowz"))
        else:
            self.fail("accepted hbaseload.rowz")

    def test_an_unknown_name_is_a_class_not_found_naming_it(self):
        from java.lang import ClassNotFoundException
        try:
            worker_class("NoSuchThing")
        except ClassNotFoundException, error:
            self.assertEqual("io.github.hbasegrindersuite.worker.NoSuchThing", error.getMessage())
        else:
            self.fail("found NoSuchThing")


class RecordingClient(Client):
    """A Python Client: remembers calls; 'put' of row 0000000003 fails."""

    def __init__(self):
        self.calls = []

    def get(self, row):
        self.calls.append(("get", row.tostring()))
        return None

    def put(self, row):
        self.calls.append(("put", row.tostring()))
        if row.tostring() == "0000000003":
            raise IOError("disk on fire")

    def close(self):
        pass


class RecordingReport(RequestReport):

    def __init__(self):
        self.requests = []

    # One Python method overrides every Java overload of request: the Driver calls the one that
    # names the operation first, request(operation, witness, lag, success).
    def request(self, *args):
        witness, lag, success = args[-3:]
        self.requests.append((witness, lag, success))


def settings(**given):
    values = HashMap()
    for key, value in given.items():
        values.put("hbaseload." + key.replace("_", "."), value)
    return Settings.load(values)


class DriverFromJythonTest(unittest.TestCase):

    def test_driver_runs_the_chosen_operation_and_reports_failures(self):
        s = settings(operations="put:100", rows="5")
        client, report, errors = RecordingClient(), RecordingReport(), ErrorCounter()
        driver = Driver(client, UniformKeys(5, SplittableRandom(1)), OperationMix(s.mix(), SplittableRandom(2)),
                        Pacer(0), ValuePool(16, False, 3), errors, report, s)
        for _ in range(50):
            self.assertEqual(2, driver.next())
            driver.execute()
        self.assertEqual(50, len(client.calls))
        self.assertTrue(all(name == "put" and len(row) == 10 for name, row in client.calls))
        failures = sum(1 for _, row in client.calls if row == "0000000003")
        self.assertTrue(failures > 0)
        self.assertEqual(failures, sum(1 for _, _, ok in report.requests if not ok))
        self.assertEqual(failures, errors.total())
        self.assertTrue(all(w >= 0 and lag == 0 for w, lag, _ in report.requests))

    def test_bad_setting_arrives_as_a_catchable_exception_with_the_key(self):
        try:
            settings(rowz="5")
        except SettingsException, error:
            self.assertTrue(error.getMessage().startswith("unknown key hbaseload.rowz"))
        else:
            self.fail("accepted hbaseload.rowz")


if __name__ == "__main__":
    unittest.main()
