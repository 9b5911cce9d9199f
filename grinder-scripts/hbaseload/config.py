"""Every hbaseload.* key, its default and its meaning, declared in this one place (YCSB's
style). grinder.properties documents the same keys for people; tests check the two agree.

load(properties) reads a Grinder/Java Properties object or a dict, refuses unknown
hbaseload.* keys and ill-typed or impossible values with a ConfigError that names the key
and the accepted values, and returns a Config whose attributes are the keys' short names
(hbaseload.value.size -> config.value_size)."""

PREFIX = "hbaseload."

# Test numbers and names are stable: the data logs and reports rely on them.
OPERATIONS = [(1, "get"), (2, "put")]
OPERATION_NUMBERS = dict((name, number) for number, name in OPERATIONS)

TARGETS = ["direct"]


class ConfigError(Exception):
    """A bad hbaseload.* setting; the message names the key and what it accepts."""


def _integer(minimum, maximum=None):
    def parse(key, text):
        try:
            value = int(text.strip())
        except ValueError:
            raise ConfigError("%s=%s is not a whole number" % (key, text))
        if value < minimum or (maximum is not None and value > maximum):
            bounds = ">= %d" % minimum if maximum is None else "%d..%d" % (minimum, maximum)
            raise ConfigError("%s=%s is out of range (accepted: %s)" % (key, text, bounds))
        return value
    parse.accepts = "a whole number >= %d" % minimum
    return parse


def _choice(values):
    def parse(key, text):
        value = text.strip()
        if value not in values:
            raise ConfigError("%s=%s is not accepted (accepted: %s)" % (key, text, ", ".join(values)))
        return value
    parse.accepts = ", ".join(values)
    return parse


def _text(key, text):
    return text.strip()
_text.accepts = "text"


def _nonempty(key, text):
    value = text.strip()
    if not value:
        raise ConfigError("%s is empty (accepted: a non-empty name)" % key)
    return value
_nonempty.accepts = "a non-empty name"


def _mix(key, text):
    """'get:70,put:30' -> [("get", 70), ("put", 30)]; weights are percentages summing to 100."""
    pairs = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        if ":" not in part:
            raise ConfigError("%s=%s: '%s' is not operation:percent (e.g. get:70,put:30)" % (key, text, part))
        name, weight = [s.strip() for s in part.split(":", 1)]
        if name not in OPERATION_NUMBERS:
            raise ConfigError("%s=%s: unknown operation '%s' (accepted: %s)"
                              % (key, text, name, ", ".join(n for _, n in OPERATIONS)))
        try:
            weight = int(weight)
        except ValueError:
            raise ConfigError("%s=%s: weight of %s is not a whole number" % (key, text, name))
        if weight < 0:
            raise ConfigError("%s=%s: weight of %s is negative" % (key, text, name))
        pairs.append((name, weight))
    if not pairs:
        raise ConfigError("%s is empty (accepted: operation:percent pairs, e.g. get:70,put:30)" % key)
    total = sum(w for _, w in pairs)
    if total != 100:
        raise ConfigError("%s=%s: percentages sum to %d, not 100" % (key, text, total))
    return pairs
_mix.accepts = "operation:percent pairs summing to 100, e.g. get:70,put:30"


# (key, default, parser, meaning). The order is the order grinder.properties documents them.
KEYS = [
    ("target", "direct", _choice(TARGETS),
     "how workers reach HBase: direct = the HBase Java client"),
    ("operations", "get:70,put:30", _mix,
     "the operation mix, operation:percent pairs summing to 100"),
    ("table", "hbaseload", _nonempty, "the table under load"),
    ("family", "f", _nonempty, "the column family written and read"),
    ("rows", "100000", _integer(1), "rows in the table; keys are drawn from 0..rows-1"),
    ("value.size", "1000", _integer(0), "bytes per value"),
    ("key.width", "10", _integer(1, 64), "digits of the zero-padded decimal row key"),
    ("regions", "8", _integer(1, 10000), "regions the table is pre-split into (./suite prepare)"),
    ("seed", "42", _integer(0), "random seed; each thread derives its own from it"),
    ("hbase.site", "", _text,
     "a client hbase-site.xml for a real cluster; empty = the embedded HBase on 127.0.0.1"),
    ("zookeeper.quorum", "127.0.0.1", _nonempty, "ZooKeeper quorum, when hbase.site is empty"),
    ("zookeeper.port", "2181", _integer(1, 65535), "ZooKeeper client port, when hbase.site is empty"),
    ("timeout.ms", "10000", _integer(1), "client operation timeout: no request blocks longer"),
]

DEFAULTS = dict((PREFIX + name, default) for name, default, _, _ in KEYS)


class Config(object):
    """The validated settings; attribute names are the keys without the prefix, dots as _."""

    def __init__(self, values):
        self.__dict__.update(values)

    def as_properties(self):
        return dict((PREFIX + name, str(getattr(self, attribute_name(name)))) for name, _, _, _ in KEYS)


def attribute_name(short_key):
    return short_key.replace(".", "_")


def _entries(properties):
    """(key, value) pairs of a dict or a java.util.Properties (GrinderProperties)."""
    if hasattr(properties, "stringPropertyNames"):
        return [(k, properties.getProperty(k)) for k in properties.stringPropertyNames()]
    return list(properties.items())


def load(properties):
    known = dict((PREFIX + name, (default, parser)) for name, default, parser, _ in KEYS)
    given = dict((k, v) for k, v in _entries(properties) if k.startswith(PREFIX))
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise ConfigError("unknown key %s (accepted: %s)"
                          % (unknown[0], ", ".join(PREFIX + n for n, _, _, _ in KEYS)))
    values = {}
    for name, default, parser, _ in KEYS:
        key = PREFIX + name
        values[attribute_name(name)] = parser(key, given.get(key, default))
    return Config(values)
