package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.lifecycle.faults.FaultSchedule;
import io.github.hbasegrindersuite.worker.PropertiesFiles;
import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.Settings;
import io.github.hbasegrindersuite.worker.TablePreparer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code ./suite sweep SCENARIO}'s plan: the scenario's sweep.* keys expanded into the grid of
 * runs (the product of the lists, threads outermost, variants innermost, each point repeated in
 * alternating order), the base properties every run shares, the table preparation, and the
 * {@code ./suite run} arguments of each point. Format of a scenario: scenarios/README.md.
 */
public final class SweepPlanner {

  private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*=.*");

  /** One run of the sweep: its label and the ./suite run arguments that make it. */
  static final class Point {
    final String label;
    final List<String> args;
    final Map<String, String> sets;
    /** The server variant the embedded HBase runs with for this point (null: no sweep.server.variants). */
    final ServerVariants.Variant server;

    Point(String label, List<String> args, Map<String, String> sets) {
      this(label, args, sets, null);
    }

    Point(String label, List<String> args, Map<String, String> sets, ServerVariants.Variant server) {
      this.label = label;
      this.args = args;
      this.sets = sets;
      this.server = server;
    }
  }

  /** Command-line overrides of the scenario's keys. */
  static final class Overrides {
    Integer durationSeconds;
    Integer injectors;
    Integer repeat;
    String slo;
    /** --scale: tiny, default or N (over sweep.scale). */
    String scale;
    /** Free bytes of the disk the embedded HBase writes to, and its name (null: not checked). */
    Long diskFreeBytes;
    String diskName;
    /** The ./suite sweep process (0: none recorded): see {@link StaleRuns}. */
    long ownerPid;
    /** The embedded HBase's normal conf folder, which server variants copy (null: not read, no conf written). */
    Path hbaseConf;
    /**
     * The region servers of the local cluster running here (./suite hbase start --regionservers N; 1: the
     * standalone, 0: none runs), against which sweep.regionservers and the points' fault schedules are
     * checked; null: not known (a dry run), only the schedules' text is checked.
     */
    Integer localRegionServers;
  }

  final Path scenario;
  final String name;
  final List<String> common = new ArrayList<>();
  final List<Point> points = new ArrayList<>();
  final Map<String, String> base = new LinkedHashMap<>();
  final String prepare;
  final String slo;
  private final long ownerPid;
  final String durationText;
  /** Each run's length in seconds (the same as durationText), or 0 when the properties' grinder.duration decides. */
  private final int durationSeconds;
  final SweepScale scale;
  /** sweep.server.variants at this scale (empty: the sweep restarts nothing). */
  final List<ServerVariants.Variant> serverVariants;
  private final Path hbaseConf;
  /** sweep.work: duration (each run as long as its duration) or rows (a fixed amount of work: {@link FixedWork}). */
  final String work;
  /**
   * sweep.warmup: the most seconds a warm-up may take (0: none). A sweep warms each workload (its
   * points' arguments but the thread count, and its server variant) once per injector session
   * before measuring it: auto at the default scale, off at tiny (a functional check).
   */
  final int warmupSeconds;
  /** sweep.regionservers: the local cluster's region servers the sweep needs, at least (0: any HBase). */
  final int regionServersNeeded;
  /** The local cluster running when the sweep was planned (1: the standalone, 0: none; null: not known). */
  private final Integer localRegionServers;
  /** Each point's settings as its workers will read them (checked before the first run), in point order. */
  private final List<Settings> pointSettings = new ArrayList<>();
  /** Every point's warm-up key (warmupKey(int)), worked out once: a sweep may have hundreds of points. */
  private List<String> warmupKeys;

