package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Dispatches one request to the handler, the way libthrift's TBaseProcessor does, plus what the
 * shim adds around every call: the whole-call timer (header read to response flushed), the count
 * of requests in progress (for the drain on SIGTERM), and quiet, counted handling of bad input:
 * <ul>
 * <li>an unknown method: TApplicationException UNKNOWN_METHOD, the connection stays open;</li>
 * <li>arguments that cannot be decoded, or a request above {@code shim.max.frame.bytes}:
 *     TApplicationException PROTOCOL_ERROR naming the problem; with framed transport the rest of
 *     the frame is skipped and the connection stays open, with the unframed (buffered) transport
 *     the rest of the stream cannot be trusted and the connection is closed ({@link BadRequest});</li>
 * <li>a request header that cannot be decoded (garbage, wrong protocol): the connection is
 *     closed; a frame larger than the limit gets a PROTOCOL_ERROR first;</li>
 * <li>a request that did not arrive within {@code shim.request.read.timeout.ms}, or that the
 *     memory for requests being read ({@code shim.max.request.memory.bytes}) cannot hold: a
 *     TApplicationException saying so (INTERNAL_ERROR when it may pass later, PROTOCOL_ERROR when
 *     it never will), then as above.</li>
 * </ul>
 * Nothing is logged per request; every case moves a counter.
 */
public final class ShimProcessor implements TProcessor {

  private final Map<String, ProcessFunction<THBaseService.Iface, ? extends TBase>> functions;
  private final Map<String, Op> ops = new HashMap<>();
  private final THBaseService.Iface handler;
  private final ShimMetrics metrics;
  private final long maxRequestBytes;
  private final AtomicInteger active = new AtomicInteger();

  public ShimProcessor(THBaseService.Iface handler, ShimMetrics metrics, long maxRequestBytes) {
    this.handler = handler;
    this.metrics = metrics;
    this.maxRequestBytes = maxRequestBytes;
    this.functions = new THBaseService.Processor<>(handler).getProcessMapView();
    for (String name : functions.keySet()) {
      Op op = Op.byThriftName(name);
      if (op == null) {
        throw new IllegalStateException("THBaseService method " + name + " has no Op");
      }
      ops.put(name, op);
    }
  }

  /** Requests between header read and response flushed. */
  public int active() {
    return active.get();
  }

