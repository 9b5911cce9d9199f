"""Run the Jython unit tests (tests/test_*.py) on Jython 2.7 and print one closing line
`jython: N passed, M failed`. Exit status 1 when anything failed or errored.

    ./suite test runs it as: jython grinder-scripts/tests/run_tests.py"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # grinder-scripts/, for the hbaseload package


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    failed = len(result.failures) + len(result.errors)
    print "jython: %d passed, %d failed" % (result.testsRun - failed, failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
