package io.github.hbasegrindersuite.worker;

import io.github.hbasegrindersuite.worker.Settings.Key;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.GsonBuilder;

/**
 * What one ./suite prepare did, as JSON for the report (./suite prepare --record FILE; the sweep
 * keeps one per prepared point as runs/sweep-N/prepare-N.json): the table, its shape, the outcome
 * (created, already prepared, timeout, crash), the seconds its creation took apart from the load's,
 * and the cells loaded. The schema-stress study reports table creation time ("setup s") apart from
 * the writes; r-analysis/R/study-dana.R reads these files.
 */
public final class PrepareRecord {
  /** The outcomes, as the report shows them. */
  public static final String CREATED = "created";
  public static final String ALREADY = "already prepared";
  public static final String TIMEOUT = "timeout";
  public static final String CRASH = "crash";

  private final Map<String, Object> fields = new LinkedHashMap<>();

  PrepareRecord(Settings settings) {
    fields.put("schema", 1);
    fields.put("table", settings.text(Key.TABLE));
    fields.put("families", settings.integer(Key.FAMILIES));
    fields.put("families_written", settings.text(Key.FAMILIES_WRITTEN));
    fields.put("wide_columns", settings.integer(Key.WIDE_COLUMNS));
    fields.put("rows", settings.integer(Key.ROWS));
    fields.put("value_size", settings.integer(Key.VALUE_SIZE));
    fields.put("regions", settings.integer(Key.REGIONS));
    fields.put("timeout_s", settings.integer(Key.PREPARE_TIMEOUT_S));
    fields.put("outcome", null);
    fields.put("create_s", null);
    fields.put("load_s", null);
    fields.put("cells_loaded", null);
    fields.put("reason", null);
  }

  PrepareRecord set(String field, Object value) {
    if (!fields.containsKey(field)) {
      throw new IllegalArgumentException("no field " + field);
    }
    fields.put(field, value);
    return this;
  }

  Object get(String field) {
    return fields.get(field);
  }

  String toJson() {
    return new GsonBuilder().serializeNulls().setPrettyPrinting().create().toJson(fields);
  }

  void write(Path file) throws IOException {
    Files.writeString(file, toJson() + "\n", StandardCharsets.UTF_8);
  }
}
