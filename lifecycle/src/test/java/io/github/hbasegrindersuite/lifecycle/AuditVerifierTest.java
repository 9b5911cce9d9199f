package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.audit.AuditLog;
import io.github.hbasegrindersuite.worker.audit.AuditScheme;
import io.github.hbasegrindersuite.worker.audit.AuditedClient;
import io.github.hbasegrindersuite.worker.targets.Client;
import io.github.hbasegrindersuite.worker.targets.RowShape;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read-back's counting on a fixture: real audit logs written by the worker's AuditedClient into a fake table. */
class AuditVerifierTest {

  /** A table in a map: key -> cells, filled through the worker's own audited puts; every 7th put fails on the client. */
  static final class FakeTable implements Client, AuditVerifier.Rows {
    final Map<String, Map<String, byte[]>> rows = new ConcurrentHashMap<>();
    final RowShape shape;
    int puts;
    volatile long readDelayMs;

    FakeTable(Settings settings) {
      shape = new RowShape(settings);
    }

    static String s(byte[] b) {
      return new String(b, StandardCharsets.ISO_8859_1);
    }

    @Override public void putValue(byte[] row, byte[] value) {
      puts++;
      final Map<String, byte[]> cells = new LinkedHashMap<>();
      for (byte[] family : shape.familiesOf(row)) {
        for (int c = 0; c < shape.columnsOf(row); c++) {
          cells.put(AuditVerifier.cellName(family, shape.qualifiers[c]), value);
        }
      }
      if (puts % 7 == 0) {
        if (puts % 2 == 0) {
          rows.put(s(row), cells);  // HBase applied it; the client timed out
        }
        throw new IllegalStateException("call past its deadline");
      }
      rows.put(s(row), cells);
    }

    @Override public List<Map<String, byte[]>> read(List<byte[]> keys) throws java.io.IOException {
      if (readDelayMs > 0) {
        try {
          Thread.sleep(readDelayMs);
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
      }
      final List<Map<String, byte[]>> out = new ArrayList<>();
      keys.forEach(k -> out.add(rows.get(s(k))));
      return out;
    }

    @Override public byte[] get(byte[] row) {
      return null;
    }
    @Override public void put(byte[] row) {
      throw new AssertionError("audited puts go through putValue");
    }
    @Override public int scan(byte[] start, int rows) {
      return 0;
    }
    @Override public int batchGet(byte[][] rows) {
      return 0;
    }
    @Override public void batchPut(byte[][] rows) {
    }
    @Override public void delete(byte[] row) {
    }
    @Override public long increment(byte[] row) {
      return 0;
    }
    @Override public void close() {
    }
  }

  private static Settings settings(boolean audit) {
    return Settings.load(Map.of("hbaseload.audit", String.valueOf(audit), "hbaseload.table", "t", "hbaseload.value.size", "64",
        "hbaseload.families", "2", "hbaseload.columns", "3", "hbaseload.operations", "get:50,put:50"));
  }

  /** A run folder with plan.json and, per worker, an audit log of PUTS puts over THREADS threads, plus a data log. */
  private static FakeTable run(Path dir, int workers, int threads, int puts) throws Exception {
    final Settings settings = settings(true);
    final JsonObject plan = new JsonObject();
    final JsonObject properties = new JsonObject();
    settings.asProperties().forEach(properties::addProperty);
    plan.add("properties", properties);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("plan.json"), plan.toString());
    final FakeTable table = new FakeTable(settings);
    final String tag = AuditScheme.runTag("run-1-1");
    for (int w = 0; w < workers; w++) {
      final String process = "inj" + (w + 1) + "-0";
      final Path host = Files.createDirectories(dir.resolve("injectors").resolve("inj" + (w + 1)));
      final String writer = AuditScheme.writer(tag, process);
      final StringBuilder dataLog = new StringBuilder("Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)\n");
      try (AuditLog log = AuditLog.open(host.resolve(process + AuditLog.FILE_SUFFIX), writer, 10)) {
        for (int t = 0; t < threads; t++) {
          final AuditedClient client = new AuditedClient(table, log, writer.getBytes(StandardCharsets.US_ASCII), 10, t, 64);
          for (int i = 0; i < puts; i++) {
            boolean ok = true;
            try {
              client.put(io.github.hbasegrindersuite.worker.KeyFormat.rowKey((i * 7919L) % 1000, 10));
            } catch (IllegalStateException e) {
              ok = false;
            }
            dataLog.append(t).append(", ").append(i).append(", 2, 1795240149902, 0, ").append(ok ? 0 : 1).append(", 300\n");
            dataLog.append(t).append(", ").append(i).append(", 1, 1795240149902, 0, 0, 300\n");
          }
        }
      }
      Files.writeString(host.resolve(process + "-data.log"), dataLog);
    }
    return table;
  }

