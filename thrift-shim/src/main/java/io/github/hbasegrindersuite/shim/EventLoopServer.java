package io.github.hbasegrindersuite.shim;

import io.github.hbasegrindersuite.shim.metrics.ShimMetrics;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import org.apache.hbase.thirdparty.io.netty.bootstrap.ServerBootstrap;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.PooledByteBufAllocator;
import org.apache.hbase.thirdparty.io.netty.channel.Channel;
import org.apache.hbase.thirdparty.io.netty.channel.ChannelFuture;
import org.apache.hbase.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.hbase.thirdparty.io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.hbase.thirdparty.io.netty.channel.ChannelInitializer;
import org.apache.hbase.thirdparty.io.netty.channel.ChannelOption;
import org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.ServerChannel;
import org.apache.hbase.thirdparty.io.netty.channel.socket.SocketChannel;
import org.apache.hbase.thirdparty.io.netty.handler.codec.ByteToMessageDecoder;
import org.apache.hbase.thirdparty.io.netty.util.concurrent.ScheduledFuture;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-loop server ({@code shim.server = eventloop}): the shim's connections live on the
 * same netty event loops as its HBase client, so a get or put is read, sent to HBase, and answered
 * on one thread with no hand-off: a wake-up when the request arrives and one when HBase answers,
 * where the thread-pool server has four (its connection thread and the HBase client's event loop
 * each wake twice; bench/results/2026-11-27-shim-put-path.md). Every other method runs on the
 * blocking handler in a small pool, as on the other servers.
 *
 * <p>The edges as on the thread-pool server: at most {@code shim.max.connections} (at the limit the
 * connection that has waited longest without a complete request is closed to make room, else the
 * new one is refused); a request must arrive in full within {@code shim.request.read.timeout.ms}
 * of its first byte; a connection idle between requests for {@code shim.idle.timeout.ms} is
 * closed; a request above {@code shim.max.frame.bytes} gets a PROTOCOL_ERROR and its connection
 * is closed; the bytes of requests being read count against {@code shim.max.request.memory.bytes}.
 * A client's requests are answered in order, one at a time (stock Thrift clients send the next
 * only after the answer).
 */
final class EventLoopServer {

  private static final Logger LOG = LoggerFactory.getLogger(EventLoopServer.class);

