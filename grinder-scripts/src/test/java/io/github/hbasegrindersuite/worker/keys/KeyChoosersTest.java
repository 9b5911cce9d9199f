package io.github.hbasegrindersuite.worker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import io.github.hbasegrindersuite.worker.Settings;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Shapes within stated tolerances, determinism and range, for every distribution. */
class KeyChoosersTest {
  private static final int DRAWS = 200_000;

  private static long[] histogram(KeyChooser keys, int rows, int buckets) {
    long[] counts = new long[buckets];
    for (int i = 0; i < DRAWS; i++) {
      long row = keys.next();
      assertTrue(row >= 0 && row < rows, "row out of range: " + row);
      counts[(int) (row * buckets / rows)]++;
    }
    return counts;
  }

  private static void assertDeterministic(Supplier<KeyChooser> make) {
    KeyChooser a = make.get();
    KeyChooser b = make.get();
    for (int i = 0; i < 10_000; i++) {
      assertEquals(a.next(), b.next());
    }
  }

  @Test
  void uniformIsFlatWithin3Percent() {
    long[] counts = histogram(new UniformKeys(1000, new SplittableRandom(1)), 1000, 10);
    for (long c : counts) {
      assertTrue(Math.abs(c - DRAWS / 10) < DRAWS / 10 * 0.03, Arrays.toString(counts));
    }
    assertDeterministic(() -> new UniformKeys(1000, new SplittableRandom(7)));
  }

  @Test
  void hotspotSendsTheOperationFractionToTheHotRows() {
    // 20% of 1000 rows are hot and get 80% of requests: bucket 0-1 (rows 0..199) holds 80% +- 1%.
    long[] counts = histogram(new HotspotKeys(1000, 0.2, 0.8, new SplittableRandom(2)), 1000, 5);
    assertEquals(0.8, counts[0] / (double) DRAWS, 0.01);
    for (int b = 1; b < 5; b++) {
      assertEquals(0.05, counts[b] / (double) DRAWS, 0.005);
    }
    assertDeterministic(() -> new HotspotKeys(1000, 0.2, 0.8, new SplittableRandom(7)));
  }

  @Test
  void zipfianRanksFollowThePowerLaw() {
    // theta 0.99 over 1000 items: P(rank 0) = 1/zeta(1000, .99) = 0.1337; P(1)/P(0) = 2^-0.99.
    ZipfianRanks ranks = new ZipfianRanks(1000, 0.99, new SplittableRandom(3));
    long[] counts = new long[1000];
    for (int i = 0; i < DRAWS; i++) {
      counts[(int) ranks.next()]++;
    }
    double p0 = 1 / ZipfianRanks.zeta(1000, 0.99);
    assertEquals(p0, counts[0] / (double) DRAWS, 0.005);
    assertEquals(Math.pow(2, -0.99), counts[1] / (double) counts[0], 0.05);
    // Top 10% of ranks take the bulk: sum_{1..100} i^-.99 / zeta(1000) = 0.70 (+- 0.02).
    long top = Arrays.stream(counts, 0, 100).sum();
    assertEquals(ZipfianRanks.zeta(100, 0.99) / ZipfianRanks.zeta(1000, 0.99), top / (double) DRAWS, 0.02);
  }

  @Test
  void zipfianKeysScatterTheHotRowsButKeepTheSkew() {
    ZipfianKeys keys = new ZipfianKeys(1000, 0.99, new SplittableRandom(4));
    long[] perRow = new long[1000];
    for (int i = 0; i < DRAWS; i++) {
      perRow[(int) keys.next()]++;
    }
    long[] sorted = perRow.clone();
    Arrays.sort(sorted);
    assertTrue(sorted[999] > DRAWS * 0.1, "the hottest row takes > 10%");
    int hottest = 0;
    for (int i = 1; i < 1000; i++) {
      hottest = perRow[i] > perRow[hottest] ? i : hottest;
    }
    assertTrue(hottest != 0, "scrambled: the hottest row is not row 0");
    assertDeterministic(() -> new ZipfianKeys(1000, 0.99, new SplittableRandom(7)));
  }

