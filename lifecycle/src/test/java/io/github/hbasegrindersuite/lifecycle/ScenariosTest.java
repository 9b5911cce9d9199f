package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every scenario the project ships plans at every scale, and every run it plans is one the
 * worker accepts: a typo in a scenario file fails here, not an hour into a sweep.
 */
class ScenariosTest {
  private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

  private static List<Path> scenarios() throws Exception {
    try (Stream<Path> files = Files.list(PROJECT.resolve("scenarios"))) {
      return files.filter(f -> f.toString().endsWith(".properties")).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void everyScenarioPlansAtEveryScaleIntoRunsTheWorkerAccepts() throws Exception {
    final List<Path> all = scenarios();
    assertTrue(all.size() >= 5, "the five studies at least: " + all);
    for (Path scenario : all) {
      for (String scale : List.of("tiny", "default", "10")) {
        final SweepPlanner.Overrides o = new SweepPlanner.Overrides();
        o.scale = scale;
        final SweepPlanner plan = assertDoesNotThrow(() -> new SweepPlanner(scenario, PROJECT.resolve("grinder.properties"), o),
            scenario.getFileName() + " at scale " + scale);
        assertFalse(plan.points.isEmpty(), scenario + " plans no run");
        for (SweepPlanner.Point point : plan.points) {
          final Map<String, String> run = new LinkedHashMap<>(plan.base);
          run.putAll(point.sets);
          run.keySet().removeIf(k -> !k.startsWith(Settings.PREFIX));
          assertDoesNotThrow(() -> Settings.load(run), scenario.getFileName() + " at " + scale + ", run " + point.label);
        }
      }
    }
  }
}
