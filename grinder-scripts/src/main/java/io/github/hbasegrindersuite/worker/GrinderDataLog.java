package io.github.hbasegrindersuite.worker;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * hbaseload.datalog: whether a Grinder worker writes its per-request data log. Grinder 3.11 has no
 * key for it (grinder.logDirectory moves every log, grinder.reportTimesToConsole only changes what
 * the console receives), but it writes each line through the logback logger "data"
 * (ThreadDataLogger, after logback-worker.xml); set to level OFF, that logger drops every line
 * before it is formatted into the file. The interval log ({@link IntervalLog}) then carries the
 * latencies, bounded by the run's duration instead of its requests.
 */
public final class GrinderDataLog {

  /** Grinder's data logger's name (logback-worker.xml in grinder-core 3.11). */
  static final String LOGGER = "data";

  private GrinderDataLog() {
  }

  /** Applies hbaseload.datalog; once per worker process, before Grinder writes the header. */
  public static void apply(Settings settings) {
    if (settings.dataLog() == SettingChoices.DataLog.OFF) {
      turnOff();
    }
  }

  static void turnOff() {
    Logger data = LoggerFactory.getLogger(LOGGER);
    if (!(data instanceof ch.qos.logback.classic.Logger)) {
      throw new SettingsException(Settings.Key.DATALOG.fullName() + "=off: Grinder's data logger is "
          + data.getClass().getName() + ", not logback's; the data log cannot be turned off");
    }
    ((ch.qos.logback.classic.Logger) data).setLevel(Level.OFF);
  }
}
