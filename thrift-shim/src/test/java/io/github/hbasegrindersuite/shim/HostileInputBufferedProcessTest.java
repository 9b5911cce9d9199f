package io.github.hbasegrindersuite.shim;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * {@link HostileInputProcessTestBase} against the thread-pool server over a stub HBase in a process
 * with a 96 MiB heap, buffered transport (the default); {@link HostileInputEventLoopProcessTest}
 * the same on the default server.
 */
class HostileInputBufferedProcessTest extends HostileInputProcessTestBase {

  @Override
  protected ShimConfig.Transport transport() {
    return ShimConfig.Transport.BUFFERED;
  }

  @Override
  protected String heap() {
    return "96m";
  }

  @Override
  protected List<String> mainAndArguments() {
    return List.of(StubShim.class.getName(), "shim.server=threadpool");
  }

  @Override
  protected ByteBuffer table() {
    return ThriftClients.buf("t");
  }

  @Override
  protected int rowsInTable() {
    return StubHBase.SCAN_ROWS;
  }

  @Override
  protected int columnsOfRow0() {
    return 0; // the stub's gets find nothing
  }
}