  SweepPlanner(Path scenario, Path defaultProperties, Overrides overrides) throws LifecycleException {
    this.scenario = scenario.toAbsolutePath().normalize();
    final PropertiesFiles.InFileOrder p;
    try {
      p = PropertiesFiles.readInOrder(scenario);   // sweep.vary.* apply in file order
    } catch (java.nio.file.NoSuchFileException e) {
      throw new LifecycleException("scenario " + scenario + " not found (see scenarios/)");
    } catch (java.io.IOException e) {
      throw new LifecycleException("scenario " + scenario + " cannot be read: " + e.getMessage());
    }
    for (String key : p.order()) {
      if (key.startsWith("sweep.") && !SweepKey.known(key)) {
        throw new LifecycleException(this.scenario + ": unknown key " + key + " (accepted: " + SweepKey.accepted() + ")");
      }
    }
    final String given = value(p, "sweep.name");
    this.name = given.isEmpty() ? this.scenario.getFileName().toString().replaceFirst("\\.properties$", "") : given;

    this.scale = overrides.scale != null ? SweepScale.parse("--scale", overrides.scale) : SweepScale.parse("sweep.scale", value(p, "sweep.scale"));
    final String hosts = value(p, "sweep.hosts");
    // Tiny runs on one injector for a few seconds, so that ./suite test can run every scenario.
    final String injectors = overrides.injectors != null ? String.valueOf(overrides.injectors)
        : scale.tiny ? "1" : value(p, "sweep.injectors");
    if (!hosts.isEmpty()) {
      if (overrides.injectors != null) {
        throw new LifecycleException("--injectors and the scenario's sweep.hosts exclude each other");
      }
      final Path file = hosts.startsWith("/") ? Path.of(hosts) : this.scenario.getParent().resolve(hosts);
      common.addAll(List.of("--hosts", file.toString()));
    } else {
      common.addAll(List.of("--injectors", injectors.isEmpty() ? "1" : String.valueOf(RunArguments.positive("sweep.injectors", injectors))));
      final String lab = value(p, "sweep.lab");
      if (!lab.isEmpty()) {
        common.addAll(List.of("--lab", lab));
      }
    }
    this.work = value(p, "sweep.work").isEmpty() ? FixedWork.DURATION : value(p, "sweep.work");
    if (!FixedWork.ACCEPTED.contains(work)) {
      throw new LifecycleException(this.scenario + ": sweep.work=" + work + " is not accepted (accepted: " + String.join(", ", FixedWork.ACCEPTED) + ")");
    }
    final boolean fixedWork = work.equals(FixedWork.ROWS);
    // A tiny fixed-work run ends with its work; its duration is only the bound.
    final String duration = overrides.durationSeconds != null ? String.valueOf(overrides.durationSeconds)
        : scale.tiny ? (fixedWork ? String.valueOf(SweepScale.TINY_WORK_BOUND_S) : tinyDuration(p)) : value(p, "sweep.duration");
    this.durationSeconds = duration.isEmpty() ? 0 : RunArguments.duration(duration);
    this.durationText = duration.isEmpty() ? "" : durationSeconds + "s";
    if (!duration.isEmpty()) {
      common.addAll(List.of("--duration", String.valueOf(durationSeconds)));
    }
    final String processes = value(p, "sweep.processes");
    if (!processes.isEmpty()) {
      common.addAll(List.of("--processes", String.valueOf(RunArguments.positive("sweep.processes", processes))));
    }
    final String warmup = value(p, "sweep.warmup");
    // tiny is a functional check: no warm-up, whatever the scenario asks of its real scale
    final int asked = RunArguments.warmup("sweep.warmup", warmup.isEmpty() ? "auto" : warmup);
    this.warmupSeconds = scale.tiny ? 0 : asked;
    this.prepare = value(p, "sweep.prepare").isEmpty() ? "once" : value(p, "sweep.prepare");
    if (!List.of("once", "each", "no").contains(prepare)) {
      throw new LifecycleException(this.scenario + ": sweep.prepare=" + prepare + " is not accepted (accepted: once, each, no)");
    }

    List<Point> grid = new ArrayList<>(List.of(new Point("", List.of(), Map.of())));
    final List<Point> threads = new ArrayList<>();
    final List<Integer> threadCounts = new ArrayList<>();
    for (String t : split(value(p, "sweep.threads"), ",")) {
      threadCounts.add(RunArguments.positive("sweep.threads", t));
    }
    // sweep.tiny.threads: the thread counts a tiny sweep runs instead (a scenario whose grid is large keeps one)
    final List<Integer> tinyThreads = new ArrayList<>();
    for (String t : split(value(p, "sweep.tiny.threads"), ",")) {
      tinyThreads.add(RunArguments.positive("sweep.tiny.threads", t));
    }
    for (int t : scale.tiny && !tinyThreads.isEmpty() ? tinyThreads : scale.threads(threadCounts)) {
      threads.add(new Point(t + " threads", List.of("--threads", String.valueOf(t)), Map.of()));
    }
    grid = multiply(grid, threads);
    final List<Point> targets = new ArrayList<>();
    for (String t : split(value(p, "sweep.targets"), "[|,]")) {
      if (!t.equals("direct") && !t.equals("thrift")) {
        throw new LifecycleException(this.scenario + ": sweep.targets: '" + t + "' is not accepted (accepted: direct, thrift)");
      }
      targets.add(new Point(t, List.of("--target", t), Map.of("hbaseload.target", t)));
    }
    grid = multiply(grid, targets);
    grid = multiply(grid, sets("hbaseload.operations", split(value(p, "sweep.operations"), "\\|"), v -> v));
    for (String key : p.order()) {
      if (key.startsWith("sweep.vary.")) {
        final String varied = key.substring("sweep.vary.".length());
        grid = multiply(grid, sets(varied, split(value(p, key), "\\|"), v -> varied.replace("hbaseload.", "") + "=" + v));
      }
    }
    final List<Point> variants = new ArrayList<>();
    // a scenario whose points cannot all run in seconds names the few that tiny runs
    // sweep.tiny.variants: the numbers of the variants tiny keeps (1,3), or variants of its own
    final String tinyVariants = value(p, "sweep.tiny.variants");
    final boolean tinyByNumber = tinyVariants.matches("[0-9][0-9 ,]*");
    final String variantKey = scale.tiny && !tinyVariants.isEmpty() && !tinyByNumber ? "sweep.tiny.variants" : "sweep.variants";
    for (String variant : split(value(p, variantKey), "\\|")) {
      final Map<String, String> assigned = new LinkedHashMap<>();
      final List<String> args = new ArrayList<>();
      for (String assignment : split(variant, ";")) {
        if (!ASSIGNMENT.matcher(assignment).matches()) {
          throw new LifecycleException("sweep.variants: '" + assignment + "' is not KEY=VALUE");
        }
        assigned.put(assignment.substring(0, assignment.indexOf('=')), assignment.substring(assignment.indexOf('=') + 1));
        args.addAll(List.of("--set", assignment));
      }
      variants.add(new Point(variant.replace("hbaseload.", ""), args, assigned));
    }
    final List<Point> kept = scale.tiny && tinyByNumber ? tinyVariants(variants, tinyVariants) : variants;
    final int variantCount = Math.max(1, kept.size());   // no variants: each point is its own block
    grid = multiply(grid, kept);
    this.hbaseConf = overrides.hbaseConf;
    final List<ServerVariants.Variant> servers = ServerVariants.parse(value(p, ServerVariants.KEY));
    final List<Integer> sizes = ServerVariants.parseSizes(value(p, ServerVariants.SIZES_KEY));
    // tiny: the smallest and the largest size, each a restart of the HBase
    this.serverVariants = ServerVariants.atSizes(scale.tiny ? ServerVariants.tiny(servers) : servers, scale.tiny ? tinySizes(sizes) : sizes);
    final String cross = value(p, "sweep.server.cross").isEmpty() ? "all" : value(p, "sweep.server.cross");
    if (!List.of("all", "baseline").contains(cross)) {
      throw new LifecycleException(this.scenario + ": sweep.server.cross=" + cross + " is not accepted (accepted: all, baseline)");
    }
    grid = serverOutermost(grid, serverVariants, cross.equals("baseline"));
    final String repeatText = overrides.repeat != null ? String.valueOf(overrides.repeat) : scale.tiny ? "" : value(p, "sweep.repeat");
    final int repeat = repeatText.isEmpty() ? 1 : RunArguments.positive("sweep.repeat", repeatText);
    final List<Point> scaled = new ArrayList<>();
    for (Point point : grid) {
      scaled.add(scaled(point));
    }
    final String order = value(p, "sweep.repeat.order").isEmpty() ? "sweep" : value(p, "sweep.repeat.order");
    if (!List.of("sweep", "variants").contains(order)) {
      throw new LifecycleException(this.scenario + ": sweep.repeat.order=" + order + " is not accepted (accepted: sweep, variants)");
    }
    if (order.equals("variants") && scaled.size() % variantCount != 0) {
      // a server variant crossed with the baseline only runs the first point: no whole blocks of variants
      throw new LifecycleException(this.scenario + ": sweep.repeat.order=variants needs every point with all its variants ("
          + scaled.size() + " points, " + variantCount + " variants each); sweep.server.cross=baseline leaves some out");
    }
    points.addAll(order.equals("variants") ? repeatInBlocks(scaled, variantCount, repeat) : repeat(scaled, repeat));
    this.slo = overrides.slo != null ? overrides.slo : value(p, "sweep.slo");
    this.ownerPid = overrides.ownerPid;

    PropertiesFile.sorted(PropertiesFile.read(defaultProperties)).forEach(base::put);
    for (String key : p.order()) {
      if (!key.startsWith("sweep.")) {
        base.put(key, p.getProperty(key));
      }
    }
    final String needed = value(p, "sweep.regionservers");
    this.regionServersNeeded = needed.isEmpty() ? 0 : RunArguments.positive("sweep.regionservers", needed);
    final String regionsAsked = base.get("hbaseload.regions");
    scale.applyTo(base);
    // tiny keeps a region on every region server it needs or runs: a kill of one must hit the load,
    // and a larger cluster must have work for each of its servers
    final int serversTiny = Math.max(regionServersNeeded, serverVariants.stream().mapToInt(v -> v.regionServers).max().orElse(0));
    if (scale.tiny && regionsAsked != null && serversTiny > SweepScale.TINY_REGIONS) {
      base.put("hbaseload.regions", String.valueOf(Math.min(serversTiny, RunArguments.positive("hbaseload.regions", regionsAsked))));
    }
    ServerVariants.refuseUnmanaged(serverVariants, base.get("hbaseload.hbase.site"));
    if (hbaseConf != null) {
      ServerVariants.refuseOwnKeys(serverVariants, hbaseConf);
    }
    if (fixedWork) {
      for (int i = 0; i < points.size(); i++) {
        points.set(i, FixedWork.apply(points.get(i), base));
      }
    }
    checkPoints();
    this.localRegionServers = overrides.localRegionServers;
    checkCluster(localRegionServers);
    if (overrides.diskFreeBytes != null && base.getOrDefault("hbaseload.hbase.site", "").isBlank()) {
      scale.checkDisk(base, overrides.diskFreeBytes, overrides.diskName);
    }
  }

