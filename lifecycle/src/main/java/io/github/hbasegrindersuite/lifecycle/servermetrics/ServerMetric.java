package io.github.hbasegrindersuite.lifecycle.servermetrics;

import java.util.List;

/**
 * The metric columns of server-metrics.csv, in order: name, unit, where each comes from (bean and
 * attribute) and how it is computed. The one definition: the CSV header, the README's table
 * (lifecycle/README.md, "server-metrics.csv") and the report (r-analysis/R/server.R) follow it.
 *
 * <p>Gauges are the attribute as read. Rates are counter deltas over the time between this sample
 * and the server's previous answered one; empty when there is none, or when the counter went down
 * (the server restarted). HBase's histograms (QueueCallTime, ProcessCallTime) are HBase's own
 * mean and p99 over the calls since its previous metrics snapshot, in ms.
 */
enum ServerMetric {
  RPC_QUEUE_CALLS("rpc_queue_calls", "calls", Bean.IPC,
      "numCallsInGeneralQueue + numCallsInPriorityQueue + numCallsInReplicationQueue + numCallsInMetaPriorityQueue"
          + " + numCallsInBulkLoadQueue (those present)") {
    @Override
    Double compute(JmxSnapshot prev, JmxSnapshot now) {
      Double sum = null;
      for (String queue : List.of("numCallsInGeneralQueue", "numCallsInPriorityQueue", "numCallsInReplicationQueue",
          "numCallsInMetaPriorityQueue", "numCallsInBulkLoadQueue")) {
        final Double v = now.get(Bean.IPC, queue);
        if (v != null) {
          sum = (sum == null ? 0 : sum) + v;
        }
      }
      return sum;
    }
  },
  RPC_QUEUE_BYTES("rpc_queue_bytes", "bytes", Bean.IPC, "queueSize"),
  RPC_QUEUE_TIME_MEAN_MS("rpc_queue_time_mean_ms", "ms", Bean.IPC, "QueueCallTime_mean"),
  RPC_QUEUE_TIME_P99_MS("rpc_queue_time_p99_ms", "ms", Bean.IPC, "QueueCallTime_99th_percentile"),
  RPC_PROCESS_TIME_MEAN_MS("rpc_process_time_mean_ms", "ms", Bean.IPC, "ProcessCallTime_mean"),
  RPC_PROCESS_TIME_P99_MS("rpc_process_time_p99_ms", "ms", Bean.IPC, "ProcessCallTime_99th_percentile"),
  HANDLERS_ACTIVE("handlers_active", "handlers", Bean.IPC, "numActiveHandler"),
  READ_REQUESTS_PER_S("read_requests_per_s", "requests/s", Bean.SERVER, "readRequestCount (delta / s)", "readRequestCount"),
  WRITE_REQUESTS_PER_S("write_requests_per_s", "requests/s", Bean.SERVER, "writeRequestCount (delta / s)", "writeRequestCount"),
  MEMSTORE_MB("memstore_mb", "MiB", Bean.SERVER, "memStoreSize (bytes / 2^20)") {
    @Override
    Double compute(JmxSnapshot prev, JmxSnapshot now) {
      final Double bytes = now.get(Bean.SERVER, "memStoreSize");
      return bytes == null ? null : bytes / (1024.0 * 1024.0);
    }
  },
  FLUSH_QUEUE("flush_queue", "regions", Bean.SERVER, "flushQueueLength"),
  COMPACTION_QUEUE("compaction_queue", "stores", Bean.SERVER, "compactionQueueLength"),
  BLOCK_CACHE_HIT_RATIO("block_cache_hit_ratio", "fraction", Bean.SERVER,
      "delta blockCacheHitCount / (delta blockCacheHitCount + delta blockCacheMissCount); empty without lookups") {
    @Override
    Double compute(JmxSnapshot prev, JmxSnapshot now) {
      final Double hits = delta(prev, now, "blockCacheHitCount");
      final Double misses = delta(prev, now, "blockCacheMissCount");
      return hits == null || misses == null || hits + misses == 0 ? null : hits / (hits + misses);
    }
  },
  STORE_FILES("store_files", "files", Bean.SERVER, "storeFileCount"),
  UPDATES_BLOCKED_MS_PER_S("updates_blocked_ms_per_s", "ms/s", Bean.SERVER, "updatesBlockedTime (delta / s)", "updatesBlockedTime"),
  BLOCKED_REQUESTS_PER_S("blocked_requests_per_s", "requests/s", Bean.SERVER, "blockedRequestCount (delta / s)", "blockedRequestCount"),
  GC_PAUSE_MS_PER_S("gc_pause_ms_per_s", "ms/s", Bean.JVM, "GcTimeMillis (delta / s), all collectors of the JVM", "GcTimeMillis"),
  // last, so that the columns before it keep their places: a region moved or a server died shows here
  REGIONS("regions", "regions", Bean.SERVER, "regionCount"),
  // per server, the host metrics of a cluster: on one machine the servers' CPU split among them,
  // on a real cluster each server's machine (after regions: older files keep their columns)
  PROCESS_CPU_PCT("process_cpu_pct", "% of a core", Bean.OS, "ProcessCpuTime (delta ns / elapsed ns x 100)") {
    @Override
    Double compute(JmxSnapshot prev, JmxSnapshot now) {
      final Double nsPerSecond = rate(prev, now, "ProcessCpuTime");
      return nsPerSecond == null ? null : nsPerSecond / 1e7;   // ns of CPU per s of wall / 1e9 x 100
    }
  },
  HOST_LOAD1("host_load1", "runnable", Bean.OS, "SystemLoadAverage (its machine's 1-min load average)") {
    @Override
    Double compute(JmxSnapshot prev, JmxSnapshot now) {
      final Double load = now.get(bean, "SystemLoadAverage");
      return load == null || load < 0 ? null : load;   // -1: not available on this platform
    }
  };

  final String column;
  final String unit;
  final Bean bean;
  final String source;
  /** The counter whose rate per second this column is; null for a gauge or a column that computes its own value. */
  private final String counter;

  ServerMetric(String column, String unit, Bean bean, String source) {
    this(column, unit, bean, source, null);
  }

  ServerMetric(String column, String unit, Bean bean, String source, String counter) {
    this.column = column;
    this.unit = unit;
    this.bean = bean;
    this.source = source;
    this.counter = counter;
  }

  /** The value of this column from the server's previous answered sample (null: none) and this one. */
  Double compute(JmxSnapshot prev, JmxSnapshot now) {
    return counter != null ? rate(prev, now, counter) : now.get(bean, source);
  }

  Double rate(JmxSnapshot prev, JmxSnapshot now, String counter) {
    return Rates.perSecond(prev == null ? null : prev.get(bean, counter), now.get(bean, counter),
        prev == null ? 0 : now.readAt(bean) - prev.readAt(bean));
  }

  Double delta(JmxSnapshot prev, JmxSnapshot now, String counter) {
    return Rates.delta(prev == null ? null : prev.get(bean, counter), now.get(bean, counter));
  }

  /** Counter arithmetic: a counter that went down has been reset (the server restarted), no rate. */
  static final class Rates {
    private Rates() {
    }

    static Double delta(Double before, Double after) {
      return before == null || after == null || after < before ? null : after - before;
    }

    static Double perSecond(Double before, Double after, long elapsedMs) {
      final Double d = delta(before, after);
      return d == null || elapsedMs <= 0 ? null : d * 1000.0 / elapsedMs;
    }
  }
}