  /**
   * Ends the connection: the server closes it as if the client had gone away. The cause was
   * already counted and, where a reply was possible, answered.
   */
  public static final class BadRequest extends TTransportException {
    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
      super(TTransportException.END_OF_FILE, message);
    }
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    TMessage msg;
    try {
      msg = in.readMessageBegin();
    } catch (TProtocolException e) {
      countDecodeFailure(e);
      throw new BadRequest("undecodable request header: " + e.getMessage());
    } catch (TTransportException e) {
      TApplicationException refused = refusal(e);
      if (refused != null) {
        // the header is unread: no name or sequence id, but stock clients raise an EXCEPTION reply anyway
        replyQuietly(out, new TMessage("", TMessageType.EXCEPTION, 0), refused);
        // a client too slow to send its request is not waited for again; the others may read the answer
        throw e instanceof RequestCycle.TimedOut ? e : new BadRequest(e.getMessage());
      }
      if (isSizeLimit(e)) {
        metrics.oversizedRequests.increment();
        if (e.getType() == TTransportException.CORRUPTED_DATA) {
          // a frame above the limit: its header is unread, so no name or sequence id, but stock
          // clients raise an EXCEPTION reply whatever its sequence id
          replyQuietly(out, new TMessage("", TMessageType.EXCEPTION, 0), new TApplicationException(
              TApplicationException.PROTOCOL_ERROR, "thrift-shim: " + e.getMessage()
                  + " (shim.max.frame.bytes=" + maxRequestBytes + "); closing the connection"));
        }
        throw new BadRequest(e.getMessage());
      }
      if (e.getType() == TTransportException.CORRUPTED_DATA) {
        metrics.malformedRequests.increment(); // e.g. a negative frame size: not a framed client
        throw new BadRequest(e.getMessage());
      }
      throw e; // the client went away, or the idle timeout passed
    }
    long start = System.nanoTime();
    active.incrementAndGet();
    try {
      dispatch(msg, in, out, start);
    } finally {
      active.decrementAndGet();
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private void dispatch(TMessage msg, TProtocol in, TProtocol out, long start) throws TException {
    ProcessFunction fn = functions.get(msg.name);
    if (fn == null || msg.type != TMessageType.CALL) {
      metrics.unknownMethods.increment();
      try {
        TProtocolUtil.skip(in, TType.STRUCT);
        in.readMessageEnd();
      } catch (TProtocolException | TTransportException e) {
        reject(in, out, msg, e, "unknown method " + msg.name);
        return;
      }
      requestArrived(in);
      reply(out, msg, new TApplicationException(TApplicationException.UNKNOWN_METHOD,
          fn == null ? "thrift-shim: THBaseService (hbase-thrift 2.6.1) has no method '" + msg.name + "'"
              : "thrift-shim: message type " + msg.type + " is not a call"));
      return;
    }
    Op op = ops.get(msg.name);
    TTransport t = in.getTransport();
    long frame = t instanceof ShimSocketTransport ? -1 : t.getBytesRemainingInBuffer();
    if (frame > maxRequestBytes) {
      // only the nonblocking server gets here: it reads frames up to 4x the limit itself
      metrics.oversizedRequests.increment();
      reply(out, msg, new TApplicationException(TApplicationException.PROTOCOL_ERROR,
          "thrift-shim: request of " + frame + " bytes exceeds shim.max.frame.bytes=" + maxRequestBytes));
      t.consumeBuffer(t.getBytesRemainingInBuffer());
      return;
    }
    TBase args = fn.getEmptyArgsInstance();
    try {
      args.read(in);
      in.readMessageEnd();
    } catch (TProtocolException | TTransportException e) {
      reject(in, out, msg, e, msg.name);
      return;
    }
    requestArrived(in);
    TBase result;
    try {
      result = fn.getResult(handler, args);
    } catch (TException | RuntimeException e) {
      // the handler maps every failure to a declared exception: this is a bug, answered not logged
      metrics.error(op, ErrorKind.INTERNAL);
      reply(out, msg, new TApplicationException(TApplicationException.INTERNAL_ERROR,
          "thrift-shim internal error in " + msg.name + ": " + e));
      metrics.recordCall(op, System.nanoTime() - start);
      return;
    }
    out.writeMessageBegin(new TMessage(msg.name, TMessageType.REPLY, msg.seqid));
    result.write(out);
    out.writeMessageEnd();
    out.getTransport().flush();
    metrics.recordCall(op, System.nanoTime() - start);
  }

  /**
   * The request has arrived in full: on the thread-pool server its connection is in a call from
   * now on, so it is no longer one that may be closed to make room at the connection limit (or
   * it was closed just before, and this ends it).
   */
  private static void requestArrived(TProtocol in) throws TTransportException {
    TTransport t = in.getTransport();
    if (t instanceof ShimFramedTransport) {
      t = ((ShimFramedTransport) t).getInnerTransport();
    }
    if (t instanceof ShimSocketTransport) {
      ((ShimSocketTransport) t).cycle().requestRead();
    }
  }

  /**
   * Arguments that could not be read: answer, then skip the rest of the frame (framed) or end
   * the connection (unframed, or a request still arriving too slowly). A client that went away
   * mid-request just ends the connection.
   */
  private void reject(TProtocol in, TProtocol out, TMessage msg, TException e, String what) throws TException {
    TApplicationException answer = refusal(e);
    if (answer == null) {
      if (e instanceof TTransportException && !isSizeLimit((TTransportException) e)
          && ((TTransportException) e).getType() != TTransportException.CORRUPTED_DATA) {
        throw (TTransportException) e;
      }
      boolean oversized = countDecodeFailure(e);
      answer = new TApplicationException(TApplicationException.PROTOCOL_ERROR, oversized
          ? "thrift-shim: request exceeds shim.max.frame.bytes=" + maxRequestBytes + " (" + e.getMessage() + ")"
          : "thrift-shim: cannot decode the arguments of " + what + ": " + e.getMessage());
    }
    if (e instanceof RequestCycle.TimedOut) {
      replyQuietly(out, msg, answer);
      throw (RequestCycle.TimedOut) e; // not waited for again
    }
    reply(out, msg, answer);
    TTransport t = in.getTransport();
    if (t instanceof ByteBufTransport) {
      // the event-loop server cut this request whole, framed or not: the next one starts cleanly
      t.consumeBuffer(((ByteBufTransport) t).remaining());
      return;
    }
    if (!(t instanceof ShimSocketTransport)) {
      // framed (ShimFramedTransport, or the nonblocking server's frames): skip the rest
      int left = t.getBytesRemainingInBuffer();
      if (left >= 0) {
        t.consumeBuffer(left);
        return; // frame-delimited: the next request starts cleanly
      }
    }
    throw new BadRequest("undecodable request: " + e.getMessage());
  }

  /**
   * The answer to a request the shim's transports stopped reading on purpose (too slow, or no
   * memory for it), counted (a request too slow ends its connection, counted there); null for
   * any other failure.
   */
  private TApplicationException refusal(TException e) {
    if (e instanceof RequestCycle.TimedOut) {
      return new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage());
    }
    if (e instanceof RequestMemory.Exhausted) {
      metrics.requestsRefusedForMemory.increment();
      return new TApplicationException(((RequestMemory.Exhausted) e).retryable
          ? TApplicationException.INTERNAL_ERROR : TApplicationException.PROTOCOL_ERROR, e.getMessage());
    }
    return null;
  }

  private static void reply(TProtocol out, TMessage msg, TApplicationException x) throws TException {
    out.writeMessageBegin(new TMessage(msg.name, TMessageType.EXCEPTION, msg.seqid));
    x.write(out);
    out.writeMessageEnd();
    out.getTransport().flush();
  }

  private static void replyQuietly(TProtocol out, TMessage msg, TApplicationException x) {
    try {
      reply(out, msg, x);
    } catch (TException | RuntimeException ignored) {
      // the client may be gone already
    }
  }

  /** Counts a decoding failure as oversized or malformed; returns whether it was oversized. */
  private boolean countDecodeFailure(TException e) {
    boolean oversized = (e instanceof TProtocolException
        && ((TProtocolException) e).getType() == TProtocolException.SIZE_LIMIT)
        || (e instanceof TTransportException && isSizeLimit((TTransportException) e));
    if (oversized) {
      metrics.oversizedRequests.increment();
    } else {
      metrics.malformedRequests.increment();
    }
    return oversized;
  }

  /** Thrift's own words for "too large": MaxMessageSize reached, frame larger than max length. */
  private static boolean isSizeLimit(TTransportException e) {
    String m = e.getMessage();
    return m != null && (m.contains("MaxMessageSize") || m.contains("larger than max length"));
  }
}
