package io.github.hbasegrindersuite.lifecycle;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.hbasegrindersuite.lifecycle.servermetrics.JmxClient;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded cluster as its master sees it, for {@code ./suite hbase start} (wait until all N
 * region servers have registered) and {@code ./suite hbase status}: the live and dead region
 * servers from the master's JMX servlet (bean Hadoop:service=HBase,name=Master,sub=Server:
 * numRegionServers, numDeadRegionServers, tag.liveRegionServers) and each region server's region
 * count from its own (Hadoop:service=HBase,name=RegionServer,sub=Server: regionCount). JSON over
 * HTTP with short timeouts, no HBase client and no ZooKeeper session: status answers in well under
 * a second and works while ZooKeeper is down.
 */
final class ClusterLive {
  static final String MASTER_BEAN = "Hadoop:service=HBase,name=Master,sub=Server";
  static final String REGION_SERVER_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Server";

  /** What the master says; live = -1 when it could not be asked (reason says why). */
  static final class MasterView {
    int live = -1;
    int dead = -1;
    final List<String> liveServers = new ArrayList<>();
    String reason = "";
  }

  private ClusterLive() {
  }

  /** The first bean of a /jmx?qry= answer, or null when the answer holds none (a server still starting). */
  static JsonObject bean(String json) {
    final JsonElement root = JsonParser.parseString(json);
    if (!root.isJsonObject() || !root.getAsJsonObject().has("beans")) {
      return null;
    }
    for (JsonElement b : root.getAsJsonObject().getAsJsonArray("beans")) {
      if (b.isJsonObject()) {
        return b.getAsJsonObject();
      }
    }
    return null;
  }

  /** The master bean's live and dead counts and live server names ("host,port,startcode", sorted by port). */
  static MasterView parseMaster(String json) {
    final MasterView view = new MasterView();
    final JsonObject b = bean(json);
    if (b == null || !b.has("numRegionServers")) {
      view.reason = "the master publishes no region server count yet";
      return view;
    }
    view.live = b.get("numRegionServers").getAsInt();
    view.dead = b.has("numDeadRegionServers") ? b.get("numDeadRegionServers").getAsInt() : 0;
    final String names = b.has("tag.liveRegionServers") ? b.get("tag.liveRegionServers").getAsString() : "";
    for (String name : names.split(";")) {
      if (!name.isBlank()) {
        view.liveServers.add(name.trim());
      }
    }
    view.liveServers.sort((x, y) -> Integer.compare(port(x), port(y)));
    return view;
  }

  /** A region server bean's region count, or -1. */
  static int parseRegionCount(String json) {
    final JsonObject b = bean(json);
    return b != null && b.has("regionCount") ? b.get("regionCount").getAsInt() : -1;
  }

  private static int port(String serverName) {
    final String[] parts = serverName.split(",");
    try {
      return parts.length > 1 ? Integer.parseInt(parts[1].trim()) : Integer.MAX_VALUE;
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  static MasterView askMaster(JmxClient http, String infoUrl) {
    try {
      return parseMaster(http.get(URI.create(infoUrl + "/jmx?qry=" + MASTER_BEAN)));
    } catch (IOException | RuntimeException e) {
      final MasterView view = new MasterView();
      view.reason = "the master's web UI " + infoUrl + " does not answer: " + Text.oneLine(String.valueOf(e.getMessage()));
      return view;
    }
  }

  static int askRegionCount(JmxClient http, String infoUrl) {
    try {
      return parseRegionCount(http.get(URI.create(infoUrl + "/jmx?qry=" + REGION_SERVER_BEAN)));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * cluster-live --master URL [--regionserver NAME=URL]... [--wait N --timeout S [--watch NAME=PID]...]:
   * the master's view (with --wait: once it counts N live region servers; exit 1 when time runs out
   * or a watched process exits first) and each named region server's regions, as shell
   * assignments LIVE_REGIONSERVERS, DEAD_REGIONSERVERS, LIVE_SERVERS, RS_NAMES, RS_REGIONS (-1: no
   * answer), MASTER_REASON.
   */
  static int main(List<String> argv) throws LifecycleException {
    String master = null;
    final Map<String, String> regionServers = new LinkedHashMap<>();
    final Map<String, Long> watched = new LinkedHashMap<>();
    int wait = -1;
    int timeout = 120;
    for (int i = 0; i < argv.size(); i++) {
      final String option = argv.get(i);
      if (i + 1 >= argv.size()) {
        throw new LifecycleException.Usage(option + " needs a value");
      }
      final String value = argv.get(++i);
      switch (option) {
        case "--master":
          master = value;
          break;
        case "--regionserver":
        case "--watch": {
          final int eq = value.indexOf('=');
          if (eq <= 0) {
            throw new LifecycleException.Usage(option + " '" + value + "' is not NAME=VALUE");
          }
          if (option.equals("--regionserver")) {
            regionServers.put(value.substring(0, eq), value.substring(eq + 1));
          } else {
            watched.put(value.substring(0, eq), Long.parseLong(value.substring(eq + 1)));
          }
          break;
        }
        case "--wait":
          wait = Integer.parseInt(value);
          break;
        case "--timeout":
          timeout = Integer.parseInt(value);
          break;
        default:
          throw new LifecycleException.Usage("cluster-live: unknown option " + option);
      }
    }
    if (master == null) {
      throw new LifecycleException.Usage("cluster-live: missing --master URL");
    }
    final JmxClient http = new JmxClient(500, 2000);
    final long deadline = System.nanoTime() + timeout * 1_000_000_000L;
    MasterView view = askMaster(http, master);
    String failure = null;
    while (wait >= 0 && view.live != wait) {
      for (Map.Entry<String, Long> w : watched.entrySet()) {
        if (!ProcessHandle.of(w.getValue()).map(ProcessHandle::isAlive).orElse(false)) {
          failure = w.getKey() + " (pid " + w.getValue() + ") exited";
        }
      }
      if (failure == null && System.nanoTime() > deadline) {
        failure = "the master counts " + Math.max(view.live, 0) + " live region servers of " + wait + " after " + timeout + "s"
            + (view.reason.isEmpty() ? "" : " (" + view.reason + ")");
      }
      if (failure != null) {
        break;
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = "interrupted";
        break;
      }
      view = askMaster(http, master);
    }
    final List<String> counts = new ArrayList<>();
    regionServers.values().forEach(url -> counts.add(String.valueOf(askRegionCount(http, url))));
    System.out.print(new ShellAssignments()
        .scalar("LIVE_REGIONSERVERS", view.live)
        .scalar("DEAD_REGIONSERVERS", view.dead)
        .array("LIVE_SERVERS", view.liveServers)
        .array("RS_NAMES", new ArrayList<>(regionServers.keySet()))
        .array("RS_REGIONS", counts)
        .scalar("MASTER_REASON", view.reason)
        .scalar("WAIT_FAILURE", failure == null ? "" : failure));
    return failure == null ? 0 : 1;
  }
}
