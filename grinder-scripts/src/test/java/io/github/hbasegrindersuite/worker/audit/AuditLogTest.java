package io.github.hbasegrindersuite.worker.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.targets.Client;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditLogTest {

  @Test
  void recordsReadBackInOrderWithTheirOutcome() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (AuditLog log = new AuditLog(bytes, "tag/inj1-0", 10, 0)) {
      log.record(42, 3, 0, true);
      log.record(Integer.MAX_VALUE, AuditLog.MAX_THREAD, AuditLog.MAX_SEQ, false);
      log.record(0, 0, 1, true);
      assertEquals(3, log.records());
    }
    byte[] all = bytes.toByteArray();
    int header = ("hbase-grinder-suite audit 1 writer=tag/inj1-0 width=10\n").length();
    assertEquals(header + 3 * AuditLog.RECORD_BYTES, all.length, "12 bytes a put after the header");
    AuditLog.Reader r = new AuditLog.Reader(new ByteArrayInputStream(all), "fixture");
    assertEquals("tag/inj1-0", r.writer);
    assertEquals(10, r.width);
    assertTrue(r.next());
    assertEquals(42, r.row);
    assertEquals(3, r.thread);
    assertEquals(0, r.seq);
    assertTrue(r.acknowledged);
    assertEquals("0000000042/tag/inj1-0/3/0", new String(r.key(), StandardCharsets.US_ASCII));
    assertTrue(r.next());
    assertEquals(Integer.MAX_VALUE, r.row);
    assertEquals(AuditLog.MAX_THREAD, r.thread);
    assertEquals(AuditLog.MAX_SEQ, r.seq);
    assertFalse(r.acknowledged);
    assertTrue(r.next());
    assertEquals(1, r.seq);
    assertFalse(r.next());
    assertEquals(0, r.tornBytes);
  }

  @Test
  void aTornLastRecordIsIgnoredAndCounted() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (AuditLog log = new AuditLog(bytes, "t/p", 4, 0)) {
      log.record(1, 0, 0, true);
      log.record(2, 0, 1, true);
    }
    byte[] torn = Arrays.copyOf(bytes.toByteArray(), bytes.size() - 5);
    AuditLog.Reader r = new AuditLog.Reader(new ByteArrayInputStream(torn), "torn");
    assertTrue(r.next());
    assertFalse(r.next());
    assertEquals(AuditLog.RECORD_BYTES - 5, r.tornBytes);
  }

  @Test
  void aFileThatIsNotAnAuditLogIsRefusedByName() {
    String message = assertThrows(IOException.class, () -> new AuditLog.Reader(
        new ByteArrayInputStream("Thread, Run, Test\n1, 0, 1\n".getBytes(StandardCharsets.US_ASCII)), "inj1-0-data.log")).getMessage();
    assertTrue(message.startsWith("inj1-0-data.log: not an audit log"), message);
    assertThrows(IOException.class, () -> new AuditLog.Reader(new ByteArrayInputStream(new byte[0]), "empty"));
  }

  @Test
  void outOfRangeRecordsAreRefused() throws IOException {
    try (AuditLog log = new AuditLog(new ByteArrayOutputStream(), "t/p", 4, 0)) {
      assertThrows(IllegalArgumentException.class, () -> log.record(1, AuditLog.MAX_THREAD + 1, 0, true));
      assertThrows(IllegalArgumentException.class, () -> log.record(1, 0, AuditLog.MAX_SEQ + 1, true));
    }
  }

  /** A client that keeps what it was given, and fails every third put (after the server took it, or not). */
  static final class Store implements Client {
    final Map<String, byte[]> rows = new LinkedHashMap<>();
    int puts;

    @Override public void putValue(byte[] row, byte[] value) {
      puts++;
      if (puts % 3 == 0) {
        if (puts % 2 == 0) {
          rows.put(new String(row, StandardCharsets.US_ASCII), value);  // applied, then the reply was lost
        }
        throw new IllegalStateException("timed out");
      }
      rows.put(new String(row, StandardCharsets.US_ASCII), value);
    }
    @Override public byte[] get(byte[] row) {
      return rows.get(new String(row, StandardCharsets.US_ASCII));
    }
    @Override public void put(byte[] row) {
      throw new AssertionError("an audited put must not write the chosen row itself");
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

  @Test
  void theAuditedClientWritesTheAuditedKeyAndLogsEachOutcome() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Store store = new Store();
    byte[] writer = AuditScheme.writer("t", "inj1-0").getBytes(StandardCharsets.US_ASCII);
    int failed = 0;
    try (AuditLog log = new AuditLog(bytes, "t/inj1-0", 10, 0)) {
      AuditedClient client = new AuditedClient(store, log, writer, 10, 5, 100);
      for (int i = 0; i < 9; i++) {
        try {
          client.put(("000000000" + i).getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalStateException e) {
          failed++;
        }
      }
      assertEquals(9, client.puts());
    }
    assertEquals(3, failed, "failures still reach the caller (the driver counts them)");
    AuditLog.Reader r = new AuditLog.Reader(new ByteArrayInputStream(bytes.toByteArray()), "x");
    int n = 0;
    while (r.next()) {
      assertEquals(n, r.row);
      assertEquals(5, r.thread);
      assertEquals(n, r.seq);
      assertEquals((n + 1) % 3 != 0, r.acknowledged, "record " + n);
      byte[] stored = store.get(r.key());
      if (r.acknowledged) {
        assertTrue(AuditScheme.intact(r.key(), stored, 100));
      }
      n++;
    }
    assertEquals(9, n);
    assertEquals(7, store.rows.size(), "6 acknowledged and one failed put that the server applied");
  }
}