  @Test
  void latestFavoursTheHighestRows() {
    long[] counts = histogram(new LatestKeys(1000, 0.99, new SplittableRandom(5)), 1000, 10);
    assertTrue(counts[9] > DRAWS * 0.6, Arrays.toString(counts));
    for (int b = 1; b < 10; b++) {
      assertTrue(counts[b] >= counts[b - 1], "non-decreasing towards the newest: " + Arrays.toString(counts));
    }
  }

  @Test
  void sequentialSlicesAreDisjointCoverTheRowsAndWrap() {
    Set<Long> seen = new HashSet<>();
    for (int slice = 0; slice < 3; slice++) {
      SequentialKeys keys = new SequentialKeys(10, slice, 3);
      long first = keys.next();
      Set<Long> mine = new HashSet<>();
      mine.add(first);
      long row;
      while ((row = keys.next()) != first) {
        assertTrue(mine.add(row), "each row once per lap");
      }
      for (long r : mine) {
        assertTrue(seen.add(r), "slices overlap at row " + r);
      }
    }
    assertEquals(10, seen.size());
    SequentialKeys ordered = new SequentialKeys(100, 1, 4);
    assertEquals(25, ordered.next());
    assertEquals(26, ordered.next());
  }

  @Test
  void sequentialScansStartAScanLengthApartAndReadTheirSliceOnce() {
    // slice 1 of 4 of 100 rows: 25..49; scans of 10 rows start at 25, 35, 45, then wrap (offset 30 % 25 = 5)
    SequentialKeys scans = new SequentialKeys(100, 1, 4, 10);
    assertEquals(List.of(25L, 35L, 45L, 30L), List.of(scans.next(), scans.next(), scans.next(), scans.next()));
    Properties scanOnly = new Properties();
    scanOnly.setProperty("hbaseload.operations", "scan:100");
    scanOnly.setProperty("hbaseload.key.distribution", "sequential");
    scanOnly.setProperty("hbaseload.rows", "100");
    scanOnly.setProperty("hbaseload.scan.length", "10");
    KeyChooser chosen = KeyChoosers.create(Settings.load(scanOnly), new SplittableRandom(1), 0, 2);
    assertEquals(List.of(0L, 10L, 20L), List.of(chosen.next(), chosen.next(), chosen.next()));
    scanOnly.setProperty("hbaseload.operations", "scan:50,get:50");   // a mix: one row at a time
    KeyChooser mixed = KeyChoosers.create(Settings.load(scanOnly), new SplittableRandom(1), 0, 2);
    assertEquals(List.of(0L, 1L), List.of(mixed.next(), mixed.next()));
  }

  @Test
  void reverseWalksEachThreadsOwnSliceFromItsEndDownAndWraps() {
    // 10 rows over 3 threads: slices 0-2, 3-5, 6-9 (SequentialKeys' cut), each walked downwards
    assertEquals(List.of(2L, 1L, 0L, 2L), draws(new ReverseKeys(10, 0, 3), 4));
    assertEquals(List.of(5L, 4L, 3L, 5L), draws(new ReverseKeys(10, 1, 3), 4));
    assertEquals(List.of(9L, 8L, 7L, 6L, 9L), draws(new ReverseKeys(10, 2, 3), 5));
    // together one pass of the threads writes every row exactly once, in descending order per slice
    Set<Long> all = new HashSet<>();
    for (int t = 0; t < 3; t++) {
      all.addAll(draws(new ReverseKeys(10, t, 3), t == 2 ? 4 : 3));
    }
    assertEquals(10, all.size());
    assertEquals(List.of(0L), draws(new ReverseKeys(1, 0, 1), 1));
  }

  private static List<Long> draws(KeyChooser keys, int n) {
    List<Long> out = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(keys.next());
    }
    return out;
  }
}
