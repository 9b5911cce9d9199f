package io.github.hbasegrindersuite.lifecycle;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/** Small text rules shared by the lifecycle's messages and files. */
final class Text {
  private static final Pattern BREAKS = Pattern.compile("[\\r\\n\\t]+");
  private static final DateTimeFormatter ISO_MS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Text() {
  }

  /** Line breaks and tabs become spaces: messages and reasons are read as one line. */
  static String oneLine(String text) {
    return text == null ? "" : BREAKS.matcher(text).replaceAll(" ").trim();
  }

  /** UTC with milliseconds, as every time in the suite's JSON: 2026-11-23T10:00:00.000Z. */
  static String iso(Instant instant) {
    return ISO_MS.format(instant);
  }
}
