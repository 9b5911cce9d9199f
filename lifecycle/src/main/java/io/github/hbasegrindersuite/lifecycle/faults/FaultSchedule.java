package io.github.hbasegrindersuite.lifecycle.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's fault schedule ({@code ./suite run --faults}, property {@value #KEY}), in HBase
 * ChaosMonkey's shape: each fault is one small action on one region server of the local cluster,
 * and the schedule says when, in seconds from the start of the load:
 *
 * <pre>
 * at=20s kill regionserver=2; at=50s start regionserver=2; at=70s pause regionserver=1 for=5s
 * </pre>
 *
 * {@link #parse} checks the text alone; {@link #check} checks it against the run: the cluster's
 * region servers, the run's length, and the order of the actions on each server (nothing is killed
 * twice without a start between, a running server is not started, a paused one is left alone until
 * it resumes). Every refusal is one line naming the action and what is accepted.
 */
public final class FaultSchedule {

  /** The property that carries a schedule (grinder.properties, --set, a scenario, a sweep point). */
  public static final String KEY = "faults.schedule";

  /** At most this many actions: a schedule is an experiment, not a soak of its own. */
  static final int MAX_ACTIONS = 100;

  /** What one action does to its region server's JVM. */
  public enum Action {
    /** SIGKILL: the JVM dies at once, its WAL is split and its regions reassigned once its ZooKeeper session expires. */
    KILL,
    /** SIGTERM: the region server closes its regions and leaves (a graceful stop). */
    STOP,
    /** The region server again, with the ports, heap and conf {@code ./suite hbase start --regionservers N} gave it. */
    START,
    /** SIGSTOP, then SIGCONT after {@code for=}: a frozen JVM, as in a long GC pause. */
    PAUSE,
    /** One region of the load table moved from this region server to the next live one by port (the HBase Admin). */
    MOVE;

    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One action of the schedule: at {@code atSeconds} from the start of the load. */
  public static final class Fault {
    public final int index;
    public final int atSeconds;
    public final Action action;
    public final int regionServer;
    /** Seconds a pause lasts; 0 for the other actions. */
    public final int forSeconds;
    /** The action as written, for messages and the report. */
    public final String text;

    Fault(int index, int atSeconds, Action action, int regionServer, int forSeconds, String text) {
      this.index = index;
      this.atSeconds = atSeconds;
      this.action = action;
      this.regionServer = regionServer;
      this.forSeconds = forSeconds;
      this.text = text;
    }

    /** Canonical spelling: "at=20s kill regionserver=2", "at=70s pause regionserver=1 for=5s". */
    public String canonical() {
      return "at=" + atSeconds + "s " + action.word() + " regionserver=" + regionServer + (action == Action.PAUSE ? " for=" + forSeconds + "s" : "");
    }
  }

  /** A region server's state while a schedule is checked. */
  private enum State {
    UP, PAUSED, DOWN, DOWN_AT_START;

    boolean down() {
      return this == DOWN || this == DOWN_AT_START;
    }
  }

  /** A schedule that cannot be right: the message is one line naming the culprit. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private static final Pattern TIME = Pattern.compile("([0-9]{1,6})([sm]?)");
  private static final Pattern PARAM = Pattern.compile("([a-z]+)=(.*)");

  public final String text;
  public final List<Fault> faults;

  private FaultSchedule(String text, List<Fault> faults) {
    this.text = text;
    this.faults = Collections.unmodifiableList(faults);
  }

  /** No schedule: an absent, empty or "none" value. */
  public static boolean isNone(String text) {
    return text == null || text.trim().isEmpty() || text.trim().equals("none");
  }

