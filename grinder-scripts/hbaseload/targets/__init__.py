"""Targets: how a worker reaches HBase. Each target module has a class with the same shape:

    Target(config)            once per worker process (connections, pools)
    target.client()           once per thread: an object with get(key) and put(key)
    target.close()            at process end

A new target is one new file here plus its name in config.TARGETS."""


def open_target(config):
    if config.target == "direct":
        from hbaseload.targets.direct import DirectTarget
        return DirectTarget(config)
    raise ValueError("unknown target %s" % config.target)
