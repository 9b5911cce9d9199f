import os
import re
import unittest

from hbaseload import config

GRINDER_PROPERTIES = os.path.join(os.path.dirname(__file__), "..", "..", "grinder.properties")


class DefaultsTest(unittest.TestCase):

    def test_empty_properties_give_every_default(self):
        loaded = config.load({})
        self.assertEqual("direct", loaded.target)
        self.assertEqual([("get", 70), ("put", 30)], loaded.operations)
        self.assertEqual(100000, loaded.rows)
        self.assertEqual(1000, loaded.value_size)
        self.assertEqual(2181, loaded.zookeeper_port)
        self.assertEqual("", loaded.hbase_site)

    def test_given_values_override_defaults(self):
        loaded = config.load({"hbaseload.rows": " 500 ", "hbaseload.operations": "put:100",
                              "grinder.threads": "8"})
        self.assertEqual(500, loaded.rows)
        self.assertEqual([("put", 100)], loaded.operations)

    def test_grinder_properties_documents_every_key_at_its_default(self):
        documented = {}
        for line in open(GRINDER_PROPERTIES):
            match = re.match(r"^(hbaseload\.[\w.]+)\s*=\s*(.*?)\s*$", line)
            if match:
                documented[match.group(1)] = match.group(2)
        self.assertEqual(sorted(config.DEFAULTS.keys()), sorted(documented.keys()))
        for key, default in config.DEFAULTS.items():
            self.assertEqual(default, documented[key], key)

    def test_java_properties_are_read(self):
        from java.util import Properties
        properties = Properties()
        properties.setProperty("hbaseload.value.size", "64")
        self.assertEqual(64, config.load(properties).value_size)


class RefusalTest(unittest.TestCase):

    def refused(self, properties):
        try:
            config.load(properties)
        except config.ConfigError, error:
            return str(error)
        self.fail("accepted %r" % properties)

    def test_unknown_key_is_named_with_the_accepted_keys(self):
        message = self.refused({"hbaseload.rowz": "5"})
        self.assertTrue(message.startswith("unknown key hbaseload.rowz"), message)
        self.assertTrue("hbaseload.rows" in message, message)

    def test_mix_must_sum_to_100(self):
        message = self.refused({"hbaseload.operations": "get:70,put:20"})
        self.assertTrue("sum to 90, not 100" in message, message)

    def test_unknown_operation_is_named(self):
        message = self.refused({"hbaseload.operations": "get:50,frob:50"})
        self.assertTrue("unknown operation 'frob'" in message and "get, put" in message, message)

    def test_negative_and_non_numeric_rows(self):
        self.assertTrue("out of range" in self.refused({"hbaseload.rows": "-5"}))
        self.assertTrue("not a whole number" in self.refused({"hbaseload.rows": "many"}))

    def test_unknown_target_lists_accepted(self):
        message = self.refused({"hbaseload.target": "carrier-pigeon"})
        self.assertTrue("hbaseload.target=carrier-pigeon" in message and "direct" in message, message)

    def test_port_range(self):
        self.assertTrue("1..65535" in self.refused({"hbaseload.zookeeper.port": "70000"}))


if __name__ == "__main__":
    unittest.main()
