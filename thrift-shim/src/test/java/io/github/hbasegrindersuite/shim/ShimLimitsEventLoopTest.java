package io.github.hbasegrindersuite.shim;

/**
 * Every limit of {@link ShimLimitsTest} (request deadline, idle timeout, room at the connection
 * limit, request memory) on the event-loop server.
 */
class ShimLimitsEventLoopTest extends ShimLimitsTest {
  @Override
  String server() {
    return "eventloop";
  }
}
