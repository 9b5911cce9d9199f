package io.github.hbasegrindersuite.worker.audit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker's audit log, {@code <host>-<n>.audit} beside its data log and interval log: every audited
 * put the worker made, acknowledged by HBase or failed on the client, in the order they ended.
 *
 * <p>Format: one ASCII header line ({@code hbase-grinder-suite audit 1 writer=TAG/PROCESS width=W}),
 * then one {@value #RECORD_BYTES}-byte big-endian record per put: the row (int; the key's prefix) and
 * a long holding the outcome (bit 63 set: failed on the client), the thread (bits 40-62) and the
 * thread's sequence (bits 0-39). With the writer from the header, {@link AuditScheme#key} rebuilds the
 * key and {@link AuditScheme#value} its value: 12 MB per million puts, about a quarter of the data
 * log's lines for the same puts. A record is written under one lock into a 64 KiB buffer, flushed
 * once a second by the log's own thread: a killed worker loses at most its last second of records
 * (those puts are then not audited, never miscounted); a torn last record is ignored by the reader.
 */
public final class AuditLog implements AutoCloseable {
  public static final String FILE_SUFFIX = ".audit";
  public static final int RECORD_BYTES = 12;
  static final String MAGIC = "hbase-grinder-suite audit 1";
  static final int MAX_THREAD = (1 << 23) - 1;
  static final long MAX_SEQ = (1L << 40) - 1;

  private final DataOutputStream out;
  private final ScheduledExecutorService flusher;
  private boolean closed;
  private long records;

  /** Opens {@code file} for the writer's puts and writes the header; a daemon thread flushes once a second. */
  public static AuditLog open(Path file, String writer, int width) throws IOException {
    return new AuditLog(Files.newOutputStream(file), writer, width, 1000);
  }

  AuditLog(OutputStream sink, String writer, int width, long flushMs) throws IOException {
    out = new DataOutputStream(new BufferedOutputStream(sink, 64 * 1024));
    out.write((MAGIC + " writer=" + writer + " width=" + width + "\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    if (flushMs > 0) {
      flusher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hbaseload-audit-log");
        t.setDaemon(true);
        return t;
      });
      flusher.scheduleAtFixedRate(this::flushQuietly, flushMs, flushMs, TimeUnit.MILLISECONDS);
    } else {
      flusher = null;
    }
  }

  /** One audited put's outcome: after the call returned (acknowledged) or threw (failed). */
  public synchronized void record(int row, int thread, long seq, boolean acknowledged) {
    if (closed) {
      return;
    }
    if (thread < 0 || thread > MAX_THREAD || seq < 0 || seq > MAX_SEQ) {
      throw new IllegalArgumentException("audit record out of range: thread " + thread + ", seq " + seq);
    }
    try {
      out.writeInt(row);
      out.writeLong((acknowledged ? 0L : 1L << 63) | (long) thread << 40 | seq);
      records++;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("audit log: " + e.getMessage(), e);
    }
  }

  public synchronized long records() {
    return records;
  }

  private synchronized void flushQuietly() {
    if (closed) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      System.err.println("hbaseload: audit log: " + e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (flusher != null) {
      flusher.shutdownNow();
    }
    out.close();
  }

  /** Reads one audit log: its header, then {@link #next} record by record. */
  public static final class Reader implements AutoCloseable {
    public final String writer;
    public final byte[] writerBytes;
    public final int width;
    private final DataInputStream in;
    public int row;
    public int thread;
    public long seq;
    public boolean acknowledged;
    /** Bytes after the last whole record (a worker killed while writing one): ignored. */
    public int tornBytes;

    public Reader(InputStream stream, String name) throws IOException {
      in = new DataInputStream(new BufferedInputStream(stream, 64 * 1024));
      StringBuilder header = new StringBuilder();
      int c;
      while ((c = in.read()) != '\n') {
        if (c < 0 || header.length() > 1000) {
          throw new IOException(name + ": not an audit log (no header line)");
        }
        header.append((char) c);
      }
      String[] words = header.toString().split(" ");
      String w = null;
      Integer wd = null;
      for (String word : words) {
        if (word.startsWith("writer=")) {
          w = word.substring(7);
        } else if (word.startsWith("width=")) {
          wd = Integer.valueOf(word.substring(6));
        }
      }
      if (!header.toString().startsWith(MAGIC + " ") || w == null || wd == null) {
        throw new IOException(name + ": not an audit log of this version (header '" + header + "', want '" + MAGIC + " writer=... width=...')");
      }
      writer = w;
      writerBytes = w.getBytes(StandardCharsets.US_ASCII);
      width = wd;
    }

    public static Reader open(Path file) throws IOException {
      return new Reader(Files.newInputStream(file), file.toString());
    }

    /** The next record into the public fields; false at the end. */
    public boolean next() throws IOException {
      byte[] record = new byte[RECORD_BYTES];
      int n = in.readNBytes(record, 0, RECORD_BYTES);
      if (n < RECORD_BYTES) {
        tornBytes = n;
        return false;
      }
      row = ((record[0] & 0xff) << 24) | ((record[1] & 0xff) << 16) | ((record[2] & 0xff) << 8) | (record[3] & 0xff);
      long word = 0;
      for (int i = 4; i < RECORD_BYTES; i++) {
        word = (word << 8) | (record[i] & 0xff);
      }
      acknowledged = word >= 0;
      thread = (int) ((word >>> 40) & MAX_THREAD);
      seq = word & MAX_SEQ;
      return true;
    }

    /** The key of the current record. */
    public byte[] key() {
      return AuditScheme.key(row, width, writerBytes, thread, seq);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

}
