package io.github.hbasegrindersuite.lifecycle.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The region servers of the local cluster ({@code ./suite hbase start --regionservers N}) as the
 * fault executor sees them: region server I's PID from {@code pids/regionserver-I.pid}, trusted only
 * when that process's command line still names the cluster's data folder and HRegionServer (a PID
 * file left by a crash may name another program by now); signals by {@code kill -s}; a start by
 * hbase-ctl.sh's {@code start-regionserver I}, which starts it exactly as the cluster's start did.
 */
public final class LocalRegionServers implements FaultExecutor.Servers {

  /** A start: the JVM's launch and its RPC port listening (hbase-ctl.sh waits at most 90 s of it). */
  static final long START_BOUND_S = 120;
  static final long SIGNAL_BOUND_S = 5;

  private final Path pidDir;
  private final String mark;
  private final Path hbaseCtl;
  private final Path hbaseDir;
  private final int portOffset;
  private final Path logDir;
  private int starts;
  private final RegionMove mover;

  /** Region server I's RPC port: suite.d/common.sh's PORT_REGIONSERVER + I - 1 (LocalCluster). */
  static int rpcPort(int portOffset, int regionServer) {
    return 16020 + portOffset + regionServer - 1;
  }

  @Override
  public String moveRegion(int regionServer) throws IOException {
    return mover.awayFrom(rpcPort(portOffset, regionServer));
  }

  /**
   * @param hbaseDir HBASE_LOCAL_DIR of the cluster (its pid files are in pids/)
   * @param hbaseCtl hbase-local/hbase-ctl.sh
   * @param logDir where each start's output goes (start-regionserver-I-K.out)
   */
  public LocalRegionServers(Path hbaseDir, Path hbaseCtl, int portOffset, Path logDir, java.util.Map<String, String> runProperties) {
    this.mover = new RegionMove(runProperties);
    this.hbaseDir = hbaseDir;
    this.pidDir = hbaseDir.resolve("pids");
    this.mark = "-Dhbase.local.dir=" + hbaseDir;
    this.hbaseCtl = hbaseCtl;
    this.portOffset = portOffset;
    this.logDir = logDir;
  }

  @Override
  public long pid(int regionServer) {
    try {
      final String text = Files.readString(pidDir.resolve("regionserver-" + regionServer + ".pid"), StandardCharsets.UTF_8).trim();
      if (!text.matches("[0-9]{1,10}")) {
        return 0;
      }
      final long pid = Long.parseLong(text);
      final String cmdline = new String(Files.readAllBytes(Path.of("/proc", text, "cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
      return alive(pid) && cmdline.contains(mark + " ") && cmdline.contains("HRegionServer") ? pid : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  @Override
  public void signal(long pid, String signal) throws IOException {
    final Process p = new ProcessBuilder("kill", "-s", signal, String.valueOf(pid)).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(SIGNAL_BOUND_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("kill -s " + signal + " " + pid + " did not return within " + SIGNAL_BOUND_S + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted sending SIG" + signal + " to " + pid);
    }
    if (p.exitValue() != 0) {
      final String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      throw new IOException("kill -s " + signal + " " + pid + " failed: " + said);
    }
  }

  @Override
  public boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !zombie(pid);
  }

  /** A killed child of no one of ours is reaped by init; a zombie is gone for every purpose here. */
  private static boolean zombie(long pid) {
    try {
      final String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"), StandardCharsets.UTF_8);
      final int close = stat.lastIndexOf(')');
      return close > 0 && stat.length() > close + 2 && stat.charAt(close + 2) == 'Z';
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public long start(int regionServer) throws IOException {
    final Path out = logDir.resolve("start-regionserver-" + regionServer + "-" + (++starts) + ".out");
    final ProcessBuilder pb = new ProcessBuilder(List.of(hbaseCtl.toString(), "start-regionserver", String.valueOf(regionServer)))
        .redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("HBASE_LOCAL_DIR", hbaseDir.toString());
    pb.environment().put("SUITE_PORT_OFFSET", String.valueOf(portOffset));
    final Process p = pb.start();
    String failure = null;
    try {
      if (!p.waitFor(START_BOUND_S, TimeUnit.SECONDS)) {
        p.destroy();
        failure = "hbase-ctl.sh start-regionserver " + regionServer + " did not end within " + START_BOUND_S + " s (" + out + ")";
      } else if (p.exitValue() != 0) {
        final List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        failure = lines.isEmpty() ? "hbase-ctl.sh start-regionserver exited " + p.exitValue() : lines.get(lines.size() - 1);
      }
    } catch (InterruptedException e) {
      // the run ended: the executor is being stopped; the JVM, once launched, runs on (setsid) and joins by itself
      p.destroy();
      Thread.currentThread().interrupt();
      failure = "the run ended while regionserver-" + regionServer + " was starting (" + out + ")";
    }
    if (failure != null && pid(regionServer) == 0) {
      throw new IOException(failure);
    }
    final long pid = pid(regionServer);
    if (pid == 0) {
      throw new IOException("regionserver-" + regionServer + " started but its pid file names no live region server");
    }
    return pid;
  }
}