  /** The actions in time order (the order written among actions at the same second). */
  public static FaultSchedule parse(String text) throws Refused {
    final List<Fault> faults = new ArrayList<>();
    if (isNone(text)) {
      return new FaultSchedule("", faults);
    }
    if (text.contains("\n") || text.contains("\r")) {
      throw new Refused("faults: the schedule must be one line ('at=20s kill regionserver=2; at=50s start regionserver=2')");
    }
    int index = 0;
    for (String part : text.split(";")) {
      final String entry = part.trim().replaceAll("\\s+", " ");
      if (entry.isEmpty()) {
        continue;
      }
      index++;
      if (index > MAX_ACTIONS) {
        throw new Refused("faults: more than " + MAX_ACTIONS + " actions in one schedule");
      }
      faults.add(action(index, entry));
    }
    if (faults.isEmpty()) {
      throw new Refused("faults: '" + text.trim() + "' holds no action (accepted: 'at=20s kill regionserver=2; ...', or none)");
    }
    faults.sort(Comparator.comparingInt((Fault f) -> f.atSeconds).thenComparingInt(f -> f.index));
    final StringBuilder canonical = new StringBuilder();
    for (Fault f : faults) {
      canonical.append(canonical.length() == 0 ? "" : "; ").append(f.canonical());
    }
    return new FaultSchedule(canonical.toString(), faults);
  }

  private static Fault action(int index, String entry) throws Refused {
    final String culprit = "faults: action " + index + " '" + entry + "'";
    Action action = null;
    final Map<String, String> params = new LinkedHashMap<>();
    for (String word : entry.split(" ")) {
      final Matcher p = PARAM.matcher(word);
      if (p.matches()) {
        if (!List.of("at", "regionserver", "for").contains(p.group(1))) {
          throw new Refused(culprit + ": unknown parameter '" + p.group(1) + "=' (accepted: at=, regionserver=, for= of a pause)");
        }
        if (params.put(p.group(1), p.group(2)) != null) {
          throw new Refused(culprit + ": " + p.group(1) + "= given twice");
        }
      } else if (action != null) {
        throw new Refused(culprit + ": '" + word + "' after the action " + action.word() + " (one action per entry; separate entries with ';')");
      } else {
        action = actionOf(culprit, word);
      }
    }
    if (action == null) {
      throw new Refused(culprit + ": no action (accepted: kill, stop, start, pause, move)");
    }
    if (!params.containsKey("at")) {
      throw new Refused(culprit + ": no at=TIME (seconds from the start of the load: 20, 20s, 1m)");
    }
    final int at = seconds(culprit, "at", params.get("at"), true);
    if (!params.containsKey("regionserver")) {
      throw new Refused(culprit + ": no regionserver=I (the region server's number, 1..N of ./suite hbase start --regionservers N)");
    }
    final String rs = params.get("regionserver");
    if (!rs.matches("[0-9]{1,3}") || Integer.parseInt(rs) == 0) {
      throw new Refused(culprit + ": regionserver=" + rs + " is not a region server's number (1..N)");
    }
    int lasts = 0;
    if (action == Action.PAUSE) {
      if (!params.containsKey("for")) {
        throw new Refused(culprit + ": a pause needs for=TIME (how long the JVM stays stopped: 5s)");
      }
      lasts = seconds(culprit, "for", params.get("for"), false);
    } else if (params.containsKey("for")) {
      throw new Refused(culprit + ": for= is only for pause (" + action.word() + " has no length)");
    }
    return new Fault(index, at, action, Integer.parseInt(rs), lasts, entry);
  }

  private static Action actionOf(String culprit, String word) throws Refused {
    for (Action a : Action.values()) {
      if (a.word().equals(word)) {
        return a;
      }
    }
    throw new Refused(culprit + ": unknown action '" + word + "' (accepted: kill, stop, start, pause, move)");
  }

  /** "20", "20s" or "1m" in seconds; a pause's length must be more than 0. */
  static int seconds(String culprit, String name, String value, boolean zeroAllowed) throws Refused {
    final Matcher m = TIME.matcher(value);
    if (!m.matches()) {
      throw new Refused(culprit + ": " + name + "=" + value + " is not a time (accepted: 20, 20s, 1m)");
    }
    final int s = Integer.parseInt(m.group(1)) * (m.group(2).equals("m") ? 60 : 1);
    if (s == 0 && !zeroAllowed) {
      throw new Refused(culprit + ": " + name + "=" + value + " must be more than 0 s");
    }
    return s;
  }