  /**
   * Every point's hbaseload.* settings through the worker's own {@link Settings}:
   * a bad value in the last point (1001 families, a wide row above its bound) fails the plan, before the first run.
   */
  private void checkPoints() throws LifecycleException {
    pointSettings.clear();
    for (int i = 0; i < points.size(); i++) {
      final Map<String, String> settings = new LinkedHashMap<>();
      base.forEach((k, v) -> {
        if (k.startsWith("hbaseload.")) {
          settings.put(k, v);
        }
      });
      points.get(i).sets.forEach((k, v) -> {
        if (k.startsWith("hbaseload.")) {
          settings.put(k, v);
        }
      });
      try {
        pointSettings.add(Settings.load(settings));
      } catch (io.github.hbasegrindersuite.worker.SettingsException e) {
        throw new LifecycleException(this.scenario.getFileName() + ": point " + (i + 1) + " (" + points.get(i).label + "): " + e.getMessage());
      }
    }
  }

  /**
   * The cluster the sweep needs (sweep.regionservers) and every point's fault schedule, before the
   * first run: a schedule that the cluster or the run's length cannot carry out must not stop the
   * sweep at its fifth point. Schedules are checked from a whole cluster (the sweep starts again the
   * region servers an earlier point's schedule left down, before the next point). LOCAL: the running
   * cluster's region servers, or null when not known (a dry run): then only each schedule's text.
   */
  private void checkCluster(Integer local) throws LifecycleException {
    final String site = base.getOrDefault("hbaseload.hbase.site", "").trim();
    final boolean sized = ServerVariants.sized(serverVariants);
    if (sized) {
      final int smallest = serverVariants.stream().mapToInt(v -> v.regionServers).min().orElse(0);
      if (smallest < regionServersNeeded) {
        throw new LifecycleException.Usage(scenario.getFileName() + ": " + ServerVariants.SIZES_KEY + " runs " + smallest
            + " region server(s), fewer than sweep.regionservers (" + regionServersNeeded + ") asks");
      }
      if (local != null && local == 0) {
        throw new LifecycleException.Usage(scenario.getFileName() + ": " + ServerVariants.SIZES_KEY
            + " restarts the embedded HBase at each size, and none runs here: ./suite hbase start");
      }
    }
    // with sizes, the sweep makes the cluster each point needs: what runs now does not matter
    if (!sized && regionServersNeeded > 0 && local != null && (!site.isEmpty() || local < regionServersNeeded)) {
      throw new LifecycleException.Usage(scenario.getFileName() + " needs the local cluster with at least " + regionServersNeeded
          + " region servers (sweep.regionservers); " + (!site.isEmpty() ? "its HBase is a cluster the suite does not manage (hbaseload.hbase.site=" + site + ")"
          : local == 0 ? "no HBase of ours runs here: ./suite hbase start --regionservers " + regionServersNeeded
          : (local == 1 ? "the embedded HBase here is the standalone" : "the cluster here has " + local)
          + ": ./suite hbase stop; ./suite hbase start --regionservers " + regionServersNeeded));
    }
    final int seconds = durationSeconds == 0 ? Integer.MAX_VALUE : durationSeconds;
    for (int i = 0; i < points.size(); i++) {
      final Map<String, String> sets = points.get(i).sets;
      final String schedule = sets.getOrDefault(FaultSchedule.KEY, base.get(FaultSchedule.KEY));
      try {
        if (local == null) {
          FaultSchedule.parse(schedule);
        } else {
          final ServerVariants.Variant server = points.get(i).server;
          // a point of a sized sweep runs on the cluster the sweep restarts for it
          final int servers = server != null && server.regionServers > 0 ? server.regionServers : local;
          RunPlanner.faults(schedule, sets.getOrDefault("hbaseload.hbase.site", site), seconds, servers, java.util.Set.of());
        }
      } catch (FaultSchedule.Refused | LifecycleException e) {
        throw new LifecycleException.Usage(scenario.getFileName() + ": point " + (i + 1) + " (" + points.get(i).label + "): " + e.getMessage());
      }
    }
  }

