package io.github.hbasegrindersuite.shim;

import java.util.concurrent.atomic.LongAdder;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.spi.LoggingEvent;

/**
 * A log4j (reload4j) appender that counts instead of writing: the shim's log4j.properties routes
 * the Thrift library's loggers here, so a misbehaving client (garbage, a frame too large for the
 * nonblocking server, a reset connection) moves the counter
 * {@code hbasegrinder_shim_thrift_library_errors_total} and writes nothing per request.
 */
public final class ThriftLogCounter extends AppenderSkeleton {

  static final LongAdder COUNT = new LongAdder();

  public static long count() {
    return COUNT.sum();
  }

  @Override
  protected void append(LoggingEvent event) {
    COUNT.increment();
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
