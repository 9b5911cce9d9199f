package io.github.hbasegrindersuite.shim;

/** {@link HostileInputBufferedProcessTest} with the framed transport. */
class HostileInputFramedProcessTest extends HostileInputBufferedProcessTest {

  @Override
  protected ShimConfig.Transport transport() {
    return ShimConfig.Transport.FRAMED;
  }
}