  /**
   * Checks the schedule against the run: region servers 1..{@code regionServers}, every action
   * (and a pause's end) within the run's {@code durationSeconds}, and each server's actions in an
   * order that can happen (all servers run at the start).
   */
  public void check(int regionServers, int durationSeconds) throws Refused {
    check(regionServers, java.util.Set.of(), durationSeconds);
  }

  /**
   * As {@link #check(int, int)}, from the cluster as it is: DOWN names the region servers that do
   * not run when the run starts (a kill of an earlier run is not undone). A fault run measures
   * against the cluster as laid out, so each of them must be started first in the schedule.
   */
  public void check(int regionServers, java.util.Set<Integer> down, int durationSeconds) throws Refused {
    for (int rs : down) {
      if (faults.stream().noneMatch(f -> f.regionServer == rs && f.action == Action.START)) {
        throw new Refused("faults: regionserver=" + rs + " is not running when the run starts (a kill of an earlier run"
            + " is not undone): ./suite hbase stop and start, or start it first in the schedule");
      }
    }
    final Map<Integer, State> state = new HashMap<>();
    final Map<Integer, Integer> pausedUntil = new HashMap<>();
    down.forEach(rs -> state.put(rs, State.DOWN_AT_START));
    for (Fault f : faults) {
      final String culprit = "faults: action " + f.index + " '" + f.text + "'";
      if (f.regionServer > regionServers) {
        throw new Refused(culprit + ": regionserver=" + f.regionServer + " is not one of the local cluster's 1.." + regionServers);
      }
      if (durationSeconds <= 0) {
        throw new Refused("faults: a fault schedule needs a run of fixed length (--duration or grinder.duration), not a number of runs");
      }
      if (f.atSeconds >= durationSeconds) {
        throw new Refused(culprit + ": at=" + f.atSeconds + "s is past the run's " + durationSeconds + " s of load");
      }
      if (f.action == Action.PAUSE && f.atSeconds + f.forSeconds > durationSeconds) {
        throw new Refused(culprit + ": the pause ends at " + (f.atSeconds + f.forSeconds) + " s, past the run's " + durationSeconds + " s of load");
      }
      final int rs = f.regionServer;
      if (state.get(rs) == State.PAUSED && f.atSeconds >= pausedUntil.get(rs)) {
        state.put(rs, State.UP);
      }
      final State now = state.getOrDefault(rs, State.UP);
      if (now == State.PAUSED) {
        throw new Refused(culprit + ": regionserver=" + rs + " is paused until " + pausedUntil.get(rs) + " s then");
      }
      if (f.action == Action.START && now == State.UP) {
        throw new Refused(culprit + ": regionserver=" + rs + " is running then (start only what a kill or stop took down)");
      }
      if (f.action != Action.START && now == State.DOWN) {
        throw new Refused(culprit + ": regionserver=" + rs + " is down then (killed or stopped earlier; start it first)");
      }
      if (f.action != Action.START && now == State.DOWN_AT_START) {
        throw new Refused(culprit + ": regionserver=" + rs + " is not running when the run starts (a kill of an earlier run"
            + " is not undone: start it in the schedule, or ./suite hbase stop and start)");
      }
      // a paused server still counts as up: a region may move to it
      final long othersDown = state.entrySet().stream().filter(e -> e.getKey() != rs && e.getValue().down()).count();
      if (f.action == Action.MOVE && regionServers - 1 - othersDown == 0) {
        throw new Refused(culprit + ": no other region server is up then to move a region to");
      }
      switch (f.action) {
        case MOVE:
          break;
        case KILL:
        case STOP:
          state.put(rs, State.DOWN);
          break;
        case START:
          state.put(rs, State.UP);
          break;
        case PAUSE:
          state.put(rs, State.PAUSED);
          pausedUntil.put(rs, f.atSeconds + f.forSeconds);
          break;
        default:
          throw new IllegalStateException(f.action.toString());
      }
    }
  }
}
