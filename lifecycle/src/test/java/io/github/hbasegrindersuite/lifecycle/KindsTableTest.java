package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** lifecycle's kinds are the ones of the suite's one table, r-analysis/inst/kinds.json (which R reads too). */
class KindsTableTest {

  static final Path TABLE = Path.of("..", "r-analysis", "inst", "kinds.json");

  static List<String> kinds(String section) throws Exception {
    final JsonObject table = Json.read(TABLE);
    final List<String> out = new ArrayList<>();
    for (JsonElement e : table.getAsJsonArray(section)) {
      out.add(e.getAsJsonObject().get("kind").getAsString());
    }
    return out;
  }

  @Test
  void aRunEndsAsTheTableSays() throws Exception {
    assertEquals(kinds("run_status"), Stream.of(RunFinaliser.Status.values()).map(RunFinaliser.Status::label).toList());
  }

  @Test
  void aSweepEndsAsTheTableSays() throws Exception {
    assertEquals(kinds("sweep_status"),
        Stream.of(SweepSteps.Status.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).toList());
  }

  @Test
  void theReportsVerdictsAreInPrecedenceOrderEndingWithTrustworthy() throws Exception {
    final List<String> verdicts = kinds("verdict");
    assertEquals("lost writes", verdicts.get(0));
    assertEquals("incomplete run", verdicts.get(1));
    assertEquals("trustworthy", verdicts.get(verdicts.size() - 1));
  }
}
