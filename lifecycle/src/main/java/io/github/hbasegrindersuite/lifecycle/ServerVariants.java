package io.github.hbasegrindersuite.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sweep's server variants ({@code sweep.server.variants}): hbase-site.xml overrides for the
 * embedded HBase, which ./suite sweep restarts between them. Each variant is "default" (the
 * normal configuration) or KEY=VALUE pairs separated by ';'. Any key is accepted (HBase has
 * thousands), except those the project's own hbase-site.xml sets (ports, paths, loopback: a
 * variant changing them would start another HBase, not tune this one). The overrides never touch
 * the project's conf: each variant gets a conf folder of its own under the sweep folder.
 */
final class ServerVariants {
  static final String KEY = "sweep.server.variants";
  static final String NORMAL = "default";
  private static final Pattern SITE_KEY = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*");
  private static final Pattern SITE_NAME = Pattern.compile("<name>\\s*([^<]+?)\\s*</name>");

  /** sweep.server.regionservers: the local cluster's sizes, a dimension the sweep restarts the HBase for. */
  static final String SIZES_KEY = "sweep.server.regionservers";

  /**
   * One server variant: its label, its overrides (none: the normal configuration) and the region
   * servers the embedded HBase runs with for it (0: as many as the sweep found running).
   */
  static final class Variant {
    final String label;
    final Map<String, String> site;
    final int regionServers;

    Variant(String label, Map<String, String> site) {
      this(label, site, 0);
    }

    Variant(String label, Map<String, String> site, int regionServers) {
      this.label = label;
      this.site = site;
      this.regionServers = regionServers;
    }

    boolean normal() {
      return site.isEmpty();
    }
  }

  private ServerVariants() {
  }

  /** "default | a=1;b=2 | a=3" -> variants; a malformed pair or an empty value is refused, naming it. */
  static List<Variant> parse(String text) throws LifecycleException {
    final List<Variant> out = new ArrayList<>();
    final Set<Map<String, String>> seen = new LinkedHashSet<>();
    for (String variant : SweepPlanner.split(text, "\\|")) {
      final Map<String, String> site = new LinkedHashMap<>();
      if (!variant.equals(NORMAL)) {
        for (String pair : SweepPlanner.split(variant, ";")) {
          final int eq = pair.indexOf('=');
          final String key = eq < 0 ? pair : pair.substring(0, eq).trim();
          if (eq < 0 || !SITE_KEY.matcher(key).matches()) {
            throw new LifecycleException(KEY + ": '" + pair + "' is not KEY=VALUE (an hbase-site.xml property and its value)");
          }
          final String value = pair.substring(eq + 1).trim();
          if (value.isEmpty()) {
            throw new LifecycleException(KEY + ": " + key + " has an empty value");
          }
          if (site.put(key, value) != null) {
            throw new LifecycleException(KEY + ": " + key + " is set twice in '" + variant + "'");
          }
        }
      }
      if (!seen.add(site)) {
        throw new LifecycleException(KEY + ": '" + variant + "' is listed twice");
      }
      out.add(new Variant(variant.equals(NORMAL) ? NORMAL : String.join(";", pairs(site)), site));
    }
    return out;
  }

  /** "1,2,3" -> [1, 2, 3]: each a local cluster's size (1: the standalone), none twice; refused in one line naming it. */
  static List<Integer> parseSizes(String text) throws LifecycleException {
    final List<Integer> out = new ArrayList<>();
    for (String size : SweepPlanner.split(text, ",")) {
      final int n;
      try {
        n = LocalCluster.parseCount(size);
      } catch (LifecycleException e) {
        throw new LifecycleException(SIZES_KEY + ": " + e.getMessage().replace(LocalCluster.OPTION + " ", ""));
      }
      if (out.contains(n)) {
        throw new LifecycleException(SIZES_KEY + ": " + n + " is listed twice");
      }
      out.add(n);
    }
    return out;
  }

  /**
   * Every variant at every cluster size, sizes outermost (in the order given): one restart of the
   * HBase each. No sizes: the variants as they are; sizes only: the normal configuration at each.
   */
  static List<Variant> atSizes(List<Variant> variants, List<Integer> sizes) {
    if (sizes.isEmpty()) {
      return variants;
    }
    final List<Variant> out = new ArrayList<>();
    final List<Variant> each = variants.isEmpty() ? List.of(new Variant(NORMAL, Map.of())) : variants;
    for (int n : sizes) {
      final String size = n + (n == 1 ? " region server" : " region servers");
      for (Variant v : each) {
        out.add(new Variant(v.normal() ? size : v.label + ", " + size, v.site, n));
      }
    }
    return out;
  }

