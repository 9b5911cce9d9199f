import io.github.hbasegrindersuite.worker.KeyFormat;
import io.github.hbasegrindersuite.worker.audit.AuditLog;
import io.github.hbasegrindersuite.worker.audit.AuditScheme;
import io.github.hbasegrindersuite.worker.audit.AuditedClient;
import io.github.hbasegrindersuite.worker.targets.Client;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The acknowledged-write audit's own CPU per put, apart from HBase: THREADS threads make PUTS puts
 * each through a client that does nothing, once as an unaudited thread calls it (the row key alone)
 * and once through the AuditedClient (key, value of VALUE_SIZE bytes, audit log record), alternating
 * for ROUNDS rounds. Prints ns per put of each and the difference, and the audit log's bytes per put.
 * Run as a single source file on the worker's classpath (README, "The acknowledged-write audit"):
 *
 * <pre>java -cp lib/hbase-grinder-worker.jar:$(cat lib/worker.classpath) bench/AuditCost.java [THREADS] [PUTS] [VALUE_SIZE] [ROUNDS]</pre>
 */
public final class AuditCost {
  /** A client whose put keeps only a checksum of what it was given, so nothing is optimised away. */
  static final class Nothing implements Client {
    final AtomicLong sink;
    long local;

    Nothing(AtomicLong sink) {
      this.sink = sink;
    }

    @Override public void put(byte[] row) {
      local += row[row.length - 1];
    }
    @Override public void putValue(byte[] row, byte[] value) {
      local += row[row.length - 1] + (value.length > 0 ? value[value.length - 1] : 0);
    }
    @Override public byte[] get(byte[] row) {
      return null;
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
      sink.addAndGet(local);
    }
  }

  public static void main(String[] args) throws Exception {
    final int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    final int puts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
    final int valueSize = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    final int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    final AtomicLong sink = new AtomicLong();
    final Path file = Files.createTempFile("audit-cost", AuditLog.FILE_SUFFIX);
    try {
      for (int round = 0; round <= rounds; round++) {  // round 0 warms up
        final long plain = run(threads, puts, valueSize, false, file, sink);
        final long audited = run(threads, puts, valueSize, true, file, sink);
        if (round > 0) {
          System.out.printf("round %d: %d threads, value %d B: plain %.0f ns/put, audited %.0f ns/put, audit adds %.0f ns/put (CPU per put, all threads)%n",
              round, threads, valueSize, plain * threads / (double) (puts * (long) threads), audited * threads / (double) (puts * (long) threads),
              (audited - plain) * threads / (double) (puts * (long) threads));
        }
      }
      System.out.printf("audit log: %d bytes for %d puts (%.2f bytes a put)%n", Files.size(file), (long) puts * threads,
          Files.size(file) / (double) ((long) puts * threads));
    } finally {
      Files.deleteIfExists(file);
    }
    System.out.println("(checksum " + sink.get() + ")");
  }

  /** CPU nanoseconds of every thread's puts, summed (thread CPU time: a shared machine's waits do not count), per thread. */
  static long run(int threads, int puts, int valueSize, boolean audit, Path file, AtomicLong sink) throws Exception {
    final byte[] writer = AuditScheme.writer(AuditScheme.runTag("bench"), "inj1-0").getBytes(StandardCharsets.US_ASCII);
    try (AuditLog log = AuditLog.open(file, "bench", 10)) {
      final Thread[] workers = new Thread[threads];
      final AtomicLong cpu = new AtomicLong();
      for (int t = 0; t < threads; t++) {
        final int thread = t;
        workers[t] = new Thread(() -> {
          final Nothing nothing = new Nothing(sink);
          final Client client = audit ? new AuditedClient(nothing, log, writer, 10, thread, valueSize) : nothing;
          final SplittableRandom random = new SplittableRandom(thread);
          final long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
          try {
            for (int i = 0; i < puts; i++) {
              client.put(KeyFormat.rowKey(random.nextInt(100000), 10));
            }
            client.close();
            cpu.addAndGet(java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
      }
      for (Thread w : workers) {
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      return cpu.get() / threads;
    }
  }
}
