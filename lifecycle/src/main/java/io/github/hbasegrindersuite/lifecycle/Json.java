package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * JSON in and out through gson: compact, in insertion order, nulls kept (a field that is not
 * known yet is null, never missing). Files are written to a temporary name and moved into place
 * only once complete, so a reader never sees half a manifest.
 */
final class Json {
  static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

  private Json() {
  }

  static void write(Path file, Object document) throws LifecycleException {
    final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.write(tmp, (GSON.toJson(document) + "\n").getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp); // a half-written copy (disk full) is no record; the old file stays
      } catch (IOException ignored) {
        // the error below says what went wrong
      }
      throw new LifecycleException("cannot write " + file + ": " + e.getMessage());
    }
  }

  static JsonObject read(Path file) throws LifecycleException {
    try {
      final JsonElement element = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8));
      if (!element.isJsonObject()) {
        throw new LifecycleException(file + " is not a JSON object");
      }
      return element.getAsJsonObject();
    } catch (IOException | RuntimeException e) {
      throw new LifecycleException("cannot read " + file + ": " + e.getMessage());
    }
  }

  static String text(JsonObject o, String key) {
    final JsonElement e = o.get(key);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }

  static int integer(JsonObject o, String key, int fallback) {
    final JsonElement e = o.get(key);
    return e == null || e.isJsonNull() ? fallback : e.getAsInt();
  }
}
