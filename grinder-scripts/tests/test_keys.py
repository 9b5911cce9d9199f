import unittest

from hbaseload import keys
from hbaseload.mix import OperationMix


class RowKeyTest(unittest.TestCase):

    def test_fixed_width(self):
        self.assertEqual("0000000042", keys.row_key(42, 10))
        self.assertEqual("99999", keys.row_key(99999, 5))

    def test_split_keys_cut_equal_ranges(self):
        self.assertEqual(["025", "050", "075"], keys.split_keys(100, 4, 3))
        self.assertEqual([], keys.split_keys(100, 1, 3))

    def test_thread_seeds_are_distinct(self):
        seeds = set(keys.thread_seed(42, p, t) for p in range(4) for t in range(300))
        self.assertEqual(1200, len(seeds))


class UniformKeysTest(unittest.TestCase):

    def test_range_and_determinism(self):
        a = keys.UniformKeys(1000, 7)
        b = keys.UniformKeys(1000, 7)
        draws = [a.next_index() for _ in range(5000)]
        self.assertEqual(draws, [b.next_index() for _ in range(5000)])
        self.assertTrue(min(draws) >= 0 and max(draws) <= 999)

    def test_shape_is_flat_within_tolerance(self):
        # 100k draws over 10 buckets: each bucket expects 10,000; sd is about 95.
        generator = keys.UniformKeys(100, 1)
        buckets = [0] * 10
        for _ in range(100000):
            buckets[generator.next_index() // 10] += 1
        for count in buckets:
            self.assertTrue(9500 < count < 10500, buckets)


class MixTest(unittest.TestCase):

    def test_ratio_over_100k_draws(self):
        mix = OperationMix([("get", 70), ("put", 30)], 3)
        gets = sum(1 for _ in range(100000) if mix.next_name() == "get")
        # Binomial sd = sqrt(100000 * 0.7 * 0.3) = 145; allow 5 sd.
        self.assertTrue(69275 < gets < 70725, gets)

    def test_zero_weights_never_drawn(self):
        mix = OperationMix([("get", 100), ("put", 0)], 3)
        self.assertEqual(["get"], mix.names())
        self.assertEqual(set(["get"]), set(mix.next_name() for _ in range(1000)))


if __name__ == "__main__":
    unittest.main()
