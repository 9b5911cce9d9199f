package io.github.hbasegrindersuite.console.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A scrape over HTTP, parsed from the Prometheus text format into "name{labels}" -> value. */
final class Scrape {

  /** A sample line: name, optional {labels}, value (no timestamps: the client writes none). */
  private static final Pattern SAMPLE = Pattern.compile(
      "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? ([-+0-9.eEInfNa]+)");

  final String text;
  final Map<String, Double> samples = new LinkedHashMap<>();
  final Set<String> names = new TreeSet<>();

  private Scrape(String text) {
    this.text = text;
    for (String line : text.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      final Matcher m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new AssertionError("not a sample line: " + line);
      }
      names.add(m.group(1));
      samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
    }
  }

  static Scrape parse(String text) {
    return new Scrape(text);
  }

  static Scrape get(int port) throws Exception {
    final HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError("HTTP " + r.statusCode() + ": " + r.body());
    }
    return new Scrape(r.body());
  }

  /** The value of one sample; fails naming what is there when it is missing. */
  double value(String sample) {
    final Double v = samples.get(sample);
    if (v == null) {
      throw new AssertionError("no sample " + sample + " in:\n" + text);
    }
    return v;
  }
}
