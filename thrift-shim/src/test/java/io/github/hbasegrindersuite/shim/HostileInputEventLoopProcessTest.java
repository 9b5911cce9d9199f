package io.github.hbasegrindersuite.shim;

import java.util.List;

/**
 * {@link HostileInputProcessTestBase} against the event-loop server (shim.server = eventloop) over
 * a stub HBase in a process with a 96 MiB heap, buffered transport.
 */
class HostileInputEventLoopProcessTest extends HostileInputBufferedProcessTest {

  @Override
  protected List<String> mainAndArguments() {
    return List.of(StubShim.class.getName(), "shim.server=eventloop");
  }
}