  private static JsonObject verify(Path dir, AuditVerifier.Rows rows, AuditVerifier.Options options, int expectedExit, StringBuilder said)
      throws Exception {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final int exit = new AuditVerifier(dir, options, new PrintStream(bytes, true, StandardCharsets.UTF_8), System::currentTimeMillis)
        .verify(AuditVerifier.settingsOf(dir), rows);
    said.append(bytes.toString(StandardCharsets.UTF_8));
    assertEquals(expectedExit, exit, said.toString());
    return Json.read(dir.resolve(AuditVerifier.FILE));
  }

  private static long n(JsonObject o, String key) {
    return o.get(key).getAsLong();
  }

  @Test
  void anUntouchedTableCountsEveryAcknowledgedPutIntactAndMatchesTheDataLogs(@TempDir Path dir) throws Exception {
    final FakeTable table = run(dir, 2, 3, 700);
    final AuditVerifier.Options options = new AuditVerifier.Options();
    options.batch = 97;
    final StringBuilder said = new StringBuilder();
    final JsonObject audit = verify(dir, table, options, AuditVerifier.CLEAN, said);
    // 4200 puts, every 7th failed on the client (600), half of those applied all the same
    assertEquals(4200, n(audit, "records"));
    assertEquals(3600, n(audit, "acknowledged"));
    assertEquals(3600, n(audit, "intact"));
    assertEquals(0, n(audit, "lost"));
    assertEquals(0, n(audit, "corrupted"));
    assertEquals(600, n(audit, "failed"));
    assertEquals(300, n(audit, "in_doubt"));
    assertEquals(300, n(audit, "failed_absent"));
    assertEquals(0, n(audit, "unread"));
    assertEquals(3600, n(audit, "data_log_puts_ok"));
    assertTrue(audit.get("complete").getAsBoolean());
    assertEquals(2, n(audit, "audit_logs"));
    assertEquals(2 * ("hbase-grinder-suite audit 1 writer=" + AuditScheme.writer(AuditScheme.runTag("run-1-1"), "inj1-0") + " width=10\n").length()
        + 4200L * AuditLog.RECORD_BYTES, n(audit, "audit_log_bytes"));
    assertTrue(said.toString().contains("3,600 acknowledged puts: 3,600 intact, 0 lost, 0 corrupted; 600 failed on the client: 300 in doubt"), said.toString());
  }

  @Test
  void deletedRowsAreLostAndAWrongCellIsCorruptedByKey(@TempDir Path dir) throws Exception {
    final FakeTable table = run(dir, 1, 2, 50);
    final List<String> acknowledged = new ArrayList<>();
    try (AuditLog.Reader r = AuditLog.Reader.open(dir.resolve("injectors/inj1/inj1-0.audit"))) {
      while (r.next()) {
        if (r.acknowledged) {
          acknowledged.add(FakeTable.s(r.key()));
        }
      }
    }
    table.rows.remove(acknowledged.get(0));
    table.rows.remove(acknowledged.get(40));
    table.rows.remove(acknowledged.get(85));
    // one cell of one family rewritten: the row is there, its value is not the one acknowledged
    final Map<String, byte[]> cells = new LinkedHashMap<>(table.rows.get(acknowledged.get(10)));
    final String cell = cells.keySet().iterator().next();
    final byte[] wrong = cells.get(cell).clone();
    wrong[0] ^= 1;
    cells.put(cell, wrong);
    table.rows.put(acknowledged.get(10), cells);
    final StringBuilder said = new StringBuilder();
    final JsonObject audit = verify(dir, table, new AuditVerifier.Options(), AuditVerifier.LOST, said);
    assertEquals(86, n(audit, "acknowledged"));
    assertEquals(3, n(audit, "lost"));
    assertEquals(1, n(audit, "corrupted"));
    assertEquals(82, n(audit, "intact"));
    final List<String> lostKeys = new ArrayList<>();
    audit.getAsJsonArray("lost_keys").forEach(k -> lostKeys.add(k.getAsString()));
    assertEquals(List.of(acknowledged.get(0), acknowledged.get(40), acknowledged.get(85)), lostKeys);
    assertEquals(acknowledged.get(10), audit.getAsJsonArray("corrupted_keys").get(0).getAsString());
    assertTrue(Json.text(audit, "summary").startsWith("ACKNOWLEDGED WRITES LOST: 3 lost and 1 corrupted of 86 acknowledged puts"), said.toString());
  }

