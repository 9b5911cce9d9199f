package io.github.hbasegrindersuite.shim.it;

import org.junit.jupiter.api.BeforeAll;

/**
 * Every test of {@link ShimDataPathIT} through the event-loop server (shim.server = eventloop):
 * get and put through HBase's asynchronous client on the shim's own event loops, every other call
 * through the blocking handler, all checked against the direct client.
 */
class ShimDataPathEventLoopIT extends ShimDataPathIT {

  @BeforeAll
  static void start() throws Exception { // hides ShimDataPathIT.start
    startWith("shim.server", "eventloop");
  }
}
