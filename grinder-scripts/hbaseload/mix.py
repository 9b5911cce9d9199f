"""The operation mix: draws operation names with the configured percentages."""

import bisect
import random


class OperationMix(object):

    def __init__(self, weighted_names, seed):
        self._names = []
        self._cumulative = []
        total = 0
        for name, weight in weighted_names:
            if weight > 0:
                total += weight
                self._names.append(name)
                self._cumulative.append(total)
        self._total = total
        self._random = random.Random(seed)

    def names(self):
        return list(self._names)

    def next_name(self):
        if len(self._names) == 1:
            return self._names[0]
        draw = self._random.randrange(self._total)
        return self._names[bisect.bisect_right(self._cumulative, draw)]
