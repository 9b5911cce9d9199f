package io.github.hbasegrindersuite.lifecycle;

import java.util.ArrayList;
import java.util.List;

/**
 * The sweep.* keys of a scenario: the one list the planner accepts and {@code ./suite sweep --help}
 * prints (lifecycle sweep-keys), each with its help text (continuation lines after a newline).
 * Format and examples: scenarios/README.md.
 */
enum SweepKey {
  NAME("sweep.name", "its name in sweep.json (default: the file name)"),
  THREADS("sweep.threads", "total threads of each run, comma-separated: 300,600"),
  OPERATIONS("sweep.operations", "operation mixes, |-separated: get:100 | put:100 | get:70,put:30"),
  TARGETS("sweep.targets", "direct and/or thrift, | or comma-separated"),
  INJECTORS("sweep.injectors", "injector hosts on this machine (--injectors)"),
  HOSTS("sweep.hosts", "or a hosts file (relative to the scenario)"),
  LAB("sweep.lab", "auto, namespaces or loopback (--lab)"),
  DURATION("sweep.duration", "length of each run: 30, 30s, 2m"),
  PROCESSES("sweep.processes", "worker processes per injector"),
  PREPARE("sweep.prepare", "once (default), each (before every run) or no"),
  VARIANTS("sweep.variants", "whole client variants, |-separated; KEY=VALUE pairs inside one separated by ;"),
  REPEAT("sweep.repeat", "every point N times, in alternating order (--repeat)"),
  REPEAT_ORDER("sweep.repeat.order", "sweep (default: A B C, C B A) or variants: each point's variants repeated in\n"
      + "place (A1 A2, A2 A1, then B1 B2, B2 B1): the runs compared are minutes apart,\n"
      + "whatever the server drifts through over a long sweep (a memstore filling)"),
  SLO("sweep.slo", "gates for the sweep's report (--slo)"),
  SCALE("sweep.scale", "tiny, default or N (--scale)"),
  WORK("sweep.work", "duration (default) or rows: a fixed amount of work a run, one request per row over its threads"),
  SERVER_VARIANTS(ServerVariants.KEY, "hbase-site.xml overrides of the embedded HBase, |-separated, KEY=VALUE;... or\n"
      + "default: the sweep restarts it between them and restores its normal conf at the end"),
  SERVER_REGIONSERVERS(ServerVariants.SIZES_KEY, "local cluster sizes, comma-separated (1: the standalone): 1,2,3; the sweep\n"
      + "restarts the embedded HBase at each (with each server variant), spreads its\n"
      + "tables' regions over the region servers, and restores the size it found; tiny:\n"
      + "the smallest and the largest"),
  SERVER_CROSS("sweep.server.cross", "all (default) or baseline: other server variants run the first point only"),
  TINY_VARIANTS("sweep.tiny.variants", "what a tiny sweep runs of sweep.variants: their numbers (1,3) or variants of its own"),
  TINY_THREADS("sweep.tiny.threads", "the thread counts a tiny sweep runs instead of scaling sweep.threads down: 4"),
  TINY_DURATION("sweep.tiny.duration", "the length of each run of a tiny sweep (default 5 s): a fault schedule needs room"),
  REGIONSERVERS("sweep.regionservers", "the local cluster's region servers it needs, at least (./suite hbase start\n"
      + "--regionservers N); checked before the first run. Between points, region servers\n"
      + "a fault schedule left down are started again"),
  WARMUP("sweep.warmup", "auto (default; always off at --scale tiny), off, or S: before the first run of each\n"
      + "target (its arguments but the thread count and the mix; again after HBase\n"
      + "restarts) a warm-up running every operation of those runs, in the sweep's\n"
      + "injector session, stopped once the servers' JIT is quiet, at most S (auto: 60)\n"
      + "seconds; sweep.json lists them"),
  VARY("sweep.vary.KEY", "any property, its values |-separated");

  /** The prefix of {@link #VARY}: sweep.vary.hbaseload.value.size and the like. */
  static final String VARY_PREFIX = "sweep.vary.";

  final String key;
  final String help;

  SweepKey(String key, String help) {
    this.key = key;
    this.help = help;
  }

  /** Is this a key the planner accepts (sweep.vary.ANY included)? */
  static boolean known(String key) {
    if (key.startsWith(VARY_PREFIX) && key.length() > VARY_PREFIX.length()) {
      return true;
    }
    for (SweepKey k : values()) {
      if (k != VARY && k.key.equals(key)) {
        return true;
      }
    }
    return false;
  }

  /** The keys as the refusal of an unknown one lists them. */
  static String accepted() {
    final List<String> keys = new ArrayList<>();
    for (SweepKey k : values()) {
      if (k != VARY) {
        keys.add(k.key);
      }
    }
    keys.add(VARY.key);
    return String.join(", ", keys);
  }

  /** ./suite sweep --help's lines: the key in a column, its help beside it, continuations under it. */
  static String helpText() {
    final StringBuilder out = new StringBuilder();
    for (SweepKey k : values()) {
      final String[] lines = k.help.split("\n");
      // a key wider than the column gets a line of its own
      out.append(k.key.length() > 21 ? String.format("  %s%n  %-21s %s%n", k.key, "", lines[0]) : String.format("  %-21s %s%n", k.key, lines[0]));
      for (int i = 1; i < lines.length; i++) {
        out.append(String.format("  %-21s %s%n", "", lines[i]));
      }
    }
    return out.toString();
  }
}
