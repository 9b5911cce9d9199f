package io.github.hbasegrindersuite.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunArgumentsTest {
  private static final Path DEFAULT = Path.of("/suite/grinder.properties");

  private static RunArguments parse(String... args) throws LifecycleException {
    return RunArguments.parse(List.of(args), DEFAULT);
  }

  private static String refusal(String... args) {
    return assertThrows(LifecycleException.class, () -> parse(args)).getMessage();
  }

  @Test
  void defaultsAreOneInjectorAndTheCheckoutsProperties() throws Exception {
    final RunArguments run = parse();
    assertEquals(1, run.injectors);
    assertEquals(DEFAULT, run.properties);
    assertEquals(RunArguments.Lab.AUTO, run.lab);
    assertEquals("127.0.0.1", run.consoleHost);
    assertEquals(60, run.agentTimeoutSeconds);
    assertNull(run.runTimeoutSeconds);
    assertNull(run.metricsPort, "the live endpoint's port is ./suite run's default");
  }

  @Test
  void aWarmUpIsAutoOffOrABoundInSeconds() throws Exception {
    assertEquals(0, parse().warmupSeconds, "none unless asked");
    assertEquals(60, parse("--warmup", "auto").warmupSeconds);
    assertEquals(0, parse("--warmup", "off").warmupSeconds);
    assertEquals(45, parse("--warmup", "45").warmupSeconds);
    assertEquals(30, parse("--warmup-only", "30").warmupOnlySeconds);
    assertEquals("--warmup '601' is not accepted (accepted: auto, off, or the most seconds it may take, 1-600)", refusal("--warmup", "601"));
    assertEquals("--warmup 'yes' is not accepted (accepted: auto, off, or the most seconds it may take, 1-600)", refusal("--warmup", "yes"));
    assertEquals("--warmup-only '0' is not a whole number > 0", refusal("--warmup-only", "0"));
  }

  @Test
  void theMetricsPortIsAPortOrOff() throws Exception {
    assertEquals(9398, parse("--metrics-port", "9398").metricsPort);
    assertEquals(0, parse("--metrics-port", "off").metricsPort);
    assertEquals(0, parse("--metrics-port", "0").metricsPort);
    assertEquals("--metrics-port '65536' is not a port (accepted: 1-65535, or off)", refusal("--metrics-port", "65536"));
    assertEquals("--metrics-port 'on' is not a port (accepted: 1-65535, or off)", refusal("--metrics-port", "on"));
    assertEquals("--metrics-port needs a value", refusal("--metrics-port"));
  }

  @Test
  void optionsAreReadWithTheirValues() throws Exception {
    final RunArguments run = parse("--injectors", "4", "--threads", "301", "--duration", "2m", "--target", "thrift",
        "--set", "hbaseload.operations=get:100", "--set", "grinder.sleepTime=5", "--lab", "loopback", "--sweep-id", "sweep-3",
        "--sweep-point", "2", "--slo", "p99_ms<5");
    assertEquals(4, run.injectors);
    assertEquals(301, run.threads);
    assertEquals(120, run.durationSeconds);
    assertEquals("thrift", run.target);
    assertEquals(2, run.sets.size());
    assertEquals("hbaseload.operations", run.sets.get(0)[0]);
    assertEquals("get:100", run.sets.get(0)[1]);
    assertEquals(RunArguments.Lab.LOOPBACK, run.lab);
    assertEquals("sweep-3", run.sweepId);
    assertEquals(2, run.sweepPoint);
    assertEquals("p99_ms<5", run.slo);
  }

  @Test
  void eachBadOptionIsNamedWithWhatItAccepts() {
    assertEquals("--threads '0' is not a whole number > 0", refusal("--threads", "0"));
    assertEquals("--lab 'moon' is not accepted (accepted: auto, namespaces, loopback)", refusal("--injectors", "2", "--lab", "moon"));
    assertEquals("unknown argument '--frobnicate'", refusal("--frobnicate", "1"));
    assertTrue(assertThrows(LifecycleException.class, () -> parse("--frobnicate", "1")) instanceof LifecycleException.Usage);
    assertTrue(assertThrows(LifecycleException.class, () -> parse("--threads")) instanceof LifecycleException.Usage);
    assertFalse(assertThrows(LifecycleException.class, () -> parse("--threads", "0")) instanceof LifecycleException.Usage);
    assertEquals("--threads needs a value", refusal("--threads"));
    assertEquals("--duration '5x' is not a duration (accepted: 30, 30s, 2m)", refusal("--duration", "5x"));
    assertEquals("--target 'rest' is not accepted (accepted: direct, thrift)", refusal("--target", "rest"));
    assertEquals("--injectors 65: at most 64", refusal("--injectors", "65"));
    assertEquals("--injectors and --hosts exclude each other", refusal("--injectors", "2", "--hosts", "/x"));
    assertEquals("--sweep-id 'sweep-x' is not sweep-N", refusal("--sweep-id", "sweep-x"));
  }

  @Test
  void setAcceptsOneLineKeyValueOnly() {
    // A newline would smuggle an extra property line into the run's properties.
    assertEquals("--set 'grinder.threads=1 hbaseload.rows=5' is not KEY=VALUE on one line",
        refusal("--set", "grinder.threads=1\nhbaseload.rows=5"));
    assertEquals("--set 'nothing' is not KEY=VALUE on one line", refusal("--set", "nothing"));
  }

  @Test
  void theConsoleNeverListensEverywhere() {
    for (String everywhere : List.of("0.0.0.0", "0", "::", "0:0:0:0", "0.0")) {
      assertEquals("--console-host '" + everywhere + "' is not an address (0.0.0.0 and :: are refused)",
          refusal("--console-host", everywhere), everywhere);
    }
    assertEquals("--console-host 'a b' is not an address (0.0.0.0 and :: are refused)", refusal("--console-host", "a b"));
  }

  @Test
  void hbaseSshMayNotBeAnOption() {
    assertEquals("--hbase-ssh '-oProxyCommand=touch /tmp/x' is not an ssh destination (it may not start with '-')",
        refusal("--hbase-ssh", "-oProxyCommand=touch /tmp/x"));
  }
}
