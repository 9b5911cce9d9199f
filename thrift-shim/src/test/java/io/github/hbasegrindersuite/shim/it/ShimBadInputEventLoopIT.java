package io.github.hbasegrindersuite.shim.it;

import org.junit.jupiter.api.BeforeAll;

/**
 * Every test of {@link ShimBadInputIT} through the event-loop server (shim.server = eventloop):
 * HBase's asynchronous client must fail a get or put exactly as the blocking one does.
 */
class ShimBadInputEventLoopIT extends ShimBadInputIT {

  @BeforeAll
  static void start() throws Exception { // hides ShimBadInputIT.start
    startWith("shim.server", "eventloop");
  }
}
