package io.github.hbasegrindersuite.lifecycle;

import io.github.hbasegrindersuite.lifecycle.cpu.CpuSampler;
import io.github.hbasegrindersuite.lifecycle.servermetrics.ServerMetricsSampler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A run's JVM-side samplers in one JVM (suite.d/samplers.sh starts it beside the host-metrics
 * sampler and stops it by PID): one JVM start less on the client CPU than one JVM each.
 *
 * <pre>
 * RunSamplers [cpu CPU_SAMPLER_OPTIONS...] [--- server-metrics SERVER_METRICS_OPTIONS...]
 * </pre>
 *
 * Each section is a sampler's name and its own options (cpu.CpuSampler, servermetrics.ServerMetricsSampler),
 * sections separated by {@code ---}. A bad section: one line on stderr naming it, exit 2, nothing
 * started. One that fails later leaves the other running; the exit is then 1.
 */
public final class RunSamplers {
  static final String SEPARATOR = "---";

  private RunSamplers() {
  }

  public static void main(String[] argv) {
    final List<SamplerRun> samplers;
    try {
      samplers = prepare(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("samplers: " + e.getMessage());
      System.exit(2);
      return;
    } catch (IOException | RuntimeException e) {
      System.err.println("samplers: " + e.getMessage());
      System.exit(1);
      return;
    }
    System.exit(SamplerRun.runUntilStopped(samplers));
  }

  static List<SamplerRun> prepare(String[] argv) throws IOException {
    final List<SamplerRun> samplers = new ArrayList<>();
    final List<String> seen = new ArrayList<>();
    for (List<String> section : sections(argv)) {
      final String name = section.get(0);
      if (seen.contains(name)) {
        throw new IllegalArgumentException("sampler '" + name + "' is given twice");
      }
      seen.add(name);
      final String[] options = section.subList(1, section.size()).toArray(new String[0]);
      if (!name.equals("cpu") && !name.equals("server-metrics")) {
        throw new IllegalArgumentException("unknown sampler '" + name + "' (accepted: cpu, server-metrics)");
      }
      try {
        samplers.add(name.equals("cpu") ? CpuSampler.prepare(options) : ServerMetricsSampler.prepare(options));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
      }
    }
    if (samplers.isEmpty()) {
      throw new IllegalArgumentException("no sampler given (cpu OPTIONS... --- server-metrics OPTIONS...)");
    }
    return samplers;
  }

  /** ARGV cut at each {@code ---}; an empty section is refused. */
  static List<List<String>> sections(String[] argv) {
    final List<List<String>> sections = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (String arg : Arrays.asList(argv)) {
      if (arg.equals(SEPARATOR)) {
        sections.add(current);
        current = new ArrayList<>();
      } else {
        current.add(arg);
      }
    }
    sections.add(current);
    if (argv.length > 0 && sections.stream().anyMatch(List::isEmpty)) {
      throw new IllegalArgumentException("an empty section between '" + SEPARATOR + "'s");
    }
    sections.removeIf(List::isEmpty);
    return sections;
  }
}
