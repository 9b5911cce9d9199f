package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestRowTest {

  @Test
  void statisticsAndTimelineLinesFollowTheRunFolderContract() {
    final TestRow row = new TestRow(1, "get", 1200, 3, 0.81234, 0.4, 40.0);
    assertEquals("test,name,count,errors,mean_ms,sd_ms,tps", TestRow.STATISTICS_HEADER);
    assertEquals("1,get,1200,3,0.8123,0.4000,40.00", row.statisticsLine());
    assertEquals("1700000000000,12.0,1,get,1200,3,0.8123,40.00", row.timelineLine(1_700_000_000_000L, 12.04));
  }

  @Test
  void numbersIgnoreTheLocaleAndMissingValuesAreNA() {
    final Locale saved = Locale.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY);
      assertEquals("1234.50", TestRow.number(1234.5, 2));
    } finally {
      Locale.setDefault(saved);
    }
    assertEquals("NA", TestRow.number(Double.NaN, 2));
    assertEquals("NA", TestRow.number(Double.POSITIVE_INFINITY, 2));
    assertTrue(Double.isNaN(TestRow.perSecond(10, 0)));
    assertEquals(2500.0, TestRow.perSecond(5000, 2000), 1e-9);
  }

  @Test
  void namesWithCommasOrQuotesAreQuoted() {
    assertEquals("get", TestRow.csv("get"));
    assertEquals("\"get, then put\"", TestRow.csv("get, then put"));
    assertEquals("\"say \"\"hi\"\"\"", TestRow.csv("say \"hi\""));
    assertEquals("", TestRow.csv(null));
  }

  @Test
  void outcomeIsOneLinePerKeyForBash(@TempDir Path dir) throws Exception {
    final Outcome outcome = new Outcome(Outcome.Kind.AGENTS_MISSING, "agent inj2\nmissing\t(now)")
        .with("agents", "inj1");
    final Path file = dir.resolve("outcome.properties");
    outcome.write(file.toFile());
    final List<String> lines = Files.readAllLines(file);
    assertEquals(List.of("status=incomplete", "code=3", "kind=agents missing",
                         "reason=agent inj2 missing (now)", "agents=inj1"), lines);
    final Outcome renamed = outcome.as(Outcome.Kind.COMPLETE, "fine");
    assertEquals("status=complete", renamed.lines().get(0));
    assertEquals("agents=inj1", renamed.lines().get(4));
  }
}
