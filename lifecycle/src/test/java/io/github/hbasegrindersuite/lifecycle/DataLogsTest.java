package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataLogsTest {
  private static Map<Long, Long> successes(long... seconds) {
    final TreeMap<Long, Long> perSecond = new TreeMap<>();
    for (long s : seconds) {
      perSecond.merge(s, 1L, Long::sum);
    }
    return perSecond;
  }

  @Test
  void aSecondWithoutSuccessWhileRequestsKeptStartingIsSilent() {
    // successes in 100, 101, 103, 104; requests started until 104: 102 was an outage
    assertEquals(List.of(102L), DataLogs.silentSeconds(successes(100, 101, 103, 104), 104));
    assertEquals(List.of(102L, 103L), DataLogs.silentSeconds(successes(100, 101, 104), 103));
  }

  @Test
  void theDrainAfterTheLastStartIsNotSilent() {
    // the last requests (a buffered writer's final flush) started in 101 and ended in 103
    assertEquals(List.of(), DataLogs.silentSeconds(successes(100, 101, 103), 101));
    assertEquals(List.of(), DataLogs.silentSeconds(successes(), 101));
  }

  @Test
  void theLastStartIsReadFromEveryRequestFailedOrNot(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("inj1-0-data.log"), String.join("\n",
        "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)",
        "0, 0, 2, 1000000100000, 5, 0, 4900",
        "1, 0, 2, 1000000100500, 1900, 0, 1899000",
        "0, 1, 2, 1000000100600, 7, 1, 6900", ""));
    final DataLogs logs = DataLogs.below(dir);
    assertEquals(1000000100600L, logs.lastStartMillis);
    // successes end in 1000000100 and 1000000102, the last start in 1000000100: 101 only drained
    assertEquals(List.of(), DataLogs.silentSeconds(logs.perSecond, logs.lastStartMillis / 1000));
    // had requests kept starting, 101 would have been an outage
    assertEquals(List.of(1000000101L), DataLogs.silentSeconds(logs.perSecond, 1000000103L));
  }

  @Test
  void fieldsAreSplitAsTheRegularExpressionSplitsThem() {
    final java.util.regex.Pattern regex = java.util.regex.Pattern.compile(",\\s*");
    for (String line : List.of("0, 0, 2, 1000000100000, 5, 0, 4900", "a,b", "a,  \t b", ",x", "x,", "x, ,", "", ",", ", ,",
        "no comma", "1,2,3,,", "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors")) {
      assertEquals(List.of(regex.split(line)), List.of(DataLogs.fields(line)), "line '" + line + "'");
    }
  }

  @Test
  void countsAreDigitsWithinTheirWidth() {
    assertEquals(true, DataLogs.digits("123", 1, 9));
    assertEquals(false, DataLogs.digits("", 1, 9));
    assertEquals(false, DataLogs.digits("1234567890", 1, 9));
    assertEquals(false, DataLogs.digits("12a", 1, 9));
    assertEquals(false, DataLogs.digits("-1", 1, 9));
    assertEquals(true, DataLogs.positive("10"));
    assertEquals(false, DataLogs.positive("0"));
    assertEquals(false, DataLogs.positive("01"));
    assertEquals(false, DataLogs.positive(""));
  }
}
