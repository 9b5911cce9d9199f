package io.github.hbasegrindersuite.shim;

/**
 * Every test of {@link ShimServerTest} on the event-loop server (shim.server = eventloop; with a
 * stub HBase its loops are its own and every method runs on the handler).
 */
class ShimServerEventLoopTest extends ShimServerTest {
  @Override
  String server() {
    return "eventloop";
  }
}
