package io.github.hbasegrindersuite.console;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Properties;

/**
 * The requests of an injector session: one console and its agents kept for many runs (./suite
 * sweep, the demo, a run with a warm-up), so that their JVMs start once and, in single-process
 * mode, the workers' code stays compiled from run to run. libexec/suite-run writes a run's request
 * as {@code SESSION_DIR/requests/NAME.request} (properties: the same {@code hbasegrinder.*} keys
 * as the console's system properties for one run, see {@link RunSettings}); the controller runs it
 * and answers {@code NAME.done} (the outcome's kind and exit code). {@code SESSION_DIR/stop} ends
 * the session: the agents are stopped and the console exits 0. Files appear by rename, whole.
 */
public final class SessionRequests {
  public static final String SESSION_DIR = RunSettings.PREFIX + "session.dir";
  static final String REQUESTS = "requests";
  static final String STOP = "stop";

  /** One request: its name (the file name without .request) and its properties. */
  public static final class Request {
    final String name;
    final Properties properties;

    Request(String name, Properties properties) {
      this.name = name;
      this.properties = properties;
    }

    public String name() {
      return name;
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
            final Properties p = new Properties();
            try (InputStream in = Files.newInputStream(f.toPath())) {
              p.load(in);
            } catch (IOException | IllegalArgumentException e) {
              p.setProperty(RunSettings.PREFIX + "request.unreadable", String.valueOf(e.getMessage()));
            }
            return new Request(name, p);
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