  private final Channel serverChannel;
  private final ShimProcessor processor;
  private final AsyncDataPath async;
  private final ExecutorService blockingCalls;
  private final TProtocolFactory protocols;
  private final ShimMetrics metrics;
  private final boolean framed;
  private final int maxRequestBytes;
  private final long requestTimeoutMillis;
  private final int idleTimeoutMillis;
  private final TConfiguration thriftConfig;
  private final RequestMemory requestMemory;
  private final ConnectionSlots slots;
  private final long acceptWaitMillis;
  private final ConnectionLimitLog limitLog;
  /** Admission may wait for a slot (up to shim.accept.wait.ms): never on an event loop. */
  private final ExecutorService admission = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "shim-admission");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopping;

  /**
   * @param async get and put through HBase's asynchronous client; null: every method on the
   *     blocking handler (the unit tests' stub handlers)
   */
  EventLoopServer(InetSocketAddress bind, ShimConfig config, EventLoopGroup group,
      Class<? extends ServerChannel> serverChannelClass, AsyncDataPath async, ShimProcessor processor,
      ExecutorService blockingCalls, TProtocolFactory protocols, RequestMemory requestMemory, ShimMetrics metrics)
      throws java.net.BindException {
    this.async = async;
    this.processor = processor;
    this.blockingCalls = blockingCalls;
    this.protocols = protocols;
    this.metrics = metrics;
    this.requestMemory = requestMemory;
    this.framed = config.transport() == ShimConfig.Transport.FRAMED;
    this.maxRequestBytes = config.intValue(ShimConfig.Key.MAX_FRAME_BYTES);
    this.requestTimeoutMillis = config.longValue(ShimConfig.Key.REQUEST_READ_TIMEOUT_MS);
    this.idleTimeoutMillis = config.intValue(ShimConfig.Key.IDLE_TIMEOUT_MS);
    this.thriftConfig = new TConfiguration(maxRequestBytes + 64, maxRequestBytes, TConfiguration.DEFAULT_RECURSION_DEPTH);
    int maxConnections = config.intValue(ShimConfig.Key.MAX_CONNECTIONS);
    this.acceptWaitMillis = config.longValue(ShimConfig.Key.ACCEPT_WAIT_MS);
    this.limitLog = new ConnectionLimitLog(maxConnections, acceptWaitMillis, ConnectionLimitLog.INTERVAL_MILLIS,
        line -> LOG.warn(line));
    this.slots = ConnectionSlots.of(config, metrics, limitLog);
    ServerBootstrap b = new ServerBootstrap()
        .group(group)
        .channel(serverChannelClass)
        .option(ChannelOption.SO_BACKLOG, 256)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childOption(ChannelOption.AUTO_READ, false) // from admission on
        // heap buffers: Thrift's binary fields are then views of the request, not copies
        .childOption(ChannelOption.ALLOCATOR, new PooledByteBufAllocator(false))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            Connection c = new Connection(ch);
            ch.pipeline().addLast("requests", c.decoder).addLast("calls", c.calls);
          }
        });
    ChannelFuture bound = b.bind(bind).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      admission.shutdownNow();
      // netty's native transport fails with its own IOException: say it as the other servers do
      java.net.BindException e = new java.net.BindException(String.valueOf(bound.cause().getMessage()));
      e.initCause(bound.cause());
      throw e;
    }
    this.serverChannel = bound.channel();
  }

  int port() {
    return ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  int openConnections() {
    return slots.size();
  }

  int idleConnections() {
    return slots.idle();
  }

  /** Open connections by phase of their request cycle, named as the metrics name them (new, reading, call, idle). */
  java.util.Map<String, Long> connectionPhases() {
    return slots.namedPhases();
  }

  /** Stops accepting connections; the ones open keep being served. */
  void stopAccepting() {
    stopping = true;
    serverChannel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
  }

  /** Closes every connection. */
  void close() {
    stopAccepting();
    admission.shutdownNow();
    for (ConnectionSlots.Member m : slots.members()) {
      m.close();
    }
  }

  /**
   * One client connection: its slot, where it is in its request cycle, the memory its request
   * holds, and the one timer that enforces the request deadline and the idle timeout. Everything
   * but admission and eviction runs on the channel's event loop.
   */
  private final class Connection implements ConnectionSlots.Member {
    final SocketChannel channel;
    final RequestCycle cycle = new RequestCycle(requestTimeoutMillis, idleTimeoutMillis, System.nanoTime());
    final RequestMemory.Account memory = requestMemory.account();
    final RequestDecoder decoder = new RequestDecoder(this);
    final Calls calls = new Calls(this);
    boolean admitted;
    /** A request has been cut and not yet answered: the next one waits in the decoder. */
    boolean busy;
    /** A call runs on the blocking handler, which charges decoding to {@link #memory} meanwhile. */
    volatile boolean inBlockingCall;
    ScheduledFuture<?> timer;
    long timerAt = Long.MAX_VALUE;
    /** Refused and closing: bytes it may still drop (-1: not refused). */
    long lingerBudget = -1;

    Connection(SocketChannel channel) {
      this.channel = channel;
    }

    @Override
    public RequestCycle cycle() {
      return cycle;
    }

    @Override
    public void close() {
      channel.close();
    }

    /** Arms the timer for the cycle's next deadline unless it fires sooner already. */
    void arm() {
      long now = System.nanoTime();
      long at = deadline(now);
      if (at >= timerAt && timer != null && !timer.isDone()) {
        return; // fires sooner, and arms again then
      }
      if (timer != null) {
        timer.cancel(false);
      }
      timerAt = at;
      timer = at == Long.MAX_VALUE ? null
          : channel.eventLoop().schedule(this::check, Math.max(0, at - now), TimeUnit.NANOSECONDS);
    }

    private long deadline(long now) {
      RequestCycle.Phase p = cycle.phase();
      if (p.stalled()) {
        return cycle.sinceNanos() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis);
      }
      if (p == RequestCycle.Phase.IDLE) {
        return idleTimeoutMillis == 0 ? Long.MAX_VALUE : cycle.sinceNanos() + TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
      }
      return now + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis); // in a call: look again later
    }

    private void check() {
      timer = null;
      timerAt = Long.MAX_VALUE;
      if (!channel.isActive()) {
        return;
      }
      long now = System.nanoTime();
      RequestCycle.Phase p = cycle.phase();
      if (p.stalled() && cycle.expired(now)) {
        RequestCycle.TimedOut t = cycle.timedOut();
        metrics.connectionClosed(t.nothingArrived ? CloseReason.NO_REQUEST : CloseReason.REQUEST_TIMEOUT);
        // stock clients raise an EXCEPTION reply whatever its name and sequence id
        refuse(new TMessage("", TMessageType.EXCEPTION, 0),
            new TApplicationException(TApplicationException.PROTOCOL_ERROR, t.getMessage()));
        return;
      }
      if (p == RequestCycle.Phase.IDLE && idleTimeoutMillis > 0
          && now - cycle.sinceNanos() >= TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis)) {
        metrics.connectionClosed(CloseReason.IDLE_TIMEOUT);
        channel.close();
        return;
      }
      arm();
    }

    /**
     * Answers with an exception and closes. Closing with unread input makes the kernel send a
     * reset, which can destroy the answer before the client reads it; so, as the thread-pool
     * server does, the answer is followed by a FIN and what the client still sends is read and
     * dropped (at most 1 s and 4x the request limit) before the close.
     */
    void refuse(TMessage msg, TApplicationException x) {
      if (lingerBudget >= 0) {
        return; // refused already
      }
      lingerBudget = 4L * maxRequestBytes;
      busy = true; // no more requests
      channel.config().setAutoRead(true);
      channel.writeAndFlush(exception(msg, x)).addListener(f -> {
        if (f.isSuccess()) {
          channel.shutdownOutput();
        } else {
          channel.close();
        }
      });
      channel.eventLoop().schedule(() -> channel.close(), 1, TimeUnit.SECONDS);
    }

    /** After a refusal: drops what arrives, and closes once the budget is spent. */
    void drop(ByteBuf in) {
      lingerBudget -= in.readableBytes();
      in.skipBytes(in.readableBytes());
      if (lingerBudget < 0) {
        channel.close();
      }
    }
  }

  /**
   * Cuts the stream into whole requests: a frame, or (unframed) one message found by skipping
   * over it, tried again as more bytes arrive. Moves the request cycle on and charges the bytes
   * held to the request memory.
   */
  private final class RequestDecoder extends ByteToMessageDecoder {
    private final Connection c;

    RequestDecoder(Connection c) {
      this.c = c;
    }

    /** Bytes received and not yet cut into a request (the next request has started when > 0). */
    int pending() {
      return actualReadableBytes();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (c.lingerBudget >= 0) {
        c.drop(in);
        return;
      }
      if (c.busy || !in.isReadable() || !ctx.channel().isActive()) {
        return;
      }
      RequestCycle.Phase before = c.cycle.phase();
      c.cycle.bytesArrived();
      if (before == RequestCycle.Phase.IDLE) {
        c.arm(); // the request deadline now applies, sooner than the idle timeout
      }
      int start = in.readerIndex();
      int length;
      if (framed) {
        if (in.readableBytes() < 4 || !charge(ctx, in)) {
          return;
        }
        int size = in.getInt(start);
        if (size < 0 || size > maxRequestBytes) {
          metrics.oversizedRequests.increment();
          discard(in);
          c.refuse(new TMessage("", TMessageType.EXCEPTION, 0), new TApplicationException(
              TApplicationException.PROTOCOL_ERROR, "thrift-shim: frame of " + size + " bytes exceeds "
                  + "shim.max.frame.bytes=" + maxRequestBytes + "; closing the connection"));
          return;
        }
        if (in.readableBytes() < 4 + size) {
          return;
        }
        in.skipBytes(4);
        start += 4;
        length = size;
      } else {
        // the skip pass may read binaries as views of the buffer: nothing it reads is kept
        TProtocol p = protocols.getProtocol(new ByteBufTransport(in, thriftConfig, true));
        try {
          p.readMessageBegin();
          TProtocolUtil.skip(p, TType.STRUCT, 64);
          p.readMessageEnd();
          length = in.readerIndex() - start;
          in.readerIndex(start);
        } catch (TTransportException e) {
          in.readerIndex(start); // not all here yet, unless it announced more than may ever come
          if (e.getType() != TTransportException.END_OF_FILE || in.readableBytes() > maxRequestBytes) {
            metrics.oversizedRequests.increment();
            discard(in);
            c.refuse(new TMessage("", TMessageType.EXCEPTION, 0), new TApplicationException(
                TApplicationException.PROTOCOL_ERROR, "thrift-shim: request exceeds shim.max.frame.bytes="
                    + maxRequestBytes + "; closing the connection"));
          } else {
            charge(ctx, in);
          }
          return;
        } catch (TException | RuntimeException e) {
          boolean oversized = e instanceof TProtocolException
              && ((TProtocolException) e).getType() == TProtocolException.SIZE_LIMIT;
          (oversized ? metrics.oversizedRequests : metrics.malformedRequests).increment();
          discard(in);
          if (oversized) {
            c.refuse(new TMessage("", TMessageType.EXCEPTION, 0), new TApplicationException(
                TApplicationException.PROTOCOL_ERROR, "thrift-shim: request exceeds shim.max.frame.bytes="
                    + maxRequestBytes + " (" + e.getMessage() + "); closing the connection"));
          } else {
            ctx.close(); // not Thrift: nothing to answer
          }
          return;
        }
      }
      try {
        c.cycle.requestRead();
      } catch (RequestCycle.Evicted e) {
        discard(in);
        ctx.close();
        return;
      }
      // one request at a time: the next is read once this one is answered
      c.busy = true;
      ctx.channel().config().setAutoRead(false);
      out.add(in.retainedSlice(start, length));
      in.readerIndex(start + length);
    }

    /** Charges what the partial request holds; refuses it when the memory for requests is exhausted. */
    private boolean charge(ChannelHandlerContext ctx, ByteBuf in) {
      long more = in.readableBytes() - c.memory.charged();
      if (more <= 0) {
        return true;
      }
      try {
        c.memory.charge(more);
        return true;
      } catch (RequestMemory.Exhausted e) {
        metrics.requestsRefusedForMemory.increment();
        discard(in);
        c.refuse(new TMessage("", TMessageType.EXCEPTION, 0), new TApplicationException(
            e.retryable ? TApplicationException.INTERNAL_ERROR : TApplicationException.PROTOCOL_ERROR, e.getMessage()));
        return false;
      }
    }

    private void discard(ByteBuf in) {
      in.skipBytes(in.readableBytes());
      c.memory.endRequest();
    }
  }

  /** Serves a connection's requests one at a time, in order. */
  private final class Calls extends ChannelInboundHandlerAdapter {
    private final Connection c;

    Calls(Connection c) {
      this.c = c;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      if (stopping) {
        ctx.close();
        return;
      }
      try {
        admission.execute(() -> {
          boolean ok;
          try {
            ok = slots.admit(c, acceptWaitMillis, () -> stopping || !c.channel.isActive());
          } catch (InterruptedException e) {
            ok = false;
          }
          boolean admitted = ok;
          c.channel.eventLoop().execute(() -> admitted(ctx, admitted));
        });
      } catch (RejectedExecutionException e) {
        ctx.close(); // shutting down
      }
    }

    private void admitted(ChannelHandlerContext ctx, boolean ok) {
      if (!ok || !ctx.channel().isActive()) {
        if (ok) {
          slots.release(c);
        } else if (!stopping && ctx.channel().isActive()) { // else the client left before it was admitted
          metrics.connectionsRejected.increment();
          limitLog.refused(System.nanoTime());
        }
        ctx.close();
        return;
      }
      c.admitted = true;
      metrics.connectionsAccepted.increment();
      c.arm();
      ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (c.timer != null) {
        c.timer.cancel(false);
      }
      if (!c.inBlockingCall) { // else its end gives the memory back
        c.memory.endRequest();
      }
      if (c.admitted) {
        slots.release(c);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close(); // e.g. a reset by the client
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf request = (ByteBuf) msg;
      long start = System.nanoTime();
      // binaries are copies, as on the other servers (some of HBase's conversions read a
      // ByteBuffer's whole backing array)
      TProtocol in = protocols.getProtocol(new ByteBufTransport(request, thriftConfig, false));
      TMessage header;
      try {
        header = in.readMessageBegin();
      } catch (TException | RuntimeException e) {
        request.release();
        metrics.malformedRequests.increment();
        ctx.close();
        return;
      }
      TBase<?, ?> args = async == null || header.type != TMessageType.CALL ? null : AsyncDataPath.emptyArgs(header.name);
      if (args != null) {
        try {
          args.read(in);
          in.readMessageEnd();
        } catch (TException | RuntimeException e) {
          request.release();
          metrics.malformedRequests.increment();
          c.refuse(header, new TApplicationException(TApplicationException.PROTOCOL_ERROR,
              "thrift-shim: cannot decode the arguments of " + header.name + ": " + e.getMessage()));
          return;
        }
        Op op = Op.byThriftName(header.name);
        // HBase's Get and Put copy what they need from the request: its buffer can go
        java.util.concurrent.CompletableFuture<TBase<?, ?>> call = async.call(args);
        request.release();
        call.whenComplete((result, e) -> {
          if (ctx.executor().inEventLoop()) {
            answered(ctx, header, result, e, op, start);
          } else {
            ctx.executor().execute(() -> answered(ctx, header, result, e, op, start));
          }
        });
        return;
      }
      request.resetReaderIndex(); // the processor reads the request from its start
      byte[] whole = new byte[request.readableBytes()];
      request.readBytes(whole);
      request.release();
      try {
        c.inBlockingCall = true;
        blockingCalls.execute(() -> serveBlocking(ctx, whole, c.memory));
      } catch (RejectedExecutionException e) {
        c.inBlockingCall = false;
        // as many calls running as shim.max.inflight admits: the gate would refuse this one too
        Op op = Op.byThriftName(header.name);
        if (op != null) {
          metrics.error(op, ErrorKind.OVERLOADED);
        }
        c.refuse(header, new TApplicationException(TApplicationException.INTERNAL_ERROR,
            "thrift-shim overloaded: shim.max.inflight calls already in progress; retry later"));
      }
    }

    /** A method other than get and put, on the blocking handler: as the thread-pool server runs it. */
    private void serveBlocking(ChannelHandlerContext ctx, byte[] request, RequestMemory.Account memory) {
      TMemoryBuffer reply = memory(256);
      boolean close = false;
      try {
        // what decoding allocates is charged as on the thread-pool server (the bytes already are)
        // binaries are copies, as on the other servers (some of HBase's conversions read a
        // ByteBuffer's whole backing array: createTable's split keys came out as the whole request)
        processor.process(new AccountedProtocol(protocols.getProtocol(new ByteBufTransport(
            org.apache.hbase.thirdparty.io.netty.buffer.Unpooled.wrappedBuffer(request), thriftConfig, false)),
            memory, false), protocols.getProtocol(reply));
      } catch (TException | RuntimeException e) {
        close = true; // answered where it could be (BadRequest), or not Thrift
      }
      ByteBuf out = PooledByteBufAllocator.DEFAULT.heapBuffer(reply.length() + 4);
      if (framed) {
        out.writeInt(reply.length());
      }
      out.writeBytes(reply.getArray(), 0, reply.length());
      boolean closeAfter = close;
      ctx.executor().execute(() -> {
        c.inBlockingCall = false;
        if (!ctx.channel().isActive()) {
          out.release();
          c.memory.endRequest(); // the client left during the call
          return;
        }
        if (closeAfter) {
          ctx.writeAndFlush(out).addListener(f -> ctx.close());
        } else {
          next(ctx, out);
        }
      });
    }

    private void answered(ChannelHandlerContext ctx, TMessage header, TBase<?, ?> result, Throwable e, Op op, long start) {
      ByteBuf reply = e == null ? reply(ctx, header, result)
          : exception(header, new TApplicationException(TApplicationException.INTERNAL_ERROR,
              "thrift-shim internal error in " + header.name + ": " + e));
      if (e != null) {
        metrics.error(op, ErrorKind.INTERNAL);
      }
      next(ctx, reply);
      metrics.recordCall(op, System.nanoTime() - start);
    }

    /** Writes an answer and goes on to the next request. On the channel's loop. */
    private void next(ChannelHandlerContext ctx, ByteBuf reply) {
      ctx.writeAndFlush(reply, ctx.voidPromise());
      c.memory.endRequest();
      c.busy = false;
      boolean nextStarted = c.decoder.pending() > 0;
      c.cycle.requestEnded(nextStarted, System.nanoTime());
      c.arm(); // the idle timeout may be sooner than the timer
      ctx.channel().config().setAutoRead(true);
      if (nextStarted) {
        // bytes of the next request came with this one: cut them now (not from inside a decode)
        ctx.executor().execute(() -> ctx.pipeline().fireChannelRead(ctx.alloc().buffer(0)));
      }
    }

    private ByteBuf reply(ChannelHandlerContext ctx, TMessage msg, TBase<?, ?> result) {
      ByteBuf out = ctx.alloc().buffer(256);
      int at = out.writerIndex();
      if (framed) {
        out.writeInt(0);
      }
      try {
        TProtocol p = protocols.getProtocol(new ByteBufTransport(out, thriftConfig, false));
        p.writeMessageBegin(new TMessage(msg.name, TMessageType.REPLY, msg.seqid));
        result.write(p);
        p.writeMessageEnd();
      } catch (TException e) {
        out.release();
        return exception(msg, new TApplicationException(TApplicationException.INTERNAL_ERROR,
            "thrift-shim internal error writing " + msg.name + ": " + e.getMessage()));
      }
      if (framed) {
        out.setInt(at, out.writerIndex() - at - 4);
      }
      return out;
    }
  }

  private static TMemoryBuffer memory(int size) {
    try {
      return new TMemoryBuffer(size);
    } catch (TTransportException e) {
      throw new IllegalStateException(e); // only for a size above the default message size
    }
  }

  /** An exception message, framed when the transport is. */
  private ByteBuf exception(TMessage msg, TApplicationException x) {
    TMemoryBuffer b = memory(128);
    try {
      TProtocol p = protocols.getProtocol(b);
      p.writeMessageBegin(new TMessage(msg.name, TMessageType.EXCEPTION, msg.seqid));
      x.write(p);
      p.writeMessageEnd();
    } catch (TException e) {
      throw new IllegalStateException(e); // writing to memory does not fail
    }
    ByteBuf out = PooledByteBufAllocator.DEFAULT.heapBuffer(b.length() + 4);
    if (framed) {
      out.writeInt(b.length());
    }
    return out.writeBytes(b.getArray(), 0, b.length());
  }
}
