package io.github.hbasegrindersuite.worker.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.hbasegrindersuite.worker.SettingChoices;
import io.github.hbasegrindersuite.worker.Settings;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BothTargetsTest {

  /** A target that hands out one client and records that it was closed. */
  static final class Recording implements Target {
    final Client client = (Client) Proxy.newProxyInstance(Client.class.getClassLoader(), new Class<?>[] {Client.class},
        (proxy, method, args) -> method.getName().equals("toString") ? "client" : null);
    final List<String> events = new ArrayList<>();
    final boolean failOnClose;

    Recording(boolean failOnClose) {
      this.failOnClose = failOnClose;
    }

    @Override
    public Client client(SplittableRandom random) {
      events.add("client");
      return client;
    }

    @Override
    public void close() {
      events.add("closed");
      if (failOnClose) {
        throw new IllegalStateException("close failed");
      }
    }
  }

  @Test
  void threadsTakeDirectAndThriftInTurnFirstDirect() throws Exception {
    Recording direct = new Recording(false);
    Recording thrift = new Recording(false);
    BothTargets both = new BothTargets(direct, thrift);
    List<Client> handed = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      handed.add(both.client(new SplittableRandom(i)));
    }
    assertSame(direct.client, handed.get(0));
    assertSame(thrift.client, handed.get(1));
    assertSame(direct.client, handed.get(4));
    assertEquals(3, direct.events.size(), "threads 1, 3 and 5");
    assertEquals(2, thrift.events.size(), "threads 2 and 4");
  }

  @Test
  void closeClosesBothEvenWhenTheFirstFails() {
    Recording direct = new Recording(true);
    Recording thrift = new Recording(false);
    assertThrows(IllegalStateException.class, () -> new BothTargets(direct, thrift).close());
    assertTrue(direct.events.contains("closed"));
    assertTrue(thrift.events.contains("closed"), "the thrift target is closed after the direct one failed to close");
  }

  @Test
  void bothIsAnAcceptedTarget() throws Exception {
    assertEquals(SettingChoices.Target.BOTH, Settings.load(Map.of("hbaseload.target", "both")).target());
  }
}