  @Test
  void aMissingCellOfAnotherFamilyIsCorruptionNotIntact(@TempDir Path dir) throws Exception {
    final FakeTable table = run(dir, 1, 1, 3);
    final String key = table.rows.keySet().iterator().next();
    final Map<String, byte[]> cells = new LinkedHashMap<>(table.rows.get(key));
    assertEquals(6, cells.size(), "2 families x 3 columns");
    cells.remove(cells.keySet().stream().reduce((a, b) -> b).orElseThrow());
    table.rows.put(key, cells);
    final JsonObject audit = verify(dir, table, new AuditVerifier.Options(), AuditVerifier.LOST, new StringBuilder());
    assertEquals(1, n(audit, "corrupted"));
  }

  @Test
  void aReadBackPastItsBoundIsUnfinishedAndSaysWhatWasLeft(@TempDir Path dir) throws Exception {
    final FakeTable table = run(dir, 1, 1, 400);
    table.readDelayMs = 3000;
    final AuditVerifier.Options options = new AuditVerifier.Options();
    options.batch = 100;
    options.threads = 1;
    options.timeoutSeconds = 1;
    final long started = System.nanoTime();
    final JsonObject audit = verify(dir, table, options, AuditVerifier.UNFINISHED, new StringBuilder());
    assertTrue((System.nanoTime() - started) / 1_000_000 < 2900, "bounded by --timeout, not by the slow reads");
    assertFalse(audit.get("complete").getAsBoolean());
    assertEquals(400, n(audit, "unread"));
    // what the logs say stands though nothing was read back: 400 puts, every 7th failed on the client
    assertEquals(400, n(audit, "records"));
    assertEquals(343, n(audit, "acknowledged"));
    assertEquals(57, n(audit, "failed"));
    assertEquals(0, n(audit, "intact") + n(audit, "lost") + n(audit, "corrupted"));
    assertTrue(Json.text(audit, "failure").contains("did not end within 1 s"));
  }

  @Test
  void anUnauditedRunOrOneWithoutLogsIsRefusedInOneLine(@TempDir Path dir) throws Exception {
    final JsonObject plan = new JsonObject();
    final JsonObject properties = new JsonObject();
    settings(false).asProperties().forEach(properties::addProperty);
    plan.add("properties", properties);
    Files.writeString(dir.resolve("plan.json"), plan.toString());
    assertTrue(assertThrows(LifecycleException.class, () -> AuditVerifier.settingsOf(dir)).getMessage()
        .contains("was not audited (hbaseload.audit=false"));
    final Path audited = Files.createDirectories(dir.resolve("run-9"));
    run(audited, 1, 1, 1);
    Files.delete(audited.resolve("injectors/inj1/inj1-0.audit"));
    final String message = assertThrows(LifecycleException.class, () -> new AuditVerifier(audited, new AuditVerifier.Options(),
        new PrintStream(new ByteArrayOutputStream()), System::currentTimeMillis).verify(AuditVerifier.settingsOf(audited), null)).getMessage();
    assertTrue(message.contains("holds no audit log"), message);
    assertThrows(LifecycleException.Usage.class, () -> AuditVerifier.main(List.of(), System.out));
    assertThrows(LifecycleException.Usage.class, () -> AuditVerifier.main(List.of(dir.toString(), "--frob", "1"), System.out));
  }
}
