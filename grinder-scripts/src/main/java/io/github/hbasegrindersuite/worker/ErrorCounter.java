package io.github.hbasegrindersuite.worker;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Failed requests by exception class, per worker process: logged once at the end. */
public final class ErrorCounter {
  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

  public void count(Throwable error) {
    counts.computeIfAbsent(error.getClass().getSimpleName(), k -> new LongAdder()).increment();
  }

  public long total() {
    return counts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** "RetriesExhaustedException=3, VerificationException=1", or "none". */
  public String summary() {
    Map<String, Long> sorted = new TreeMap<>();
    counts.forEach((k, v) -> sorted.put(k, v.sum()));
    if (sorted.isEmpty()) {
      return "none";
    }
    StringBuilder out = new StringBuilder();
    sorted.forEach((k, v) -> out.append(out.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return out.toString();
  }
}
