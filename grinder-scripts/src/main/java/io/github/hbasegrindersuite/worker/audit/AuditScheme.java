package io.github.hbasegrindersuite.worker.audit;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The acknowledged-write audit's keys and values (hbaseload.audit=true), the one definition the
 * worker writes by and the verifier (lifecycle's AuditVerifier) reads by.
 *
 * <p><b>Key.</b> {@code ROW/WRITER/THREAD/SEQ}, e.g. {@code 0000042137/k3x9az/inj1-0/3/17}: ROW is the
 * row the run's key chooser picked for the put (zero-padded to hbaseload.key.width, as every row key),
 * WRITER the run's tag and the worker's process name ({@code <host>-<n>}, unique within a run), THREAD
 * the worker thread and SEQ that thread's count of audited puts. The suffix alone makes a key unique
 * (no two puts of a run share writer, thread and sequence; two runs differ by their tag). The row
 * prefix keeps the audited put inside the table's key space, in the region of the row the workload
 * chose: a key {@code ROW/...} sorts after {@code ROW} and before {@code ROW+1}, so audited puts load
 * the regions, and follow the key distribution (uniform, zipfian, hotspot ...), exactly as unaudited
 * puts would. Being longer than any row key, an audited key is never the target of a get, delete,
 * increment or the table's preparation: only the put that wrote it ever touches it.
 *
 * <p><b>Value.</b> {@code value.size} bytes from a SplittableRandom seeded by a 64-bit hash of the
 * whole key: the verifier recomputes it from the key, so the log stores no value and no digest.
 */
public final class AuditScheme {
  /** Between the parts of a key; neither a digit nor in a process name's host id. */
  public static final char SEPARATOR = '/';

  /** Eight bytes at a time, little-endian: a 1000-byte value in about a tenth of the byte-by-byte time. */
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private AuditScheme() {
  }

  /** The writer part of the keys of one worker process: the run's tag and the process name. */
  public static String writer(String runTag, String processName) {
    if (runTag.isEmpty() || runTag.indexOf(SEPARATOR) >= 0 || processName.isEmpty() || processName.indexOf(SEPARATOR) >= 0) {
      throw new IllegalArgumentException("audit writer needs a run tag and a process name without '" + SEPARATOR
          + "': '" + runTag + "', '" + processName + "'");
    }
    return runTag + SEPARATOR + processName;
  }

  /**
   * A short tag for a run key (./suite run's RUN_ID-START_MS, hbaseload.audit.run): 40 bits of its
   * hash in base 36 (at most 8 characters), so two runs' keys differ (two given runs share a tag with
   * a chance of 1 in 10^12) while each key, stored with every cell, stays short.
   */
  public static String runTag(String runKey) {
    return Long.toString(mix(hash(runKey.getBytes(StandardCharsets.UTF_8))) >>> 24, 36);
  }

  /** The key of a thread's {@code seq}-th audited put on row {@code row}. */
  public static byte[] key(long row, int width, byte[] writer, int thread, long seq) {
    if (row < 0 || thread < 0 || seq < 0) {
      throw new IllegalArgumentException("negative audit key part: row " + row + ", thread " + thread + ", seq " + seq);
    }
    byte[] out = new byte[width + 1 + writer.length + 1 + digits(thread) + 1 + digits(seq)];
    long rest = row;
    for (int i = width - 1; i >= 0; i--) {
      out[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    if (rest != 0) {
      throw new IllegalArgumentException("row " + row + " needs more than " + width + " digits");
    }
    int at = width;
    out[at++] = SEPARATOR;
    System.arraycopy(writer, 0, out, at, writer.length);
    at += writer.length;
    out[at++] = SEPARATOR;
    at = decimal(out, at, thread);
    out[at++] = SEPARATOR;
    decimal(out, at, seq);
    return out;
  }

  /** The value an audited put writes under {@code key}, {@code size} bytes: recomputable from the key alone. */
  public static byte[] value(byte[] key, int size) {
    byte[] value = new byte[size];
    SplittableRandom random = new SplittableRandom(mix(hash(key)));
    int i = 0;
    for (; i + 8 <= size; i += 8) {
      LONGS.set(value, i, random.nextLong());  // the long's bytes, lowest first
    }
    if (i < size) {
      long bits = random.nextLong();
      for (int b = 0; i < size; b++, i++) {
        value[i] = (byte) (bits >>> (8 * b));
      }
    }
    return value;
  }

  /** Does {@code value} equal what the audited put of {@code key} wrote? */
  public static boolean intact(byte[] key, byte[] value, int size) {
    return value != null && value.length == size && java.util.Arrays.equals(value, value(key, size));
  }

  /** The row a zero-padded decimal row key stands for (the prefix of an audited key). */
  public static long rowOf(byte[] rowKey) {
    long row = 0;
    for (byte b : rowKey) {
      if (b < '0' || b > '9') {
        throw new IllegalArgumentException("not a decimal row key: " + new String(rowKey, StandardCharsets.US_ASCII));
      }
      row = row * 10 + (b - '0');
    }
    return row;
  }

  private static int digits(long n) {
    int d = 1;
    while (n >= 10) {
      n /= 10;
      d++;
    }
    return d;
  }

  private static int decimal(byte[] out, int at, long n) {
    int end = at + digits(n);
    for (int i = end - 1; i >= at; i--) {
      out[i] = (byte) ('0' + n % 10);
      n /= 10;
    }
    return end;
  }

  /** FNV-1a, 64 bits. */
  static long hash(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** SplitMix64's finaliser: FNV's low bits are weak, the PRNG's seed should not be. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
