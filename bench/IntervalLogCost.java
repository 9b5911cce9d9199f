// The interval log's own cost in a worker (IntervalLog: a Recorder per test, the writer once a
// second), measured in CPU time, apart from HBase and Grinder, because on this shared 2-core
// machine ./suite bench peers moves by more than this from one run to the next.
//   java -cp "$(cat lib/worker.classpath):lib/hbase-grinder-worker.jar" bench/IntervalLogCost.java [THREADS] [RECORDS]
// Prints the CPU per recorded request (THREADS threads recording into the same recorders, as a
// worker's threads do) and per written interval (get and put, each with its failures).
import io.github.hbasegrindersuite.worker.IntervalLog;
import io.github.hbasegrindersuite.worker.Operation;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

public class IntervalLogCost {
  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    long records = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000L;
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    Constructor<IntervalLog> make = IntervalLog.class.getDeclaredConstructor(java.io.PrintStream.class,
        java.util.Collection.class, long.class, java.util.function.LongSupplier.class);
    make.setAccessible(true);
    IntervalLog log = make.newInstance(new java.io.PrintStream(sink), List.of(Operation.GET, Operation.PUT), 0L,
        (java.util.function.LongSupplier) System::currentTimeMillis);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int round = 0; round < 2; round++) {   // the first round warms the JIT up
      AtomicLong cpu = new AtomicLong();
      long perThread = records / threads;
      Thread[] all = new Thread[threads];
      long wall = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        final int seed = t;
        all[t] = new Thread(() -> {
          long start = mx.getCurrentThreadCpuTime();
          long v = seed;
          for (long i = 0; i < perThread; i++) {
            v = v * 6364136223846793005L + 1442695040888963407L;
            long micros = 100 + ((v >>> 33) % 5000);
            log.record(1 + (int) (i & 1), micros, (i % 1000) != 0);
          }
          cpu.addAndGet(mx.getCurrentThreadCpuTime() - start);
        });
        all[t].start();
      }
      for (Thread t : all) {
        t.join();
      }
      wall = System.nanoTime() - wall;
      long writes = 200;
      int bytesBefore = sink.size();
      long start = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < writes; i++) {
        for (int k = 0; k < 2000; k++) {
          log.record(1 + (k & 1), 100 + k, k % 100 != 0);
        }
        log.writeInterval();
      }
      long writeCpu = mx.getCurrentThreadCpuTime() - start;
      long bytesPerInterval = (sink.size() - bytesBefore) / writes;
      if (round == 1) {
        System.out.printf("threads %d, %,d records: %.1f ns CPU per record (wall %.2f s); %.1f us CPU per interval written"
            + " (get, put and their failures, 2000 records between writes included), %d bytes of log per interval%n", threads,
            perThread * threads, cpu.get() / (double) (perThread * threads), wall / 1e9, writeCpu / 1000.0 / writes, bytesPerInterval);
      }
    }
    log.close();
  }
}
