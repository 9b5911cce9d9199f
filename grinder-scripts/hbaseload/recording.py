"""One recorded Grinder test per operation, indexed by test number.

Grinder's DCR instrumentation records Python functions reliably (recording HBase's Java
objects fails silently), so each test is a small Python function that calls
driver.execute(): the driver has already chosen that operation in driver.next()."""

from io.github.hbasegrindersuite.worker import Operation


def _test_body(label):
    def run(driver):
        driver.execute()
    run.__name__ = str(label.replace("-", "_"))
    return run


def record_operations(test_class):
    """[None, get_fn, put_fn, ...]: index = test number. test_class is Grinder's Test."""
    operations = list(Operation.values())
    recorded = [None] * (max(op.testNumber() for op in operations) + 1)
    for op in operations:
        body = _test_body(op.label())
        test_class(op.testNumber(), op.label()).record(body)
        recorded[op.testNumber()] = body
    return recorded
