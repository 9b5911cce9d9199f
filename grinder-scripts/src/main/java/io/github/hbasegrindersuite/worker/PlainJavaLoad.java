package io.github.hbasegrindersuite.worker;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The baseline the Grinder injector is measured against (./suite bench): N Java threads making
 * the same get/put calls as hbase_load.py's direct target, uniform keys, closed loop, for a
 * fixed time after a warm-up, with a nanoTime per request like the witness. If the Grinder run
 * reaches this throughput, the tool is not the bottleneck.
 *
 * <pre>PlainJavaLoad ZK_QUORUM ZK_PORT TABLE FAMILY ROWS KEY_WIDTH VALUE_SIZE THREADS GET_PERCENT WARMUP_S SECONDS</pre>
 * Prints one line: {@code plain-java: threads=8 seconds=20 requests=N throughput_rps=X mean_us=Y all=A errors=E}
 * (requests in the measured window; all = including the warm-up).
 */
public final class PlainJavaLoad {

  private static final byte[] QUALIFIER = Bytes.toBytes("v");

  private PlainJavaLoad() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 11) {
      System.err.println("usage: PlainJavaLoad ZK_QUORUM ZK_PORT TABLE FAMILY ROWS KEY_WIDTH VALUE_SIZE"
          + " THREADS GET_PERCENT WARMUP_S SECONDS");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0]);
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    TableName table = TableName.valueOf(args[2]);
    byte[] family = Bytes.toBytes(args[3]);
    int rows = Integer.parseInt(args[4]);
    int keyWidth = Integer.parseInt(args[5]);
    int valueSize = Integer.parseInt(args[6]);
    int threads = Integer.parseInt(args[7]);
    int getPercent = Integer.parseInt(args[8]);
    long warmupNanos = Long.parseLong(args[9]) * 1_000_000_000L;
    long measureNanos = Long.parseLong(args[10]) * 1_000_000_000L;

    LongAdder requests = new LongAdder();
    LongAdder all = new LongAdder();
    LongAdder errors = new LongAdder();
    LongAdder latencyNanos = new LongAdder();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      long start = System.nanoTime();
      long measureFrom = start + warmupNanos;
      long end = measureFrom + measureNanos;
      Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        final int seed = t;
        workers[t] = new Thread(() -> {
          SplittableRandom random = new SplittableRandom(42L * 1000003 + seed);
          byte[] value = new byte[valueSize];
          for (int i = 0; i < valueSize; i++) {
            value[i] = (byte) random.nextInt(256);
          }
          try (Table t1 = connection.getTable(table)) {
            long now = System.nanoTime();
            while (now < end) {
              byte[] key = KeyFormat.rowKey(random.nextInt(rows), keyWidth);
              long before = System.nanoTime();
              try {
                if (random.nextInt(100) < getPercent) {
                  t1.get(new Get(key));
                } else {
                  t1.put(new Put(key).addColumn(family, QUALIFIER, value));
                }
              } catch (Exception e) {
                if (before >= measureFrom) {
                  errors.increment();
                }
              }
              now = System.nanoTime();
              all.increment();
              if (before >= measureFrom && now <= end) {
                requests.increment();
                latencyNanos.add(now - before);
              }
            }
          } catch (Exception e) {
            errors.increment();
          }
        }, "plain-java-" + t);
        workers[t].start();
      }
      for (Thread worker : workers) {
        worker.join();
      }
    }
    long n = requests.sum();
    double seconds = measureNanos / 1e9;
    System.out.printf("plain-java: threads=%d seconds=%.0f requests=%d throughput_rps=%.1f mean_us=%.1f all=%d errors=%d%n",
        threads, seconds, n, n / seconds, n == 0 ? 0.0 : latencyNanos.sum() / 1000.0 / n, all.sum(), errors.sum());
  }
}
