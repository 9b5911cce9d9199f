package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanShellTest {

  // A plan.json of a 2-host run (trimmed), with a blank and a quote where bash would trip over them.
  private static final String PLAN = "{\"run_id\": \"run-2\", \"run_dir\": \"/tmp/it's runs/run-2\","
      + " \"injector_mode\": \"namespaces\", \"injector_note\": \"2 network namespaces; CPU is shared\","
      + " \"hosts\": [{\"id\": \"inj1\", \"kind\": \"netns\", \"index\": 1, \"destination\": \"local\", \"java\": \"/usr/bin/java\","
      + "   \"work_dir\": \"/tmp/it's runs/run-2/injectors/inj1\", \"run_dir_on_host\": \"/tmp/it's runs/run-2/injectors/inj1\", \"threads\": 3},"
      + "  {\"id\": \"inj2\", \"kind\": \"ssh\", \"index\": 2, \"destination\": \"user@host\", \"java\": \"java\","
      + "   \"work_dir\": \"/home/u/hgs\", \"run_dir_on_host\": \"/home/u/hgs/runs/run-2-17\", \"threads\": 2}],"
      + " \"processes\": 1, \"threads_total\": 5, \"duration_s\": 30, \"target\": \"thrift\", \"embedded_hbase\": true,"
      + " \"lab\": {\"cpus\": \"auto\", \"server_cpus\": \"0\", \"client_cpus\": \"1\", \"isolated\": true, \"note\": \"lab.cpus = auto: server CPUs 0\"},"
      + " \"warmup_max_s\": 0, \"warmup_before_s\": 20, \"warmup_settle_s\": 12,"
      + " \"console\": {\"host\": \"127.0.0.1\", \"port\": 6372, \"ui\": \"headless\", \"linger_s\": 0, \"metrics_port\": 6398},"
      + " \"timeouts\": {\"agent_s\": 60, \"worker_start_s\": 180, \"run_s\": 270},"
      + " \"slo\": null, \"hbase_ssh\": null}";

  /** What bash sees after sourcing the assignments: each of NAMES on its own line ("NAME=value", arrays joined by |). */
  private static String sourced(Path dir, String assignments, String... names) throws IOException, InterruptedException {
    final Path file = Files.writeString(dir.resolve("plan.env"), assignments, StandardCharsets.UTF_8);
    final StringBuilder script = new StringBuilder("set -u; source \"$1\"\n");
    for (String name : names) {
      script.append("v=(\"${").append(name).append("[@]}\"); (IFS='|'; printf '%s=%s\\n' ").append(name).append(" \"${v[*]}\")\n");
    }
    final Process bash = new ProcessBuilder("bash", "-c", script.toString(), "bash", file.toString()).redirectErrorStream(true).start();
    final String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, bash.waitFor(), out);
    return out;
  }

  @Test
  void bashGetsEveryFieldItStartsARunWithQuotedAsWritten(@TempDir Path dir) throws Exception {
    final JsonObject plan = JsonParser.parseString(PLAN).getAsJsonObject();
    assertEquals(String.join("\n",
        "RUN_ID=run-2", "RUN_DIR=/tmp/it's runs/run-2", "PLAN=/tmp/it's runs/run-2/plan.json",
        "INJECTOR_MODE=namespaces", "THREADS_TOTAL=5", "TARGET=thrift", "EMBEDDED_HBASE=true",
        "HBASE_SSH=", "SLO=", "WARMUP_BEFORE_S=20", "WARMUP_SETTLE_S=12", "CONSOLE_HOST=127.0.0.1", "UI=headless",
        "METRICS_PORT=6398", "AGENT_TIMEOUT=60", "RUN_TIMEOUT=270",
        "HOST_IDS=inj1|inj2", "HOST_KIND=netns|ssh", "HOST_INDEX=1|2", "HOST_DEST=local|user@host", "HOST_JAVA=/usr/bin/java|java",
        "HOST_WORK=/tmp/it's runs/run-2/injectors/inj1|/home/u/hgs",
        "HOST_RUN_DIR=/tmp/it's runs/run-2/injectors/inj1|/home/u/hgs/runs/run-2-17", "HOST_THREADS=3|2",
        "LAB_SPEC=auto", "LAB_SERVER_CPUS=0", "LAB_CLIENT_CPUS=1", "LAB_ISOLATED=true", "LAB_NOTE=lab.cpus = auto: server CPUs 0", "LAB_WARMUP_SERVER_CPUS=", ""),
        sourced(dir, PlanShell.of(plan), "RUN_ID", "RUN_DIR", "PLAN", "INJECTOR_MODE", "THREADS_TOTAL", "TARGET", "EMBEDDED_HBASE",
            "HBASE_SSH", "SLO", "WARMUP_BEFORE_S", "WARMUP_SETTLE_S", "CONSOLE_HOST", "UI", "METRICS_PORT", "AGENT_TIMEOUT", "RUN_TIMEOUT", "HOST_IDS", "HOST_KIND", "HOST_INDEX", "HOST_DEST", "HOST_JAVA", "HOST_WORK",
            "HOST_RUN_DIR", "HOST_THREADS", "LAB_SPEC", "LAB_SERVER_CPUS", "LAB_CLIENT_CPUS", "LAB_ISOLATED", "LAB_NOTE", "LAB_WARMUP_SERVER_CPUS"));
  }

  @Test
  void auditAndSettleComeFromThePlansPropertiesAndAreFalseWhenAbsent(@TempDir Path dir) throws Exception {
    final JsonObject plan = JsonParser.parseString(PLAN).getAsJsonObject();
    assertEquals("AUDIT=false\nSETTLE=false\n", sourced(dir, PlanShell.of(plan), "AUDIT", "SETTLE"));
    final JsonObject properties = new JsonObject();
    properties.addProperty("hbaseload.settle", " TRUE ");
    properties.addProperty("hbaseload.audit", "false");
    plan.add("properties", properties);
    assertEquals("AUDIT=false\nSETTLE=true\n", sourced(dir, PlanShell.of(plan), "AUDIT", "SETTLE"));
  }

  @Test
  void anyTextSurvivesTheQuoting(@TempDir Path dir) throws Exception {
    final String nasty = "a'b \"c\" $(touch x) `d` \\e\n; f";
    assertEquals("V=" + nasty + "\nA=x|" + nasty + "|\n",
        sourced(dir, new ShellAssignments().scalar("V", nasty).array("A", List.of("x", nasty, "")).toString(), "V", "A"));
  }
}