  /** The smallest and the largest of SIZES, in their order there (one size: itself). */
  static List<Integer> tinySizes(List<Integer> sizes) {
    if (sizes.size() <= 2) {
      return sizes;
    }
    final int min = Collections.min(sizes);
    final int max = Collections.max(sizes);
    return sizes.stream().filter(n -> n == min || n == max).collect(Collectors.toList());
  }

  /** sweep.tiny.duration, or the tiny default: seconds, checked as a run's --duration is. */
  private static String tinyDuration(Properties p) throws LifecycleException {
    final String given = value(p, "sweep.tiny.duration");
    return String.valueOf(given.isEmpty() ? SweepScale.TINY_DURATION_S : RunArguments.duration(given));
  }

  /** A point whose own table, rows or regions (a variant's) are scaled as the base's are. */
  private Point scaled(Point point) throws LifecycleException {
    final Map<String, String> sets = scale.applyToSets(point.sets);
    if (sets.equals(point.sets)) {
      return point;
    }
    final List<String> args = new ArrayList<>();
    for (int i = 0; i < point.args.size(); i++) {
      final String arg = point.args.get(i);
      final boolean set = i > 0 && point.args.get(i - 1).equals("--set") && arg.contains("=");
      args.add(set && sets.containsKey(arg.substring(0, arg.indexOf('='))) ? arg.substring(0, arg.indexOf('=') + 1) + sets.get(arg.substring(0, arg.indexOf('='))) : arg);
    }
    return new Point(point.label, args, sets, point.server);
  }

