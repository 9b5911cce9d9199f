package io.github.hbasegrindersuite.shim;

/** {@link HostileInputBufferedProcessTest} (the thread-pool server) with the framed transport. */
class HostileInputFramedProcessTest extends HostileInputBufferedProcessTest {

  @Override
  protected ShimConfig.Transport transport() {
    return ShimConfig.Transport.FRAMED;
  }
}
