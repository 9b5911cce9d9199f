"""Row-key generators, one per distribution, behind one interface: next_index() gives a row
number in 0..rows-1. row_key() turns it into the fixed-width key the table holds. Each thread
gets its own generator seeded from the run seed and its thread identity, so runs reproduce."""

import random


def row_key(index, width):
    return str(index).zfill(width)


def thread_seed(run_seed, process_number, thread_number):
    # Distinct, stable streams per (process, thread); large odd multipliers avoid overlaps.
    return run_seed * 1000003 + process_number * 7919 + thread_number


class UniformKeys(object):
    """Every row equally likely (the reference study's uniform random keys)."""

    def __init__(self, rows, seed):
        self.rows = rows
        self._random = random.Random(seed)

    def next_index(self):
        return self._random.randrange(self.rows)


def split_keys(rows, regions, width):
    """Region boundaries that cut 0..rows-1 into `regions` equal ranges (regions-1 keys)."""
    return [row_key(rows * i // regions, width) for i in range(1, regions)
            if 0 < rows * i // regions < rows]
