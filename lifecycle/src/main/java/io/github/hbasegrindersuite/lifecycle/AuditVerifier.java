package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.audit.AuditLog;
import io.github.hbasegrindersuite.worker.audit.AuditScheme;
import io.github.hbasegrindersuite.worker.targets.DirectTarget;
import io.github.hbasegrindersuite.worker.targets.RowShape;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * {@code ./suite verify RUN}: the acknowledged-write audit's read-back. Every record of the run's
 * audit logs ({@code injectors/<host>/<host>-<n>.audit}, hbaseload.audit=true) names a key and
 * whether HBase acknowledged its put; each key is read back in batched gets and counted:
 * acknowledged = intact + lost (absent) + corrupted (present, another value); failed on the client
 * = in doubt (present: HBase applied it though the client saw a failure) + failed-and-absent.
 * Written to {@code audit.json}; the exit status is {@link #LOST} when an acknowledged write is
 * lost or corrupted, {@link #UNFINISHED} when not every key could be read within the bound.
 */
final class AuditVerifier {
  static final String FILE = "audit.json";
  static final int CLEAN = 0;
  static final int LOST = 4;
  static final int UNFINISHED = 3;
  /** Keys named in audit.json per outcome, for a look with the HBase shell. */
  static final int EXAMPLES = 10;

  /** Batched reads of whole rows: per key, its cells ("family:qualifier" -> value), null when absent. */
  interface Rows extends AutoCloseable {
    List<Map<String, byte[]>> read(List<byte[]> keys) throws IOException;

    @Override
    default void close() throws IOException {
    }
  }

  /** What the read-back found. */
  static final class Counts {
    long records;
    long acknowledged;
    long intact;
    long lost;
    long corrupted;
    long failed;
    long inDoubt;
    long failedAbsent;
    long unread;
    final List<String> lostKeys = new ArrayList<>();
    final List<String> corruptedKeys = new ArrayList<>();
    final List<String> inDoubtKeys = new ArrayList<>();

    void add(Counts o) {
      records += o.records;
      acknowledged += o.acknowledged;
      intact += o.intact;
      lost += o.lost;
      corrupted += o.corrupted;
      failed += o.failed;
      inDoubt += o.inDoubt;
      failedAbsent += o.failedAbsent;
      addExamples(lostKeys, o.lostKeys);
      addExamples(corruptedKeys, o.corruptedKeys);
      addExamples(inDoubtKeys, o.inDoubtKeys);
    }

    private static void addExamples(List<String> to, List<String> from) {
      for (String key : from) {
        if (to.size() < EXAMPLES) {
          to.add(key);
        }
      }
    }
  }

  /** The settings that say what an audited row holds: its families and columns, each value's size. */
  static final class Shape {
    final RowShape rows;
    final int valueSize;

    Shape(Settings settings) {
      rows = new RowShape(settings);
      valueSize = settings.integer(Settings.Key.VALUE_SIZE);
    }

    /** Is every cell the audited put of {@code key} wrote there, with the key's value? */
    boolean intact(byte[] key, Map<String, byte[]> cells) {
      final byte[] expected = AuditScheme.value(key, valueSize);
      final int columns = rows.columnsOf(key);
      for (byte[] family : rows.familiesOf(key)) {
        for (int c = 0; c < columns; c++) {
          if (!java.util.Arrays.equals(expected, cells.get(cellName(family, rows.qualifiers[c])))) {
            return false;
          }
        }
      }
      return true;
    }
  }

  static String cellName(byte[] family, byte[] qualifier) {
    return new String(family, StandardCharsets.ISO_8859_1) + ":" + new String(qualifier, StandardCharsets.ISO_8859_1);
  }

  /** Counts one batch: the records' keys and outcomes against what the rows read back hold. */
  static Counts count(List<byte[]> keys, boolean[] acknowledged, List<Map<String, byte[]>> found, Shape shape) {
    final Counts c = new Counts();
    for (int i = 0; i < keys.size(); i++) {
      final byte[] key = keys.get(i);
      final Map<String, byte[]> cells = found.get(i);
      final boolean present = cells != null && !cells.isEmpty();
      final String name = new String(key, StandardCharsets.ISO_8859_1);
      c.records++;
      if (acknowledged[i]) {
        c.acknowledged++;
        if (!present) {
          c.lost++;
          Counts.addExamples(c.lostKeys, List.of(name));
        } else if (shape.intact(key, cells)) {
          c.intact++;
        } else {
          c.corrupted++;
          Counts.addExamples(c.corruptedKeys, List.of(name));
        }
      } else {
        c.failed++;
        if (present) {
          c.inDoubt++;
          Counts.addExamples(c.inDoubtKeys, List.of(name));
        } else {
          c.failedAbsent++;
        }
      }
    }
    return c;
  }

  /** Options of ./suite verify. */
  static final class Options {
    int batch = 1000;
    int threads = 4;
    int timeoutSeconds = 600;
  }

  private final Path runDir;
  private final Options options;
  private final PrintStream out;
  private final LongSupplier clock;

  AuditVerifier(Path runDir, Options options, PrintStream out, LongSupplier clock) {
    this.runDir = runDir;
    this.options = options;
    this.out = out;
    this.clock = clock;
  }

  /** The run's settings (plan.json), refused when the run was not audited. */
  static Settings settingsOf(Path runDir) throws LifecycleException {
    final Path planFile = runDir.resolve("plan.json");
    if (!Files.isRegularFile(planFile)) {
      throw new LifecycleException(runDir + " has no plan.json: not a run of ./suite run");
    }
    final Settings settings = PlanJson.settings(Json.read(planFile));
    if (!settings.flag(Settings.Key.AUDIT)) {
      throw new LifecycleException(runDir.getFileName() + " was not audited (hbaseload.audit=false in its plan.json;"
          + " run with --set hbaseload.audit=true)");
    }
    return settings;
  }

  /** Every audit log below the run folder, in name order. */
  static List<Path> auditLogs(Path runDir) throws LifecycleException {
    final Path injectors = runDir.resolve("injectors");
    if (!Files.isDirectory(injectors)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(injectors)) {
      return walk.filter(p -> p.getFileName().toString().endsWith(AuditLog.FILE_SUFFIX) && Files.isRegularFile(p))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new LifecycleException("cannot list " + injectors + ": " + e.getMessage());
    }
  }

  /** Successful puts (test 2, no error) in the run's data logs; -1 when it has none (hbaseload.datalog=off). */
  static long dataLogPuts(Path runDir) throws LifecycleException {
    final DataLogs logs = DataLogs.below(runDir.resolve("injectors"));
    return logs.files == 0 ? -1 : logs.okPerTest.getOrDefault(io.github.hbasegrindersuite.worker.Operation.PUT.testNumber(), 0L);
  }

  /**
   * Reads every audited key back through {@code rows} and writes audit.json; returns the exit status.
   * Batches go to {@link Options#threads} readers, at most twice as many in flight; the whole read is
   * bounded by {@link Options#timeoutSeconds} (what is left then is "unread" and the status {@link #UNFINISHED}).
   */
  int verify(Settings settings, Rows rows) throws LifecycleException {
    final List<Path> logs = auditLogs(runDir);
    if (logs.isEmpty()) {
      throw new LifecycleException(runDir.getFileName() + " was audited but holds no audit log (injectors/*/*"
          + AuditLog.FILE_SUFFIX + "): were its logs collected? (./suite collect)");
    }
    // the logs' own counts first (a local read, 12 bytes a put): what was acknowledged is known even when the read-back is cut short
    long bytes = 0;
    long logAcknowledged = 0;
    long logFailed = 0;
    long torn = 0;
    for (Path log : logs) {
      try (AuditLog.Reader reader = AuditLog.Reader.open(log)) {
        bytes += Files.size(log);
        while (reader.next()) {
          if (reader.acknowledged) {
            logAcknowledged++;
          } else {
            logFailed++;
          }
        }
        torn += reader.tornBytes;
      } catch (IOException e) {
        throw new LifecycleException("cannot read " + log + ": " + e.getMessage());
      }
    }
    final long expected = logAcknowledged + logFailed;
    final Shape shape = new Shape(settings);
    final long started = clock.getAsLong();
    final long deadline = started + options.timeoutSeconds * 1000L;
    out.printf("verify %s: reading back %,d audited puts of %d worker(s) from table %s (%d gets a batch, %d readers)%n",
        runDir.getFileName(), expected, logs.size(), settings.text(Settings.Key.TABLE), options.batch, options.threads);
    final Counts total = new Counts();
    String failure = null;
    final ExecutorService pool = Executors.newFixedThreadPool(options.threads, r -> {
      final Thread t = new Thread(r, "verify-reader");
      t.setDaemon(true);
      return t;
    });
    final ArrayDeque<Future<Counts>> inFlight = new ArrayDeque<>();
    long lastProgress = started;
    try {
      outer:
      for (Path log : logs) {
        try (AuditLog.Reader reader = AuditLog.Reader.open(log)) {
          List<byte[]> keys = new ArrayList<>(options.batch);
          boolean[] acked = new boolean[options.batch];
          while (true) {
            final boolean more = reader.next();
            if (more) {
              acked[keys.size()] = reader.acknowledged;
              keys.add(reader.key());
            }
            if (keys.size() == options.batch || (!more && !keys.isEmpty())) {
              final List<byte[]> batch = keys;
              final boolean[] flags = acked;
              inFlight.add(pool.submit(() -> count(batch, flags, rows.read(batch), shape)));
              keys = new ArrayList<>(options.batch);
              acked = new boolean[options.batch];
              while (inFlight.size() >= 2 * options.threads) {
                if (!collect(inFlight.poll(), deadline, total)) {
                  failure = "the read-back did not end within " + options.timeoutSeconds + " s (--timeout)";
                  break outer;
                }
              }
              final long now = clock.getAsLong();
              if (now - lastProgress >= 2000) {
                lastProgress = now;
                out.printf("  ... %,d of %,d keys read (%d%%), %.0f s%n", total.records, expected,
                    expected == 0 ? 100 : 100 * total.records / expected, (now - started) / 1000.0);
              }
            }
            if (!more) {
              break;
            }
          }
        } catch (IOException e) {
          failure = "cannot read " + log + ": " + e.getMessage();
          break;
        }
      }
      while (failure == null && !inFlight.isEmpty()) {
        if (!collect(inFlight.poll(), deadline, total)) {
          failure = "the read-back did not end within " + options.timeoutSeconds + " s (--timeout)";
        }
      }
    } catch (ExecutionException e) {
      failure = "HBase: " + brief(e.getCause() == null ? e : e.getCause());
    } finally {
      inFlight.forEach(f -> f.cancel(true));
      pool.shutdownNow();
    }
    total.unread = Math.max(0, expected - total.records);
    total.records = expected;
    total.acknowledged = logAcknowledged;
    total.failed = logFailed;
    final double seconds = (clock.getAsLong() - started) / 1000.0;
    final long dataLogPuts = dataLogPuts(runDir);
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("run", runDir.getFileName().toString());
    doc.put("table", settings.text(Settings.Key.TABLE));
    doc.put("durability", settings.text(Settings.Key.DURABILITY));
    doc.put("complete", failure == null && total.unread == 0);
    doc.put("failure", failure);
    doc.put("verified_at", Instant.ofEpochMilli(clock.getAsLong()).toString());
    doc.put("seconds", Math.round(seconds * 100) / 100.0);
    doc.put("audit_logs", logs.size());
    doc.put("audit_log_bytes", bytes);
    doc.put("records", total.records);
    doc.put("torn_bytes", torn);
    doc.put("acknowledged", total.acknowledged);
    doc.put("intact", total.intact);
    doc.put("lost", total.lost);
    doc.put("corrupted", total.corrupted);
    doc.put("failed", total.failed);
    doc.put("in_doubt", total.inDoubt);
    doc.put("failed_absent", total.failedAbsent);
    doc.put("unread", total.unread);
    doc.put("data_log_puts_ok", dataLogPuts < 0 ? null : dataLogPuts);
    doc.put("lost_keys", total.lostKeys);
    doc.put("corrupted_keys", total.corruptedKeys);
    doc.put("in_doubt_keys", total.inDoubtKeys);
    final String summary = summary(total, seconds, dataLogPuts, failure);
    doc.put("summary", summary);
    Json.write(runDir.resolve(FILE), doc);
    out.println("verify " + runDir.getFileName() + ": " + summary);
    out.println("  written: " + runDir.resolve(FILE));
    if (total.lost + total.corrupted > 0) {
      return LOST;
    }
    return failure != null || total.unread > 0 ? UNFINISHED : CLEAN;
  }

  /** Waits for one batch until the deadline; false when it is not done by then. */
  private boolean collect(Future<Counts> batch, long deadline, Counts total) throws ExecutionException {
    final long left = deadline - clock.getAsLong();
    try {
      total.add(batch.get(Math.max(1, left), TimeUnit.MILLISECONDS));
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static String summary(Counts c, double seconds, long dataLogPuts, String failure) {
    final StringBuilder s = new StringBuilder();
    if (c.lost + c.corrupted > 0) {
      s.append(String.format("ACKNOWLEDGED WRITES LOST: %,d lost and %,d corrupted of %,d acknowledged puts; ", c.lost, c.corrupted, c.acknowledged));
    }
    s.append(String.format("%,d acknowledged puts: %,d intact, %,d lost, %,d corrupted; %,d failed on the client: %,d in doubt"
        + " (present), %,d absent", c.acknowledged, c.intact, c.lost, c.corrupted, c.failed, c.inDoubt, c.failedAbsent));
    s.append(String.format("; read back in %.1f s", seconds));
    if (seconds > 0 && c.records > 0) {
      s.append(String.format(" (%,.0f keys/s)", c.records / seconds));
    }
    if (dataLogPuts >= 0 && dataLogPuts != c.acknowledged && failure == null && c.unread == 0) {
      s.append(String.format("; the data logs count %,d successful puts, the audit logs %,d acknowledged (a worker stopped"
          + " before its audit log's last flush?)", dataLogPuts, c.acknowledged));
    }
    if (failure != null || c.unread > 0) {
      s.append(String.format("; UNFINISHED: %,d keys not read%s", c.unread, failure == null ? "" : " (" + failure + ")"));
    }
    return s.toString();
  }

  /** An exception in one line of at most 300 characters: HBase's batch failures repeat one cause per key. */
  static String brief(Throwable t) {
    final String text = t.getClass().getSimpleName() + ": " + Text.oneLine(String.valueOf(t.getMessage()));
    return text.length() <= 300 ? text : text.substring(0, 297) + "...";
  }

  /** Whole rows from HBase: the run's client configuration, each multi-get bounded by hbaseload.timeout.ms. */
  static final class HBaseRows implements Rows {
    private final Connection connection;
    private final TableName table;

    HBaseRows(Settings settings) throws IOException {
      final Configuration conf = DirectTarget.configuration(settings);
      conf.setInt("hbase.client.retries.number", 3);
      connection = ConnectionFactory.createConnection(conf);
      table = TableName.valueOf(settings.text(Settings.Key.TABLE));
    }

    @Override
    public List<Map<String, byte[]>> read(List<byte[]> keys) throws IOException {
      final List<Get> gets = new ArrayList<>(keys.size());
      keys.forEach(k -> gets.add(new Get(k)));
      final List<Map<String, byte[]>> rows = new ArrayList<>(keys.size());
      try (Table t = connection.getTable(table)) {
        for (Result result : t.get(gets)) {
          if (result == null || result.isEmpty()) {
            rows.add(null);
            continue;
          }
          final Map<String, byte[]> cells = new LinkedHashMap<>();
          for (Cell cell : result.rawCells()) {
            cells.put(cellName(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell)), CellUtil.cloneValue(cell));
          }
          rows.add(cells);
        }
      }
      return rows;
    }

    @Override
    public void close() throws IOException {
      connection.close();
    }
  }

  /** ./suite verify RUN_DIR [--timeout S] [--batch N] [--threads N] (lifecycle verify). */
  static int main(List<String> argv, PrintStream out) throws LifecycleException {
    final Map<String, String> given = Main.options(argv, List.of());
    final String dir = given.remove("");
    if (dir == null) {
      throw new LifecycleException.Usage("usage: verify RUN_DIR [--timeout S] [--batch N] [--threads N]");
    }
    final Options options = new Options();
    for (Map.Entry<String, String> e : given.entrySet()) {
      switch (e.getKey()) {
        case "--timeout" -> options.timeoutSeconds = RunArguments.positive("--timeout", e.getValue());
        case "--batch" -> options.batch = RunArguments.positive("--batch", e.getValue());
        case "--threads" -> options.threads = RunArguments.positive("--threads", e.getValue());
        default -> throw new LifecycleException.Usage("unknown option '" + e.getKey() + "' (accepted: --timeout, --batch, --threads)");
      }
    }
    final Path runDir = Path.of(dir);
    if (!Files.isDirectory(runDir)) {
      throw new LifecycleException("no run folder " + dir);
    }
    final Settings settings = settingsOf(runDir);
    final AuditVerifier verifier = new AuditVerifier(runDir, options, out, System::currentTimeMillis);
    try (HBaseRows rows = new HBaseRows(settings)) {
      return verifier.verify(settings, rows);
    } catch (IOException e) {
      throw new LifecycleException("cannot reach HBase: " + Text.oneLine(String.valueOf(e.getMessage())));
    }
  }
}