  private static String value(Properties p, String key) {
    return p.getProperty(key, "").trim();
  }

  /** "a | b|c" -> [a, b, c]: trimmed, empty pieces dropped. */
  static List<String> split(String text, String separator) {
    return Stream.of(text.split(separator)).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
  }

  private static List<Point> sets(String key, List<String> values, java.util.function.UnaryOperator<String> label) {
    return values.stream().map(v -> new Point(label.apply(v), List.of("--set", key + "=" + v), Map.of(key, v)))
        .collect(Collectors.toList());
  }

  /** Every row times every value; an empty dimension leaves the grid as it is. */
  static List<Point> multiply(List<Point> grid, List<Point> values) {
    if (values.isEmpty()) {
      return grid;
    }
    final List<Point> out = new ArrayList<>();
    for (Point row : grid) {
      for (Point v : values) {
        final List<String> args = new ArrayList<>(row.args);
        args.addAll(v.args);
        final Map<String, String> sets = new LinkedHashMap<>(row.sets);
        sets.putAll(v.sets);
        out.add(new Point(row.label.isEmpty() ? v.label : row.label + ", " + v.label, args, sets));
      }
    }
    return out;
  }

  /** A B C, C B A, A B C ...: a drift of the machine over the sweep falls on every point alike. */
  static List<Point> repeat(List<Point> grid, int times) {
    return repeatInBlocks(grid, grid.size(), times);
  }

