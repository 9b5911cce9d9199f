package io.github.hbasegrindersuite.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CountingReportTest {
  private long now;

  /** Reports one request that ended at {@code at} (ns, on the report's clock). */
  private void ended(CountingReport report, long at, long witnessMicros, long lagMicros, boolean success) {
    now = at;
    report.request(witnessMicros, lagMicros, success);
  }

  /** The measured window is 1..2 s on a hand-driven clock. */
  @Test
  void countsRequestsThatStartAndEndInsideTheWindow() {
    CountingReport report = new CountingReport(1_000_000_000L, 2_000_000_000L, () -> now);
    ended(report, 900_000_000L, 100, 0, true);        // warm-up: counted in all only
    ended(report, 1_000_050_000L, 100, 0, true);      // started 50 us before the window: all only
    ended(report, 1_000_200_000L, 100, 0, true);      // in
    ended(report, 1_500_000_000L, 300, 1000, false);  // in, failed, started 1 ms after its intended start
    ended(report, 2_000_000_000L, 200, 0, true);      // ends on the window's end: in
    ended(report, 2_000_000_001L, 200, 0, true);      // ends after it: all only
    assertEquals(6, report.all());
    assertEquals(3, report.requests());
    assertEquals(1, report.errors());
    // from the intended start: (100 + 1300 + 200) / 3; uncorrected, the witness: (100 + 300 + 200) / 3
    assertEquals(1600 / 3.0, report.meanLatencyMicros(), 1e-9);
    assertEquals(200.0, report.meanUncorrectedMicros(), 1e-9);
  }

  @Test
  void anEmptyWindowHasAZeroMean() {
    CountingReport report = new CountingReport(0, 1, () -> now);
    ended(report, 5, 0, 0, true);
    assertEquals(1, report.all());
    assertEquals(0, report.requests());
    assertEquals(0.0, report.meanLatencyMicros());
  }
}
