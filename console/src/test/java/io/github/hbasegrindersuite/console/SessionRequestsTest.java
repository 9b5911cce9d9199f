package io.github.hbasegrindersuite.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionRequestsTest {

  @TempDir
  Path dir;

  private SessionRequests requests() throws Exception {
    Files.createDirectories(dir.resolve(SessionRequests.REQUESTS));
    return new SessionRequests(dir.toFile());
  }

  private void request(String name, String text) throws Exception {
    Files.writeString(dir.resolve(SessionRequests.REQUESTS).resolve(name + ".request"), text);
  }

  @Test
  void theOldestUnansweredRequestIsNextWithItsPlanAndProperties() throws Exception {
    final SessionRequests r = requests();
    request("run-2", "{\"plan\": \"/runs/run-2/plan.json\", \"properties\": \"/s/distribution/run-2.properties\"}");
    request("run-1", "{\"plan\": \"/runs/run-1/plan.json\", \"properties\": \"/s/distribution/run-1.properties\"}");
    Files.writeString(dir.resolve(SessionRequests.REQUESTS).resolve("run-1.done"), "kind=complete\ncode=0\n");
    final SessionRequests.Request next = r.next(0);
    assertEquals("run-2", next.name());
    assertEquals("/runs/run-2/plan.json", next.plan);
    assertEquals("/s/distribution/run-2.properties", next.properties);
    assertNull(next.unreadable);
  }

  @Test
  void noRequestWithinTheWaitIsNull() throws Exception {
    final long started = System.nanoTime();
    assertNull(requests().next(200));
    assertTrue(System.nanoTime() - started >= 200_000_000L, "waited its bound");
    assertFalse(requests().stopped());
  }

  @Test
  void anUnreadableRequestNamesWhyAndTheRunIsRefusedWithIt() throws Exception {
    final SessionRequests r = requests();
    request("run-3", "hbasegrinder.plan=/old/style.properties");
    final SessionRequests.Request next = r.next(0);
    assertEquals("run-3", next.name());
    assertNull(next.plan);
    assertTrue(next.unreadable != null && !next.unreadable.isEmpty(), String.valueOf(next.unreadable));
    request("run-4", "[\"a list\"]");
    assertEquals("not a JSON object", SessionRequests.Request.read("run-4", dir.resolve("requests/run-4.request").toFile()).unreadable);
  }

  @Test
  void aRequestWithoutAPlanIsNoRunAndAMissingPlanFileNamesTheKey() throws Exception {
    assertFalse(RunSettings.forRequest(null, "/p").isPresent());
    assertFalse(RunSettings.forRequest("  ", "/p").isPresent());
    final String message = assertThrows(RunSettings.SettingsException.class,
        () -> RunSettings.forRequest(dir.resolve("absent.json").toString(), null)).getMessage();
    assertTrue(message.startsWith(RunSettings.PLAN + ": "), message);
  }
}
