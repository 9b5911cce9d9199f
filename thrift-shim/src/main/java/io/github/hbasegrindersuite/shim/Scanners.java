package io.github.hbasegrindersuite.shim;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.client.ResultScanner;

/**
 * Open scanners by id: at most {@code shim.scanner.max} at once, each closed after
 * {@code shim.scanner.timeout.ms} without use (the reaper runs {@link #expire}).
 */
final class Scanners {

  /** An open scanner; calls on one scanner are serialized on this object. */
  static final class Entry {
    final ResultScanner scanner;
    volatile long lastUsedNanos;

    Entry(ResultScanner scanner) {
      this.scanner = scanner;
      this.lastUsedNanos = System.nanoTime();
    }
  }

  private final Map<Integer, Entry> open = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final int max;
  private final long timeoutNanos;

  Scanners(int max, long timeoutMillis) {
    this.max = max;
    this.timeoutNanos = timeoutMillis * 1_000_000L;
  }

  int add(ResultScanner scanner) throws Errors.ShimException {
    if (open.size() >= max) {
      scanner.close();
      throw new Errors.ShimException(ErrorKind.TOO_MANY_SCANNERS, "thrift-shim has " + open.size()
          + " scanners open (shim.scanner.max=" + max + "): close scanners when done with them");
    }
    Entry entry = new Entry(scanner);
    while (true) {
      int id = nextId.getAndIncrement();
      if (id <= 0) {
        nextId.compareAndSet(id + 1, 1);
        continue;
      }
      if (open.putIfAbsent(id, entry) == null) {
        return id;
      }
    }
  }

  Entry get(int id) throws Errors.ShimException {
    Entry e = open.get(id);
    if (e == null) {
      throw unknown(id);
    }
    e.lastUsedNanos = System.nanoTime();
    return e;
  }

  void close(int id) throws Errors.ShimException {
    Entry e = open.remove(id);
    if (e == null) {
      throw unknown(id);
    }
    synchronized (e) {
      e.scanner.close();
    }
  }

  private static Errors.ShimException unknown(int id) {
    return new Errors.ShimException(ErrorKind.UNKNOWN_SCANNER, "no open scanner with id " + id
        + " (never opened, already closed, or closed after shim.scanner.timeout.ms unused)");
  }

  /** Closes scanners unused for longer than the timeout; returns how many. */
  int expire() {
    long now = System.nanoTime();
    int closed = 0;
    for (Iterator<Map.Entry<Integer, Entry>> it = open.entrySet().iterator(); it.hasNext();) {
      Map.Entry<Integer, Entry> me = it.next();
      Entry e = me.getValue();
      if (now - e.lastUsedNanos > timeoutNanos && open.remove(me.getKey(), e)) {
        synchronized (e) {
          e.scanner.close();
        }
        closed++;
      }
    }
    return closed;
  }

  int size() {
    return open.size();
  }

  void closeAll() {
    for (Integer id : open.keySet()) {
      Entry e = open.remove(id);
      if (e != null) {
        synchronized (e) {
          e.scanner.close();
        }
      }
    }
  }
}
