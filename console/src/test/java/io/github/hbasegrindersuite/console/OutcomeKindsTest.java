package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The console's outcomes (kind and exit code) are the ones of the suite's one table, r-analysis/inst/kinds.json. */
class OutcomeKindsTest {

  @Test
  void everyOutcomeAndItsExitCodeIsInTheTableInOrder() throws Exception {
    final List<String> table = new ArrayList<>();
    for (JsonElement e : JsonParser.parseString(Files.readString(Path.of("..", "r-analysis", "inst", "kinds.json")))
        .getAsJsonObject().getAsJsonArray("console_outcome")) {
      table.add(e.getAsJsonObject().get("kind").getAsString() + "=" + e.getAsJsonObject().get("code").getAsInt());
    }
    final List<String> ours = new ArrayList<>();
    for (Outcome.Kind k : Outcome.Kind.values()) {
      ours.add(k.label() + "=" + k.code());
    }
    assertEquals(table, ours);
  }
}