  /**
   * The grid in blocks of BLOCK consecutive points (a point's variants, the innermost list), each
   * block repeated in place in alternating order: A1 A2, A2 A1, B1 B2, B2 B1. The runs a
   * comparison sets side by side are then minutes apart, not a sweep apart.
   */
  static List<Point> repeatInBlocks(List<Point> grid, int block, int times) {
    final List<Point> out = new ArrayList<>();
    final int size = Math.max(1, block);
    for (int start = 0; start < grid.size(); start += size) {
      final List<Point> points = grid.subList(start, Math.min(grid.size(), start + size));
      for (int r = 0; r < times; r++) {
        final List<Point> order = new ArrayList<>(points);
        if (r % 2 == 1) {
          Collections.reverse(order);
        }
        for (Point point : order) {
          final String label = point.label.isEmpty() ? "the scenario as it is" : point.label;
          out.add(new Point(times > 1 ? label + " (repeat " + (r + 1) + " of " + times + ")" : label, point.args, point.sets, point.server));
        }
      }
    }
    return out;
  }

  /** sweep.tiny.variants: the 1-based numbers of the variants a tiny sweep keeps (empty: all). */
  private List<Point> tinyVariants(List<Point> variants, String numbers) throws LifecycleException {
    if (numbers.isEmpty()) {
      return variants;
    }
    final List<Point> kept = new ArrayList<>();
    for (String n : split(numbers, ",")) {
      final int i = RunArguments.positive("sweep.tiny.variants", n);
      if (i > variants.size()) {
        throw new LifecycleException(scenario + ": sweep.tiny.variants: " + i + " is more than the " + variants.size() + " sweep.variants");
      }
      kept.add(variants.get(i - 1));
    }
    return kept;
  }

  /**
   * Server variants outermost, so that the HBase restarts once per variant. With baseline, a
   * server variant other than the first runs only the grid's first point (one factor at a time,
   * as the published studies varied them); the first runs the whole grid.
   */
  static List<Point> serverOutermost(List<Point> grid, List<ServerVariants.Variant> servers, boolean baseline) {
    if (servers.isEmpty()) {
      return grid;
    }
    final List<Point> out = new ArrayList<>();
    for (int s = 0; s < servers.size(); s++) {
      final ServerVariants.Variant server = servers.get(s);
      for (Point row : baseline && s > 0 ? grid.subList(0, 1) : grid) {
        // "3 region servers" says what it is; "server handler.count=100" needs its word
        final String label = server.normal() && server.regionServers > 0 ? server.label : "server " + server.label;
        out.add(new Point(row.label.isEmpty() ? label : label + ", " + row.label, row.args, row.sets, server));
      }
    }
    return out;
  }

  /**
   * What a warm-up warms: the code paths of a point, its arguments but the thread count and the
   * operation mix, and the server variant it runs on. The same client and server code runs at every
   * concurrency, and one warm-up that runs every operation of those points warms each of them
   * (warmupArgs), so a sweep of get, put and a mix against two targets warms twice, not six times;
   * once when the two targets can share it (warmupKey(int)).
   */
  static String warmupKey(Point point) {
    return keyOf(point, point.args);
  }

  private static String keyOf(Point point, List<String> args) {
    // a warm-up never carries out a fault schedule: points that differ only by theirs warm alike
    return String.join(" ", argsWithout(argsWithout(args, "--threads", OPERATIONS_SET), null, FaultSchedule.KEY + "="))
        + (point.server == null ? "" : " server=" + point.server.label);
  }

  private static final String OPERATIONS_SET = "hbaseload.operations=";
  private static final String TARGET_SET = "hbaseload.target=";
  private static final String THRIFT_SETS = "hbaseload.thrift.";

