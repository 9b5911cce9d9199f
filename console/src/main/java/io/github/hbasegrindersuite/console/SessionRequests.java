package io.github.hbasegrindersuite.console;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * The requests of an injector session: one console and its agents kept for many runs (./suite
 * sweep, the demo, a run with a warm-up), so that their JVMs start once; each run still starts
 * its own worker JVMs (Grinder's single-process mode is not used: README, "warm-up").
 * suite.d/session.sh writes a run's request as {@code SESSION_DIR/requests/NAME.request}, a JSON
 * object: {@code plan} (the run's plan.json) and {@code properties} (the session's copy of the
 * properties to send to the agents), what {@link RunSettings} reads for one run; the controller runs it
 * and answers {@code NAME.done} (the outcome's kind and exit code). {@code SESSION_DIR/stop} ends
 * the session: the agents are stopped and the console exits 0. Files appear by rename, whole.
 */
public final class SessionRequests {
  public static final String SESSION_DIR = RunSettings.PREFIX + "session.dir";
  static final String REQUESTS = "requests";
  static final String STOP = "stop";

  /** One request: its name (the file name without .request), its plan and properties, or why it is unreadable. */
  public static final class Request {
    final String name;
    final String plan;
    final String properties;
    final String unreadable;

    Request(String name, String plan, String properties, String unreadable) {
      this.name = name;
      this.plan = plan;
      this.properties = properties;
      this.unreadable = unreadable;
    }

    public String name() {
      return name;
    }

    /** The request file's contents; an unreadable one names why (the run is refused with it). */
    static Request read(String name, File file) {
      try {
        final JsonElement root = JsonParser.parseString(Files.readString(file.toPath(), StandardCharsets.UTF_8));
        if (!root.isJsonObject()) {
          return new Request(name, null, null, "not a JSON object");
        }
        final JsonObject o = root.getAsJsonObject();
        return new Request(name, text(o, "plan"), text(o, "properties"), null);
      } catch (IOException | JsonParseException e) {
        return new Request(name, null, null, String.valueOf(e.getMessage()));
      }
    }

    private static String text(JsonObject o, String key) {
      final JsonElement e = o.get(key);
      return e == null || !e.isJsonPrimitive() ? null : e.getAsString();
    }
  }

  private final File dir;

  public SessionRequests(File dir) {
    this.dir = dir;
  }

  public File directory() {
    return dir;
  }

  /**
   * The next request not yet answered (oldest name first), waiting up to {@code waitMs}; null
   * when there is none yet. {@link #stopped()} says whether the session is over.
   */
  public Request next(long waitMs) throws InterruptedException {
    final long until = System.currentTimeMillis() + waitMs;
    while (true) {
      final File[] files = new File(dir, REQUESTS).listFiles((d, n) -> n.endsWith(".request"));
      if (files != null && files.length > 0) {
        Arrays.sort(files);
        for (File f : files) {
          final String name = f.getName().substring(0, f.getName().length() - ".request".length());
          if (!new File(f.getParentFile(), name + ".done").exists()) {
            return Request.read(name, f);
          }
        }
      }
      if (stopped() || System.currentTimeMillis() >= until) {
        return null;
      }
      Thread.sleep(100);
    }
  }

  public boolean stopped() {
    return new File(dir, STOP).exists();
  }

  /** The answer to a request: kind and exit code of its outcome, written whole. */
  public void done(Request request, Outcome outcome) throws IOException {
    final File target = new File(new File(dir, REQUESTS), request.name + ".done");
    final File tmp = new File(target.getPath() + ".tmp");
    Files.writeString(tmp.toPath(), "kind=" + outcome.kind().label() + "\ncode=" + outcome.kind().code() + "\n", StandardCharsets.UTF_8);
    Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
