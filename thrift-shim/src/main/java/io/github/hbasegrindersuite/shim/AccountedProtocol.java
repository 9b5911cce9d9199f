package io.github.hbasegrindersuite.shim;

import java.nio.ByteBuffer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;

/**
 * The server's protocol (binary or compact) with the memory decoding allocates charged to the
 * connection's {@link RequestMemory.Account}. Decoded objects outweigh their bytes on the wire
 * many times over (measured: a compact putMultiple of empty columns, 8 bytes each on the wire,
 * holds 345 bytes per column once decoded and turned into HBase Puts, so a 16 MiB request would
 * fill most of a 1 GiB heap), so counting bytes alone would not bound the heap:
 * <ul>
 * <li>every struct, string and binary decoded is charged {@link #VALUE_BYTES}, strings and
 *     binaries their length besides (the copy decoding or HBase makes of them);</li>
 * <li>a list, set or map is checked before the generated code allocates it at the announced
 *     size: its elements take at least a byte each on the wire, so they must fit in what the
 *     request may still send (and, unframed, must have arrived: see
 *     {@link ShimSocketTransport#checkReadBytesAvailable}); its slots are charged 8 bytes each.</li>
 * </ul>
 */
final class AccountedProtocol extends TProtocolDecorator {

  /**
   * Charge per decoded value: a struct or a ByteBuffer with its array header, plus the HBase
   * object made from it (measured 100-211 bytes decoded and 245 more as HBase cells per minimal
   * TColumnValue, which is four values).
   */
  static final int VALUE_BYTES = 256;
  /** A reference slot in the list the generated code allocates, without compressed pointers. */
  static final int SLOT_BYTES = 8;

  private final RequestMemory.Account memory;
  private final boolean messageStartsRequest;

  /**
   * @param messageStartsRequest true when no one else ends requests (the nonblocking server):
   *     then each message header ends the previous request's charges
   */
  AccountedProtocol(TProtocol protocol, RequestMemory.Account memory, boolean messageStartsRequest) {
    super(protocol);
    this.memory = memory;
    this.messageStartsRequest = messageStartsRequest;
  }

  RequestMemory.Account memory() {
    return memory;
  }

  @Override
  public TMessage readMessageBegin() throws TException {
    if (messageStartsRequest) {
      memory.endRequest();
    }
    return super.readMessageBegin();
  }

  @Override
  public TStruct readStructBegin() throws TException {
    memory.charge(VALUE_BYTES);
    return super.readStructBegin();
  }

  @Override
  public String readString() throws TException {
    String s = super.readString();
    memory.charge(VALUE_BYTES + 2L * s.length());
    return s;
  }

  @Override
  public ByteBuffer readBinary() throws TException {
    ByteBuffer b = super.readBinary();
    memory.charge(VALUE_BYTES + (long) b.remaining());
    return b;
  }

  @Override
  public TList readListBegin() throws TException {
    TList l = super.readListBegin();
    beforeContainer(l.size, 1);
    return l;
  }

  @Override
  public TSet readSetBegin() throws TException {
    TSet s = super.readSetBegin();
    beforeContainer(s.size, 1);
    return s;
  }

  @Override
  public TMap readMapBegin() throws TException {
    TMap m = super.readMapBegin();
    beforeContainer(m.size, 2);
    return m;
  }

  private void beforeContainer(int elements, int minBytesEach) throws TException {
    if (elements < 0) {
      throw new TProtocolException(TProtocolException.NEGATIVE_SIZE, "negative container size: " + elements);
    }
    getTransport().checkReadBytesAvailable((long) elements * minBytesEach);
    memory.charge((long) elements * SLOT_BYTES + VALUE_BYTES);
  }
}