  /** ARGS without the option OPTION (null: none) and its value, nor a --set whose value starts with SET_PREFIX. */
  private static List<String> argsWithout(List<String> args, String option, String setPrefix) {
    final List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      final boolean next = i + 1 < args.size();
      if (next && (args.get(i).equals(option) || args.get(i).equals("--set") && args.get(i + 1).startsWith(setPrefix))) {
        i++;
        continue;
      }
      out.add(args.get(i));
    }
    return out;
  }

  /** ARGS without what chooses the target: --target, hbaseload.target and the hbaseload.thrift.* settings. */
  private static List<String> argsWithoutTarget(List<String> args) {
    return argsWithout(argsWithout(args, "--target", TARGET_SET), null, THRIFT_SETS);
  }

  /**
   * Point INDEX's warm-up key. When the sweep runs the same points both directly and through one
   * thrift server (the same arguments but the target's, and one set of thrift settings), they
   * share one warm-up with hbaseload.target = both: HBase, the thrift server and both client paths
   * compile at once, so the sweep warms (and settles) once instead of once per target. Otherwise
   * the point's own key.
   */
  String warmupKey(int index) {
    if (warmupKeys == null || warmupKeys.size() != points.size()) {
      warmupKeys = sharedWarmupKeys();
    }
    return warmupKeys.get(index);
  }

  private List<String> sharedWarmupKeys() {
    final List<String> bases = new ArrayList<>();
    final Map<String, Boolean> direct = new LinkedHashMap<>();
    final Map<String, Set<String>> thrift = new LinkedHashMap<>();
    for (int i = 0; i < points.size(); i++) {
      final String base = keyOf(points.get(i), argsWithoutTarget(points.get(i).args));
      bases.add(base);
      final SettingChoices.Target t = pointSettings.get(i).target();
      if (t == SettingChoices.Target.DIRECT) {
        direct.put(base, true);
      } else if (t == SettingChoices.Target.THRIFT) {
        thrift.computeIfAbsent(base, b -> new TreeSet<>()).add(warmupKey(points.get(i)));
      }
    }
    final List<String> keys = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      final String base = bases.get(i);
      final Set<String> servers = thrift.getOrDefault(base, Set.of());
      final boolean shared = pointSettings.get(i).target() != SettingChoices.Target.BOTH
          && direct.containsKey(base) && servers.size() == 1;
      keys.add(shared ? "both: " + servers.iterator().next() : warmupKey(points.get(i)));
    }
    return keys;
  }

  /** Whether any warm-up of the sweep is shared by direct and thrift points (warmupKey(int)). */
  private boolean sharedWarmup() {
    for (int i = 0; i < points.size(); i++) {
      if (warmupKey(i).startsWith("both: ")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The warm-up of point INDEX's key: that point's arguments with an even mix of every operation
   * that the points of its key run, in the order they first appear (get:100 and put:100 and
   * get:70,put:30 give get:50,put:50); a shared warm-up (warmupKey(int)) has the thrift points'
   * arguments and target both.
   */
  List<String> warmupArgs(int index) {
    final String key = warmupKey(index);
    final java.util.Set<io.github.hbasegrindersuite.worker.Operation> operations = new java.util.LinkedHashSet<>();
    int thrift = -1;
    for (int i = 0; i < points.size(); i++) {
      if (warmupKey(i).equals(key)) {
        operations.addAll(pointSettings.get(i).mix().keySet());
        if (thrift < 0 && pointSettings.get(i).target() == SettingChoices.Target.THRIFT) {
          thrift = i;
        }
      }
    }
    final boolean shared = key.startsWith("both: ");
    final List<String> own = argsWithout(points.get(index).args, null, OPERATIONS_SET);
    final List<String> args = shared ? argsWithoutTarget(own) : own;
    if (shared) {
      // this point's arguments, the thrift points' thrift settings, target both
      final List<String> thriftArgs = points.get(thrift).args;
      for (int i = 0; i + 1 < thriftArgs.size(); i++) {
        if (thriftArgs.get(i).equals("--set") && thriftArgs.get(i + 1).startsWith(THRIFT_SETS)) {
          args.add("--set");
          args.add(thriftArgs.get(i + 1));
        }
      }
      args.add("--set");
      args.add(TARGET_SET + SettingChoices.Target.BOTH.label());
    }
    args.add("--set");
    args.add(OPERATIONS_SET + evenMix(new ArrayList<>(operations)));
    return args;
  }

  /** "get:50,put:50": whole percentages summing to 100, the first ones one higher when 100 does not divide. */
  static String evenMix(List<io.github.hbasegrindersuite.worker.Operation> operations) {
    final StringBuilder out = new StringBuilder();
    for (int i = 0; i < operations.size(); i++) {
      final int share = 100 / operations.size() + (i < 100 % operations.size() ? 1 : 0);
      out.append(i == 0 ? "" : ",").append(operations.get(i).label()).append(':').append(share);
    }
    return out.toString();
  }

  void print(PrintStream out) {
    final String length = durationText.isEmpty() ? "grinder.duration" : durationText;
    out.printf("sweep %s at scale %s: %d run(s), %s, %s rows, %s%s%n", name, scale.text, points.size(),
        work.equals(FixedWork.ROWS) ? "a fixed amount of work each (one request per row, over its threads; at most " + length + ")" : length + " each",
        base.getOrDefault("hbaseload.rows", "?"), String.join(" ", common),
        warmupSeconds > 0 ? "; each target warmed first with every operation of its runs (at most " + warmupSeconds + " s"
            + (sharedWarmup() ? "; direct and thrift together" : "") + ")" : "");
    for (int i = 0; i < points.size(); i++) {
      out.printf("  %d. %s%n", i + 1, points.get(i).label.isEmpty() ? "the scenario as it is" : points.get(i).label);
    }
  }

  /** A point's server variant in the plan: its label, overrides and conf folder (null: the normal conf). */
  private Map<String, Object> serverJson(Path dir, ServerVariants.Variant server) throws LifecycleException {
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("label", server.label);
    out.put("site", server.site);
    Path conf = null;
    if (!server.normal()) {
      if (hbaseConf == null) {
        throw new LifecycleException(ServerVariants.KEY + ": no conf folder of the embedded HBase given (--hbase-conf)");
      }
      conf = dir.resolve("server-" + (serverVariants.indexOf(server) + 1) + "-conf");
      if (!Files.isDirectory(conf)) {
        ServerVariants.writeConf(hbaseConf, server, conf);
      }
    }
    out.put("conf_dir", conf == null ? null : conf.toString());
    out.put("regionservers", server.regionServers > 0 ? server.regionServers : null);
    return out;
  }

  /** Allocates runs/sweep-N and writes base.properties, the preparation properties, sweep-plan.json, sweep.json. */
  Path write(Path runsDir) throws LifecycleException {
    final Path dir = RunPlanner.allocate(runsDir, "sweep");
    final String id = dir.getFileName().toString();
    PropertiesFile.write(dir.resolve("base.properties"), List.of("The base properties of every run of " + id
        + ": grinder.properties, then the scenario " + name + " (" + scenario + ")"), base);
    try {
      Files.copy(scenario, dir.resolve("scenario.properties"));
    } catch (java.io.IOException e) {
      throw new LifecycleException("cannot copy " + scenario + " into " + dir + ": " + e.getMessage());
    }
    final List<Map<String, Object>> planned = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      final Point point = points.get(i);
      final Map<String, Object> row = new LinkedHashMap<>();
      row.put("point", i + 1);
      row.put("label", point.label);
      row.put("args", point.args);
      row.put("server_variant", point.server == null ? null : serverJson(dir, point.server));
      row.put("warmup_key", warmupKey(i));
      row.put("warmup_args", warmupArgs(i));
      // the table the point runs on: the sweep skips the runs of a table whose preparation timed out or crashed
      row.put("table", point.sets.getOrDefault("hbaseload.table", base.getOrDefault("hbaseload.table", "hbaseload")).trim());
      final boolean prepared = prepare.equals("each") || prepare.equals("once") && i == 0;
      if (prepared) {
        final Map<String, String> props = new LinkedHashMap<>(base);
        props.putAll(point.sets);
        final Path file = dir.resolve("prepare-" + (i + 1) + ".properties");
        PropertiesFile.write(file, List.of("The table of run " + (i + 1) + " of " + id + " (sweep.prepare = " + prepare + ")"), props);
        row.put("prepare_properties", file.toString());
        row.put("prepare_key", prepareKey(props));
      } else {
        row.put("prepare_properties", null);
        row.put("prepare_key", null);
      }
      planned.add(row);
    }
    final Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("schema", 1);
    doc.put("sweep_id", id);
    doc.put("sweep_dir", dir.toString());
    doc.put("scenario", name);
    doc.put("scenario_file", scenario.toString());
    doc.put("scale", scale.text);
    doc.put("work", work);
    doc.put("start_time", Text.iso(Instant.now()));
    doc.put("slo", slo.isEmpty() ? null : slo);
    doc.put("base_properties", dir.resolve("base.properties").toString());
    doc.put("common_args", common);
    doc.put("server_keys", ServerVariants.keys(serverVariants));
    // the HBase the sweep found (null: not known): a sized point that matches it needs no restart
    doc.put("local_regionservers", localRegionServers);
    doc.put("warmup_max_s", warmupSeconds);
    doc.put("points", planned);
    if (ownerPid > 0) {
      doc.put("owner", StaleRuns.owner(ownerPid));
    }
    Json.write(dir.resolve("sweep-plan.json"), doc);
    SweepRecord.write(dir, "running");
    return dir;
  }

  /**
   * The point's table preparation as TablePreparer identifies it (null: always ask HBase, or
   * settings the preparation itself will refuse with its own message).
   */
  static String prepareKey(Map<String, String> props) {
    try {
      return new TablePreparer(Settings.ofRun(props))
          .reuseKey().orElse(null);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
