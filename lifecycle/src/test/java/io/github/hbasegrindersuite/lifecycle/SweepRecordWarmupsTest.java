package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepRecordWarmupsTest {

  private static void warmup(Path runs, int n, String sweep, int point, String outcome) throws Exception {
    final Path dir = Files.createDirectories(runs.resolve("warmup-" + n).resolve("console"));
    Files.writeString(dir.getParent().resolve("plan.json"), "{\"sweep_id\": \"" + sweep + "\", \"sweep_point\": " + point + "}");
    Files.writeString(dir.resolve("outcome.properties"), outcome);
  }

  @Test
  void aSecondWarmUpBeforeTheSamePointIsTheFirstOnesSettling(@TempDir Path runs) throws Exception {
    warmup(runs, 1, "sweep-1", 1, "warmup_warm=true\nwarmup_s=50\nreason=warm after 50 s\n");
    warmup(runs, 2, "sweep-1", 1, "warmup_warm=false\nwarmup_s=11\nreason=not warm when its bound ended it\n");
    warmup(runs, 3, "sweep-2", 1, "warmup_warm=true\nwarmup_s=30\nreason=warm\n");   // another sweep's
    warmup(runs, 4, "sweep-1", 2, "warmup_warm=true\nwarmup_s=19\nreason=warm after 19 s\n");
    warmup(runs, 10, "sweep-1", 2, "warmup_warm=true\nwarmup_s=10\nreason=warm after 10 s\n");
    final List<Map<String, Object>> rows = SweepRecord.warmups(runs, "sweep-1");
    assertEquals(List.of("warmup-1", "warmup-2", "warmup-4", "warmup-10"), rows.stream().map(r -> r.get("warmup")).toList());
    assertEquals(List.of(false, true, false, true), rows.stream().map(r -> r.get("settling")).toList());
    assertEquals(List.of(1, 1, 2, 2), rows.stream().map(r -> r.get("before_point")).toList());
    assertEquals(11, rows.get(1).get("seconds"));
  }
}
