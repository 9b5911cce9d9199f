"""One recorded Grinder test per operation, indexed by test number.

Grinder's DCR instrumentation records Python functions reliably (recording HBase's Java
objects fails silently), so each test is a small Python function that calls
driver.execute(): the driver has already chosen that operation in driver.next()."""

from hbaseload import worker_class

Operation = worker_class("Operation")


def _test_body(label):
    def run(driver):
        driver.execute()
    # a Java string is unicode: str() of it, or str arguments to its replace, would go through
    # Python's codecs (imported from the library at a worker's start); labels are ASCII
    run.__name__ = label.replace(u"-", u"_").encode("ascii")
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
