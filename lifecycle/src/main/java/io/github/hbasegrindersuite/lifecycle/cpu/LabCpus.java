package io.github.hbasegrindersuite.lifecycle.cpu;

import io.github.hbasegrindersuite.lifecycle.ShellAssignments;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The lab's split of this machine's CPUs between the server side (the embedded HBase, its thrift2
 * gateway, the shim) and the client side (console, agents, workers, samplers, ./suite itself):
 * {@code lab.cpus = auto | off | SERVER_CPUS:CLIENT_CPUS} (grinder.properties documents it).
 * {@code off} shares every CPU; {@code auto} splits them half and half (the server side gets the
 * odd one) when HBase is embedded here, injectors run here and there are 2 CPUs or more, else
 * shares them; {@code 0-5:6-7} names them (Linux CPU lists). Sides never overlap: a lab that shares
 * some CPUs is not isolated, and {@code off} says so honestly.
 */
public final class LabCpus {
  public final String spec;
  public final TreeSet<Integer> server;
  public final TreeSet<Integer> client;
  public final boolean isolated;
  public final String note;

  private LabCpus(String spec, TreeSet<Integer> server, TreeSet<Integer> client, boolean isolated, String note) {
    this.spec = spec;
    this.server = server;
    this.client = client;
    this.isolated = isolated;
    this.note = note;
  }

  /**
   * @param spec            the setting's value
   * @param online          the CPUs this machine offers (/sys/devices/system/cpu/online)
   * @param serverHere      the embedded HBase runs on this machine (not a real cluster)
   * @param injectorsHere   the injectors run on this machine (not only ssh hosts)
   * @throws IllegalArgumentException naming the culprit
   */
  public static LabCpus resolve(String spec, String online, boolean serverHere, boolean injectorsHere) {
    final String s = spec == null ? "auto" : spec.trim();
    final TreeSet<Integer> all = list(online, "the online CPUs");
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no online CPUs in '" + online + "'");
    }
    switch (s) {
      case "off":
        return new LabCpus(s, all, all, false, "lab.cpus = off: server and client share CPUs " + format(all));
      case "auto":
      case "":
        if (!serverHere || !injectorsHere) {
          return new LabCpus("auto", all, all, false, "lab.cpus = auto: nothing to isolate here ("
              + (!serverHere ? "HBase is a real cluster elsewhere" : "no injector runs on this machine") + "): all CPUs shared");
        }
        if (all.size() < 2) {
          return new LabCpus("auto", all, all, false, "lab.cpus = auto: one CPU cannot be split: server and client share it");
        }
        final TreeSet<Integer> server = new TreeSet<>();
        final TreeSet<Integer> client = new TreeSet<>();
        final int serverCount = (all.size() + 1) / 2;
        for (int cpu : all) {
          (server.size() < serverCount ? server : client).add(cpu);
        }
        return new LabCpus("auto", server, client, true, "lab.cpus = auto: server CPUs " + format(server) + ", client CPUs "
            + format(client) + " of " + all.size());
      default:
        break;
    }
    final int colon = s.indexOf(':');
    if (colon < 0 || s.indexOf(':', colon + 1) >= 0) {
      throw new IllegalArgumentException("lab.cpus '" + s + "' is not auto, off or SERVER_CPUS:CLIENT_CPUS (e.g. 0:1 or 0-5:6-7)");
    }
    final TreeSet<Integer> server = list(s.substring(0, colon), "lab.cpus '" + s + "' server CPUs");
    final TreeSet<Integer> client = list(s.substring(colon + 1), "lab.cpus '" + s + "' client CPUs");
    if (server.isEmpty() || client.isEmpty()) {
      throw new IllegalArgumentException("lab.cpus '" + s + "' leaves a side without CPUs");
    }
    final List<Integer> missing = new ArrayList<>();
    for (int cpu : server) {
      if (!all.contains(cpu)) {
        missing.add(cpu);
      }
    }
    for (int cpu : client) {
      if (!all.contains(cpu)) {
        missing.add(cpu);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("lab.cpus '" + s + "' names CPUs this machine does not have online: " + missing
          + " (online: " + format(all) + ")");
    }
    final TreeSet<Integer> both = new TreeSet<>(server);
    both.retainAll(client);
    if (!both.isEmpty()) {
      throw new IllegalArgumentException("lab.cpus '" + s + "' gives CPUs " + format(both)
          + " to both sides: an isolated lab keeps them apart (lab.cpus = off shares all)");
    }
    return new LabCpus(s, server, client, true, "lab.cpus = " + s + ": server CPUs " + format(server) + ", client CPUs " + format(client));
  }

  /** A Linux CPU list ("0-3,6"), as /sys and cpuset write them. */
  static TreeSet<Integer> list(String text, String what) {
    final TreeSet<Integer> cpus = new TreeSet<>();
    final String t = text.trim();
    if (t.isEmpty()) {
      return cpus;
    }
    for (String part : t.split(",")) {
      final String p = part.trim();
      if (!p.matches("[0-9]{1,4}(-[0-9]{1,4})?")) {
        throw new IllegalArgumentException(what + ": '" + p + "' is not a CPU number or range (e.g. 0-3,6)");
      }
      final String[] ends = p.split("-");
      final int from = Integer.parseInt(ends[0]);
      final int to = ends.length == 2 ? Integer.parseInt(ends[1]) : from;
      if (to < from) {
        throw new IllegalArgumentException(what + ": range '" + p + "' runs backwards");
      }
      for (int cpu = from; cpu <= to; cpu++) {
        cpus.add(cpu);
      }
    }
    return cpus;
  }

  /** The shortest CPU list: 0-3,6. */
  public static String format(TreeSet<Integer> cpus) {
    final StringBuilder b = new StringBuilder();
    Integer start = null;
    Integer last = null;
    for (int cpu : cpus) {
      if (start == null) {
        start = cpu;
      } else if (cpu != last + 1) {
        append(b, start, last);
        start = cpu;
      }
      last = cpu;
    }
    if (start != null) {
      append(b, start, last);
    }
    return b.toString();
  }

  private static void append(StringBuilder b, int from, int to) {
    if (b.length() > 0) {
      b.append(',');
    }
    b.append(from);
    if (to > from) {
      b.append('-').append(to);
    }
  }

  /**
   * Shell assignments for suite.d/lab.sh: LAB_SPEC LAB_SERVER_CPUS LAB_SERVER_CPU_COUNT LAB_CLIENT_CPUS
   * LAB_ISOLATED LAB_NOTE.
   */
  public String shell() {
    return new ShellAssignments().scalar("LAB_SPEC", spec).scalar("LAB_SERVER_CPUS", format(server))
        .scalar("LAB_SERVER_CPU_COUNT", server.size()).scalar("LAB_CLIENT_CPUS", format(client))
        .scalar("LAB_ISOLATED", isolated).scalar("LAB_NOTE", note).toString();
  }
}