  /** Any variant that sets the cluster's size? */
  static boolean sized(List<Variant> variants) {
    return variants.stream().anyMatch(v -> v.regionServers > 0);
  }

  private static List<String> pairs(Map<String, String> site) {
    final List<String> out = new ArrayList<>();
    site.forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }

  /** Every key any variant overrides, in order of appearance: what each run reads back from the server. */
  static List<String> keys(List<Variant> variants) {
    final LinkedHashSet<String> out = new LinkedHashSet<>();
    variants.forEach(v -> out.addAll(v.site.keySet()));
    return new ArrayList<>(out);
  }

  /**
   * A real cluster (hbaseload.hbase.site set) is not the suite's to restart: one line naming the
   * keys the operator sets by hand instead.
   */
  static void refuseUnmanaged(List<Variant> variants, String hbaseSite) throws LifecycleException {
    if (hbaseSite != null && !hbaseSite.isBlank() && sized(variants)) {
      throw new LifecycleException(SIZES_KEY + ": hbaseload.hbase.site is set (" + hbaseSite.trim() + "): the suite does not manage that cluster: "
          + "size it by hand and run the sweep once per size");
    }
    final List<String> keys = keys(variants);
    if (hbaseSite != null && !hbaseSite.isBlank() && !keys.isEmpty()) {
      throw new LifecycleException(KEY + ": hbaseload.hbase.site is set (" + hbaseSite.trim() + "): the suite does not manage that cluster: set "
          + String.join(", ", keys) + " on it and run the client variants only");
    }
  }

  /** Keys the project's hbase-site.xml sets itself: a variant may not override them. */
  static void refuseOwnKeys(List<Variant> variants, Path normalConf) throws LifecycleException {
    final Set<String> own = siteNames(normalConf.resolve("hbase-site.xml"));
    for (String key : keys(variants)) {
      if (own.contains(key)) {
        throw new LifecycleException(KEY + ": " + key + " is the suite's own setting in " + normalConf.resolve("hbase-site.xml")
            + " (ports, paths, loopback), not a tuning variant");
      }
    }
  }

  private static Set<String> siteNames(Path site) throws LifecycleException {
    final Set<String> names = new LinkedHashSet<>();
    final Matcher m = SITE_NAME.matcher(read(site));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static String read(Path file) throws LifecycleException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LifecycleException("cannot read " + file + ": " + e.getMessage());
    }
  }

  /**
   * Tiny scale: the normal configuration (when listed) and one variant merging all the others
   * (a key set twice keeps its last value), so every key is set and read back at the cost of one
   * restart and the restore.
   */
  static List<Variant> tiny(List<Variant> variants) {
    final List<Variant> out = new ArrayList<>();
    final Map<String, String> merged = new LinkedHashMap<>();
    for (Variant v : variants) {
      if (v.normal()) {
        out.add(v);
      } else {
        merged.putAll(v.site);
      }
    }
    if (!merged.isEmpty()) {
      out.add(new Variant(String.join(";", pairs(merged)), merged));
    }
    return out;
  }

  /**
   * The conf folder of a variant: every file of the normal conf folder, hbase-site.xml with the
   * overrides added before its closing tag (values XML-escaped).
   */
  static Path writeConf(Path normalConf, Variant variant, Path out) throws LifecycleException {
    return writeConf(normalConf, "./suite sweep, server variant: " + variant.label, variant.site, out);
  }

  /** A conf folder: the normal one's files, hbase-site.xml with SITE added under a COMMENT. */
  static Path writeConf(Path normalConf, String comment, Map<String, String> site, Path out) throws LifecycleException {
    try {
      Files.createDirectories(out);
      try (Stream<Path> files = Files.list(normalConf)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          if (Files.isRegularFile(f) && !f.getFileName().toString().equals("hbase-site.xml")) {
            Files.copy(f, out.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      final String normal = read(normalConf.resolve("hbase-site.xml"));
      final int end = normal.lastIndexOf("</configuration>");
      if (end < 0) {
        throw new LifecycleException(normalConf.resolve("hbase-site.xml") + " has no </configuration>");
      }
      final StringBuilder added = new StringBuilder("  <!-- ").append(escape(comment).replace("--", "- -"))
          .append(" -->\n");
      site.forEach((k, v) -> added.append("  <property><name>").append(escape(k)).append("</name><value>")
          .append(escape(v)).append("</value></property>\n"));
      Files.writeString(out.resolve("hbase-site.xml"), normal.substring(0, end) + added + normal.substring(end), StandardCharsets.UTF_8);
      return out;
    } catch (IOException e) {
      throw new LifecycleException("cannot write the conf folder " + out + ": " + e.getMessage());
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
